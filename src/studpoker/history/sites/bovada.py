"""Bovada (formerly Bodog) text hand histories.

A hand starts ``Bodog Hand #2604291510 TBL#1178621 7CARD Fixed Limit - 2012-05-07 03:40:07`` (cash; later
``Bovada Hand #... TBL#... 7CARD HiLo Fixed Limit - ...``) or, in a tournament, ``Bovada Hand #2633115879: 7CARD
Tournament #1378659 TBL#1, Fixed Limit- Level 1 (0/0) - 2012-06-17 22:21:03``. The file names no time zone.
Players are not named: each is his seat, ``Seat+4`` (``Seat+4 [ME]`` for the player who saved the file), and
that is the name the record keeps. Seats are ``Seat+1: $0.57 in chips``; every line of the hand is
``Seat+1 : Verb amount``. ``Card dealt to a spot [..]`` gives each street's cards, everybody's, face value
(Bovada shows all hands after the hand); the later streets are marked in some files (``*** 4TH STREET ***``)
and not in others, so the street is the count of a player's cards. Cash amounts are dollars (``$0.05``: cents),
tournament amounts chips (``1,500``).

Verbs: ``Ante chip``; ``Bring_in chip`` / ``Big blind/Bring in``; ``Bets`` (the low card completing at once
is ``Bets`` too), ``D bets`` / ``Double bets`` (the double bet of an open pair on 4th street); ``Raises N`` and
``All-in(raise) N`` (a raise *to* N, the completion after a bring-in included); ``Call(s) N`` (what it adds);
``All-in N`` (a call all-in, what it adds; one that raises the bet is a wager to the round total); ``Checks``;
``Folds``; a ``(timeout)`` suffix is the software acting for an absent player. ``Return uncalled portion of
bet N``, ``Hand result N`` (``Hand Result-Side Pot N``: from the side pot), the showdown's ``Showdown [best
five]`` and ``Mucks [all seven]``, ``Does not show [..]`` (a winner uncontested); seat changes (``Table enter
user``, ``Sit out``, ``Re-join``, ``Stand``, ``Ranking N``) are comments. The summary: ``Total Pot($0.59) |
Rake ($0.02)`` (no rake in a tournament), per seat ``Folded on the 5TH STREET``, ``$0.57 [Does not show]``,
``$0.45  with One pair [..]``, ``HI $2.33`` / ``LO $2.32``, ``lose with ..``, ``[Mucked] [..]``.

**Stakes.** The header does not give them (cash files say nothing; tournament levels read ``Level 4 (0/0)``).
The ante is the posted one; the bring-in the posted one, or, where the low card completes at once (stud hi/lo
hand 2633952287, tournament hand 2633119675), half the small bet in a tournament (every level shows that
ratio: 5/10, 30/60, 100/200, 150/300) and twice the ante at a cash table (its value changes nothing then).
The small bet is the first full wager of 3rd or 4th street (the completion on 3rd, a bet on 4th); a double
bet on 4th street, or the first bet of a later street, is the big bet, and the big bet is twice the small one
(every hand showing both: $0.05/$0.10, $0.25/$0.50, 10/20, 60/120, 200/400, 300/600; a hand whose wagers say
otherwise is refused). A hand with no full wager takes a small bet of twice the bring-in.
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

TITLE: Final = "Bovada"

#: Bovada's table rules on top of the ``casino`` preset, found by replaying every hand of the three files
#: (two cash files of 2012, one multi-table tournament of 40 hands):
#:
#: * the fourth-street double bet (``open_pair_double_bet``, the casino default for stud): cash hand
#:   2604291577 (``Seat+3 [ME] : D bets $0.10`` on 4th street with the 3d 3c of Seat+1 on board) and the
#:   tournament hands 2633116884, 2633121750, 2633123306 and 2633125397 (``Double bets 20``, ``80``,
#:   ``120``, ``160``): without the option those five hands are refused at that line;
#: * the raise cap of three raises after the completion or the opening bet (casino's) is consistent with
#:   every hand: tournament hand 2633132391 goes bring-in 100, completion to 200, raises to 400, 600, 800
#:   and calls, and on 4th street bet 200, raises to 400, 600, 800 and calls; no hand shows a fourth raise
#:   (nor, then, heads-up uncapping);
#: * seats act in seat order from the lowest (the bring-in's left next, then round the table), as every hand
#:   replays; no hand's first actor depends on the later-street tie-break (they replay the same under
#:   ``HIGH_CARD_BY_SUIT``), so casino's ``POSITION`` stays;
#: * the rake comes off the pot before a split, the odd cent to the high half: stud hi/lo hand 2633952287,
#:   $4.85 less $0.20 pays HI $2.33 and LO $2.32;
#: * the tournament's hands show nothing that differs from the casino rules (the double bet above is
#:   casino's and not the ``tournament`` preset's), so the casino preset serves them too.
#:
#: Nothing in the files shows the odd-chip rule of a stud-high split, or a fold when a check is free (no
#: hand folds when it could check): the casino defaults stand.
OPTIONS: Final[Mapping[str, Any]] = MappingProxyType({})

_GAMES: Final = {
    "7CARD": Variant.STUD7,
    "7CARD HILO": Variant.STUD7_HL8,
    "7CARD HI/LO": Variant.STUD7_HL8,
    "RAZZ": Variant.RAZZ,
}
_START = re.compile(r"^\ufeff?(?:Bovada|Bodog) Hand #")
_HEADER = re.compile(
    r"^\ufeff?(?:Bovada|Bodog) Hand #(?P<id>\d+):?\s+(?P<rest>.*?)\s*-\s*"
    r"(?P<date>\d{4}-\d\d-\d\d) (?P<time>\d\d?:\d\d:\d\d)$"
)
_TABLE = re.compile(r"\bTBL#(?P<table>[^\s,]+),?")
_TOURNAMENT = re.compile(r"\bTournament #(?P<id>\d+)")
_LEVEL = re.compile(r"\bLevel (?P<level>\d+)(?: \([^)]*\))?")
_LIMIT = re.compile(r"\b(?P<limit>Fixed Limit|No Limit|Pot Limit)-?")
_SEAT = re.compile(r"^(?P<name>Seat\+(?P<seat>\d+)(?: \[ME\])?): (?P<stack>\$?[\d,]+(?:\.\d+)?) in chips$")
_LINE = re.compile(r"^(?P<name>Seat\+\d+(?: \[ME\])?) : (?P<what>.*)$")
_MARK = re.compile(r"^\*\*\* (?P<name>[^*]+?) \*\*\*$")
_MONEY = r"\$?\d[\d,]*(?:\.\d+)?"
_VERB = re.compile(
    rf"^(?P<verb>[A-Za-z_/ -]+?)(?:\((?P<how>[a-z]+)\))?(?: (?P<amount>{_MONEY})(?: to (?P<to>{_MONEY}))?)?$"
)
_CARDS = re.compile(r"^(?P<verb>Card dealt to a spot|Showdown|Mucks|Does not show) \[(?P<cards>[^\]]*)\](?: \(.*\))?$")
_TOTAL = re.compile(rf"^Total Pot\((?P<total>{_MONEY})\)(?: \| Rake \((?P<rake>{_MONEY})\))?$")
_SUMMARY_SEAT = re.compile(r"^Seat[ +](?P<seat>\d+):\s*(?P<rest>.*)$")
_SUMMARY_FOLD = re.compile(r"^Folded on the (?P<street>\w+)(?: STREET)?$", re.I)
_SUMMARY_WON = re.compile(rf"^(?:(?P<amount>{_MONEY})\s|(?:HI|LO) )")
_GROUP = re.compile(r"\[([^\]]*)\]")
_HALF = re.compile(rf"\b(?:HI|LO) (?P<amount>{_MONEY})")
_STREETS: Final = {"3RD": 3, "4TH": 4, "5TH": 5, "6TH": 6, "7TH": 7, "RIVER": 7}
_COMMENTS: Final = frozenset(
    {"table enter user", "table leave user", "seat sit out", "seat stand", "sit out", "re-join", "stand", "ranking"}
)
_WAGERS: Final = frozenset({"bets", "d bets", "double bets", "raises", "all-in"})


def detect(text: str) -> bool:
    """A Bovada or Bodog export starts with ``Bovada Hand #`` or ``Bodog Hand #``."""
    return _START.match(text) is not None


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
        self.small: int | None = None  # the stakes, as the wagers show them
        self.big: int | None = None
        self.small_line = self.big_line = first
        self.wagered: set[int] = set()  # the streets with a wager so far
        self.side_lines = 0

    def read(self) -> HandRecord:
        header = _HEADER.match(self.lines[0].strip())
        if header is None:
            raise SiteError("the hand's first line is not a Bovada header", room=TITLE, line=self.first)
        hand = header["id"]
        rest = header["rest"]
        table, tournament, level, limit = (
            _TABLE.search(rest),
            _TOURNAMENT.search(rest),
            _LEVEL.search(rest),
            _LIMIT.search(rest),
        )
        game = rest
        for found in (table, tournament, level, limit):
            if found is not None:
                game = game.replace(found.group(0), " ")
        game = " ".join(game.replace("Tournament", " ").split())
        variant = _GAMES.get(game.upper())
        if variant is None or limit is None or limit["limit"] != "Fixed Limit":
            label = f"{game} {limit['limit'] if limit else ''}".strip()
            raise NotStudGameError(label or rest, room=TITLE, hand=hand, line=self.first)
        cents = tournament is None
        b = HandBuilder(TITLE, hand, self.first, cents=cents)
        b.stated.returns_stated = True  # every uncalled bet of the files is given back in a line (29 of them)
        date = header["date"]
        b.info.update({"year": int(date[:4]), "month": int(date[5:7]), "day": int(date[8:10]), "time": header["time"]})
        if table is not None:
            b.info["table"] = table["table"]
        if tournament is not None:
            b.info["tournament"] = tournament["id"]
            if level is not None:
                b.info["level"] = int(level["level"])
        self.side_lines = sum(1 for raw in self.lines if "Hand Result-Side Pot" in raw)
        summary = False
        for offset, raw in enumerate(self.lines[1:], 1):
            line = raw.strip()
            number = self.first + offset
            b.line = number
            if not line:
                continue
            if (mark := _MARK.match(line)) is not None:
                summary = summary or mark["name"].upper() == "SUMMARY"
                continue
            if summary:
                self.summary(b, line, number)
            elif (seat := _SEAT.match(line)) is not None:
                if b.anted or b.cards:
                    raise b.fail(f"a seat line after the hand began: {line!r}", number)
                b.seat(seat["name"], int(seat["seat"]), b.chips(seat["stack"], number), number)
            elif (found := _LINE.match(line)) is not None:
                self.action(b, found["name"], found["what"], number)
            else:
                raise b.fail(f"cannot read the line {line!r}", number)
        if not summary:
            raise b.fail("the hand has no summary: it is cut short", self.first)
        small = self.small if self.small is not None else (self.big // 2 if self.big is not None else None)
        if small is None:
            small = 2 * (b.bring_in if b.bring_in is not None else max(b.anted.values(), default=0))
        if self.big is not None and self.big != 2 * small:
            shown = [f"${chips / 100:,.2f}" if cents else f"{chips:,}" for chips in (small, self.big)]
            raise b.fail(
                f"the wager of line {self.small_line} makes the small bet {shown[0]}, that of line {self.big_line}"
                f" the big bet {shown[1]}: not twice the small one",
                max(self.small_line, self.big_line),
            )
        bring_in = b.bring_in if b.bring_in is not None or cents else max(small // 2, 1)
        return b.build(
            variant,
            ante=None,
            bring_in=bring_in,
            small_bet=small,
            big_bet=2 * small,
            options=OPTIONS,
            currency="USD" if cents else None,
        )

    def action(self, b: HandBuilder, name: str, what: str, number: int) -> None:
        b.known(name, number)
        cards = _CARDS.match(what)
        if cards is not None:
            self.cards(b, name, cards["verb"], _cards(b, cards["cards"], number), number)
            return
        found = _VERB.match(what)
        if found is None:
            raise b.fail(f"cannot read the line {name} : {what}", number)
        verb = found["verb"].strip().lower()
        chips = b.chips(found["amount"], number) if found["amount"] is not None else None
        if verb in _COMMENTS:
            b.comment(f"{name} : {what}", number)
        elif verb in ("checks", "folds") and chips is None:
            b.bet(name, "check" if verb == "checks" else "fold", number)
        elif chips is None:
            raise b.fail(f"cannot read the line {name} : {what}", number)
        elif verb == "ante chip":
            b.ante(name, chips, number)
        elif verb in ("bring_in chip", "big blind/bring in"):
            b.bet(name, "bring-in", number, added=chips)
        elif verb in ("call", "calls"):
            b.bet(name, "call", number, added=chips)
        elif verb == "return uncalled portion of bet":
            b.returned(name, chips, number)
        elif verb in ("hand result", "hand result-side pot"):
            pot = (1 if verb.endswith("side pot") else 0) if self.side_lines <= 1 else None
            b.collected(name, chips, number, pot)
        elif verb in _WAGERS:
            total = b.chips(found["to"], number) if found["to"] is not None else None
            self.wager(b, name, verb, found["how"], chips, number, total)
        else:
            raise b.fail(f"cannot read the line {name} : {what}", number)

    def wager(
        self, b: HandBuilder, name: str, verb: str, how: str | None, chips: int, number: int, total: int | None
    ) -> None:
        """A wager line; ``total`` the round total of the newer files' ``Raises $5 to $10``, whose first amount
        is then what the raise puts in."""
        street, before = b.street, b.round.get(name, 0)
        highest = max(b.round.values(), default=0)
        added: int | None = None
        if total is not None:
            added, chips = chips, total
            if verb == "all-in" and how is None:
                how = "raise"
        if verb == "all-in" and how is None:
            if before + chips <= highest:  # a call all-in: what it adds
                b.bet(name, "call", number, added=chips, all_in=True)
                return
            to, kind = before + chips, "raise" if highest else "bet"
        elif verb in {"raises", "all-in"}:
            to, kind = chips, "raise"
        else:
            to, kind = chips, "bet"
        if street == 3 and kind == "bet":
            kind = "complete"
        all_in = True if verb == "all-in" else None
        if street not in self.wagered and all_in is None:  # the first full wager of its street names a stake
            if street == 3 or (street == 4 and verb == "bets"):
                if self.small is None:
                    self.small, self.small_line = to, number
            elif self.big is None:
                self.big, self.big_line = to, number
        self.wagered.add(street)
        b.bet(name, kind, number, added=added, to=to, all_in=all_in)

    def cards(self, b: HandBuilder, name: str, verb: str, cards: list[Card | None], number: int) -> None:
        held = b.cards.get(name, [])
        if verb == "Card dealt to a spot":
            street = 3 if not held else len(held) + 1
            if street > b.street:
                b.new_street(street, number)
            elif street < b.street:
                raise b.fail(f"{name} gets {street}th-street cards on street {b.street}", number)
            b.deal(name, cards, number)
            return
        unknown = [c for c in cards if c is None or c not in held]
        if unknown:
            raise b.fail(f"{name}'s {verb.lower()} names cards he was not dealt", number)
        if verb == "Showdown":
            b.show(name, list(held), number)
        elif verb == "Mucks":
            if len(cards) != len(held):
                raise b.fail(f"{name} mucks {len(cards)} cards, not the {len(held)} he holds", number)
            b.show(name, None, number)
        else:
            b.comment(f"{name} : Does not show", number)

    def summary(self, b: HandBuilder, line: str, number: int) -> None:
        total = _TOTAL.match(line)
        if total is not None:
            b.total_pot(b.chips(total["total"], number), number)
            if total["rake"] is not None:
                b.rake(b.chips(total["rake"], number), number)
            return
        seat = _SUMMARY_SEAT.match(line)
        if seat is None:
            raise b.fail(f"cannot read the summary line {line!r}", number)
        names = [n for n, (s, _, _) in b.seats.items() if s == int(seat["seat"])]
        if not names:
            raise b.fail(f"seat {seat['seat']} is not at this table", number)
        name, rest = names[0], seat["rest"].strip()
        fold = _SUMMARY_FOLD.match(rest)
        if fold is not None:
            street = _STREETS.get(fold["street"].upper())
            if street is None:
                raise b.fail(f"cannot read the street of {line!r}", number)
            b.folded_on(name, street, number)
            return
        self.summary_cards(b, name, rest, number)
        won = _SUMMARY_WON.match(rest)
        halves = _HALF.findall(rest)
        if won is not None and won["amount"] is not None:
            b.won(name, b.chips(won["amount"], number), number)
        elif halves:
            b.won(name, sum(b.chips(h, number) for h in halves), number)
        elif rest.startswith(("lose ", "lost ", "[Mucked]")) or "with" in rest:
            b.won(name, 0, number)
        else:
            raise b.fail(f"cannot read the summary line {line!r}", number)

    def summary_cards(self, b: HandBuilder, name: str, rest: str, number: int) -> None:
        """The cards a summary line lists (``[his cards-best five]``) must be the seat's own."""
        held = {c for c in b.cards.get(name, []) if c is not None}
        for group in _GROUP.findall(rest):
            if group.strip() in ("Does not show", "Mucked"):
                continue
            if not set(_cards(b, group, number)) <= held:  # the summary may leave one out (hand 2633132391)
                raise b.fail(f"the summary gives seat {b.seats[name][0]} cards that are not {name}'s", number)


def _cards(b: HandBuilder, text: str, line: int) -> list[Card | None]:
    return [b.card(token, line) for token in text.replace("-", " ").split()]
