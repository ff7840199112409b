"""Pure text for the terminal game: a :class:`~studpoker.engine.View` (what one seat may know) turned into
lines of plain text for the seats, the pot, the action buttons, the hand log and the showdown.

Nothing here imports Textual or touches a :class:`~studpoker.table.Table`: every function takes values and
returns strings, so the screen's content is unit-testable and can never show more than the view holds.

>>> from studpoker.engine import Action
>>> [action_label(a, cost) for a, cost in ((Action.complete(10), 7), (Action.call(10), 7), (Action.fold(), 0))]
['Complete to 10', 'Call 7', 'Fold']
>>> action_keys([Action.fold(), Action.call(10), Action.raise_to(20)])
['f', 'c', 'r']
>>> street_name(4), street_name(2)
('4th street', '2nd street')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rich.cells import cell_len

from ..cards import Card
from ..engine import Action, ActionKind, Phase, Pot, Variant, View, action_words
from ..engine.dealer import FirstToAct, first_actors, first_to_act_of
from ..engine.events import (
    ActionTaken,
    AntePosted,
    Awarded,
    CardDealt,
    CommunityCard,
    Event,
    HandEnded,
    Mucked,
    Reshuffled,
    Returned,
    Shown,
    StreetStarted,
)
from ..engine.pots import current_pots
from ..engine.words import best_five, describe_hand

__all__ = [
    "HIDDEN",
    "YOU",
    "SeatInfo",
    "action_keys",
    "action_label",
    "bring_in_player",
    "button_label",
    "card_spans",
    "card_text",
    "cards_text",
    "describe_hand",
    "door_cards",
    "first_to_act_text",
    "game_title",
    "log_lines",
    "pot_text",
    "pots_of",
    "result_lines",
    "screen_size",
    "seat_rows",
    "showdown_lines",
    "shown_hands",
    "status_lines",
    "street_name",
    "winning_cards",
    "winnings",
]

#: How a face-down card the viewer may not see is drawn.
HIDDEN = "##"

_VARIANT_NAMES = {
    Variant.STUD7: "Seven-card stud",
    Variant.STUD7_HL8: "Seven-card stud hi/lo (eight or better)",
    Variant.STUD5: "Five-card stud",
    Variant.RAZZ: "Razz",
}

#: The name that takes the verbs without an s ("You call 10").
YOU = "You"


def _says(name: str, verb: str) -> str:
    """``Bob calls 10``, ``You call 10``: the verb (its first word) agreeing with the name."""
    if name != YOU:
        head, sep, rest = verb.partition(" ")
        verb = {"is": "is", "has": "has"}.get(head, head + "s") + sep + rest
    elif verb.startswith("is "):
        verb = "are " + verb[3:]
    return f"{name} {verb}"


def card_text(card: Card | None, symbols: bool = True) -> str:
    """One card (``K♠``, or ``Ks`` without symbols); :data:`HIDDEN` for a card the viewer may not see."""
    if card is None:
        return HIDDEN
    return card.symbol if symbols else str(card)


def cards_text(cards: Iterable[Card | None], symbols: bool = True) -> str:
    return " ".join(card_text(c, symbols) for c in cards)


def street_name(street: int) -> str:
    """``3rd street``, ``4th street``... (five-card stud counts from 2nd street)."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(street, "th")
    return f"{street}{suffix} street"


def game_title(variant: Variant, small_bet: int, big_bet: int, ante: int, bring_in: int, preset: str) -> str:
    """The table sign in one line."""
    return f"{_VARIANT_NAMES[variant]} {small_bet}/{big_bet}, ante {ante}, bring-in {bring_in} ({preset})"


# -- actions -------------------------------------------------------------------------------------------


def action_label(action: Action, cost: int) -> str:
    """The button text of a legal action that puts ``cost`` chips in (``View.cost``): ``Bring in 3``, ``Complete to
    10``, ``Call 7`` (what calling costs), ``Raise to 20``... (:func:`~studpoker.engine.action_words`)."""
    text = action_words(action, cost)
    return text[:1].upper() + text[1:]


def action_keys(actions: Sequence[Action]) -> list[str]:
    """The letter shortcut of each legal action, in order (``""`` when it has only its digit).

    ``f`` fold, ``c`` check or call, ``b`` the smallest wager (bring-in, bet or completion), ``r`` the next
    one (a raise, the completion after a bring-in, the big bet under the open-pair option), ``s`` show,
    ``m`` muck. Every action also has its position's digit (1 for the first button).
    """
    keys: list[str] = []
    used: set[str] = set()
    for action in actions:
        kind = action.kind
        if kind is ActionKind.FOLD:
            wanted = ["f"]
        elif kind in (ActionKind.CHECK, ActionKind.CALL):
            wanted = ["c"]
        elif kind in (ActionKind.BRING_IN, ActionKind.BET, ActionKind.COMPLETE):
            wanted = ["b", "r"]
        elif kind is ActionKind.RAISE:
            wanted = ["r"]
        elif kind is ActionKind.SHOW:
            wanted = ["s"]
        else:
            wanted = ["m"]
        key = next((k for k in wanted if k not in used), "")
        used.add(key)
        keys.append(key)
    return keys


def button_label(action: Action, cost: int, position: int, key: str) -> str:
    """``1 Fold (f)``: the digit, the action (:func:`action_label`) and its letter (no square brackets: Textual
    reads them as markup)."""
    letter = f" ({key})" if key else ""
    return f"{position} {action_label(action, cost)}{letter}"


# -- the table ---------------------------------------------------------------------------------------------


def bring_in_player(view: View) -> int | None:
    """The player forced to open the first street (the low door card; razz: the high one), or ``None``."""
    first = 2 if view.variant is Variant.STUD5 else 3
    for event in view.events:
        if isinstance(event, ActionTaken):
            if event.street == first and event.action.kind in (ActionKind.BRING_IN, ActionKind.COMPLETE):
                return event.player
            return None
    if view.street == first and any(a.kind is ActionKind.BRING_IN for a in view.legal_actions):
        return view.actor
    return None


def door_cards(view: View) -> dict[int, Card]:
    """Each player's first up card."""
    return {p.player: c for p in view.players if p.up and (c := p.up[0]) is not None}


def _mucked(view: View) -> set[int]:
    return {e.player for e in view.events if isinstance(e, Mucked)}


def pots_of(view: View) -> list[Pot]:
    """Main and side pots from the public contributions, as ``HandState.pots`` makes them: a side pot only
    behind an all-in player; folded and mucked hands are not eligible."""
    mucked = _mucked(view)
    totals = [p.total for p in view.players]
    live = [not p.folded and p.player not in mucked for p in view.players]
    return current_pots(totals, live, [p.all_in for p in view.players], view.phase is Phase.OVER)


def pot_text(view: View) -> str:
    """``Pot 57`` or ``Pot 120: main 90, side pot 1 30``."""
    pots = [p for p in pots_of(view) if p.amount and len(p.eligible) > 1]  # one contender: an uncalled bet
    if view.phase is Phase.OVER:
        return "Pot awarded"
    if len(pots) <= 1:
        return f"Pot {view.pot}"
    parts = ["main " + str(pots[0].amount)] + [f"side pot {i} {p.amount}" for i, p in enumerate(pots[1:], 1)]
    return f"Pot {view.pot}: " + ", ".join(parts)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """What a seat panel shows: the table's seat data plus, if the seat is dealt in, its player's view."""

    number: int
    name: str
    stack: int
    tag: str = ""
    you: bool = False
    sitting_out: bool = False
    queued: int = 0
    player: int | None = None
    bet: int = 0
    folded: bool = False
    all_in: bool = False
    up: tuple[Card | None, ...] = ()
    down: tuple[Card | None, ...] = ()
    to_act: bool = False
    bring_in: bool = False
    winnings: int = 0
    words: str = ""  # the hand in words, once it is shown
    best: tuple[Card, ...] = ()  # the cards that won a pot at the showdown (marked on the screen)


def _marks(seat: SeatInfo) -> list[str]:
    marks = []
    if seat.to_act:
        marks.append(">> TO ACT")
    if seat.bring_in:
        marks.append("BRING-IN")
    if seat.folded:
        marks.append("folded")
    if seat.all_in:
        marks.append("ALL-IN")
    if seat.winnings:
        marks.append(f"won {seat.winnings}")
    if seat.sitting_out:
        marks.append("sitting out")
    elif seat.stack == 0 and not seat.queued and not seat.all_in:
        marks.append("busted")
    return marks


def _pad(text: str, width: int) -> str:
    return text + " " * (width - cell_len(text))


def _seat_cells(seat: SeatInfo, symbols: bool, tags: bool, digits: int) -> list[str]:
    """A seat's columns: seat and name, stack, bet (and queued chips), down cards, up cards, markers."""
    who = f"{seat.number:>{digits}} {seat.name}"
    if seat.you:
        who += " (you)"
    elif tags and seat.tag:
        who += f" · {seat.tag}"
    bet = " ".join(([f"Bet {seat.bet}"] if seat.bet else []) + ([f"+{seat.queued} queued"] if seat.queued else []))
    dealt = seat.player is not None and bool(seat.down or seat.up)
    down = (cards_text(seat.down, symbols) or "-") if dealt else ""
    up = (cards_text(seat.up, symbols) or "-") if dealt else ""
    return [who, str(seat.stack), bet, down, up, " · ".join(_marks(seat))]


def _rows(seats: Sequence[SeatInfo], symbols: bool, tags: bool, labels: bool) -> tuple[list[str], list[int]]:
    """Each seat's row without its words, the columns aligned; and where each row's cards begin."""
    digits = max((len(str(seat.number)) for seat in seats), default=1)
    cells = [_seat_cells(seat, symbols, tags, digits) for seat in seats]
    widths = [max((cell_len(row[c]) for row in cells), default=0) for c in range(5)]
    widths[0] = min(widths[0], 26)  # a long name pushes its own row only
    blank = " " * ((len("Down   Up ") if labels else len(" │ ")) + widths[3] + widths[4])
    rows, offsets = [], []
    for who, stack, bet, down, up, marks in cells:
        head = "  ".join(
            [_pad(who, widths[0]), ("Stack " if labels else "") + stack.rjust(widths[1])]
            + ([_pad(bet, widths[2])] if widths[2] else [])  # no bet column while nobody has a bet
        )
        if not (down or up):  # not dealt in (nobody is, before the first hand)
            cards = blank if marks and (widths[3] or widths[4]) else ""
        elif labels:
            cards = f"Down {_pad(down, widths[3])}  Up {_pad(up, widths[4])}"
        else:
            cards = f"{_pad(down, widths[3])} │ {_pad(up, widths[4])}"
        rows.append("  ".join(part for part in (head, cards, marks) if part).rstrip())
        offsets.append(cell_len(head) + 2)
    return rows, offsets


def seat_rows(seats: Sequence[SeatInfo], width: int = 0, symbols: bool = True) -> list[list[str]]:
    """Every seat as a row of aligned columns: seat number and name, stack, bet, down cards, up cards (the door
    card first), markers; after a showdown, the hand in words at the end of the row, or on a line of its own
    under the cards when the row has no room for it. So that the rows fit in ``width`` (0: any width) on as few
    lines as can be, the bots' tags go first, then the words ``Stack``, ``Down`` and ``Up`` (the cards are then
    ``down │ up``); a card, a name or a marker is never left out (a row too long even so wraps on the screen).

    >>> from studpoker.cards import parse_cards
    >>> a, b, c = parse_cards("Ks Qd 7h")
    >>> you = SeatInfo(1, "You", 196, you=True, player=0, bet=3, down=(a, b), up=(c,), to_act=True)
    >>> bob = SeatInfo(2, "Bob", 199, tag="random", player=1, down=(None, None), up=(c,), bring_in=True)
    >>> for lines in seat_rows([you, bob]):
    ...     print(lines[0])
    1 You (you)     Stack 196  Bet 3  Down K♠ Q♦  Up 7♥  >> TO ACT
    2 Bob · random  Stack 199         Down ## ##  Up 7♥  BRING-IN
    >>> for lines in seat_rows([you, bob], width=40):
    ...     print(lines[0])
    1 You (you)  196  Bet 3  K♠ Q♦ │ 7♥  >> TO ACT
    2 Bob        199         ## ## │ 7♥  BRING-IN
    """
    levels = [(True, True), (False, True), (False, False)]
    if not any(seat.tag and not seat.you for seat in seats):
        levels = levels[1:]
    laid = [_rows(seats, symbols, tags, labels) for tags, labels in levels]
    fitting = [level for level in laid if all(_fits(row, "", width) for row in level[0])] or laid[-1:]
    # the fewest screen lines (a seat whose words have no room on its row takes two), then the most told
    rows, offsets = min(fitting, key=lambda level: sum(_two_lines(level[0], seats, width)))
    out = []
    for seat, row, offset in zip(seats, rows, offsets, strict=True):
        if not seat.words:
            out.append([row])
        elif _fits(row, seat.words, width):
            out.append([f"{row}  {seat.words}"])
        else:
            indent = offset if offset + cell_len(seat.words) <= width else 2
            out.append([row, " " * indent + seat.words])
    return out


def _fits(row: str, words: str, width: int) -> bool:
    return not width or cell_len(row) + (2 + cell_len(words) if words else 0) <= width


def _two_lines(rows: list[str], seats: Sequence[SeatInfo], width: int) -> list[bool]:
    """Which seats take two lines: their words have no room on their row."""
    return [not _fits(row, seat.words, width) for row, seat in zip(rows, seats, strict=True)]


def screen_size(players: int) -> tuple[int, int]:
    """The smallest terminal (columns, rows) on which ``stud play`` shows every seat of ``players``, a showdown
    with each hand in words under its seat's row, and a few lines of the log: 80 columns and two rows a player
    plus eight (the title, the table and the log, the buttons, the key line). 80x24 holds eight players."""
    return 80, 2 * players + 8


def status_lines(view: View | None, names: Sequence[str], hand_number: int, symbols: bool = True) -> list[str]:
    """The centre of the table during a hand: the hand and street, the pot and side pots, whose turn, the
    bring-in and the door cards; after it, one line (the seats show the cards, :func:`result_lines` the winners).
    ``view`` is ``None`` before the first hand."""
    if view is None:
        return ["No hand yet: press n (Deal) to deal the first hand."]
    if view.phase is Phase.OVER:  # the cards are on the seats, the bring-in and the door cards in the log
        return [f"Hand #{hand_number} is over"]
    lines = [f"Hand #{hand_number} · {street_name(view.street)} · {pot_text(view)}"]
    if view.actor is not None:
        call = next((a for a in view.legal_actions if a.kind is ActionKind.CALL), None)
        due = view.cost(call) if call is not None else 0  # what calling costs the player to act, as his button says
        lines.append(f"{names[view.actor]} to act" + (f" · {due} to call" if due else ""))
        if _opening_decision(view):
            facts = first_to_act_of(view)
            if facts is not None:
                lines.append(first_to_act_text(facts, names))
    brought = bring_in_player(view)
    if brought is not None:
        lines.append(f"Bring-in: {names[brought]}")
    doors = door_cards(view)
    if doors:
        lines.append("Door cards: " + ", ".join(f"{names[p]} {card_text(c, symbols)}" for p, c in doors.items()))
    if view.community is not None:
        lines.append(f"Community card: {card_text(view.community, symbols)}")
    return lines


def _opening_decision(view: View) -> bool:
    """Whether the player to act makes the first decision of a street that the boards open (every street after
    the first; five-card stud's first when the high card opens, with no bring-in)."""
    if view.phase is not Phase.BET:
        return False
    for event in reversed(view.events):
        if isinstance(event, ActionTaken):
            return False
        if isinstance(event, StreetStarted):
            break
    first = 2 if view.variant is Variant.STUD5 else 3
    return view.street != first or not any(a.kind is ActionKind.BRING_IN for a in view.legal_actions)


def first_to_act_text(facts: FirstToAct, names: Sequence[str]) -> str:
    """Who is high (razz: low) on board and acts first, as the dealer says it: ``Bob is high with a pair of kings
    showing and acts first``, ``You are low with 7-4-2 low showing and act first``, ``Ann is high with three nines
    showing, all in; Bob acts first``."""
    actor = names[facts.actor]
    acts = "act first" if actor == YOU else "acts first"
    if facts.high is None:
        return f"{actor} {acts}"
    board = f"is {facts.side} with {facts.board} showing"
    if facts.high == facts.actor:
        return _says(actor, board) + f" and {acts}"
    return _says(names[facts.high], board) + f", all in; {actor} {acts}"


# -- the log and the showdown ------------------------------------------------------------------------------


def _pot_name(pot: int) -> str:
    return "the main pot" if pot == 0 else f"side pot {pot}"


def _award_text(event: Awarded, names: Sequence[str]) -> str:
    share = {"high": " (high)", "low": " (low)", "split": " (split high and low)"}.get(event.share, "")
    return _says(names[event.player], f"win {event.amount} from {_pot_name(event.pot)}{share}")


def _shown_cards(event: Shown, community: Card | None) -> tuple[Card | None, ...]:
    return event.cards + ((community,) if community is not None else ())


def log_lines(
    events: Sequence[Event], names: Sequence[str], variant: Variant, symbols: bool = True, *, bring_in: bool = True
) -> list[str]:
    """The hand log in words, one line per event (the cards of a street and the antes grouped), with who is high
    on board and acts first before each street's first action (``bring_in=False``: five-card stud's first street
    too, the high card opening it). A call says what it cost (``Bob calls 7``).

    Cards the viewer may not see are ``None`` in a view's events and appear as :data:`HIDDEN`.
    """
    lines: list[str] = []
    openers = first_actors(events, variant, bring_in=bring_in)
    community: Card | None = None
    dealt: dict[int, tuple[list[str], list[str]]] = {}
    antes: list[AntePosted] = []

    def flush() -> None:
        for player, (down, up) in dealt.items():
            parts = ([f"[{' '.join(down)}]"] if down else []) + up
            lines.append(f"  {names[player]}: {' '.join(parts)}")
        dealt.clear()
        if antes:
            amounts = {a.amount for a in antes}
            if len(amounts) == 1 and not any(a.all_in for a in antes):
                lines.append(f"Antes: {antes[0].amount} from each of {len(antes)} players")
            else:
                lines.append(
                    "Antes: "
                    + ", ".join(f"{names[a.player]} {a.amount}" + (" (all-in)" if a.all_in else "") for a in antes)
                )
            antes.clear()

    for index, event in enumerate(events):
        if isinstance(event, CardDealt):
            if antes:
                flush()
            down, up = dealt.setdefault(event.player, ([], []))
            (up if event.face_up else down).append(card_text(event.card, symbols))
            continue
        if isinstance(event, AntePosted):
            antes.append(event)
            continue
        flush()
        if isinstance(event, StreetStarted):
            lines.append(f"*** {street_name(event.street)} ***")
        elif isinstance(event, ActionTaken):
            if index in openers:
                lines.append(first_to_act_text(openers[index], names))
            line = _says(names[event.player], action_words(event.action, event.added))  # "call 7", "raise to 20"
            if event.all_in:
                line += " and " + ("are" if names[event.player] == YOU else "is") + " all-in"
            lines.append(line)
        elif isinstance(event, Returned):
            lines.append(f"Uncalled {event.amount} returned to {names[event.player]}")
        elif isinstance(event, Shown):
            cards = _shown_cards(event, community)
            words = describe_hand(cards, variant)
            shows = _says(names[event.player], f"show {cards_text(event.cards, symbols)}")
            lines.append(shows + (f": {words}" if words else ""))
        elif isinstance(event, Mucked):
            lines.append(_says(names[event.player], "muck"))
        elif isinstance(event, Awarded):
            lines.append(_award_text(event, names))
        elif isinstance(event, CommunityCard):
            community = event.card
            lines.append(f"Short deck: community card {card_text(event.card, symbols)}")
        elif isinstance(event, Reshuffled):
            lines.append(f"Short deck: the stub and the burn cards are scrambled ({event.cards} cards)")
        elif isinstance(event, HandEnded):
            lines.append("Hand over")
        # Burned: nothing to show (a burn card is never seen)
    flush()
    return lines


def _community(view: View) -> Card | None:
    return next((e.card for e in view.events if isinstance(e, CommunityCard)), None)


def shown_hands(view: View) -> dict[int, str]:
    """Each player who showed, and the shown hand in words (both halves in stud hi/lo)."""
    community = _community(view)
    return {
        e.player: describe_hand(_shown_cards(e, community), view.variant) for e in view.events if isinstance(e, Shown)
    }


def result_lines(view: View, names: Sequence[str]) -> list[str]:
    """Who won the hand: the winner (stud hi/lo: the high and the low winners; ``wins uncontested`` without a
    showdown) and the chips each won from each pot. Empty until the pot is awarded."""
    awards = [e for e in view.events if isinstance(e, Awarded)]
    if not awards:
        return []
    high: list[str] = []
    low: list[str] = []
    razz = view.variant is Variant.RAZZ
    for award in awards:
        name = names[award.player]
        if (award.share in ("low", "split") or (award.share == "pot" and razz)) and name not in low:
            low.append(name)
        if (award.share in ("high", "split") or (award.share == "pot" and not razz)) and name not in high:
            high.append(name)
    if not any(isinstance(e, Shown) for e in view.events):
        lines = [_says(" and ".join(high or low), "win uncontested")]
    elif razz:
        lines = [f"Winner: {' and '.join(low)}"]
    elif view.variant is Variant.STUD7_HL8:
        lines = [f"High: {' and '.join(high)} · Low: {' and '.join(low) if low else 'no qualifying low'}"]
    else:
        lines = [f"Winner: {' and '.join(high)}"]
    return lines + [_award_text(a, names) for a in awards]


def showdown_lines(view: View, names: Sequence[str], symbols: bool = True) -> list[str]:
    """The end of a hand: every shown hand with its cards and in words, then :func:`result_lines`."""
    community = _community(view)
    shown = [e for e in view.events if isinstance(e, Shown)]
    lines: list[str] = []
    if shown:
        lines.append("Showdown")
        for event in shown:
            words = describe_hand(_shown_cards(event, community), view.variant)
            lines.append(
                f"  {names[event.player]}: {cards_text(event.cards, symbols)}" + (f" - {words}" if words else "")
            )
    return lines + result_lines(view, names)


def winning_cards(view: View) -> dict[int, tuple[Card, ...]]:
    """The five cards that won, for each player awarded a pot at a showdown: his high five for a high share (razz:
    his low), his eight-or-better low for a low share, both for a split (:func:`~studpoker.engine.best_five`,
    a community card included). Empty without a showdown (a hand won uncontested is never shown)."""
    community = _community(view)
    shown = {e.player: _shown_cards(e, community) for e in view.events if isinstance(e, Shown)}
    out: dict[int, tuple[Card, ...]] = {}
    for event in view.events:
        if not isinstance(event, Awarded) or event.player not in shown:
            continue
        high, low = best_five(shown[event.player], view.variant)
        cards = {"high": high, "low": low, "split": high + low}.get(event.share, high)  # "pot": the whole hand
        marked = list(out.get(event.player, ()))
        marked += [c for c in dict.fromkeys(cards) if c not in marked]
        out[event.player] = tuple(marked)
    return out


def card_spans(line: str, start: int, cards: Iterable[Card], symbols: bool = True) -> list[tuple[int, int]]:
    """Where each of ``cards`` is written in a seat's ``line`` at or after ``start`` (past the seat's name): the
    ``(begin, end)`` of each card's text standing alone, for the screen to mark them."""
    spans = []
    for card in cards:
        text = card_text(card, symbols)
        at = start
        while (at := line.find(text, at)) >= 0:
            end = at + len(text)
            if (at == 0 or line[at - 1] == " ") and (end == len(line) or line[end] == " "):
                spans.append((at, end))
                break
            at = end
    return sorted(spans)


def winnings(view: View) -> Mapping[int, int]:
    """Chips each player won at the end of the hand (from the Awarded events)."""
    out: dict[int, int] = {}
    for event in view.events:
        if isinstance(event, Awarded):
            out[event.player] = out.get(event.player, 0) + event.amount
    return out
