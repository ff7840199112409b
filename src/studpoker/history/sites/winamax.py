"""Winamax text hand histories (cash games, real and play money).

A hand starts ``Winamax Poker - CashGame - HandId: #9250793-470-1478990787 - 7-Card Stud fixed limit
(5€/25€/50€) - 2016/11/12 22:46:27 UTC`` (the stakes are ante/small bet/big bet); then ``Table: 'Pampelune'
6-max (real money)`` and the seats, ``Seat 1: Hero (1749.22€)``. Sections are marked ``*** ANTE/BLINDS ***``,
``*** 3rd STREET ***`` ... ``*** 7th STREET ***`` (the play-money export writes ``*** THIRD ***`` ...
``*** SEVENTH ***``), ``*** SHOW DOWN ***`` and ``*** SUMMARY ***``. Each street lists every player's cards so
far and the new one, ``Dealt to Player0 [X X 9h] [Kh]`` (``X`` a hidden card); the play-money export lists no
cards at all until the showdown (the reader deals hidden cards to every live player each street, and the
shows fill them in). Betting lines: ``brings in 10€`` (play money ``bring-in 0.02``), ``bets 50€``,
``calls 15€``, ``raises 50€ to 100€`` (the raise over the last bet, then the player's total for the street; a
completion counts from nothing, the bring-in being no bet: ``raises 25€ to 25€``), ``checks``, ``folds``;
``and is all-in`` may follow. The showdown says ``Hero collected 458€ from pot``; the summary
``Total pot 458€ | Rake 2€`` (the pot *after* the rake) and ``Seat 1: Hero showed [...] and won 458€ ...``.

**Rules** (:data:`OPTIONS`, the ``casino`` preset otherwise). The four hands of the data (three heads-up
hands of an 8-game table, one three-handed play-money hand) show nothing that differs from it: no round
reaches a raise cap (at most one raise a street), no open pair shows on 4th street (hand 9250793-470: boards
9h Kh and Qd 3h; hand 8835086-564: 5h 4s and 7d Th, checked round), no pot is split. Seats act in position
order from the lowest seat (bring-in Player1, seat 3, then seats 6 and 2 in hand 8835086-564). So every
option keeps the casino default.

**The file named negative.bet** (hand 9250793-1578) writes a short all-in re-raise wrongly: Player0 (33.90€,
ante 5€, bring-in 10€) faces a completion to 25€ and writes ``raises -6.10€ to 18.90€`` -- the chips he had left,
18.90€, written as his total, and a negative raise. Player1's ``calls 3.90€`` and the pot (70.30€ + 2.50€ rake
= 72.80€) say he went all-in to 28.90€. The line contradicts the hand: it is refused, naming the line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from ...cards import Card
from ...engine import Variant
from ..model import HandRecord
from .base import HandBuilder, NotStudGameError, SiteError, read_hands

__all__ = ["OPTIONS", "TITLE", "detect", "loads_each", "read_hand", "starts_hand"]

TITLE: Final = "Winamax"

#: Winamax's table rules on top of the ``casino`` preset: nothing in its files differs from it.
OPTIONS: Final[Mapping[str, Any]] = MappingProxyType({})

_START: Final = "Winamax Poker - "
_GAMES: Final = {
    "7-card stud": Variant.STUD7,
    "7stud": Variant.STUD7,
    "7-card stud hi/lo": Variant.STUD7_HL8,
    "7stud hi/lo": Variant.STUD7_HL8,
    "7-card stud hi-lo": Variant.STUD7_HL8,
    "razz": Variant.RAZZ,
}
_MONEY = r"-?[\d.,]+\s?€?"
_HEADER = re.compile(
    r"^Winamax Poker - (?P<kind>CashGame|Tournament.*?) - HandId: #(?P<id>[\d-]+) - (?P<game>.+?) "
    r"(?P<limit>fixed limit|pot limit|no limit) \((?P<stakes>[^)]*)\) - "
    r"(?P<y>\d{4})/(?P<mo>\d\d)/(?P<d>\d\d) (?P<time>\d\d:\d\d:\d\d)(?: (?P<tz>\w+))?$",
    re.I,
)
_TABLE = re.compile(r"^Table: '(?P<table>.*)' (?P<max>\d+)-max \((?P<money>real|play) money\)")
_SEAT = re.compile(rf"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>{_MONEY})\)$")
_SECTION = re.compile(r"^\*\*\* (?P<name>[A-Z0-9/ -]+?) \*\*\*$", re.I)
_STREETS: Final = {
    "3RD STREET": 3,
    "4TH STREET": 4,
    "5TH STREET": 5,
    "6TH STREET": 6,
    "7TH STREET": 7,
    "THIRD": 3,
    "FOURTH": 4,
    "FIFTH": 5,
    "SIXTH": 6,
    "SEVENTH": 7,
}
_DEALT = re.compile(r"^Dealt to (?P<name>.+?) (?P<cards>(?:\[[^\]]*\] ?)+)$")
_COLLECTED = re.compile(  # a hi/lo half: "collected 114€ from pot(HI)"
    rf"^(?P<name>.+) collected (?P<amount>{_MONEY}) from (?P<pot>pot|main pot|side pot ?\d*)(?:\((?:HI|LO)\))?$"
)
_TOTAL = re.compile(rf"^Total pot (?P<total>{_MONEY})(?: \| (?:Rake (?P<rake>{_MONEY})|No rake))?$", re.I)
_SUMMARY_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) (?P<rest>(?:showed|won|lost|mucked|folded).*)$")
_WON = re.compile(rf"\bwon (?P<amount>{_MONEY})")
_ACTION = re.compile(
    rf"^(?P<verb>brings in|bring-in|bets|calls|raises|checks|folds|shows|mucks|doesn't show)"
    rf"(?: (?P<amount>{_MONEY}))?(?: to (?P<to>{_MONEY}))?(?P<rest>.*)$"
)


def detect(text: str) -> bool:
    """A Winamax export starts with ``Winamax Poker - ``."""
    return text.startswith(_START)


def starts_hand(line: str) -> bool:
    """Whether a line of the text begins a hand."""
    return line.lstrip("\ufeff").startswith(_START)


def read_hand(lines: list[str], first: int) -> HandRecord:
    """One hand: its lines (the first begins it) and the 1-based line of the file it starts on."""
    return _Hand(lines, first).read()


def loads_each(text: str) -> list[tuple[int, HandRecord | SiteError]]:
    """Every hand of the text, each read on its own."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if starts_hand(line)]
    return read_hands(text, starts, _Hand)


class _Hand:
    def __init__(self, lines: list[str], first: int) -> None:
        self.lines, self.first = lines, first
        self.level = 0  # the street's last bet (the bring-in is none): what a raise is counted from
        self.folded: set[str] = set()
        self.put: dict[str, int] = {}  # what each player put in on the streets done (antes apart)
        self.results: list[tuple[str, str, int, int, int]] = []  # (collected|won, name, chips, line, pot)
        self.total: tuple[int, int] | None = None  # (chips, line)

    def read(self) -> HandRecord:
        header = _HEADER.match(self.lines[0].lstrip("\ufeff").strip())
        if header is None:
            raise SiteError("the hand's first line is not a Winamax header", room=TITLE, line=self.first)
        hand = header["id"]
        game = header["game"].strip()
        variant = _GAMES.get(game.lower())
        if variant is None or header["limit"].lower() != "fixed limit":
            raise NotStudGameError(f"{game} {header['limit']}", room=TITLE, hand=hand, line=self.first)
        if header["kind"] != "CashGame":
            raise SiteError(
                "a tournament hand: the data has none to read them by", room=TITLE, hand=hand, line=self.first
            )
        stakes = header["stakes"].split("/")
        if len(stakes) != 3:
            raise SiteError(
                f"stakes {header['stakes']!r} are not ante/small/big", room=TITLE, hand=hand, line=self.first
            )
        b = HandBuilder(TITLE, hand, self.first, cents=True)  # euros and play money both have cents
        ante, small, big = (b.chips(s, self.first) for s in stakes)
        b.info.update(
            {
                "year": int(header["y"]),
                "month": int(header["mo"]),
                "day": int(header["d"]),
                "time": header["time"],
            }
        )
        if header["tz"]:
            b.info["time_zone_abbreviation"] = header["tz"]
        real = "€" in header["stakes"]
        max_seats: int | None = None
        deals = any(line.startswith("Dealt to ") for line in self.lines)
        section = "seats"
        summary = False
        for offset, raw in enumerate(self.lines[1:], 1):
            line = raw.strip()
            number = self.first + offset
            b.line = number
            if not line:
                continue
            mark = _SECTION.match(line)
            if mark is not None:
                section = mark["name"].upper()
                if section in _STREETS:
                    self.add_round(b)
                    street = _STREETS[section]
                    b.new_street(street, number)
                    self.level = 0
                    if not deals:
                        self.deal_hidden(b, street, number)
                elif section == "SUMMARY":
                    summary = True
                elif section not in ("ANTE/BLINDS", "SHOW DOWN"):
                    raise b.fail(f"unknown section {line!r}", number)
                continue
            if section == "seats":
                if (table := _TABLE.match(line)) is not None:
                    b.info["table"] = table["table"]
                    max_seats = int(table["max"])
                    real = table["money"] == "real"
                    if not real:
                        b.info["money"] = "play"
                    continue
                if (seat := _SEAT.match(line)) is not None:
                    b.seat(seat["name"], int(seat["seat"]), b.chips(seat["stack"], number), number)
                    continue
                raise b.fail(f"cannot read the line {line!r}", number)
            if section == "SUMMARY":
                self.summary(b, line, number)
                continue
            if (collected := _COLLECTED.match(line)) is not None:
                where = collected["pot"]
                digits = where[len("side pot") :].strip()
                pot = int(digits) if digits.isdigit() else 1 if where.startswith("side") else 0
                name = b.known(collected["name"], number)
                self.results.append(("collected", name, b.chips(collected["amount"], number), number, pot))
                continue
            self.action(b, line, number, section)
        self.add_round(b)
        if not summary or self.total is None:
            raise b.fail("the hand stops before its summary's total pot (the file is cut short)")
        for name in b.dealt_in():
            if b.seats[name][1] <= 0:
                raise b.fail(f"{name} is dealt in with no chips", b.seats[name][2])
        self.claim(b)
        return b.build(
            variant,
            ante=ante,
            bring_in=None,
            small_bet=small,
            big_bet=big,
            options=OPTIONS,
            currency="EUR" if real else None,
            max_seats=max_seats,
        )

    def claim(self, b: HandBuilder) -> None:
        """The result lines as claims. Winamax writes no uncalled bet returned: the bettor's
        ``collected`` and ``won`` and the total pot include it (hand 9250793-444: Player0's uncalled 50€
        on 6th street, ``collected 258€`` of a 208€ pot after the rake). The uncalled chips (his total for the
        hand, less the next largest) are taken off those amounts and claimed returned."""
        put = {name: self.put.get(name, 0) + b.anted.get(name, 0) for name in b.dealt_in()}
        wagered = sorted(put.values(), reverse=True)
        excess = wagered[0] - (wagered[1] if len(wagered) > 1 else 0) if wagered else 0
        bettor = next((n for n, chips in put.items() if chips == wagered[0]), "") if excess else ""
        b.stated.returns_stated = True
        assert self.total is not None
        chips, line = self.total
        if excess:
            # in it, or in it in parts: an uncontested hi/lo pot is collected as two halves, pot(HI) and pot(LO)
            mine = [r for r in self.results if r[1] == bettor and r[0] == "collected"]
            if not mine or sum(r[2] for r in mine) < excess or chips < excess:
                raise b.fail(f"{bettor}'s uncalled {_money(excess, b)} is not in what he collects", line)
            b.returned(bettor, excess, mine[0][3])
        b.total_pot(chips - excess, line, includes_rake=False)
        left = {"collected": excess, "won": excess}  # the uncalled chips still to take off the bettor's lines
        for kind, name, amount, where, pot in self.results:
            back = min(amount, left[kind]) if name == bettor else 0
            if name == bettor:
                left[kind] -= back
            if kind == "collected":
                b.collected(name, amount - back, where, pot)
            else:
                b.won(name, amount - back, where)
        if excess and left["won"] and any(r[0] == "won" and r[1] == bettor for r in self.results):
            raise b.fail(f"{bettor}'s uncalled {_money(excess, b)} is not in what he wins", line)

    def add_round(self, b: HandBuilder) -> None:
        for name, chips in b.round.items():
            self.put[name] = self.put.get(name, 0) + chips
        b.round.clear()

    def deal_hidden(self, b: HandBuilder, street: int, number: int) -> None:
        """The play-money export deals no card in its text: each live player gets hidden ones."""
        for name in b.seats:
            if name in b.anted and name not in self.folded:
                b.deal(name, [None] * (3 if street == 3 else 1), number)

    def name_of(self, b: HandBuilder, line: str) -> tuple[str, str] | None:
        """The seated player a line begins with (the longest name that fits) and the rest of it."""
        best = None
        for name in b.seats:
            if line.startswith(name + " ") and (best is None or len(name) > len(best)):
                best = name
        return None if best is None else (best, line[len(best) + 1 :])

    def action(self, b: HandBuilder, line: str, number: int, section: str) -> None:
        if (dealt := _DEALT.match(line)) is not None:
            cards = [c for group in re.findall(r"\[([^\]]*)\]", dealt["cards"]) for c in group.split()]
            b.deal_so_far(b.known(dealt["name"], number), _cards(b, " ".join(cards), number), number)
            return
        found = self.name_of(b, line)
        if found is None:
            raise b.fail(f"no seated player in the line {line!r}", number)
        name, rest = found
        if rest.startswith("posts ante "):
            if section != "ANTE/BLINDS":
                raise b.fail(f"an ante outside the antes: {line!r}", number)
            b.ante(name, b.chips(rest[len("posts ante ") :], number), number, "all-in" in rest or None)
            return
        act = _ACTION.match(rest)
        if act is None or (section not in _STREETS and act["verb"] not in ("shows", "mucks", "doesn't show")):
            raise b.fail(f"cannot read the line {line!r}", number)
        verb, tail = act["verb"], act["rest"] or ""
        all_in = True if "all-in" in tail else None
        if verb in ("shows", "mucks", "doesn't show"):
            shown = re.match(r"^\s*\[(?P<cards>[^\]]*)\]", tail)
            if verb == "shows" and act["amount"] is None and shown is not None:
                b.show(name, _cards(b, shown["cards"], number), number)
            elif verb != "shows" and act["amount"] is None:
                b.show(name, None, number)
            else:
                raise b.fail(f"cannot read the line {line!r}", number)
            return
        if tail and tail.strip() != "and is all-in":
            raise b.fail(f"cannot read the line {line!r}", number)
        amount, to = act["amount"], act["to"]
        if verb in ("checks", "folds"):
            if amount is not None or to is not None:
                raise b.fail(f"cannot read the line {line!r}", number)
            b.bet(name, "check" if verb == "checks" else "fold", number)
            if verb == "folds":
                self.folded.add(name)
            return
        if amount is None or (to is not None) != (verb == "raises"):
            raise b.fail(f"cannot read the line {line!r}", number)
        if verb == "raises":
            assert to is not None
            total = b.chips(to, number)
            if amount.startswith("-") or total <= self.level:
                raise b.fail(
                    f"{name} raises {amount.strip()} to {to.strip()}, not above the bet of "
                    f"{_money(self.level, b)} he faces: the line contradicts the hand (a negative raise)",
                    number,
                )
            # a completion counts from nothing in the files of 2016 ("raises 25€ to 25€"), from the bring-in in those
            # of 2022 ("raises 0.03€ to 0.05€" over 0.02€)
            from_bring_in = self.level == 0 and b.bring_in is not None and _STREETS[section] == 3
            if b.chips(amount, number) != total - self.level and not (
                from_bring_in and b.chips(amount, number) == total - (b.bring_in or 0)
            ):
                raise b.fail(
                    f"{name} raises {amount.strip()} to {to.strip()}: a raise to {to.strip()} over a bet of "
                    f"{_money(self.level, b)} is {_money(total - self.level, b)}",
                    number,
                )
            kind = "complete" if self.level == 0 and _STREETS[section] == 3 else "raise"
            b.bet(name, kind, number, to=total, all_in=all_in)
            self.level = total
            return
        chips = b.chips(amount, number)
        if verb in ("brings in", "bring-in"):
            b.bet(name, "bring-in", number, added=chips, all_in=all_in)
        elif verb == "bets":
            b.bet(name, "bet", number, added=chips, all_in=all_in)
            self.level = b.round[name]
        else:
            b.bet(name, "call", number, added=chips, all_in=all_in)

    def summary(self, b: HandBuilder, line: str, number: int) -> None:
        if (total := _TOTAL.match(line)) is not None:
            if self.total is not None:
                raise b.fail("a second total pot", number)
            self.total = (b.chips(total["total"], number), number)
            b.rake(b.chips(total["rake"], number) if total["rake"] else 0, number)
            return
        if (seat := _SUMMARY_SEAT.match(line)) is not None:
            name = b.known(seat["name"], number)
            if b.seats[name][0] != int(seat["seat"]):
                raise b.fail(f"{name} sits in seat {b.seats[name][0]}, not {seat['seat']}", number)
            shown = re.match(r"^showed \[(?P<cards>[^\]]*)\]", seat["rest"])
            if shown is not None:
                b.reveal(name, _cards(b, shown["cards"], number), number)
            won = _WON.search(seat["rest"])
            if won is not None:
                self.results.append(("won", name, b.chips(won["amount"], number), number, 0))
            elif "won" in seat["rest"]:
                raise b.fail(f"cannot read the line {line!r}", number)
            return
        if line.startswith("Board"):
            raise b.fail("a board card: not a stud hand", number)
        raise b.fail(f"cannot read the line {line!r}", number)


def _money(chips: int, b: HandBuilder) -> str:
    return f"{chips // 100}.{chips % 100:02d}" + ("" if b.info.get("money") == "play" else "€")


def _cards(b: HandBuilder, text: str, line: int) -> list[Card | None]:
    return [None if token.upper() == "X" else b.card(token, line) for token in text.split()]
