"""OnGame network text hand histories.

A hand runs from ``***** History for hand R5-82086688-607 *****`` to ``***** End of hand ... *****``: the date
(``Start hand: Mon Sep 13 22:31:30 GMT+0100 2010``), the table, game and stakes (``Table: Milwaukee [82086688]
(LIMIT SEVEN_CARD_STUD $0.10/$0.20, ante: $0.02, Real money)``), the seats (``Seat 1: NAME ($6.53)``), the antes
(``NAME posts ante $0.02``), then each street after a ``---`` line: ``Dealing pocket cards``, ``Dealing 4th
street`` ... ``Dealing river``, one ``Dealing to NAME: [-, -, Kh]`` line a player (``-`` a card the viewer does not
see; the river lists only the viewer's card), and the betting: ``NAME small bring in $0.05``, ``NAME big bring in
$1`` (the bring-in completed at once), ``NAME bets $0.10`` (on the first street, after the bring-in, a completion),
``NAME raises $1 to $1.37`` (the chips added, then what his bets of the whole hand come to), ``NAME calls $0.05``
(the chips added), ``checks``, ``folds``. The summary says the pot before the rake and what its winners take after
it (``Main pot: $2.35 won by Hero ($2.24)``), ``Rake taken: $0.11``, and for every seat the final stack and the net
result, with the seven cards of a hand shown (``Seat 2: Hero ($3.47), net: +$1.47, [Jh, 9d, Ac, 7h, Js, 5c, 9h]
(TWO_PAIR JACK, NINE)``).

**Rules** (:data:`OPTIONS`, the ``casino`` preset otherwise), from the five hands of 2010 and 2012:

* players act clockwise from the lowest seat: in R5-82086688-607 kueto (seat 6, 4h) brings in, then seats
  8, 10, 1 and 2 act; on later streets the best board opens (E6y Ko3y's Ad Qs on 4th street);
* the rake is written (5% of the pot, cents rounded down, at most $0.50 as R5-292493407-77 shows: $10.20
  pays $0.50) and taken before the pot is paid;
* the ante is the header's (``ante: $0.02``), the bring-in the stakes' ($0.05 at $0.10/$0.20 in the four
  hands of those stakes); at stakes where it is never posted (R5-292493407-77 at $1/$2: ``big bring in``,
  the low card completes) it is taken as half the small bet, which changes nothing in such a hand;
* nothing shows a raise cap, a double bet on an open pair, a tie of boards or an odd chip, so those stay
  the casino defaults.
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

TITLE: Final = "OnGame"

#: OnGame's table rules on top of the ``casino`` preset: nothing in its files differs from it.
OPTIONS: Final[Mapping[str, Any]] = MappingProxyType({})

#: The bring-in of the stakes where the files post one (small bet, big bet in cents).
_BRING_INS: Final = {(10, 20): 5}
_START = "***** History for hand "
_GAMES: Final = {
    "SEVEN_CARD_STUD": Variant.STUD7,
    "SEVEN_CARD_STUD_HI_LO": Variant.STUD7_HL8,
    "SEVEN_CARD_STUD_HILO": Variant.STUD7_HL8,
    "RAZZ": Variant.RAZZ,
    "FIVE_CARD_STUD": Variant.STUD5,
}
_AMT = r"[$€]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_MONTH_NAMES: Final = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MONTHS: Final = {m: k for k, m in enumerate(_MONTH_NAMES, 1)}
_HEADER = re.compile(r"^\*\*\*\*\* History for hand (?P<id>\S+) \*\*\*\*\*$")
_DATE = re.compile(
    r"^Start hand: \w+ (?P<month>\w{3}) (?P<day>\d\d?) (?P<time>\d\d:\d\d:\d\d) (?P<tz>\S+) (?P<year>\d{4})$"
)
_TABLE = re.compile(
    r"^Table: (?P<table>.+?) \[\d+\] \((?P<limit>[A-Z_]+) (?P<game>[A-Z_]+) "
    r"(?P<small>" + _AMT + r")/(?P<big>" + _AMT + r")(?:, ante: (?P<ante>" + _AMT + r"))?, (?P<money>[^)]+)\)$"
)
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>" + _AMT + r")\)$")
_STREETS: Final = {"pocket cards": 3, "4th street": 4, "5th street": 5, "6th street": 6, "river": 7}
_POT = re.compile(r"^(?P<pot>Main pot|Side pot(?: (?P<index>\d+))?): (?P<amount>" + _AMT + r") won by (?P<winners>.+)$")
_WINNER = re.compile(r"^(?P<name>.+?) \((?P<amount>" + _AMT + r")\)$")
_RAKE = re.compile(r"^Rake taken: (?P<amount>" + _AMT + r")$")
_RESULT = re.compile(
    r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>" + _AMT + r")\), net: (?P<sign>[-+]?)(?P<net>" + _AMT + r")"
    r"(?:, \[(?P<cards>[^\]]*)\](?: \(.*\))?)?$"
)


def detect(text: str) -> bool:
    """An OnGame export starts with ``***** History for hand``."""
    return text.startswith(_START)


def starts_hand(line: str) -> bool:
    """Whether a line of the text begins a hand."""
    return line.startswith(_START)


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
        self.folded: set[str] = set()
        self.bets: dict[str, int] = {}  # what each player's betting lines put in so far (antes apart)
        self.dealing: set[str] | None = None  # who got cards on the street being dealt
        self.count = 0
        self.date: re.Match[str] | None = None
        self.currency: str | None = None
        self.ante: int | None = None  # the header's
        self.players: tuple[int, int] | None = None  # the count the file gives, and its line

    def read(self) -> HandRecord:
        header = _HEADER.match(self.lines[0].strip())
        if header is None:
            raise SiteError("the hand's first line is not an OnGame header", room=TITLE, line=self.first)
        hand = header["id"]
        b: HandBuilder | None = None
        variant = Variant.STUD7
        small = big = 0
        section = "head"
        ended = False
        for offset, raw in enumerate(self.lines[1:], 1):
            line = raw.strip()
            number = self.first + offset
            if not line:
                continue
            if b is None:
                if (date := _DATE.match(line)) is not None:
                    self.date = date
                    continue
                table = _TABLE.match(line)
                if table is None:
                    raise SiteError(f"cannot read the line {line!r}", room=TITLE, hand=hand, line=number)
                game = f"{table['limit']} {table['game']}"
                found = _GAMES.get(table["game"])
                if found is None or table["limit"] != "LIMIT":
                    raise NotStudGameError(game, room=TITLE, hand=hand, line=number)
                variant = found
                real = table["money"].strip().lower() == "real money"
                b = HandBuilder(TITLE, hand, self.first, cents=real)
                small, big = b.chips(table["small"], number), b.chips(table["big"], number)
                self.ante = None if table["ante"] is None else b.chips(table["ante"], number)
                b.info["table"] = table["table"]
                if not real:
                    b.info["money"] = "play"
                self.currency = ("EUR" if "€" in table["small"] else "USD") if real else None
                if self.date is not None:
                    self.dated(b, self.date)
                continue
            b.line = number
            if line.startswith("***** End of hand"):
                if line != f"***** End of hand {hand} *****":
                    raise b.fail(f"the line {line!r} does not end the hand {hand}", number)
                ended = True
                break
            if line.startswith(("User:", "Button:")):
                continue
            if (players := re.fullmatch(r"Players in round: (\d+)(?: \(\d+\))?", line)) is not None:
                self.players = (int(players.group(1)), number)
                continue
            if line == "---":
                self.fill(b, number)
                section = "play"
                continue
            if line == "Summary:":
                self.fill(b, number)
                section = "summary"
                continue
            if section == "head":
                if (seat := _SEAT.match(line)) is not None:
                    if b.seats and int(seat["seat"]) <= max(s for s, _, _ in b.seats.values()):
                        raise b.fail("the seats are not listed in order", number)
                    b.seat(seat["name"], int(seat["seat"]), b.chips(seat["stack"], number), number)
                    continue
                name, rest = self.who(b, line, number)
                if not rest.startswith("posts ante "):
                    raise b.fail(f"cannot read the line {line!r}", number)
                b.ante(name, b.chips(rest[len("posts ante ") :], number), number)
            elif section == "summary":
                self.summary(b, line, number)
            else:
                self.play(b, variant, line, number)
        if b is None:
            raise SiteError("the hand names no table and game", room=TITLE, hand=hand, line=self.first)
        if not ended:
            raise b.fail("the hand has no end line (truncated)", self.first + len(self.lines) - 1)
        if not b.stated.pots:
            raise b.fail("the summary names no pot and no winner", self.first + len(self.lines) - 1)
        if self.players is not None and self.players[0] != len(b.seats):
            raise b.fail(f"the hand says {self.players[0]} players, but seats {len(b.seats)}", self.players[1])
        for name, (_, stack, seat_line) in b.seats.items():
            if name in b.dealt_in() and stack <= 0:
                raise b.fail(f"{name} is dealt in with no chips", seat_line)
        return b.build(
            variant,
            ante=self.ante,
            bring_in=_BRING_INS.get((small, big), None if b.bring_in is not None else max(small // 2, 1)),
            small_bet=small,
            big_bet=big,
            options=OPTIONS,
            currency=self.currency,
        )

    def dated(self, b: HandBuilder, date: re.Match[str]) -> None:
        if date["month"] not in _MONTHS:
            raise b.fail(f"{date['month']!r} is not a month", b.first_line + 1)
        b.info.update(
            {
                "year": int(date["year"]),
                "month": _MONTHS[date["month"]],
                "day": int(date["day"]),
                "time": date["time"],
                "time_zone_abbreviation": date["tz"],
            }
        )

    def who(self, b: HandBuilder, line: str, number: int) -> tuple[str, str]:
        """The seated player a line begins with (the longest name that fits), and the rest of it."""
        names = [n for n in b.seats if line.startswith(n + " ") or line.startswith(n + ":")]
        if not names:
            raise b.fail(f"cannot read the line {line!r}", number)
        name = max(names, key=len)
        return name, line[len(name) :].lstrip(": ").strip()

    def fill(self, b: HandBuilder, number: int) -> None:
        """The end of a street's dealing: the live players the file did not list get unknown cards."""
        if self.dealing is None:
            return
        for name in sorted(b.dealt_in(), key=lambda n: b.seats[n][0]):
            if name not in self.dealing and name not in self.folded:
                b.deal(name, [None] * self.count, number)
        self.dealing = None

    def play(self, b: HandBuilder, variant: Variant, line: str, number: int) -> None:
        if line.startswith("Dealing "):
            which = line[len("Dealing ") :]
            if which.lower() in _STREETS:
                self.fill(b, number)
                street = _STREETS[which.lower()]
                if street <= b.street:
                    raise b.fail(f"{which} comes after street {b.street}", number)
                five = variant is Variant.STUD5
                b.new_street(street - 1 if five else street, number)
                self.dealing, self.count = set(), (2 if five else 3) if street == 3 else 1
                return
            if self.dealing is None or not which.startswith("to "):
                raise b.fail(f"cannot read the line {line!r}", number)
            name, rest = self.who(b, which[3:], number)
            if not (rest.startswith("[") and rest.endswith("]")) or name in self.dealing:
                raise b.fail(f"cannot read the cards of {line!r}", number)
            cards = [None if t.strip() == "-" else b.card(t.strip(), number) for t in rest[1:-1].split(",")]
            if len(cards) != self.count:
                raise b.fail(f"{name} is dealt {len(cards)} cards, not {self.count}", number)
            b.deal(name, cards, number)
            self.dealing.add(name)
            return
        self.fill(b, number)
        name, rest = self.who(b, line, number)
        before = b.round.get(name, 0)
        self.bet(b, name, rest, line, number)
        self.bets[name] = self.bets.get(name, 0) + b.round.get(name, 0) - before

    def bet(self, b: HandBuilder, name: str, rest: str, line: str, number: int) -> None:
        words = rest.split()
        verb = " ".join(words[:3])
        if rest == "folds":
            b.bet(name, "fold", number)
            self.folded.add(name)
        elif rest == "checks":
            b.bet(name, "check", number)
        elif verb == "small bring in" and len(words) == 4:
            b.bet(name, "bring-in", number, added=b.chips(words[3], number))
        elif verb == "big bring in" and len(words) == 4:
            b.bet(name, "complete", number, to=b.chips(words[3], number))
        elif words[0] in ("calls", "bets") and len(words) == 2:
            chips = b.chips(words[1], number)
            if words[0] == "calls":
                b.bet(name, "call", number, added=chips)
            else:
                b.bet(name, "bet" if b.bring_in is None or b.street != 3 else "complete", number, added=chips)
        elif words[0] == "raises" and len(words) == 4 and words[2] == "to":
            # the chips added, then what the player's bets come to in the whole hand: "raises $1 to $1.37" on 5th
            # street after $0.12 and $0.25 on the streets before (R5-78227816-62); on the first bet of the hand
            # both are the round's total ("raises $2 to $2")
            added, hand_total = b.chips(words[1], number), b.chips(words[3], number)
            if hand_total != self.bets.get(name, 0) + added:
                raise b.fail(
                    f"{name} raises {words[1]} to {words[3]}: his bets before it and the raise come to"
                    f" {b.money(self.bets.get(name, 0) + added)}",
                    number,
                )
            b.bet(name, "raise", number, added=added)
        else:
            raise b.fail(f"cannot read the line {line!r}", number)

    def summary(self, b: HandBuilder, line: str, number: int) -> None:
        if (pot := _POT.match(line)) is not None:
            index = 0 if pot["pot"] == "Main pot" else int(pot["index"] or 1)
            b.pot(index, b.chips(pot["amount"], number), number)
            for part in pot["winners"].split(", "):
                winner = _WINNER.match(part.strip())
                if winner is None:
                    raise b.fail(f"cannot read the winner {part!r}", number)
                b.collected(winner["name"], b.chips(winner["amount"], number), number, index)
        elif (rake := _RAKE.match(line)) is not None:
            b.rake(b.chips(rake["amount"], number), number)
        elif (result := _RESULT.match(line)) is not None:
            name = b.known(result["name"], number)
            if b.seats[name][0] != int(result["seat"]):
                raise b.fail(f"{name} sits in seat {b.seats[name][0]}, not {result['seat']}", number)
            if name not in b.dealt_in():
                return
            b.final_stack(name, b.chips(result["stack"], number), number)
            net = b.chips(result["net"], number)
            b.net(name, -net if result["sign"] == "-" else net, number)
            if result["cards"] is not None:
                cards: list[Card | None] = [b.card(t.strip(), number) for t in result["cards"].split(",")]
                if name in self.folded:
                    b.reveal(name, cards, number)
                else:
                    b.show(name, cards, number)
        else:
            raise b.fail(f"cannot read the line {line!r}", number)
