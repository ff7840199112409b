"""What every room reader shares: its errors, the amounts a file states (:class:`Stated`), and
:class:`HandBuilder`, which turns a room's lines into a :class:`HandRecord` in position order.

A room reader parses its own text and tells the builder what happened, in the file's words reduced to a
few verbs (``ante``, ``deal``, ``bet``, ``show``, ``collected``, ...), each with the line it came from. The
builder keeps the record's actions (PHH's vocabulary: a wager is ``cbr`` *to* a total) and, apart, every
amount the file states, so that :func:`~studpoker.history.sites.check.check` can compare them with the replay
and name the line that disagrees.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any, Protocol

from ...cards import Card, CardError, parse_card
from ...engine import Rules, RulesError, RulesWarning, Variant
from ..model import Bet, Comment, Deal, HandRecord, HistoryAction, ShowMuck
from ..stated import BET_KINDS, Stated, StatedAction, StatedAmount
from ..text import decode

__all__ = [
    "BET_KINDS",
    "HandBuilder",
    "NotStudGameError",
    "SiteError",
    "Stated",
    "StatedAction",
    "StatedAmount",
    "decode",
    "moves_chips",
    "read_hands",
    "read_one",
    "room_rules",
]


class SiteError(ValueError):
    """A hand (or file) of a room that cannot be read, or that contradicts its replay.

    ``room``, ``hand`` (the room's hand id, or its place in the file) and ``line`` (1-based, in the
    file) say where; the message says what.
    """

    def __init__(self, message: str, *, room: str = "", hand: str = "", line: int | None = None) -> None:
        self.room, self.hand, self.line, self.reason = room, hand, line, message
        where = " ".join(part for part in (room, f"hand {hand}" if hand else "") if part)
        if line is not None:
            where += f" (line {line})" if where else f"line {line}"
        super().__init__(f"{where}: {message}" if where else message)


class NotStudGameError(SiteError):
    """A hand of a game outside the four (2-7 razz, no-limit stud, a flop game...): ``game`` names it."""

    def __init__(self, game: str, *, room: str = "", hand: str = "", line: int | None = None) -> None:
        super().__init__(f"{game} is not one of the four stud games: skipped", room=room, hand=hand, line=line)
        self.game = game


def room_rules(
    variant: Variant,
    ante: int,
    bring_in: int,
    small_bet: int,
    big_bet: int,
    options: Mapping[str, Any],
    *,
    preset: str = "casino",
) -> Rules:
    """The rules of a room's table with these stakes: the preset plus the room's options (warnings about
    unusual options are the room's own sign, not news to a reader: ``rules.cautions()`` says them)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RulesWarning)
        return Rules.from_preset(preset, variant, ante, bring_in, small_bet, big_bet, **options)


#: What a line that moves chips or cards says (an amount, a betting verb, a pot, a show): such a line that its
#: reader cannot read fails its hand. Any other line about a player (chat, an emote, a time-out, sitting out, a
#: return to the table) is kept as a comment and never fails one.
_CHIP_WORDS = re.compile(
    r"\d|\b(?:antes?|posts?|bets?|calls?|raises?|folds?|checks?|completes?|brings?|bring-in|all[- ]in|collect(?:s|ed)?"
    r"|wins?|won|ties?|pot|rake|shows?|showed|mucks?|mucked|caps?|capped|dealt|discards?)\b",
    re.IGNORECASE,
)


def moves_chips(said: str) -> bool:
    """Whether what a line says of a player (the line without his name) may move chips or cards.

    >>> moves_chips("is feeling confused"), moves_chips("has returned"), moves_chips("callz $0.02")
    (False, False, True)
    >>> moves_chips("raises to 40"), moves_chips("mucks hand")
    (True, True)
    """
    return _CHIP_WORDS.search(said) is not None


_AMOUNT = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?|[-+]?\.\d+")


class HandBuilder:
    """Collects one hand as a room's reader parses it, then :meth:`build` makes the record.

    Players are named as the file names them; :meth:`build` puts those dealt in into position order
    (from ``first_seat``, or the lowest seat) and drops seated players who were not. Amounts are read by
    :meth:`chips` at the hand's scale (``cents``: money with two decimals; else whole chips).
    """

    def __init__(self, room: str, hand: str, line: int, *, cents: bool) -> None:
        self.room, self.hand, self.first_line = room, hand, line
        self.scale = 100 if cents else 1
        self.seats: dict[str, tuple[int, int, int]] = {}  # name: (seat, stack, line)
        self.cards: dict[str, list[Card | None]] = {}
        self.street_of: dict[str, list[int]] = {}  # the street each card came on
        self.items: list[tuple[str, Any, int]] = []  # (kind, what, line): ("deal", (name, start, end), line), ...
        self.stated = Stated(room, hand, line)
        self.street = 0
        self.round: dict[str, int] = {}
        self.anted: dict[str, int] = {}
        self.bring_in: int | None = None
        self.results: list[tuple[str, str, StatedAmount]] = []
        self.info: dict[str, Any] = {"room": room, "hand": hand}
        self.line = line

    # -- errors and amounts ---------------------------------------------------------------------------

    def fail(self, message: str, line: int | None = None) -> SiteError:
        return SiteError(message, room=self.room, hand=self.hand, line=self.line if line is None else line)

    def chips(self, text: str, line: int | None = None) -> int:
        """An amount of the file (``$1.50``, ``€ 0,25``? no: ``1,500`` is thousands; ``0.5``) in chips."""
        found = _AMOUNT.search(text)
        if found is None:
            raise self.fail(f"{text.strip()!r} is not an amount", line)
        digits = found.group(0).replace(",", "")
        try:
            value = Decimal(digits) * self.scale
        except InvalidOperation:
            raise self.fail(f"{text.strip()!r} is not an amount", line) from None
        if value != value.to_integral_value():
            unit = "a cent" if self.scale == 100 else "a chip"
            raise self.fail(f"{text.strip()!r} is not a whole number of chips ({unit} is the smallest)", line)
        if value < 0:
            raise self.fail(f"{text.strip()!r} is a negative amount", line)
        if value > 10**12:
            raise self.fail(f"{text.strip()!r} is too large an amount", line)
        return int(value)

    def money(self, chips: int, symbol: str = "$") -> str:
        """``chips`` as the file writes money (``$1.25``), or a count of chips (``1,250``), for a message."""
        return f"{symbol}{chips / 100:,.2f}" if self.scale == 100 else f"{chips:,}"

    def card(self, text: str, line: int | None = None) -> Card:
        try:
            return parse_card(text)
        except CardError as error:
            raise self.fail(str(error), line) from None

    # -- the table ------------------------------------------------------------------------------------

    def seat(self, name: str, seat: int, stack: int, line: int) -> None:
        if name in self.seats:
            raise self.fail(f"{name!r} sits in two seats", line)
        if any(s == seat for s, _, _ in self.seats.values()):
            raise self.fail(f"seat {seat} is taken twice", line)
        self.seats[name] = (seat, stack, line)

    def known(self, name: str, line: int) -> str:
        if name not in self.seats:
            raise self.fail(f"{name!r} is not seated at this table", line)
        return name

    def ante(self, name: str, amount: int, line: int, all_in: bool | None = None) -> None:
        self.known(name, line)
        if name in self.anted:
            raise self.fail(f"{name} posts the ante twice", line)
        self.anted[name] = amount
        self.items.append(("ante", (name, StatedAmount(amount, line), all_in), line))

    def new_street(self, street: int, line: int) -> None:
        """A new betting round begins (the cards of ``street`` come next)."""
        self.street, self.round = street, {}

    def deal(self, name: str, cards: Sequence[Card | None], line: int) -> None:
        """The cards ``name`` gets on the current street (first street: down cards, then the door card)."""
        self.known(name, line)
        if not cards:
            return
        held = self.cards.setdefault(name, [])
        self.street_of.setdefault(name, []).extend([self.street] * len(cards))
        start = len(held)
        held.extend(cards)
        self.items.append(("deal", (name, start, len(held)), line))

    def deal_so_far(self, name: str, cards: Sequence[Card | None], line: int) -> None:
        """Every card ``name`` holds now (the file lists the whole hand each street): the new ones are dealt,
        and a card shown now fills one the file had hidden before."""
        held = self.cards.get(name, [])
        if len(cards) < len(held):
            raise self.fail(f"{name} holds {len(cards)} cards, fewer than the {len(held)} dealt to him", line)
        self.reveal(name, cards[: len(held)], line)
        self.deal(name, cards[len(held) :], line)

    def reveal(self, name: str, cards: Sequence[Card | None], line: int) -> None:
        """Cards of ``name``'s hand, in dealing order, now known: fill those the file had hidden, and check the
        others are the same."""
        self.known(name, line)
        held = self.cards.get(name, [])
        if len(cards) > len(held):
            raise self.fail(f"{name} shows {len(cards)} cards, but only {len(held)} were dealt to him", line)
        for i, card in enumerate(cards):
            if card is None:
                continue
            if held[i] is None:
                held[i] = card
            elif held[i] != card:
                raise self.fail(f"{name}'s card {i + 1} is {held[i]} and then {card}", line)

    def reveal_in_any_order(self, name: str, cards: Sequence[Card], line: int) -> None:
        """``name``'s whole hand, listed in an order of the room's (not the deal's): each card already known must be
        among them, and the others fill the unknown places in the order listed (down cards all: which went where
        changes nothing)."""
        held = self.cards.get(name, [])
        if len(cards) != len(held):
            raise self.fail(f"{name} shows {len(cards)} cards, but {len(held)} were dealt to him", line)
        rest = list(cards)
        for card in held:
            if card is not None:
                if card not in rest:
                    raise self.fail(f"{name}'s {card} is not among the cards he shows", line)
                rest.remove(card)
        unknown = iter(rest)
        self.reveal(name, [card if card is not None else next(unknown) for card in held], line)

    def bet(
        self,
        name: str,
        kind: str,
        line: int,
        *,
        added: int | None = None,
        to: int | None = None,
        all_in: bool | None = None,
    ) -> None:
        """A betting line: ``kind`` one of :data:`BET_KINDS`; ``added`` the chips it puts in, ``to`` the
        player's round total after it (a wager needs one of them; a call may state ``added``)."""
        self.known(name, line)
        if kind not in BET_KINDS:
            raise self.fail(f"unknown betting verb {kind!r}", line)
        before = self.round.get(name, 0)
        stated = StatedAction(kind, line, added, to, all_in)
        if kind == "fold":
            bet = Bet(0, "f")
        elif kind in ("check", "call"):
            bet = Bet(0, "cc")
            if added is not None:
                self.round[name] = before + added
            elif to is not None:
                self.round[name] = to
        else:
            total = to if to is not None else (before + added if added is not None else None)
            if total is None:
                raise self.fail(f"{name}'s {kind} names no amount", line)
            if total <= before and kind != "bring-in":
                raise self.fail(f"{name}'s {kind} to {total} is not more than his {before} already in", line)
            self.round[name] = total
            if kind == "bring-in":
                bet = Bet(0, "pb")
                self.bring_in = total if self.bring_in is None else self.bring_in
            else:
                bet = Bet(0, "cbr", total)
        self.items.append(("bet", (name, bet, stated), line))

    def show(self, name: str, cards: Sequence[Card | None] | None, line: int) -> None:
        """A showdown decision: the cards shown (the whole hand, or those of it the file lists), or a muck
        (``None``)."""
        self.known(name, line)
        if cards is not None and len(cards) == len(self.cards.get(name, [])):
            self.reveal(name, cards, line)
        self.items.append(("show", (name, None if cards is None else tuple(cards)), line))

    def comment(self, text: str, line: int) -> None:
        """A line about the table, not the hand (chat, joins, time-outs): kept as a :class:`Comment`."""
        self.items.append(("comment", text, line))

    # -- what the file states about the result ------------------------------------------------------------

    def _result(self, kind: str, name: str, amount: int, line: int, pot: int | None = None) -> None:
        self.known(name, line)
        self.results.append((kind, name, StatedAmount(amount, line, None, pot)))

    def collected(self, name: str, amount: int, line: int, pot: int | None = None) -> None:
        """``name`` takes ``amount`` (after the rake) from the pot (``pot``: 0 main, 1... side; None: not said)."""
        self._result("collected", name, amount, line, pot)

    def returned(self, name: str, amount: int, line: int) -> None:
        """An uncalled bet given back."""
        self._result("returned", name, amount, line)

    def won(self, name: str, amount: int, line: int) -> None:
        """What ``name`` won in all (a summary line), after the rake."""
        self._result("won", name, amount, line)

    def invested(self, name: str, amount: int, line: int) -> None:
        """All ``name`` put in the pots, antes included, uncalled chips taken off."""
        self._result("invested", name, amount, line)

    def net(self, name: str, amount: int, line: int) -> None:
        """What ``name`` won less what he put in (may be negative)."""
        self._result("net", name, amount, line)

    def final_stack(self, name: str, amount: int, line: int) -> None:
        self._result("stacks", name, amount, line)

    def folded_on(self, name: str, street: int, line: int) -> None:
        """A summary line: ``name`` folded on ``street``."""
        self._result("folds", name, street, line)

    def pot(self, index: int, amount: int, line: int) -> None:
        self.stated.pots.append(StatedAmount(amount, line, None, index))

    def total_pot(self, amount: int, line: int, *, includes_rake: bool = True) -> None:
        self.stated.total_pot = StatedAmount(amount, line)
        self.stated.total_includes_rake = includes_rake

    def rake(self, amount: int, line: int) -> None:
        self.stated.rake = StatedAmount(amount, line)

    def implied_rake(self, amount: int, line: int) -> None:
        """The rake of a file that does not write it (what the players put in less what the winners take), stated
        as implied: checked only not to be negative, and said in the replay's notes. Nothing when it is 0."""
        if amount:
            self.rake(amount, line)
            self.stated.rake_implied = True

    # -- the record -----------------------------------------------------------------------------------

    def dealt_in(self) -> list[str]:
        return [name for name in self.seats if name in self.anted or name in self.cards]

    def build(
        self,
        variant: Variant,
        *,
        ante: int | None,
        bring_in: int | None,
        small_bet: int,
        big_bet: int,
        options: Mapping[str, Any],
        preset: str = "casino",
        first_seat: int | None = None,
        currency: str | None = None,
        max_seats: int | None = None,
    ) -> HandRecord:
        """The record: players dealt in, by seat from ``first_seat`` (else the lowest); the stakes (``ante``
        None: the largest ante posted; ``bring_in`` None: the one posted, else twice the ante, at least
        one chip) under ``preset`` and the room's ``options``; the stated amounts in ``info["stated"]``."""
        names = self.dealt_in()
        if len(names) < 2:
            raise self.fail(f"{len(names)} player{'s' if len(names) != 1 else ''} dealt in: not a hand", self.line)
        names.sort(key=lambda name: self.seats[name][0])
        if first_seat is not None:
            later = [n for n in names if self.seats[n][0] >= first_seat]
            names = later + [n for n in names if self.seats[n][0] < first_seat]
        for name in names:
            seat, stack, line = self.seats[name]
            if stack <= 0:
                raise self.fail(f"{name} is dealt in with no chips (seat {seat})", line)
        index = {name: p for p, name in enumerate(names)}
        if ante is None:
            ante = max(self.anted.values(), default=0)
        if bring_in is None:
            bring_in = self.bring_in if self.bring_in is not None else max(2 * ante, 1)
        opts = dict(options)
        if max_seats is not None:
            opts["max_seats"] = max(max_seats, len(names))
        try:
            rules = room_rules(variant, ante, bring_in, small_bet, big_bet, opts, preset=preset)
        except RulesError as error:
            raise self.fail(f"the stakes cannot be played: {error}", self.first_line) from None
        actions: list[HistoryAction] = []
        stated = self.stated
        antes: list[StatedAmount] = []
        lines: list[int] = []
        for kind, item, line in self.items:
            if kind != "ante":
                lines.append(line)
            if kind == "ante":
                name, amount, _ = item
                antes.append(StatedAmount(amount.amount, amount.line, index[name]))
            elif kind == "deal":
                name, start, end = item
                actions.append(Deal(index[name], tuple(self.cards[name][start:end])))
            elif kind == "bet":
                name, bet, said = item
                if name not in index:
                    raise self.fail(f"{name} acts but was not dealt in", said.line)
                actions.append(Bet(index[name], bet.verb, bet.amount))
                stated.actions.append(said)
            elif kind == "show":
                name, cards = item
                if name not in index:
                    raise self.fail(f"{name} shows but was not dealt in", line)
                actions.append(ShowMuck(index[name], cards))
            else:
                actions.append(Comment(str(item)))
        stated.antes = antes
        for kind, name, amount in self.results:
            if name not in index:
                raise self.fail(f"{name} is named in the result but was not dealt in", amount.line)
            getattr(stated, kind).append(StatedAmount(amount.amount, amount.line, index[name], amount.pot))
        if stated.rake is None and stated.total_pot is not None and stated.total_includes_rake:
            # a room that writes the pot and what each player takes, and no rake: the difference is the rake, which
            # is only checked not to be negative (no formula of ours may refuse a hand)
            paid = sum(a.amount for a in (stated.collected or stated.won))
            if (stated.collected or stated.won) and stated.total_pot.amount > paid:
                self.implied_rake(stated.total_pot.amount - paid, stated.total_pot.line)
        winnings: list[int] | None = None
        if stated.collected or stated.won:
            winnings = [0] * len(names)
            for amount in stated.collected if stated.collected else stated.won:
                assert amount.player is not None
                winnings[amount.player] += amount.amount
        finishing = None
        if stated.stacks and {a.player for a in stated.stacks} == set(range(len(names))):
            finishing = [0] * len(names)
            for amount in stated.stacks:
                assert amount.player is not None
                finishing[amount.player] = amount.amount
        info = dict(self.info)
        info["stated"] = stated
        info["lines"] = tuple(lines)
        return HandRecord(
            rules,
            tuple(self.seats[n][1] for n in names),
            tuple(actions),
            tuple(names),
            tuple(self.seats[n][0] for n in names),
            tuple(finishing) if finishing is not None else None,
            tuple(winnings) if winnings is not None else None,
            stated.rake.amount if stated.rake is not None else 0,
            currency,
            0.01 if self.scale == 100 else 1.0,
            info,
        )


class _HandReader(Protocol):
    def read(self) -> HandRecord: ...


def read_hands(
    text: str, starts: Iterable[int], reader: Callable[[list[str], int], _HandReader]
) -> list[tuple[int, HandRecord | SiteError]]:
    """Every hand of ``text``, cut before each 0-based line index in ``starts`` and read by
    ``reader(lines, first_line).read()``: (its 1-based first line, its record or the :class:`SiteError` that kept
    it from being read), so that one bad hand costs only itself."""
    lines = text.split("\n")
    marks = sorted(set(starts))
    out: list[tuple[int, HandRecord | SiteError]] = []
    for k, start in enumerate(marks):
        end = marks[k + 1] if k + 1 < len(marks) else len(lines)
        out.append((start + 1, read_one(lambda part, first: reader(part, first).read(), lines[start:end], start + 1)))
    return out


def read_one(read: Callable[[list[str], int], HandRecord], lines: list[str], first: int) -> HandRecord | SiteError:
    """What ``read(lines, first)`` gives (a hand's lines, the 1-based line of the file it starts on): its record, or
    the :class:`SiteError` that kept it from being read, kept without its traceback (a file of junk has one a
    hand)."""
    try:
        return read(lines, first)
    except SiteError as error:
        error.__traceback__ = error.__context__ = error.__cause__ = None
        return error
