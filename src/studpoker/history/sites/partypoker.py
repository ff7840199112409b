"""PartyPoker text hand histories (cash games and tournaments).

A hand starts ``Game #<id> starts.`` (cash files; some copies carry a NUL byte there) or directly
``#Game No : <id>``, then ``***** Hand History for Game <id> *****`` and a header: ``$0.50/$1 USD 7 Card Stud
Hi-Lo - Monday, August 30, 20:20:17 EEST 2010`` (cash) or ``FL 7 Card Stud $6 USD Buy-in Trny:69784932 Level:2
Stakes-Antes(60/120-10) - Wednesday, May 30, ...`` (tournament chips). ``Table <name> (Real Money)``, ``Seat 0 is
the button``, ``Total number of players : 7/8`` and the seats (``Seat 3: Hero ( $24.95 USD )``, in no order)
follow; antes are ``NAME posts ante [$0.05 USD]``. Streets start ``** Dealing **``, ``** Dealing Fourth street
**`` ... ``** Dealing River **``; only the viewer's cards are written (``Dealt to Hero [  Td 5s 3c ]``), the
others are unknown until a showdown lists a whole hand in dealing order (``NAME shows [ Ad, Qd, ... ]``, or
``NAME doesn't show [ ... ]``: cards known, hand mucked). ``NAME opens`` names the first to act. Every
bracket is the chips the line adds: ``bring-ins``, ``completes``, ``bets``, ``double bets``, ``raises``,
``calls``, ``is all-In``. The result is ``NAME wins $8.45 USD from the main pot with ...`` (a hi/lo pot's low
half ``wins Lo ($90.50 USD)``, after ``NAME shows8,5,3,2,A  for low.``); no rake, no returned bet, no summary.
The game may name its limit: ``$10/$20 USD FL 7 Card Stud Hi-Lo`` (2012).

**Rules** (:data:`OPTIONS`: the ``casino`` preset for cash games and tournaments alike), from the three
hands of 2010-2012:

* the antes are posted in seat order, from the lowest (all three hands; the seats are listed in no order),
  and a reader insists on it (a changed seat number could otherwise turn the table's order around unseen);
* players act clockwise from the lowest seat (#9581478205: YMAN1, seat 6, brings in, then seats 7, 8, 1, 2,
  3, 5; the button, seat 0, is before them all);
* the open-pair double bet stands in tournaments too, against the ``tournament`` preset: in #11792805420
  Player4, who shows 2h 2d on 4th street, ``double bets [120]``, the big bet (60/120);
* **the rake is not written**: it is the pot less what the winners take, implied and checked not to be
  negative. The first files show five cents for each whole dollar of the pot (:func:`rake_of`: #9581478205's
  $8.85 pays $0.40, #10399817763's $12.80 $0.60), but a larger pot pays less (hi/lo #11480841734 of 2012:
  $1.00 of $182.00, a cap the files do not state), so no formula is imposed. Tournaments pay none
  (#11792805420: 2,560 chips won of 2,560), and a tournament hand that leaves a rake is refused;
* **a winner's ``wins`` includes his uncalled bet**: in #10399817763 Player8 bets $1 on the river, Player4
  folds, and Player8 ``wins $13.20``: the $12.80 pot less its $0.60 rake, plus his $1 back. The reader
  states the returned bet and the pot's share apart (:func:`settled`);
* the bring-in is fixed by the stakes: $0.25 at $0.50/$1 (both cash hands), 20 chips at 60/120
  (#11792805420); a tournament's ante is its header's (``Stakes-Antes(60/120-10)``);
* the betting goes to three raises after the bet (#11792805420's 6th street, heads-up, bets and raises
  three times); nothing shows a cap, a tie of boards or an odd chip otherwise, so those stay casino.
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

__all__ = [
    "OPTIONS",
    "TITLE",
    "clean",
    "detect",
    "lead",
    "loads_each",
    "rake_of",
    "read_hand",
    "settled",
    "starts_hand",
]

TITLE: Final = "PartyPoker"

#: PartyPoker's table rules on top of the ``casino`` preset: nothing in its files differs from it.
OPTIONS: Final[Mapping[str, Any]] = MappingProxyType({})

#: The bring-in of the stakes the files show (cash game?, small bet, big bet: cents, or tournament chips).
_BRING_INS: Final = {(True, 50, 100): 25, (False, 60, 120): 20}
_GAMES: Final = {
    "7 card stud": Variant.STUD7,
    "7 card stud hi-lo": Variant.STUD7_HL8,
    "7 card stud hi/lo": Variant.STUD7_HL8,
    "razz": Variant.RAZZ,
    "5 card stud": Variant.STUD5,
}
_MONTH_NAMES: Final = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_MONTHS: Final = {m: k for k, m in enumerate(_MONTH_NAMES, 1)}
_AMT = r"\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?: USD| EUR)?"
_NUMBER = re.compile(r"^#Game No : (?P<id>\d+)$")
_STARTS = re.compile(r"^Game #(?P<id>\d+) starts\.$")
_TITLE = re.compile(r"^\*{5} Hand History for Game (?P<id>\d+) \*{5}$")
_DATE = r" - \w+, (?P<month>\w+) (?P<day>\d\d?), (?P<time>\d\d?:\d\d:\d\d) (?P<tz>\S+) (?P<year>\d{4})$"
_CASH = re.compile(r"^(?P<small>\$?[\d.,]+)/(?P<big>\$?[\d.,]+) (?P<currency>USD|EUR) (?P<game>.+?)" + _DATE)
_TOUR = re.compile(
    r"^(?P<limit>FL|NL|PL) (?P<game>.+?) (?P<buyin>\S+ \w+) Buy-in Trny:(?P<tournament>\d+) Level:(?P<level>\d+)\s+"
    r"Stakes-Antes\((?P<small>[\d,]+)/(?P<big>[\d,]+)-(?P<ante>[\d,]+)\)" + _DATE
)
_TABLE = re.compile(r"^Table (?P<table>.+) \((?P<money>Real|Play) Money\)$")
_PLAYERS = re.compile(r"^Total number of players : (?P<count>\d+)/(?P<max>\d+)$")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \( (?P<stack>" + _AMT + r") \)$")
_STREETS: Final = {
    "** Dealing **": 3,
    "** Dealing Fourth street **": 4,
    "** Dealing Fifth street **": 5,
    "** Dealing Sixth street **": 6,
    "** Dealing River **": 7,
}
_BRACKET = re.compile(
    r"^(?P<verb>posts ante|bring-ins|completes|bets|double bets|raises|calls|is all-In) +\[(?P<amount>" + _AMT + r")\]$"
)
_DEALT = re.compile(r"^Dealt to (?P<name>.+?) \[(?P<cards>[^\]]*)\]$")
_SHOWS = re.compile(r"^(?P<verb>shows|doesn't show) \[(?P<cards>[^\]]*)\]")
_WINS = re.compile(  # a hi/lo pot's low half: "wins Lo ($90.50 USD) from the main pot with 8,5,3,2,A."
    r"^wins (?:Lo \((?P<low>" + _AMT + r")\)|(?P<amount>" + _AMT + r"))(?: chips)?"
    r"(?: from the (?P<pot>main pot|side pot(?: (?P<index>\d+))?))?(?: .*)?$"
)
#: The low hand said after the hand is shown (``NAME shows8,5,3,2,A  for low.``): words, no cards or chips.
_LOW_SAID = re.compile(r"^shows ?[2-8A](?:,[2-8A]){4} +for low\.?$")


def rake_of(pot: int) -> int:
    """PartyPoker's cash-game rake, in cents, of a pot of ``pot`` cents: five for each whole dollar."""
    return pot // 100 * 5


def settled(spent: Mapping[str, int]) -> tuple[str | None, int]:
    """Who gets chips back when players have put in ``spent``, and how many: the part of the largest sum
    that no one matched (None, 0 if every sum is matched)."""
    ranked = sorted(spent.items(), key=lambda item: item[1], reverse=True)
    if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
        return None, 0
    return ranked[0][0], ranked[0][1] - ranked[1][1]


def detect(text: str) -> bool:
    """A PartyPoker export starts ``Game #<id> starts.`` or ``#Game No : <id>``."""
    head = text.lstrip("\x00\ufeff \t\n")
    return _STARTS.match(head.split("\n", 1)[0]) is not None or head.startswith("#Game No : ")


def loads_each(text: str) -> list[tuple[int, HandRecord | SiteError]]:
    """Every hand of the text, each read on its own."""
    text = clean(text)
    lines = text.split("\n")
    starts = [i - lead(lines, i) for i, line in enumerate(lines) if starts_hand(line)]
    return read_hands(text, starts, _Hand)


def clean(text: str) -> str:
    """The text without its NUL characters (some exports are padded with them)."""
    return text.replace("\x00", "")


def starts_hand(line: str) -> bool:
    """Whether a line tells a hand begins: its number (``#Game No : <id>``); the hand may begin a few lines above
    (:func:`lead`)."""
    return _NUMBER.match(line.strip()) is not None


def lead(before: list[str], end: int | None = None) -> int:
    """How many of the lines ``before`` a hand's number line (up to ``end``, else all) are the hand's: the last
    blank ones, and a ``Game #<id> starts.`` line above them."""
    stop = len(before) if end is None else end
    k = stop
    while k > 0 and not before[k - 1].strip():
        k -= 1
    if k > 0 and _STARTS.match(before[k - 1].strip()) is not None:
        k -= 1
    return stop - k


def read_hand(lines: list[str], first: int) -> HandRecord:
    """One hand: its lines (from the first that is the hand's) and the 1-based line of the file it starts on."""
    return _Hand(lines, first).read()


class _Hand:
    def __init__(self, lines: list[str], first: int) -> None:
        self.lines, self.first = lines, first
        self.folded: set[str] = set()
        self.dealing: set[str] | None = None
        self.count = 0
        self.opener: tuple[str, int] | None = None
        self.spent: dict[str, int] = {}
        self.wins: list[tuple[str, int, int, int | None]] = []  # name, amount, line, pot

    def read(self) -> HandRecord:
        number_at = next((k for k, line in enumerate(self.lines) if _NUMBER.match(line.strip())), None)
        if number_at is None:
            raise SiteError("the hand has no '#Game No' line", room=TITLE, line=self.first)
        found = _NUMBER.match(self.lines[number_at].strip())
        assert found is not None
        hand = found["id"]
        header_at = number_at + 2
        if header_at >= len(self.lines):
            raise SiteError("the hand stops before its header", room=TITLE, hand=hand, line=self.first)
        for k, raw in enumerate(self.lines[: number_at + 2]):
            text = raw.strip()
            if k == number_at or (k < number_at and not text):
                continue
            said = (_STARTS if k < number_at else _TITLE).match(text)
            if said is None or said["id"] != hand:
                raise SiteError(
                    f"the line {text!r} does not name the hand {hand}", room=TITLE, hand=hand, line=self.first + k
                )
        head = self.lines[header_at].strip()
        line_no = self.first + header_at
        cash, tour = _CASH.match(head), _TOUR.match(head)
        header = cash or tour
        if header is None:
            raise SiteError(f"cannot read the header {head!r}", room=TITLE, hand=hand, line=line_no)
        game = header["game"].strip()
        limit_said = cash is not None and game.upper().startswith("FL ")  # 2012: "$10/$20 USD FL 7 Card Stud Hi-Lo"
        variant = _GAMES.get(game[3:].lower() if limit_said else game.lower())
        if variant is None or (tour is not None and tour["limit"] != "FL") or game.upper().startswith(("NL ", "PL ")):
            raise NotStudGameError(
                game if tour is None else f"{tour['limit']} {game}", room=TITLE, hand=hand, line=line_no
            )
        b = HandBuilder(TITLE, hand, self.first, cents=cash is not None)
        if header["month"] not in _MONTHS:
            raise b.fail(f"{header['month']!r} is not a month", line_no)
        small, big = b.chips(header["small"], line_no), b.chips(header["big"], line_no)
        b.info.update(
            {
                "year": int(header["year"]),
                "month": _MONTHS[header["month"]],
                "day": int(header["day"]),
                "time": header["time"],
                "time_zone_abbreviation": header["tz"],
            }
        )
        if tour is not None:
            b.info.update({"tournament": tour["tournament"], "level": int(tour["level"]), "buy_in": tour["buyin"]})
        max_seats: int | None = None
        seated: tuple[int, int] | None = None  # the number of players the file gives, and its line
        money = "Real"
        for offset, raw in enumerate(self.lines[header_at + 1 :], header_at + 1):
            line = raw.strip()
            number = self.first + offset
            b.line = number
            if not line:
                continue
            if (table := _TABLE.match(line)) is not None and "table" not in b.info:
                b.info["table"], money = table["table"].strip(), table["money"]
                continue
            if (players := _PLAYERS.match(line)) is not None:
                max_seats, seated = int(players["max"]), (int(players["count"]), number)
                continue
            if (seat := _SEAT.match(line)) is not None and b.street == 0:
                b.seat(seat["name"], int(seat["seat"]), b.chips(seat["stack"], number), number)
                continue
            if line.startswith("Seat ") and line.endswith(" is the button"):
                continue
            if tour is not None and line in (
                f"Trny:{tour['tournament']} Level:{tour['level']}",
                f"Stakes-Antes({tour['small']}/{tour['big']}-{tour['ante']})",
            ):
                continue
            if line in _STREETS:
                self.fill(b, number)
                street = _STREETS[line]
                if street <= b.street:
                    raise b.fail(f"{line} comes after street {b.street}", number)
                self.close_round(b)
                five = variant is Variant.STUD5
                b.new_street(street - 1 if five else street, number)
                self.dealing, self.count = set(), (2 if five else 3) if street == 3 else 1
                continue
            if line == "There was no qualifying low hand":
                b.comment(line, number)
                continue
            if (dealt := _DEALT.match(line)) is not None:
                self.dealt(b, dealt["name"], dealt["cards"], number)
                continue
            self.fill(b, number)
            self.action(b, line, number)
        self.close_round(b)
        if self.opener is not None:
            raise b.fail(f"{self.opener[0]} opens but does not act", self.opener[1])
        if seated is not None and seated[0] != len(b.seats):
            raise b.fail(f"the hand says {seated[0]} players, but seats {len(b.seats)}", seated[1])
        for name, (_, stack, seat_line) in b.seats.items():
            if name in b.dealt_in() and stack <= 0:
                raise b.fail(f"{name} is dealt in with no chips", seat_line)
        self.results(b, cash is not None)
        if money == "Play":
            b.info["money"] = "play"
        return b.build(
            variant,
            ante=None if tour is None else b.chips(tour["ante"], line_no),
            bring_in=_BRING_INS.get((tour is None, small, big), None if b.bring_in is not None else max(small // 2, 1)),
            small_bet=small,
            big_bet=big,
            options=OPTIONS,
            currency=header["currency"] if cash is not None and money == "Real" else None,
            max_seats=max_seats,
        )

    def close_round(self, b: HandBuilder) -> None:
        for name, chips in b.round.items():
            self.spent[name] = self.spent.get(name, 0) + chips
        b.round = {}

    def results(self, b: HandBuilder, cash: bool) -> None:
        """The ``wins`` lines, the winner's returned bet taken out of them; the rake of a cash game."""
        back_to, back = settled(self.spent)
        pot = sum(self.spent.values()) - back
        if not self.wins:
            raise b.fail("the hand names no winner (truncated?)", self.first + len(self.lines) - 1)
        last = max(line for _, _, line, _ in self.wins)
        paid = 0
        for name, won, line, index in self.wins:
            share = won
            if name == back_to and back:
                if won < back:
                    raise b.fail(f"{name} wins {won} chips, less than his uncalled {back}", line)
                b.returned(name, back, line)
                share, back = won - back, 0
            b.collected(name, share, line, index)
            paid += share
        # the rake is not written: the pot less what the winners take, implied (rake_of is what the first files show;
        # it is not imposed: a hi/lo hand of 2012 pays $181.00 of a $182.00 pot)
        rake = pot - paid
        if rake < 0 or (rake and not cash):
            taken = "more than the pot" if rake < 0 else "less than the pot (a tournament takes no rake)"
            raise b.fail(f"the winners take {b.money(paid)} of {b.money(pot)}: {taken}", last)
        b.implied_rake(rake, last)

    def who(self, b: HandBuilder, line: str, number: int) -> tuple[str, str]:
        names = [n for n in b.seats if line.startswith(n + " ")]
        if not names:
            raise b.fail(f"cannot read the line {line!r}", number)
        name = max(names, key=len)
        return name, line[len(name) + 1 :].strip()

    def dealt(self, b: HandBuilder, name: str, text: str, number: int) -> None:
        b.known(name, number)
        if self.dealing is None or name in self.dealing:
            raise b.fail(f"cards dealt to {name} outside the dealing", number)
        cards = [b.card(t, number) for t in text.split()]
        if len(cards) != self.count:
            raise b.fail(f"{name} is dealt {len(cards)} cards, not {self.count}", number)
        b.deal(name, list(cards), number)
        self.dealing.add(name)

    def fill(self, b: HandBuilder, number: int) -> None:
        """The end of a street's dealing: the live players not written get unknown cards."""
        if self.dealing is None:
            return
        for name in sorted(self.live(b), key=lambda n: b.seats[n][0]):
            if name not in self.dealing:
                b.deal(name, [None] * self.count, number)
        self.dealing = None

    def live(self, b: HandBuilder) -> list[str]:
        return [n for n in b.seats if (n in b.anted or n in b.cards) and n not in self.folded]

    def action(self, b: HandBuilder, line: str, number: int) -> None:
        name, rest = self.who(b, line, number)
        if rest == "opens":
            if self.opener is not None:
                raise b.fail(f"{self.opener[0]} and {name} both open", number)
            self.opener = (name, number)
            return
        if (wins := _WINS.match(rest)) is not None:
            index = None if wins["pot"] is None else (0 if wins["pot"] == "main pot" else int(wins["index"] or 1))
            amount = wins["amount"] if wins["amount"] is not None else wins["low"]
            self.wins.append((b.known(name, number), b.chips(amount, number), number, index))
            return
        if _LOW_SAID.match(rest) is not None:
            b.comment(line, number)
            return
        if (shows := _SHOWS.match(rest)) is not None:
            cards: list[Card | None] = [b.card(t.strip(), number) for t in shows["cards"].split(",") if t.strip()]
            if shows["verb"] == "shows":
                b.show(name, cards, number)
            else:
                b.reveal(name, cards, number)
                b.show(name, None, number)
            return
        if rest in ("does not show cards.", "does not show cards"):
            b.show(name, None, number)
            return
        bracket = _BRACKET.match(rest)
        if bracket is None and rest not in ("folds", "checks"):
            raise b.fail(f"cannot read the line {line!r}", number)
        if bracket is not None and bracket["verb"] == "posts ante":
            amount = b.chips(bracket["amount"], number)
            if b.anted and b.seats[name][0] <= max(b.seats[n][0] for n in b.anted):
                raise b.fail("the antes are not posted in seat order", number)
            b.ante(name, amount, number)
            self.spent[name] = self.spent.get(name, 0) + amount
            return
        if self.opener is not None:
            if self.opener[0] != name:
                raise b.fail(f"{self.opener[0]} opens, but {name} acts first", number)
            self.opener = None
        if bracket is None:
            b.bet(name, "fold" if rest == "folds" else "check", number)
            if rest == "folds":
                self.folded.add(name)
            return
        verb, chips = bracket["verb"], b.chips(bracket["amount"], number)
        kinds = {"bring-ins": "bring-in", "completes": "complete", "bets": "bet", "double bets": "bet"}
        if verb in kinds:
            b.bet(name, kinds[verb], number, added=chips)
        elif verb == "raises":
            b.bet(name, "raise", number, added=chips)
        elif verb == "calls":
            b.bet(name, "call", number, added=chips)
        else:  # is all-In: a call if it does not pass the highest total, else a wager
            before, top = b.round.get(name, 0), max(b.round.values(), default=0)
            if before + chips <= top:
                b.bet(name, "call", number, added=chips, all_in=True)
            else:
                b.bet(name, "raise" if top else "bet", number, added=chips, all_in=True)
