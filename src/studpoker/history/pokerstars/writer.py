"""Records written as PokerStars text: the hands in PokerStars' words, read back by the reader to the same record."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ...cards import Card, Rank
from ...engine import Variant
from ...evaluation import HandCategory, evaluate_high, evaluate_low8, evaluate_razz
from ..model import Bet, Board, Comment, Deal, HandRecord, HistoryAction, ShowMuck
from ..replay import ReplayError, replay
from ..text import write_text
from .account import _account
from .reader import _HandText
from .vocabulary import (
    _CAPPED,
    _COLLECTED,
    _GAME_NAMES,
    _LOOKS_LIKE_ACTION,
    _NO_LOW,
    _ORDINAL,
    _PAIR,
    _SECTION,
    _UNCALLED,
    DEFAULT_DATE,
    PokerStarsError,
    _card_text,
    _is_chat,
    _Money,
    _pot_label,
)

# -- hands in words -------------------------------------------------------------------------------------------

_WORD = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace")
_WORDS = tuple(w + ("es" if w == "Six" else "s") for w in _WORD)
_LOW_CHARS = "23456789TJQKA"


def _high_words(cards: Sequence[Card]) -> str:
    """A high hand as PokerStars words it: ``a pair of Tens``, ``a straight, Ten to Ace``,
    ``a full house, Fives full of Aces``; fewer than five cards by their pairs (``three of a kind, Aces``)."""
    if len(cards) >= 5:
        hand = evaluate_high(cards)
        ranks, category = hand.ranks, hand.category
        if category is HandCategory.STRAIGHT_FLUSH:
            if ranks[0] == Rank.ACE:
                return "a Royal Flush"
            return f"a straight flush, {_WORD[ranks[4]]} to {_WORD[ranks[0]]}"
        if category is HandCategory.FULL_HOUSE:
            return f"a full house, {_WORDS[ranks[0]]} full of {_WORDS[ranks[3]]}"
        if category is HandCategory.FLUSH:
            return f"a flush, {_WORD[ranks[0]]} high"
        if category is HandCategory.STRAIGHT:
            return f"a straight, {_WORD[ranks[4]]} to {_WORD[ranks[0]]}"
        counted = list(ranks)
    else:
        counted = [card.rank for card in cards]
    groups = sorted({r: counted.count(r) for r in counted}.items(), key=lambda kv: (-kv[1], -kv[0]))
    if not groups:
        return "nothing"
    (top, count), rest = groups[0], groups[1:]
    if count == 4:
        return f"four of a kind, {_WORDS[top]}"
    if count == 3:
        return f"three of a kind, {_WORDS[top]}"
    if count == 2 and rest and rest[0][1] == 2:
        return f"two pair, {_WORDS[top]} and {_WORDS[rest[0][0]]}"
    if count == 2:
        return f"a pair of {_WORDS[top]}"
    return f"high card {_WORD[top]}"


def _describe(variant: Variant, cards: Sequence[Card]) -> str:
    """The words after a shown hand: ``a flush, Queen high``; hi/lo ``HI: ...`` and ``; LO: 8,7,5,4,2``
    when there is a low; razz ``Lo: 6,4,3,2,A`` (fewer than five cards: their ranks as shown)."""
    if variant is Variant.RAZZ:
        played = evaluate_razz(cards).cards if len(cards) >= 5 else cards
        return "Lo: " + ",".join(_LOW_CHARS[c.rank] for c in played)
    high = _high_words(cards)
    if variant is not Variant.STUD7_HL8:
        return high
    low = evaluate_low8(cards) if len(cards) >= 5 else None
    return f"HI: {high}" + (f"; LO: {','.join(_LOW_CHARS[c.rank] for c in low.cards)}" if low is not None else "")


# -- writing --------------------------------------------------------------------------------------------------


def dump(records: HandRecord | Iterable[HandRecord], path: str | Path) -> None:
    """Write :func:`dumps` of ``records`` to the file at ``path`` (UTF-8)."""
    write_text(path, dumps(records), PokerStarsError)


def dumps(records: HandRecord | Iterable[HandRecord], first: int = 1) -> str:
    """PokerStars text for one hand or several, separated as PokerStars separates them.

    Each hand is replayed (it must finish: :class:`PokerStarsError` otherwise, or if it cannot be
    written, see the module documentation) to know what each line says: checks and calls, bets,
    raises and completions, all-ins, uncalled bets, the showdown, who collects what. ``first`` is the number of
    the first hand (where one is written apart from the hands before it).
    """
    if isinstance(records, HandRecord):
        records = [records]
    return "\n\n\n".join(_Writer(record, number).text() for number, record in enumerate(records, first))


class _Writer:
    """Writes one hand: the head (header, table, seats, antes), the body, the summary."""

    def __init__(self, record: HandRecord, number: int) -> None:
        self.record = record
        self.number = number
        try:
            self.state = replay(record, f"hand {number}").state
        except ReplayError as error:
            raise PokerStarsError(f"hand {number} cannot be written: {error}") from None
        if not self.state.is_over:
            raise self.fail("the history stops before the hand is over")
        data = record.info.get("pokerstars")
        self.data: Mapping[str, Any] = data if isinstance(data, Mapping) and self.data_fits(data) else {}
        rake = int(self.data["rake"]) if self.data else record.rake
        if not 0 <= rake <= sum(a.amount for a in self.state.awards):
            raise self.fail(f"a rake of {rake} chips is more than the pot")
        self.account = _account(record, self.state, rake)
        self.money = _Money(record.currency, record.chip_value)
        self.names = [record.name(p) for p in range(record.n)]
        self.seats = list(record.seats) if len(record.seats) == record.n else list(range(1, record.n + 1))
        for name in self.names:
            if not name or name != name.strip() or ":" in name or "\n" in name or "\r" in name:
                raise self.fail(f"the name {name!r} cannot be written (empty, spaces around it, a colon, a line break)")
        if len(set(self.names)) != len(self.names):
            raise self.fail("two players have the same name")
        if min(self.seats) < 1 or any(a >= b for a, b in zip(self.seats, self.seats[1:], strict=False)):
            raise self.fail(
                f"seats {self.seats}: PokerStars deals from the lowest seat, so they must increase in position order"
            )
        self.lines: list[str] = []

    def fail(self, message: str) -> PokerStarsError:
        return PokerStarsError(f"hand {self.number} cannot be written: {message}")

    def data_fits(self, data: Mapping[str, Any]) -> bool:
        """PokerStars data kept from a text is used only while it still describes this hand."""
        try:
            n = self.record.n
            total = sum(a.amount for a in self.state.awards)
            return (
                len(data["seat_rest"]) == n
                and all(0 <= int(p) < n for p in data["shown_down"])
                and int(data["total_pot"]) == total
                and 0 <= int(data["rake"]) <= total
                and not {int(s[0]) for s in data["seated_out"]} & set(self.record.seats)
            )
        except (LookupError, TypeError, ValueError):
            return False

    def text(self) -> str:
        self.head()
        self.body()
        self.summary()
        return "\n".join(self.lines) + "\n"

    # -- the head -----------------------------------------------------------------------------------------

    def head(self) -> None:
        record, rules, money, data = self.record, self.state.rules, self.money, self.data
        header = data.get("header")
        if not (isinstance(header, str) and self.header_fits(header)):
            hand = data.get("hand_id") or record.info.get("hand") or self.number
            if not str(hand).isdigit():  # another room's id (``R5-82086688-607``) is no PokerStars hand number
                hand = self.number
            stakes = f"{money(rules.small_bet)}/{money(rules.big_bet)}" + (
                f" {money.currency}" if money.currency else ""
            )
            header = f"PokerStars Hand #{hand}:  {_GAME_NAMES[rules.variant]} Limit ({stakes}) - {self.date()}"
        self.lines.append(header)
        table = data.get("table") or record.info.get("table") or "studpoker"
        seats = data.get("max_seats") or record.info.get("seat_count") or rules.max_seats
        self.lines.append(f"Table '{table}' {seats}-max{data.get('table_rest', '')}")
        rest = data.get("seat_rest") or [""] * record.n
        entries = [(seat, self.names[p], record.starting_stacks[p], str(rest[p])) for p, seat in enumerate(self.seats)]
        entries += [(int(s[0]), str(s[1]), int(s[2]), str(s[3])) for s in data.get("seated_out", [])]
        for seat, name, stack, tail in sorted(entries):
            self.lines.append(f"Seat {seat}: {name} ({money(stack)} in chips){tail}")
        for p, (amount, all_in) in enumerate(self.account.antes):
            self.lines.append(f"{self.names[p]}: posts the ante {money(amount)}" + (" and is all-in" if all_in else ""))

    def header_fits(self, header: str) -> bool:
        """A header kept from the text still names this hand's game and stakes."""
        reader = _HandText([header], 0)
        try:
            reader.parse_header(header)
        except PokerStarsError:
            return False
        rules = self.state.rules
        return (
            reader.variant is rules.variant
            and (reader.small_bet, reader.big_bet) == (rules.small_bet, rules.big_bet)
            and reader.currency == self.record.currency
            and (1 / reader.scale if reader.scale != 1 else 1.0) == self.record.chip_value
        )

    def date(self) -> str:
        text = self.data.get("date")
        if isinstance(text, str):
            return text
        info = self.record.info
        try:
            day = dt.date(int(info["year"]), int(info["month"]), int(info["day"]))
        except (LookupError, TypeError, ValueError):
            return DEFAULT_DATE
        time = info.get("time")
        clock = f"{time.hour}:{time.minute:02d}:{time.second:02d}" if isinstance(time, dt.time) else "0:00:00"
        return f"{day:%Y/%m/%d} {clock} {info.get('time_zone_abbreviation') or 'ET'}"

    # -- the body -----------------------------------------------------------------------------------------

    def body(self) -> None:
        """The streets and the showdown, in the order of the record's actions.

        Derived lines stand where PokerStars puts them: a street header before its first card,
        ``Pair on board`` before the round's first action, ``Betting is capped`` and ``Uncalled bet``
        after the action, ``*** SHOW DOWN ***`` after the last card and action. A pot's ``collected``
        lines come once every player who can win it has shown or mucked (side pots first), after any
        comment that follows, before the next show or muck. Shows and mucks the record makes before
        the last cards (at an all-in) are written in the showdown, the only place PokerStars shows.
        """
        record = self.record
        actions = _first_street_in_seat_order(record.actions)
        ends = max((i for i, a in enumerate(actions) if isinstance(a, (Deal, Board, Bet))), default=-1)
        self.held: list[list[tuple[Card | None, bool]]] = [[] for _ in range(record.n)]
        self.shows: dict[int, tuple[Card, ...]] = {}
        self.street = self.bet_index = 0
        self.pair_pending = False
        self.decided: set[int] = set()
        self.pending: list[int] = []  # pots whose collected lines are due
        self.flushed: set[int] = set()
        shown_down = self.data.get("shown_down")
        if isinstance(shown_down, list):
            self.visible = {int(p) for p in shown_down}
        else:
            self.visible = {p for p in range(record.n) if self.downs_known(p)}
        early: list[ShowMuck] = []
        for i, action in enumerate(actions):
            if isinstance(action, ShowMuck) and i < ends:
                early.append(action)
            elif isinstance(action, Comment):
                if _is_comment(action.text, [*self.names, *(str(s[1]) for s in self.data.get("seated_out", []))]):
                    self.lines.append(action.text)
            else:
                self.step(action)
            if i == ends and self.account.showdown:
                self.lines.append("*** SHOW DOWN ***")
            if i == ends or (ends < 0 and i == len(actions) - 1):
                for decision in early:
                    self.step(decision)
        self.flush(everything=True)

    def downs_known(self, player: int) -> bool:
        """Every down card of ``player`` is known (then our ``Dealt to`` lines show them)."""
        cards = [c for a in self.record.actions if isinstance(a, Deal) and a.player == player for c in a.cards]
        return bool(cards) and None not in cards

    def step(self, action: Deal | Board | Bet | ShowMuck) -> None:
        if self.pair_pending and not isinstance(action, (Deal, Board)):
            self.lines.append(_PAIR)
            self.pair_pending = False
        if not isinstance(action, Deal) and not (isinstance(action, ShowMuck) and action.player in self.decided):
            self.flush()
        if isinstance(action, Deal):
            self.deal(action)
        elif isinstance(action, Board):
            self.new_street(self.state.last_street, action.card)
        elif isinstance(action, Bet):
            self.bet(action)
        else:
            self.decide(action)

    def new_street(self, number: int, board: Card | None = None) -> None:
        self.street = number
        name = "RIVER" if number == self.state.last_street else f"{number}{_ORDINAL.get(number, 'th')} STREET"
        self.lines.append(f"*** {name} ***" + (f" [{board}]" if board is not None else ""))
        self.pair_pending = number in self.account.open_pair

    def deal(self, action: Deal) -> None:
        """The ``Dealt to`` lines of a deal. A record may deal a street's cards one at a time (another room's
        reader does), so each card's face and street come from its place in the player's hand."""
        state = self.state
        rules = state.rules
        five = rules.variant is Variant.STUD5
        held = self.held[action.player]
        downs, first_count = (1, 2) if five else (2, 3)
        start = len(held)
        number = state.first_street if start < first_count else state.first_street + start - first_count + 1
        if number != self.street:
            self.new_street(number)
        last_up = five and rules.stud5_last_card_up
        faces = [
            k >= downs and (k < first_count or state.first_street + k - first_count + 1 != state.last_street or last_up)
            for k in range(start, start + len(action.cards))
        ]
        new = list(zip(action.cards, faces, strict=True))
        name = self.names[action.player]
        visible = action.player in self.visible
        if start < first_count:
            hand = (held + new)[:first_count]
            shown = [c for c, up in hand if up or visible]
            if start + len(new) >= first_count and shown and None not in shown:
                self.lines.append(f"Dealt to {name} [{_card_text(shown)}]")
        elif len(new) == 1:
            card, up = new[0]
            old = [c for c, was_up in held if was_up or visible]
            if card is not None and (up or visible) and None not in old:
                self.lines.append(f"Dealt to {name} [{_card_text(old)}] [{card}]")
        held += new

    def bet(self, action: Bet) -> None:
        account = self.account
        verb, amount, all_in = account.wagers[self.bet_index]
        name = self.names[action.player]
        if verb in ("folds", "checks"):
            line = f"{name}: {verb}"
        elif verb == "raises":
            line = f"{name}: raises {self.money(amount)} to {self.money(action.amount)}"
        else:
            line = f"{name}: {verb}{' for' if verb == 'brings in' else ''} {self.money(amount)}"
        self.lines.append(line + (" and is all-in" if all_in else ""))
        if self.bet_index in account.capped:
            self.lines.append(_CAPPED)
        for player, chips in account.returned[self.bet_index]:
            self.lines.append(f"Uncalled bet ({self.money(chips)}) returned to {self.names[player]}")
        self.bet_index += 1
        if not account.showdown and self.bet_index == len(account.wagers):
            self.pending.append(0)  # the last fold: the pot is won

    def decide(self, action: ShowMuck) -> None:
        name = self.names[action.player]
        shown = None if action.cards is None else tuple(c for c in action.cards if c is not None)
        if shown is not None:
            self.lines.append(f"{name}: shows [{_card_text(shown)}] ({self.describe(shown)})")
        if not self.account.showdown:
            if shown is None:
                self.lines.append(f"{name}: doesn't show hand")
            return
        if shown is None:
            self.lines.append(f"{name}: mucks hand")
        else:
            self.shows[action.player] = shown
        self.decided.add(action.player)
        for pot, players in enumerate(self.account.eligible):
            if set(players) <= self.decided and pot not in self.flushed and pot not in self.pending:
                self.pending.append(pot)

    def flush(self, everything: bool = False) -> None:
        """Write the collected lines of the pots that are due (at the end, of all that are left)."""
        account = self.account
        pots = range(len(account.gross)) if everything else self.pending
        for pot in sorted(set(pots) - self.flushed, reverse=True):
            self.flushed.add(pot)
            where = _pot_label(pot, len(account.gross)).lower() if len(account.gross) > 1 else "pot"
            for player, chips in account.payouts[pot]:
                self.lines.append(f"{self.names[player]} collected {self.money(chips)} from {where}")
            if account.no_low[pot]:
                self.lines.append(_NO_LOW)
        self.pending.clear()

    def describe(self, cards: Sequence[Card]) -> str:
        community = self.state.community_card
        return _describe(self.state.rules.variant, [*cards, community] if community is not None else cards)

    # -- the summary --------------------------------------------------------------------------------------

    def summary(self) -> None:
        account, money, state = self.account, self.money, self.state
        self.lines.append("*** SUMMARY ***")
        total = f"Total pot {money(sum(account.gross))}"
        if len(account.gross) > 1:
            for pot, (gross, rake) in enumerate(zip(account.gross, account.rake, strict=True)):
                total += f" {_pot_label(pot, len(account.gross))} {money(gross - rake)}."
        self.lines.append(f"{total} | Rake {money(sum(account.rake))}")
        if state.community_card is not None:
            self.lines.append(f"Board [{state.community_card}]")
        won = [0] * self.record.n
        for payouts in account.payouts:
            for player, chips in payouts:
                won[player] += chips
        for seat, p in sorted(zip(self.seats, range(self.record.n), strict=True)):
            head = f"Seat {seat}: {self.names[p]} "
            if p in account.folded_on:
                street = account.folded_on[p]
                where = (
                    "the River" if street == state.last_street else f"the {street}{_ORDINAL.get(street, 'th')} Street"
                )
                quiet = street == state.first_street and p not in account.voluntary
                self.lines.append(f"{head}folded on {where}" + (" (didn't bet)" if quiet else ""))
            elif p in self.shows:
                words = self.describe(self.shows[p])
                outcome = f"won ({money(won[p])}) with {words}" if won[p] else f"lost with {words}"
                self.lines.append(f"{head}showed [{_card_text(self.shows[p])}] and {outcome}")
            elif won[p]:
                self.lines.append(f"{head}collected ({money(won[p])})")
            else:
                held = [c for c, _ in self.held[p]]
                self.lines.append(f"{head}mucked" + (f" [{_card_text(held)}]" if held and None not in held else ""))


def _first_street_in_seat_order(actions: Sequence[HistoryAction]) -> Sequence[HistoryAction]:
    """The record's actions with the deals before the first wager in position order (PokerStars deals from the
    lowest seat, and its reader insists): another room may list them in another order, which changes nothing
    (each player's cards are his own)."""
    first_bet = next((i for i, a in enumerate(actions) if isinstance(a, Bet)), len(actions))
    deals = [a for a in actions[:first_bet] if isinstance(a, Deal)]
    ordered = iter(sorted(deals, key=lambda a: a.player))  # stable: a player's own deals keep their order
    if deals == sorted(deals, key=lambda a: a.player):
        return actions
    return [next(ordered) if isinstance(a, Deal) else a for a in actions[:first_bet]] + list(actions[first_bet:])


def _is_comment(text: str, names: Sequence[str]) -> bool:
    """Whether ``text`` can stand as a line of its own and read back as the same comment (the tests
    of :meth:`_HandText.parse_line`, in its order)."""
    if not text or text != text.strip() or "\n" in text or "\r" in text or text in (_CAPPED, _PAIR, _NO_LOW):
        return False
    if text.startswith(("PokerStars ", "Dealt to ")) or _SECTION.match(text) or _UNCALLED.match(text):
        return False
    if any(text.startswith(n + ":") for n in names):
        return False
    if _is_chat(text):
        return True
    if any(text.startswith(n + " ") and _COLLECTED.match(text[len(n) :]) for n in names):
        return False
    return not _LOOKS_LIKE_ACTION.search(text)
