"""Absolute Poker (and UltimateBet, the same software) text hand histories.

A hand starts ``Stage #<id>: <game>  Normal $0.02/$0.04 - 2009-03-18 19:10:00 (ET)``; seats are
``Seat 1 - NAME ($0.17 in chips)``; every line of the hand is ``NAME - Verb $amount``. Each street lists every
player's cards so far (``Pocket [H H Js 10d]``, ``H`` a hidden card); the showdown shows whole hands and says
``NAME Collects $X from main pot``; the summary gives ``Total Pot($0.43) | Rake ($0.04)`` and, for each
winner, ``won Total ($0.19)``.

**Rules** (:data:`OPTIONS`, the ``casino`` preset otherwise). The one file of the data, a stud hi/lo hand
of 2009, shows: seats act from seat 1 up (the bring-in is the lowest door card, later streets the best
board); a split pot is raked before it is split, the high half rounded up ($0.43 with $0.04 rake pays $0.20
high and $0.19 low). Nothing in it shows a raise cap, so the casino cap of three raises stands.
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

TITLE: Final = "Absolute Poker"

#: Absolute's table rules on top of the ``casino`` preset: nothing in its file differs from it.
OPTIONS: Final[Mapping[str, Any]] = MappingProxyType({})

_GAMES: Final = {"seven card hi/lo": Variant.STUD7_HL8, "seven card stud": Variant.STUD7, "razz": Variant.RAZZ}
_HEADER = re.compile(
    r"^Stage #(?P<id>\d+): (?P<game>.+?)\s+(?P<limit>Normal|Pot Limit|No Limit)\s+"
    r"(?P<small>\$?[\d.,]+)/(?P<big>\$?[\d.,]+) - (?P<date>\d{4}-\d\d-\d\d) (?P<time>[\d:]+) \((?P<tz>\w+)\)"
)
_SEAT = re.compile(r"^Seat (?P<seat>\d+) - (?P<name>.+) \((?P<stack>\$?[\d.,]+) in chips\)$")
_STREET = re.compile(
    r"^\*\*\* (?P<name>3RD STREET|4TH STREET|5TH STREET|6TH STREET|RIVER|SHOW DOWN|SUMMARY) \*\*\*$", re.I
)
_STREETS: Final = {"3RD STREET": 3, "4TH STREET": 4, "5TH STREET": 5, "6TH STREET": 6, "RIVER": 7}
_LINE = re.compile(r"^(?P<name>.+?) - (?P<verb>[A-Za-z-]+(?: [A-Za-z-]+)?)(?: (?P<rest>.*))?$")
_COLLECTS = re.compile(r"^(?P<name>.+) Collects (?P<amount>\$?[\d.,]+) from (?P<pot>main pot|side pot(?: \d+)?)$")
_TOTAL = re.compile(r"^Total Pot\((?P<total>\$?[\d.,]+)\)(?: \| Rake \((?P<rake>\$?[\d.,]+)\))?")
_SUMMARY_WON = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) won Total \((?P<amount>\$?[\d.,]+)\)")
_SUMMARY_FOLD = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) Folded on the (?P<street>\w+) STREET", re.I)
_CARDS = re.compile(r"^\[(?P<cards>[^\]]*)\]")
_AMOUNT = re.compile(r"^(?P<amount>\$?[\d.,]+)")


def detect(text: str) -> bool:
    """An Absolute export starts with ``Stage #``."""
    return text.startswith("Stage #")


def starts_hand(line: str) -> bool:
    """Whether a line of the text begins a hand."""
    return line.startswith("Stage #")


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

    def read(self) -> HandRecord:
        header = _HEADER.match(self.lines[0].strip())
        if header is None:
            raise SiteError("the hand's first line is not an Absolute header", room=TITLE, line=self.first)
        hand = header["id"]
        game = header["game"].strip()
        variant = _GAMES.get(game.lower())
        if variant is None or header["limit"] != "Normal":
            raise NotStudGameError(f"{game} {header['limit']}", room=TITLE, hand=hand, line=self.first)
        cents = "$" in header["small"]
        b = HandBuilder(TITLE, hand, self.first, cents=cents)
        small, big = b.chips(header["small"]), b.chips(header["big"])
        b.info.update(
            {
                "year": int(header["date"][:4]),
                "month": int(header["date"][5:7]),
                "day": int(header["date"][8:10]),
                "time": header["time"],
                "time_zone_abbreviation": header["tz"],
            }
        )
        section = "seats"
        street = 0
        for offset, raw in enumerate(self.lines[1:], 1):
            line = raw.strip()
            number = self.first + offset
            b.line = number
            if not line:
                continue
            mark = _STREET.match(line)
            if mark is not None:
                name = mark["name"].upper()
                section = name
                if name in _STREETS:
                    street = _STREETS[name]
                    b.new_street(street, number)
                continue
            if section == "seats" and (seat := _SEAT.match(line)) is not None:
                b.seat(seat["name"], int(seat["seat"]), b.chips(seat["stack"], number), number)
                continue
            if section == "SUMMARY":
                self.summary(b, line, number)
                continue
            collects = _COLLECTS.match(line)
            if collects is not None:
                pot = 0 if collects["pot"] == "main pot" else int(collects["pot"].split()[-1] or 1)
                b.collected(collects["name"], b.chips(collects["amount"], number), number, pot)
                continue
            self.action(b, line, number, section)
        if not b.dealt_in():
            raise b.fail("no player is dealt in", self.first)
        return b.build(
            variant,
            ante=None,
            bring_in=None,
            small_bet=small,
            big_bet=big,
            options=OPTIONS,
            currency="USD" if cents else None,
        )

    def action(self, b: HandBuilder, line: str, number: int, section: str) -> None:
        found = _LINE.match(line)
        if found is None or found["name"] not in b.seats:
            b.comment(line, number)
            return
        name, verb, rest = found["name"], found["verb"], found["rest"] or ""
        amount = _AMOUNT.match(rest)
        chips = b.chips(amount["amount"], number) if amount is not None else None
        if verb == "Ante" and chips is not None:
            b.ante(name, chips, number)
        elif verb == "Pocket":
            cards = _CARDS.match(rest)
            if cards is None:
                raise b.fail(f"cannot read the cards of {line!r}", number)
            b.deal_so_far(name, _cards(b, cards["cards"], number), number)
        elif verb == "Shows":
            cards = _CARDS.match(rest)
            if cards is None:
                raise b.fail(f"cannot read the cards of {line!r}", number)
            b.show(name, _cards(b, cards["cards"], number), number)
        elif verb in ("Mucks", "Muck"):
            b.show(name, None, number)
        elif verb == "Folds":
            b.bet(name, "fold", number)
        elif verb == "Checks":
            b.bet(name, "check", number)
        elif verb == "Calls" and chips is not None:
            b.bet(name, "call", number, added=chips, all_in="All-In" in rest or None)
        elif verb == "Bring-In" and chips is not None:
            b.bet(name, "bring-in", number, added=chips)
        elif verb in ("Bets", "Completes") and chips is not None:
            b.bet(name, "bet" if verb == "Bets" else "complete", number, added=chips)
        elif verb == "Raises" and chips is not None:
            to = re.search(r"to (\$?[\d.,]+)", rest)
            b.bet(name, "raise", number, to=b.chips(to.group(1), number) if to else None, added=None if to else chips)
        elif verb in ("All-In",) and chips is not None:
            b.bet(name, "call", number, added=chips, all_in=True)
        else:
            raise b.fail(f"cannot read the line {line!r}", number)

    def summary(self, b: HandBuilder, line: str, number: int) -> None:
        total = _TOTAL.match(line)
        if total is not None:
            b.total_pot(b.chips(total["total"], number), number)
            if total["rake"] is not None:
                b.rake(b.chips(total["rake"], number), number)
            return
        won = _SUMMARY_WON.match(line)
        if won is not None:
            b.won(won["name"], b.chips(won["amount"], number), number)
            return
        fold = _SUMMARY_FOLD.match(line)
        if fold is not None:
            street = _STREETS.get(f"{fold['street'].upper()} STREET", 7)
            b.folded_on(fold["name"], street, number)


def _cards(b: HandBuilder, text: str, line: int) -> list[Card | None]:
    return [None if token.upper() in ("H", "X", "XX") else b.card(token, line) for token in text.split()]
