"""Winning Poker Network text hand histories (UTF-16 files, one per table and day).

A hand starts ``Game started at: 2016/8/2 11:13:2`` (no zero padding, no time zone), then
``Game ID: 693975843 1/2 (PRR) La Llorona - 3 (Seven Cards Stud HiLow)``: the id, the small and big bets, a
tag, the table and the game. Seats are ``Seat 5: ChazDazzle (10).``; every line of the hand is ``Player NAME
verb``: ``ante (0.15)``, ``received a card.`` (hidden) or ``received card: [6h]``, ``bring in (0.40)``,
``bets (1)``, ``calls (0.60)``, ``raises (4)`` (each amount: the chips the action puts in), ``checks``,
``folds``, ``mucks cards``; ``Uncalled bet (1) returned to NAME``. The street marks are one street late: the
3rd street's cards and betting come before any mark, and ``*** Third street ***`` opens the 4th street's
card (``*** Sixth street ***`` the 7th). The summary, after ``------ Summary ------``, gives ``Pot: 7.05. Rake
0.14. JP fee 0.06`` (the pot after the rake and the jackpot fee, both taken from it) and for each player
``[*]Player NAME shows: ... [cards] ...Bets: 3.55. Collects: 3.53. Loses: 0.02.`` (what he put in, uncalled
chips taken off; what he took; the difference, ``Wins:`` or ``Loses:``); ``Game ended at: ...`` closes it.

**Rules** (:data:`OPTIONS`, the ``casino`` preset otherwise). Seats act in position order from the lowest
seat (hand 693975843: bring-in seat 5, then seats 8 and 2). No round reaches a raise cap (one raise at
most), no open pair shows on 4th street (hands 693977839, 693978063: boards Ac 9h / 8d Qd and 7d 9c /
3c 4h), so those options keep the casino default. The rake and the jackpot fee are one deduction for the
engine (the ``rake`` of the record is their sum). A split pot is where the room differs: hand 693975843 (stud
hi/lo, 7.25 in the pot, 0.20 taken) pays the low hand 3.53 and the high hand 3.52, the odd cent to the *low*
half where the SPEC (R11.5) gives it to the high half. The reader says so (``Stated.odd_chip_low``) and the
checker shares out the pot after the rake that way.

The data's hi/lo file is cut short inside its second hand (only the seats are left): that hand is refused.
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

TITLE: Final = "Winning Poker Network"

#: Winning's table rules on top of the ``casino`` preset: nothing in its files differs from it (its odd-cent
#: rule for a split pot is the checker's business, the engine paying whole pots).
OPTIONS: Final[Mapping[str, Any]] = MappingProxyType({})

_START: Final = "Game started at: "
_GAMES: Final = {
    "seven cards stud": Variant.STUD7,
    "seven cards stud hilow": Variant.STUD7_HL8,
    "razz": Variant.RAZZ,
    "five cards stud": Variant.STUD5,
}
_NUMBER = r"\d+(?:\.\d+)?"
_STARTED = re.compile(
    r"^Game started at: (?P<y>\d{4})/(?P<mo>\d\d?)/(?P<d>\d\d?) (?P<h>\d\d?):(?P<mi>\d\d?):(?P<s>\d\d?)$"
)
_GAME = re.compile(
    rf"^Game ID: (?P<id>\d+) (?P<small>{_NUMBER})/(?P<big>{_NUMBER}) \((?P<tag>[^)]*)\) (?P<table>.+) "
    r"\((?P<game>[^()]+)\)$"
)
_SEAT = re.compile(rf"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>{_NUMBER})\)\.$")
_STREET = re.compile(r"^\*\*\* (?P<name>Third|Fourth|Fifth|Sixth) street \*\*\*$")
_STREETS: Final = {"Third": 4, "Fourth": 5, "Fifth": 6, "Sixth": 7}
_VERB = re.compile(
    rf"^(?P<verb>ante|bring in|bets|calls|raises|checks|folds|mucks cards|received a card\.|received card:)"
    rf"(?: \((?P<amount>{_NUMBER})\)| \[(?P<card>[^\]]+)\])?$"
)
_RETURNED = re.compile(rf"^Uncalled bet \((?P<amount>{_NUMBER})\) returned to (?P<name>.+)$")
_POT = re.compile(rf"^Pot: (?P<pot>{_NUMBER})\. Rake (?P<rake>{_NUMBER})(?:\. JP fee (?P<jp>{_NUMBER}))?$")
_RESULT = re.compile(
    rf"^(?P<star>\*?)Player (?P<text>.+?) ?Bets: (?P<bets>{_NUMBER})\. Collects: (?P<collects>{_NUMBER})\. "
    rf"(?P<sign>Wins|Loses): (?P<net>{_NUMBER})\.$"
)
_ENDED = re.compile(r"^Game ended at: \d{4}/\d\d?/\d\d? \d\d?:\d\d?:\d\d?$")


def detect(text: str) -> bool:
    """A Winning export starts with ``Game started at:`` and names the game on a ``Game ID:`` line."""
    return text.startswith(_START) and re.search(r"^Game ID: \d+ ", text[:1000], re.M) is not None


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
        self.mucked: set[str] = set()

    def read(self) -> HandRecord:
        started = _STARTED.match(self.lines[0].lstrip("\ufeff").strip())
        if started is None:
            raise SiteError("the hand's first line is not a Winning start", room=TITLE, line=self.first)
        body = [(self.first + k, raw.strip()) for k, raw in enumerate(self.lines[1:], 1) if raw.strip()]
        if not body or (game := _GAME.match(body[0][1])) is None:
            raise SiteError("the hand has no Game ID line after its start", room=TITLE, line=self.first)
        hand = game["id"]
        name = game["game"].strip()
        variant = _GAMES.get(name.lower())
        if variant is None:
            raise NotStudGameError(f"{name} ({game['tag']})", room=TITLE, hand=hand, line=body[0][0])
        if game["tag"] != "PRR":  # the data's one tag, its fixed-limit ring games
            raise SiteError(
                f"a game tagged {game['tag']!r}: only PRR games are read", room=TITLE, hand=hand, line=body[0][0]
            )
        b = HandBuilder(TITLE, hand, self.first, cents=True)
        small, big = b.chips(game["small"], body[0][0]), b.chips(game["big"], body[0][0])
        b.info.update(
            {
                "table": game["table"],
                "year": int(started["y"]),
                "month": int(started["mo"]),
                "day": int(started["d"]),
                "time": f"{int(started['h']):02d}:{int(started['mi']):02d}:{int(started['s']):02d}",
            }
        )
        b.stated.returns_stated = True
        b.stated.odd_chip_low = True
        section = "seats"
        ended = False
        for number, line in body[1:]:
            b.line = number
            if ended:
                if line.strip("\ufffd"):
                    raise b.fail(f"a line after the end of the hand: {line!r}", number)
                continue
            if section == "seats" and (seat := _SEAT.match(line)) is not None:
                b.seat(seat["name"], int(seat["seat"]), b.chips(seat["stack"], number), number)
                continue
            if (street := _STREET.match(line)) is not None and section != "summary":
                section = "play"
                b.new_street(_STREETS[street["name"]], number)
                continue
            if line == "------ Summary ------" and section != "summary":
                section = "summary"
                continue
            if _ENDED.match(line) is not None and section == "summary":
                ended = True
                continue
            if section == "summary":
                self.summary(b, line, number)
                continue
            if section == "seats":
                section = "play"
                b.new_street(3, number)
            self.action(b, line, number)
        if not ended:
            last = body[-1][0]
            raise b.fail(f"the hand breaks off at line {last}, before its summary's end (the file is cut short)", last)
        for name in b.dealt_in():
            if b.seats[name][1] <= 0:
                raise b.fail(f"{name} is dealt in with no chips", b.seats[name][2])
        if b.stated.total_pot is None:
            raise b.fail("the summary has no pot line")
        return b.build(
            variant,
            ante=None,
            bring_in=None,
            small_bet=small,
            big_bet=big,
            options=OPTIONS,
            currency="USD",
        )

    def player(self, b: HandBuilder, text: str, number: int) -> tuple[str, str]:
        """The seated player a text begins with (the longest name that fits) and the rest of it."""
        best = None
        for name in b.seats:
            if text.startswith(name + " ") and (best is None or len(name) > len(best)):
                best = name
        if best is None:
            raise b.fail(f"no seated player in {text!r}", number)
        return best, text[len(best) + 1 :]

    def action(self, b: HandBuilder, line: str, number: int) -> None:
        if (returned := _RETURNED.match(line)) is not None:
            b.returned(b.known(returned["name"], number), b.chips(returned["amount"], number), number)
            return
        if not line.startswith("Player "):
            raise b.fail(f"cannot read the line {line!r}", number)
        name, rest = self.player(b, line[len("Player ") :], number)
        found = _VERB.match(rest)
        if found is None:
            raise b.fail(f"cannot read the line {line!r}", number)
        verb, text, card = found["verb"], found["amount"], found["card"]
        wants_amount = verb in ("ante", "bring in", "bets", "calls", "raises")
        if (text is not None) != wants_amount or (card is not None) != (verb == "received card:"):
            raise b.fail(f"cannot read the line {line!r}", number)
        chips = b.chips(text, number) if text is not None else 0
        if verb == "ante":
            if b.street != 3 or b.cards:
                raise b.fail(f"an ante after the deal began: {line!r}", number)
            b.ante(name, chips, number)
        elif verb == "received a card.":
            b.deal(name, [None], number)
        elif verb == "received card:":
            assert card is not None
            b.deal(name, [b.card(card.strip(), number)], number)
        elif verb == "mucks cards":
            b.show(name, None, number)
            self.mucked.add(name)
        elif verb in ("checks", "folds"):
            b.bet(name, "check" if verb == "checks" else "fold", number)
        else:
            kind = {"bring in": "bring-in", "bets": "bet", "calls": "call", "raises": "raise"}[verb]
            b.bet(name, kind, number, added=chips)

    def summary(self, b: HandBuilder, line: str, number: int) -> None:
        if (pot := _POT.match(line)) is not None:
            if b.stated.total_pot is not None:
                raise b.fail("a second pot line", number)
            taken = b.chips(pot["rake"], number) + (b.chips(pot["jp"], number) if pot["jp"] else 0)
            b.total_pot(b.chips(pot["pot"], number), number, includes_rake=False)
            b.rake(taken, number)
            return
        result = _RESULT.match(line)
        if result is None:
            raise b.fail(f"cannot read the line {line!r}", number)
        name, rest = self.player(b, result["text"] + " ", number)
        rest = rest.strip()
        if rest.startswith("shows:"):
            cards = re.search(r"\[([^\]]*)\]", rest)
            if cards is None:
                raise b.fail(f"cannot read the cards of {line!r}", number)
            b.show(name, [b.card(token, number) for token in cards.group(1).split()], number)
        elif rest.startswith("mucks (does not show cards)"):
            if name not in self.mucked:
                b.show(name, None, number)
        elif not rest.startswith("does not show cards"):
            raise b.fail(f"cannot read the line {line!r}", number)
        bets, collects = b.chips(result["bets"], number), b.chips(result["collects"], number)
        net = b.chips(result["net"], number)
        if (result["sign"] == "Wins") != (collects > bets) or (bool(result["star"]) != (collects > 0)):
            raise b.fail(
                f"{name} {result['sign'].lower()} {result['net']} after putting in {result['bets']}"
                f" and collecting {result['collects']}",
                number,
            )
        b.invested(name, bets, number)
        b.collected(name, collects, number)
        b.net(name, net if result["sign"] == "Wins" else -net, number)


def _cards(b: HandBuilder, text: str, line: int) -> list[Card | None]:
    return [b.card(token, line) for token in text.split()]
