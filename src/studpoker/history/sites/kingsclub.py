"""KingsClub text hand histories.

A hand starts ``#37581152: Limit Seven Card Stud - 44/88`` (the game, then the small and big bet), then the
date ``2020-10-26 19:00:47`` (no time zone), ``Table 'Real Deal Mix'`` and the seats ``Seat 1: Player0
(2,146.30)``. ``Player0: posts ante 33.16``; ``Dealt to Player0: [X X 2s]`` (``X`` a card not shown; the
player who saved the file is ``Hero``, his cards shown); then betting lines ``Player0 brings in for 33.16``,
``bets 44``, ``raises to 77.16``, ``calls 121.16``, ``checks``, ``folds``, ``, and is all in`` after an
all-in one. Every wager *and every call* names the player's total for the round. The streets after the first
are marked one short: ``*** 3RD STREET ***`` heads the cards and betting of 4th street, ``*** 6TH STREET ***``
those of the river; the street is counted from the marks, not read from them. ``shows [..]`` gives a whole
hand (its down cards in any order). The summary: per seat ``Seat 1: Player0 (2,079.98) -66.32`` (the stack
after the hand and the net result), ``Rake 5``, ``Player0 wins pot (424.80)`` (after the rake). Uncalled bets
go back unsaid. Amounts have two decimals: cents, in "USD" as the data's file names say (the text names none).

**Rules** (:data:`OPTIONS`, the ``casino`` preset otherwise). The five hands of the files (two of them 2-7
razz, skipped) show: seats act from the lowest (after the bring-in, the next seat up; 7-stud hand 37581152,
stud hi/lo 39969428); the bring-in equals the ante in every hand (33.16, 16.58, 10, 125, 125), so the stakes
take it so, and a ``brings in for`` of another amount disagrees with them. They also show a
rule the engine has not got: after the completion, KingsClub raises 3rd street to the bring-in plus the
small bet, then by the small bet (hand 37581152: bring-in 33.16, completion to 44, raises to 77.16 and
121.16, the summary's net results confirming those totals; hand 3537921: all-in for 225, then a raise to
625 = 125 + 500; the 2-7 razz hand 40091899: 22, then 38.58). A fixed-limit raise after a completion to 44
goes to 88, so those hands are refused at the raise, never forced through. Nothing shows a raise cap, a
double bet, a tie on board or an odd chip: the casino defaults stand.

**multi.pot.failure** (the files' names, from fpdb, whose parser failed on them): both hands have a short
all-in player and a side pot, and the text writes one ``wins pot`` line. In the 2-7 razz hand 3703449 (skipped)
the all-in Player2 wins the main pot (5,613.25) and the side pot Player1 takes (2,674.50) has no line at all:
only his net result (-450.50) and stack show it. In the razz hand 3537921 Player4 wins both pots in one
``wins pot (4,100)``; the two hands are shown on 5th street and their river cards never are (``Dealt to
Player3: [X]``), so even past the raise to 625 its main pot could not be replayed.
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

TITLE: Final = "KingsClub"

#: KingsClub's table rules on top of the ``casino`` preset: nothing in its files differs from it that the
#: engine can express (its 3rd-street raise sizes cannot be: see the module's docstring).
OPTIONS: Final[Mapping[str, Any]] = MappingProxyType({})

_GAMES: Final = {
    "seven card stud": Variant.STUD7,
    "seven card stud hi-lo": Variant.STUD7_HL8,
    "seven card stud hi/lo": Variant.STUD7_HL8,
    "razz": Variant.RAZZ,
    "five card stud": Variant.STUD5,
}
_MONEY = r"\d[\d,]*(?:\.\d+)?"
_START = re.compile(r"^\ufeff?#\d+: ")
_HEADER = re.compile(rf"^\ufeff?#(?P<id>\d+): (?P<limit>\S+) (?P<game>.+?) - (?P<small>{_MONEY})/(?P<big>{_MONEY})$")
_DATE = re.compile(r"^(?P<year>\d{4})-(?P<month>\d\d)-(?P<day>\d\d) (?P<time>\d\d?:\d\d:\d\d)$")
_TABLE = re.compile(r"^Table '(?P<table>.*)'$")
_SEAT = re.compile(rf"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>{_MONEY})\)$")
_ANTE = re.compile(rf"^(?P<name>.+): posts ante (?P<amount>{_MONEY})(?P<all_in>, and is all in)?$")
_DEALT = re.compile(r"^Dealt to (?P<name>.+): \[(?P<cards>[^\]]*)\]$")
_MARK = re.compile(r"^\*\*\* (?P<name>[^*]+?) \*\*\*$")
_ACTION = re.compile(
    rf"^(?P<verb>brings in for|bets|raises to|calls|checks|folds|shows|mucks)"
    rf"(?: (?P<amount>{_MONEY}))?(?P<all_in>, and is all in)?(?: \[(?P<cards>[^\]]*)\])?$"
)
_RESULT = re.compile(rf"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>{_MONEY})\) (?P<sign>[-+]?)(?P<net>{_MONEY})$")
_RAKE = re.compile(rf"^Rake (?P<amount>{_MONEY})$")
_WINS = re.compile(rf"^(?P<name>.+) wins (?P<what>[\w -]*?)pot \((?P<amount>{_MONEY})\)$")
_KINDS: Final = {"brings in for": "bring-in", "bets": "bet", "raises to": "raise", "calls": "call"}


def detect(text: str) -> bool:
    """A KingsClub export starts ``#<id>: Limit <game> - <small>/<big>`` then the date on the next line."""
    lines = text.lstrip("\ufeff").split("\n", 2)
    return len(lines) >= 2 and _HEADER.match(lines[0].strip()) is not None and bool(_DATE.match(lines[1].strip()))


def starts_hand(line: str) -> bool:
    """Whether a line of the text begins a hand."""
    return _START.match(line) is not None


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
        self.opening = 3  # the first street: 3rd (2nd in five-card stud)

    def read(self) -> HandRecord:
        header = _HEADER.match(self.lines[0].strip())
        if header is None:
            raise SiteError("the hand's first line is not a KingsClub header", room=TITLE, line=self.first)
        hand, game = header["id"], header["game"].strip()
        variant = _GAMES.get(game.lower())
        if variant is None or header["limit"] != "Limit":
            label = game if header["limit"] == "Limit" else f"{header['limit']} {game}"
            raise NotStudGameError(label, room=TITLE, hand=hand, line=self.first)
        b = HandBuilder(TITLE, hand, self.first, cents=True)
        small, big = b.chips(header["small"], self.first), b.chips(header["big"], self.first)
        street = self.opening = 3 if variant is not Variant.STUD5 else 2
        b.new_street(street, self.first)
        summary = False
        for offset, raw in enumerate(self.lines[1:], 1):
            line = raw.strip()
            number = self.first + offset
            b.line = number
            if not line:
                continue
            if (mark := _MARK.match(line)) is not None:
                if mark["name"].upper() == "SUMMARY":
                    summary = True
                elif not summary:
                    street += 1
                    b.new_street(street, number)
                continue
            if summary:
                self.summary(b, line, number)
            elif offset == 1 and (date := _DATE.match(line)) is not None:
                b.info.update(
                    {
                        "year": int(date["year"]),
                        "month": int(date["month"]),
                        "day": int(date["day"]),
                        "time": date["time"],
                    }
                )
            elif (table := _TABLE.match(line)) is not None:
                b.info["table"] = table["table"]
            elif (seat := _SEAT.match(line)) is not None and not b.anted:
                b.seat(seat["name"], int(seat["seat"]), b.chips(seat["stack"], number), number)
            elif (ante := _ANTE.match(line)) is not None:
                b.ante(ante["name"], b.chips(ante["amount"], number), number, True if ante["all_in"] else None)
            elif (dealt := _DEALT.match(line)) is not None:
                name = b.known(dealt["name"], number)
                b.deal(name, [None if t.upper() == "X" else b.card(t, number) for t in dealt["cards"].split()], number)
            else:
                self.action(b, line, number)
        if not summary:
            raise b.fail("the hand has no summary: it is cut short", self.first)
        ante_chips = max(b.anted.values(), default=0)
        return b.build(
            variant,
            ante=ante_chips,
            bring_in=ante_chips,  # the room's: every hand of the files brings in for the ante
            small_bet=small,
            big_bet=big,
            options=OPTIONS,
            currency="USD",
        )

    def action(self, b: HandBuilder, line: str, number: int) -> None:
        for name in sorted(b.seats, key=len, reverse=True):
            if line.startswith(name + " "):
                found = _ACTION.match(line[len(name) + 1 :])
                if found is not None:
                    break
        else:
            raise b.fail(f"cannot read the line {line!r}", number)
        verb = found["verb"]
        amount = b.chips(found["amount"], number) if found["amount"] is not None else None
        all_in = True if found["all_in"] else None
        if verb in ("checks", "folds") and amount is None and found["cards"] is None:
            b.bet(name, "check" if verb == "checks" else "fold", number, all_in=all_in)
        elif verb == "shows" and found["cards"] is not None and amount is None:
            b.show(name, self.shown(b, name, found["cards"], number), number)
        elif verb == "mucks" and amount is None:
            b.show(name, None, number)
        elif verb in _KINDS and amount is not None and found["cards"] is None:
            kind = _KINDS[verb]
            if kind == "bet" and b.street == self.opening:
                kind = "complete"
            b.bet(name, kind, number, to=amount, all_in=all_in)
        else:
            raise b.fail(f"cannot read the line {line!r}", number)

    def shown(self, b: HandBuilder, name: str, text: str, number: int) -> list[Card | None]:
        """The cards ``name`` shows, in dealing order: the known ones where they were dealt, the others (his
        down cards, which KingsClub may list in another order) filling the hidden places in the order shown."""
        held = b.cards.get(name, [])
        shown = [b.card(t, number) for t in text.split()]
        if len(shown) != len(held) or len(set(shown)) != len(shown):
            raise b.fail(f"{name} shows {len(shown)} cards, not the {len(held)} dealt to him", number)
        known = [c for c in held if c is not None]
        missing = [c for c in known if c not in shown]
        if missing:
            raise b.fail(f"{name} shows a hand without his {missing[0]}", number)
        rest = iter(c for c in shown if c not in known)
        return [c if c is not None else next(rest) for c in held]

    def summary(self, b: HandBuilder, line: str, number: int) -> None:
        if (result := _RESULT.match(line)) is not None:
            name = b.known(result["name"], number)
            if b.seats[name][0] != int(result["seat"]):
                raise b.fail(f"{name} sits in seat {b.seats[name][0]}, not {result['seat']}", number)
            if name in b.anted or name in b.cards:
                b.final_stack(name, b.chips(result["stack"], number), number)
                net = b.chips(result["net"], number)
                b.net(name, -net if result["sign"] == "-" else net, number)
        elif (rake := _RAKE.match(line)) is not None:
            b.rake(b.chips(rake["amount"], number), number)
        elif (wins := _WINS.match(line)) is not None:
            b.collected(b.known(wins["name"], number), b.chips(wins["amount"], number), number)
        else:
            raise b.fail(f"cannot read the summary line {line!r}", number)
