"""The console's rulings on the irregularities the dealer reports (SPEC section 13): what each case changes in the
hand, and the :class:`~studpoker.console.irregularities.Ruling` said for it.

:class:`~studpoker.console.session.DealerSession` keeps the table and the journal; it hands a report to
:func:`rule`, which checks that the report fits the hand, applies the ruling to the session and journals it. The
functions here take the session as their first argument and hold no state of their own (a session rebuilt from its
journal, as :meth:`~studpoker.console.session.DealerSession.undo` does, rules again the same way). A report that does
not fit raises :class:`~studpoker.console.sign.ConsoleError` before anything changes.

>>> from studpoker.console import DealerSession, Sign
>>> session = DealerSession(Sign.of("stud", small_bet=10, big_bet=20, ante=1, bring_in=3))
>>> _ = session.buy_in(1, "Ann", 200); _ = session.buy_in(2, "Bob", 200)
>>> _ = session.start_hand()
>>> rule(session, "premature card", None, "Ah")  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
studpoker.console.sign.ConsoleError: a card is premature only while a betting round is on (now: deal seat 1 ...)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Card, parse_card
from ..engine import ActionKind, HandState, Phase
from ..engine.errors import EngineError
from ..engine.events import ActionTaken, CardDealt, CommunityCard, StreetStarted
from .irregularities import CASES, FACE_UP_RULE, Ruling
from .journal import Entry
from .records import Step, street_name
from .sign import ConsoleError

if TYPE_CHECKING:  # pragma: no cover - the session imports this module
    from .session import DealerSession

__all__ = ["rule"]


def rule(session: DealerSession, case: str, seat: int | None, card: Card | str | None) -> Step:
    """Rule on a reported irregularity (see :meth:`DealerSession.irregularity
    <studpoker.console.session.DealerSession.irregularity>`)."""
    known = CASES.get(case) if isinstance(case, str) else None
    if known is None:
        raise ConsoleError(f"unknown irregularity {case!r}: the cases are {', '.join(CASES)}")
    if known.seat != (seat is not None):
        raise ConsoleError(f"a {case} {'names' if known.seat else 'names no'} seat")
    if known.card != (card is not None):
        raise ConsoleError(f"a {case} {'names' if known.card else 'names no'} card")
    if case == "dead hand at showdown":
        assert seat is not None
        return _dead_at_showdown(session, seat, known.rule)
    hand = session._hand_or_fail(f"no {case} to rule on")
    if seat is not None and (type(seat) is not int or seat not in session._table.players):
        raise ConsoleError(f"seat {seat!r} is not dealt in this hand (seats {list(session._table.players)})")
    parsed: Card | None = None
    if card is not None:
        try:
            parsed = card if isinstance(card, Card) else parse_card(str(card).strip())
        except ValueError as error:
            raise ConsoleError(f"not a card: {error}") from None
    start, said_before = len(hand.events), len(session._said)
    cited = known.rule
    if case in ("misdeal", "exposed hole cards"):
        ruling = _misdeal(session, hand, case, cited)
    elif case == "exposed hole card":
        assert seat is not None and parsed is not None
        ruling = _expose(session, hand, seat, parsed, cited)
    elif case == "seventh card exposed":
        assert seat is not None and parsed is not None
        ruling = _seventh_exposed(session, hand, seat, parsed, cited)
    elif case == "wrong bring-in":
        assert seat is not None
        ruling = _wrong_bring_in(session, hand, seat, cited)
    elif case == "correct bring-in":
        ruling = _correct_bring_in(session, hand, cited)
    elif case == "premature card":
        assert parsed is not None
        ruling = _premature(session, hand, parsed, cited)
    else:
        assert seat is not None
        ruling = _kill(session, hand, case, seat, cited)
    current = session._table.hand
    if current is hand or current is None:  # the same hand (or it just ended): its new lines
        said = session._lines(hand, start)
    else:  # dealt again: the lines of the cards dealt since the report
        said = tuple(session._said[said_before:])
        del session._said[said_before:]
    entry = {"entry": "irregularity", "case": case, "seat": seat, "card": None if parsed is None else str(parsed)}
    return session._record(entry, said, ruling)


def _substantial(hand: HandState) -> str:
    """Why a misdeal can no longer be called, or ``""``: substantial action is two players acting after the
    forced bet on the first street, or any later street (SPEC R13.4, WSOP live action 105)."""
    if hand.street != hand.first_street:
        return f"the hand is on {street_name(hand.street)}: past the first betting round"
    acted = [e for e in hand.events if isinstance(e, ActionTaken)]
    after = [e for e in acted if e.action.kind is not ActionKind.BRING_IN]
    if len(after) >= 2:
        return f"{len(after)} players have acted after the forced bet"
    return ""


def _misdeal(session: DealerSession, hand: HandState, case: str, rule: str) -> Ruling:
    """All cards back, the antes stay, the hand dealt again (the table as the hand was started)."""
    why = _substantial(hand)
    what = "two or more hole cards exposed on the deal" if case == "exposed hole cards" else "a misdeal"
    if why:
        raise ConsoleError(f"{what} cannot be called now: {why} (R13.4: substantial action; the hand is played on)")
    session._table = session._from_checkpoint()._table
    session._table.start_hand(manual=True)
    session._said, session._exposed, session._held, session._seventh_up = [], {}, set(), False
    session._dead, session._pending = set(), []
    return Ruling(
        case,
        what,
        "misdeal: every card comes back, the antes stay in, bets made are returned, and the hand is dealt again",
        rule,
        f"shuffle, cut and deal hand {session._table.hand_number} again: {session.needed()}",
    )


def _expose(session: DealerSession, hand: HandState, seat: int, card: Card, rule: str) -> Ruling:
    """One hole card exposed on the deal: it becomes the player's up card and his next card is dealt down."""
    player = session._table.players.index(seat)
    who = f"seat {seat} ({session._name(seat)})"
    if hand.phase is not Phase.DEAL or hand.street != hand.first_street:
        raise ConsoleError(
            f"a hole card exposed on the deal is reported while {street_name(hand.first_street)} is dealt"
            f" (now: {session.needed()})"
        )
    if seat in session._exposed:
        raise ConsoleError(f"{who} already has a hole card exposed: two exposed is a misdeal ('exposed hole cards')")
    if hand.up_cards(player):
        raise ConsoleError(
            f"{who}'s up card is already dealt: with two cards up, call a misdeal ('exposed hole cards', R13.1)"
        )
    if card not in hand.down_cards(player):
        raise ConsoleError(f"{card} is not one of {who}'s hole cards entered: enter the card exposed")
    _replay_hand(session, {**session._exposed, seat: card})
    return Ruling(
        "exposed hole card",
        f"{who}'s hole card {card} exposed on the deal",
        f"the {card} plays as his up card (he may be the bring-in) and his next card, the door card's place, is"
        " dealt face down",
        rule,
        f"deal on; give {who} his next card face down (the console does not ask for it): {session.needed()}",
    )


def _hand_entries(session: DealerSession) -> tuple[list[Entry], int]:
    """The current hand's entries (those after the checkpoint), and the index of the one its last deal began
    with: its start, or the last misdeal."""
    checkpoint = session._checkpoint
    assert checkpoint is not None  # set by start_hand
    entries = session._journal[checkpoint.entries :]
    restart = max(
        i for i, e in enumerate(entries) if e["entry"] == "start" or e.get("case") in ("misdeal", "exposed hole cards")
    )
    return entries, restart


def _replay_hand(session: DealerSession, exposed: dict[int, Card]) -> None:
    """Deal the current hand again from its entries with ``exposed`` hole cards held back as up cards."""
    entries, restart = _hand_entries(session)
    again = session._from_checkpoint(entries[: restart + 1])
    again._exposed = exposed
    again._deal_exposed()
    for entry in entries[restart + 1 :]:
        if entry.get("case") == "exposed hole card":  # already in ``exposed``
            again._journal.append(entry)
        else:
            again.enter(entry)
    session.__dict__.update(again.__dict__)


def _seventh_exposed(session: DealerSession, hand: HandState, seat: int, card: Card, rule: str) -> Ruling:
    """The last card of a seven-card stud hand, to be dealt down, turned face up by the dealer (reported once it is
    entered, before anyone acts on the last street). By default (SPEC R13.3, TDA RP-10B) it is replaced while
    betting remains (:func:`_replace_seventh`), and plays face up when no betting remains (every player but at most
    one all in). The house option ``Sign.seventh_card == "face up"`` is the room practice: :func:`_face_up`."""
    who = f"seat {seat} ({session._name(seat)})"
    player = session._table.players.index(seat)
    if hand.last_street == hand.first_street + 3 or hand.street != hand.last_street:  # five-card stud: none down
        raise ConsoleError(
            f"the last card exposed is reported on {street_name(hand.last_street)} of seven-card stud, as it is dealt"
            f" (now: {session.needed()})"
        )
    events = hand.events
    began = next(i for i in range(len(events) - 1, -1, -1) if isinstance(events[i], StreetStarted))
    street = events[began:]
    if any(isinstance(e, ActionTaken) for e in street):
        raise ConsoleError("the last card exposed is reported before anyone acts on the last street")
    if any(isinstance(e, CommunityCard) for e in street):
        raise ConsoleError("the last card is the community card, dealt face up for all: nothing to rule on")
    dealt = [e for e in street if isinstance(e, CardDealt)]
    mine = [e for e in dealt if e.player == player]
    if not mine:
        raise ConsoleError(f"{who} has not been dealt his last card yet: deal it, then report it")
    if mine[0].card != card:
        shown = "entered as unknown ('??')" if mine[0].card is None else str(mine[0].card)
        raise ConsoleError(f"{who}'s last card is {shown}, not {card}: undo it and enter the card as it shows")
    what = f"{who}'s last card {card} dealt face up"
    if session.sign.seventh_card == "face up":
        return _face_up(session, hand, dealt[0].player == player, card, what)
    remaining = hand.phase is Phase.DEAL
    if len(hand.active_players()) < 2:
        others = ", the other players get their last card face down as usual" if remaining else ""
        ruling = (
            f"no betting remains (every player but at most one is all in): the {card} plays face up as dealt{others},"
            " and the hand goes on"
        )
        return Ruling("seventh card exposed", what, ruling, rule, str(session.needed()))
    _replace_seventh(session, hand, seat, card)
    ruling = (
        f"betting remains: the {card} is dead (out of play like a burn card, it is not dealt again in this hand) and"
        f" {who} is dealt the next card face down in its place; the other players get their last card face down as"
        " usual"
    )
    return Ruling("seventh card exposed", what, ruling, rule, f"deal {who} his card face down: {session.needed()}")


def _replace_seventh(session: DealerSession, hand: HandState, seat: int, card: Card) -> None:
    """Take ``seat``'s last card ``card`` out of play (dead, with any replaced before) and ask for his replacement:
    the hand is dealt again from its entries up to its last street, then the last cards as they are now except his,
    those after his turn held back (``_pending``) until his replacement is dealt."""
    players = session._table.players
    events = hand.events
    began = next(i for i in range(len(events) - 1, -1, -1) if isinstance(events[i], StreetStarted))
    cards = [(players[e.player], e.card) for e in events[began:] if isinstance(e, CardDealt)]
    cards = [(s, c) for s, c in [*cards, *session._pending] if s != seat]
    checkpoint = session._checkpoint
    assert checkpoint is not None  # set by start_hand
    again = session._from_checkpoint()
    for entry in session._journal[checkpoint.entries :]:
        now = again._table.hand
        if now is not None and entry["entry"] == "card" and now.street == now.last_street and now.phase is Phase.DEAL:
            break  # the last street's cards: dealt below, as they are now
        again.enter(entry)
    for s, c in cards:
        if not again._pending and again.needed().seat == s:
            again.deal(c)
        else:
            again._pending.append((s, c))
    again._dead = session._dead | {card}
    again._journal = list(session._journal)
    session.__dict__.update(again.__dict__)


def _face_up(session: DealerSession, hand: HandState, first: bool, card: Card, what: str) -> Ruling:
    """The house option "face up" (the room practice): the exposed last card plays; the first player's, with others
    still to be dealt, turns the rest face up too; anyone else's leaves the rest face down. The first to act is as
    the board was before (the engine reads the four up cards)."""
    if session._seventh_up:
        raise ConsoleError("the last cards are already being dealt face up")
    remaining = hand.phase is Phase.DEAL
    if first and remaining:
        session._seventh_up = True
        ruling = (
            f"the {card} plays; every other player still to be dealt gets his last card face up too (enter each as"
            " it shows), and the first to act is who was high on the board before the last cards"
        )
    elif remaining:
        ruling = (
            f"the {card} plays face up; the other players still to be dealt get their last card face down as usual,"
            " and the first to act is who was high on the board before the last cards"
        )
    else:
        ruling = f"the {card} plays face up; the betting goes on as usual"
    return Ruling("seventh card exposed", what, ruling, FACE_UP_RULE, str(session.needed()))


def _dead_at_showdown(session: DealerSession, seat: int, rule: str) -> Step:
    """A hand found foul at the showdown (the wrong number of cards): dead, it cannot win; the pots go to the best
    live hands. Reported while the showdown waits for cards to be shown (reveal), or right after the hand ended at
    a showdown (before anything else is entered). The hand is dealt again from its entries with the hands shown
    one by one at the showdown, the dead one mucked."""
    table, checkpoint = session._table, session._checkpoint
    hand = table.hand
    if hand is not None:
        if hand.phase is not Phase.REVEAL:
            raise ConsoleError(
                f"a dead hand at the showdown is reported at the showdown (now: {session.needed()}); before it,"
                " report 'dead hand' at his turn"
            )
        seats, state = table.players, hand
    else:
        last = session._journal[-1] if session._journal else None
        ended = last is not None and (last["entry"] in ("action", "card", "reveal") or _is_dead_report(last))
        if checkpoint is None or not table.hands or not ended:
            raise ConsoleError("a dead hand at the showdown is reported at the showdown or right after it")
        played = table.hands[-1]
        seats, state = played.seats, played.state
    if type(seat) is not int or seat not in seats:
        raise ConsoleError(f"seat {seat!r} was not dealt in this hand (seats {list(seats)})")
    player = seats.index(seat)
    who = f"seat {seat} ({session._name(seat)})"
    assert checkpoint is not None
    if any(_is_dead_report(e) and e["seat"] == seat for e in session._journal[checkpoint.entries :]):
        raise ConsoleError(f"{who}'s hand is already dead")
    live = state.live_players()
    if player not in live or not any(isinstance(e, ActionTaken) for e in state.events):
        raise ConsoleError(f"{who} is not in the showdown")
    if len(live) < 2:
        raise ConsoleError(f"{who} won without a showdown: there is no showdown to rule on")
    before = list(session._said)
    again = _replay_showdown(session, seat)
    session.__dict__.update(again.__dict__)
    now = session._table.hand
    said = tuple(line for line in session._said if line not in before)
    winners = "the pots go to the best live hands" if len(live) > 2 else "the other player wins the pot uncontested"
    ruling = Ruling(
        "dead hand at showdown",
        f"{who}'s hand is found foul at the showdown (the wrong number of cards)",
        f"his hand is dead: it cannot win, his chips stay in the pot, and {winners}",
        rule,
        str(session.needed()) if now is not None else f"push the pots again: {session.needed()}",
    )
    entry = {"entry": "irregularity", "case": "dead hand at showdown", "seat": seat, "card": None}
    session._journal.append(entry)  # its lines are in the hand's lines already, dealt again
    return Step(dict(entry), said, ruling)


def _replay_showdown(session: DealerSession, seat: int) -> DealerSession:
    """The current (or just finished) hand dealt again from its entries with the dead hands (``seat``'s and any
    reported before) declared to the engine as it starts (``HandState.declare_dead``): they are mucked as the
    showdown begins, before any hand is shown, an all-in's showdown included."""
    checkpoint = session._checkpoint
    assert checkpoint is not None
    entries = session._journal[checkpoint.entries :]
    dead = {seat} | {e["seat"] for e in entries if e.get("case") == "dead hand at showdown"}
    again = session._from_checkpoint()
    for entry in entries:
        hand = again._table.hand
        if _is_dead_report(entry) or (entry["entry"] == "reveal" and (hand is None or entry["seat"] in dead)):
            again._journal.append(entry)  # ruled here, or his cards do not play, or the pots are awarded
            continue
        again.enter(entry)
        if entry["entry"] == "start":
            started = again._table.hand
            assert started is not None
            for dead_seat in sorted(dead):
                started.declare_dead(again._table.players.index(dead_seat))
    return again


def _is_dead_report(entry: Entry) -> bool:
    """A 'dead hand at showdown' entry."""
    return entry.get("case") == "dead hand at showdown"


def _wrong_bring_in(session: DealerSession, hand: HandState, seat: int, rule: str) -> Ruling:
    """The wrong player posted the bring-in (the engine's ``misdesignate_bring_in``): it can be corrected until
    the next player acts, then it stands."""
    true_seat = session._table.actor_seat
    try:
        hand.misdesignate_bring_in(session._table.players.index(seat))
    except EngineError as error:
        raise ConsoleError(f"a wrong bring-in by seat {seat}: {session._in_seats(str(error))}") from None
    who = f"seat {seat} ({session._name(seat)})"
    return Ruling(
        "wrong bring-in",
        f"{who} brought in by mistake; seat {true_seat} ({session._name(true_seat or 0)}) has the low card",
        f"if the next player has not acted, {who} takes his chips back and seat {true_seat} must bring in or"
        " complete ('correct bring-in'); once the next player acts, the wrong bring-in stands and seat"
        f" {true_seat} owes nothing",
        rule,
        f"correct it now, or play on: {session.needed()}",
    )


def _correct_bring_in(session: DealerSession, hand: HandState, rule: str) -> Ruling:
    """Take back a wrong bring-in, the next player not having acted (the engine's ``correct_bring_in``)."""
    try:
        hand.correct_bring_in()
    except EngineError as error:
        raise ConsoleError(
            f"the bring-in cannot be corrected: {error} (R13.2: the wrong bring-in stands, the true low card owes"
            " nothing)"
        ) from None
    wanted = session.needed()
    return Ruling(
        "correct bring-in",
        "the wrong bring-in corrected before the next player acted",
        f"the chips go back to the player who posted them; seat {wanted.seat} ({wanted.name}), the low card,"
        " must bring in or complete",
        rule,
        str(wanted),
    )


def _premature(session: DealerSession, hand: HandState, card: Card, rule: str) -> Ruling:
    """A card dealt before the betting round was over: it does not play (the console never took it)."""
    wanted = session.needed()
    if wanted.kind != "action" or hand.phase is not Phase.BET:
        raise ConsoleError(f"a card is premature only while a betting round is on (now: {wanted})")
    holder = session._holder(hand, card)
    if holder is not None:
        raise ConsoleError(f"{card} is already dealt ({holder}) in this hand: it cannot have been dealt early")
    return Ruling(
        "premature card",
        f"{card} dealt before the betting on {street_name(hand.street)} was over",
        f"the {card} does not play: it goes back into the stub, which is shuffled and cut, and the next street"
        " is dealt without another burn card; do not enter it",
        rule,
        f"finish the betting round: {wanted}",
    )


def _kill(session: DealerSession, hand: HandState, case: str, seat: int, rule: str) -> Ruling:
    """Kill ``seat``'s hand (absent, or the wrong number of cards): folded at his turn, his chips in the pot
    stay there. The engine folds a hand only in turn, so the report is taken when it is his turn."""
    who = f"seat {seat} ({session._name(seat)})"
    what = f"{who} is not at his seat" if case == "absent player" else f"{who} has the wrong number of cards"
    if hand.phase is Phase.REVEAL and case == "dead hand":
        raise ConsoleError(f"{what}: at the showdown, report 'dead hand at showdown'")
    if session._table.actor_seat != seat:
        raise ConsoleError(
            f"{what}: report it when the action is on him, his hand is killed then (now: {session.needed()})"
        )
    legal = hand.legal_actions()
    kill = next((a for a in legal if a.kind in (ActionKind.FOLD, ActionKind.MUCK)), None)
    if kill is None:
        raise ConsoleError(
            f"{what}: he must post the bring-in he was dealt (his chips play), then his hand is killed at his next turn"
        )
    session._table.act(kill)
    wanted = session.needed()
    return Ruling(
        case,
        what,
        "his hand is dead: his cards go to the muck and the chips he has put in stay in the pot",
        rule,
        str(wanted) if wanted.kind != "start" else f"the hand is over ({wanted})",
    )
