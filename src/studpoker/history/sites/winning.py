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

**The later format** (2019: fpdb's ``7Stud-8max-USD-0.04-0.08-201907``; 2023: a hi/lo hand kept by the
hand-history-parser project) reads like PokerStars': ``Hand #85198832 - 7Stud(Fixed Limit) - $0.04/$0.08 -
2019/07/28 16:15:58 UTC`` (``7Stud H/L``, ``Razz``), the table (``Gorham 8-max``), ``Seat 1: Hero ($0.39)``,
``NAME posts ante $0.01``, ``*** 3rd STREET ***`` to ``*** 7th STREET ***`` each followed by the pots so far
after the rake (``Main pot $0.21 | Rake $0.00``, ``Side pot(1) $0.60 | Rake $0.00``), ``Dealt to NAME [Qd]`` (an
opponent's up cards; the saver's own three, then ``[old] [new]``), ``brings in $0.02``, ``bets``, ``calls``
(the chips added), ``raises $0.20 to $0.30`` (added, then the round's total; a completion counts from the
bring-in: ``raises $0.04 to $0.04`` over $0.02), ``and is all-in``, ``Uncalled bet ($0.08) returned to NAME``,
``shows [seven cards] (...)``, ``does not show``, ``collected $4.18 from main pot`` (``side pot-1``), and the
summary's ``Total pot $8.96 | Rake $0.08 | JP Fee $0.02`` (after both, which are one deduction, as before) and
seat lines (``folded on the 3rd Street``, ``showed [...] and won $4.48 with ...``, ``did not show and won``).

**The Americas Cardroom format of 2026** (a hi/lo hand kept by the PokerVector project) is the same but for its
header, ``Hand #2672065780 - 7Stud H/L (Fixed Limit) - $0.04/$0.08, Ante $0.01 - 2026/02/16 03:36:34 UTC``: a space
before the limit (both spellings are read for every game) and the ante after the stakes. The replay posts that
ante, so each ``posts ante`` line is checked against it, and the pots check it where no ante line is written (a
hand without an ante in its header takes the largest posted one, as before). A header it cannot read is refused
with what it says, unless it names another game (skipped). Its summary may write the pot alone, ``Total pot
$0.13``: the rake is then the one the last pot lines wrote (``Main pot $0.13 | Rake $0.00``), nothing if there are
none. ``NAME does not show`` (the winner no one called) and the seat lines ``did not show and won $0.13`` and
``folded on the 3rd Street and did not bet`` read as before; a seat line of any other wording is refused.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from ...cards import Card
from ...engine import Variant
from ..model import HandRecord
from .base import HandBuilder, NotStudGameError, SiteError, StatedAmount, moves_chips, read_hands

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
# the later format
_MONEY = r"\$?\d[\d,]*(?:\.\d+)?"
_HAND = re.compile(
    rf"^Hand #(?P<id>\d+) - (?P<game>[^()]+?) ?\((?P<limit>Fixed Limit|No Limit|Pot Limit)\) - "
    rf"(?P<small>{_MONEY})/(?P<big>{_MONEY})(?:, Ante (?P<ante>{_MONEY}))? - "
    r"(?P<y>\d{4})/(?P<mo>\d\d)/(?P<d>\d\d) (?P<time>\d\d:\d\d:\d\d)"
)
# a line that begins a hand of the later format (read by _HAND, or refused with what it says), and the first line of
# a file of it: a limit in brackets after the game
_HAND_START = re.compile(r"^Hand #\d+ - ")
_HAND_LIKE = re.compile(r"^Hand #(?P<id>\d+) - (?P<game>[^()\n]+?) ?\((?P<limit>(?:Fixed|No|Pot) Limit)\) - ")
_MODERN_GAMES: Final = {"7stud": Variant.STUD7, "7stud h/l": Variant.STUD7_HL8, "razz": Variant.RAZZ}
_MODERN_SEAT = re.compile(rf"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>{_MONEY})\)$")
_MARK = re.compile(r"^\*\*\* (?:(?P<n>[3-7])(?:rd|th) STREET|(?P<other>SHOW DOWN|SUMMARY)) \*\*\*$")
_POTS = re.compile(rf"^(?:Main pot|Side pot\((?P<n>\d+)\)) (?P<pot>{_MONEY}) \| Rake (?P<rake>{_MONEY})$")
_MODERN_VERB = re.compile(
    rf"^(?P<verb>posts ante|brings in|bets|calls|raises) (?P<amount>{_MONEY})(?: to (?P<to>{_MONEY}))?"
    r"(?P<all_in> and is all-in)?$|^(?P<bare>checks|folds|does not show|mucks)$"
)
_DEALT = re.compile(r"^Dealt to (?P<name>.+?) \[(?P<a>[^\]]*)\](?: \[(?P<b>[^\]]*)\])?$")
_SHOWS = re.compile(r"^(?P<name>.+?) shows \[(?P<cards>[^\]]*)\]")
_COLLECTED = re.compile(
    rf"^(?P<name>.+) collected (?P<amount>{_MONEY}) from (?P<pot>main pot|side pot-(?P<n>\d+)|pot)$"
)
_UNCALLED = re.compile(rf"^Uncalled bet \((?P<amount>{_MONEY})\) returned to (?P<name>.+)$")
_TOTAL = re.compile(rf"^Total pot (?P<total>{_MONEY})(?: \| Rake (?P<rake>{_MONEY})(?: \| JP Fee (?P<jp>{_MONEY}))?)?$")
_SUMMARY_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<rest>.+)$")
_FOLDED = re.compile(r"^folded on the (?P<n>[3-7])(?:rd|th) Street(?: and did not bet)?$")
# what a summary says of a player who did not fold: he won (the amount after the rake), lost, or mucked
_RESULT_SEAT = re.compile(
    rf"^(?:did not show|showed \[[^\]]*\]) and (?:won (?P<won>{_MONEY})|lost)(?: with .+)?$|^mucked\b.*$"
)


def detect(text: str) -> bool:
    """A Winning export starts with ``Game started at:`` and names the game on a ``Game ID:`` line, or (2019 on)
    with ``Hand #N - GAME(Fixed Limit) - `` (2026: ``GAME (Fixed Limit)``)."""
    if _HAND_LIKE.match(text.lstrip("\ufeff")) is not None:
        return True
    return text.startswith(_START) and re.search(r"^Game ID: \d+ ", text[:1000], re.M) is not None


def starts_hand(line: str) -> bool:
    """Whether a line of the text begins a hand."""
    line = line.lstrip("\ufeff")
    return line.startswith(_START) or _HAND_START.match(line) is not None


def read_hand(lines: list[str], first: int) -> HandRecord:
    """One hand: its lines (the first begins it) and the 1-based line of the file it starts on."""
    return _reader(lines, first).read()


def loads_each(text: str) -> list[tuple[int, HandRecord | SiteError]]:
    """Every hand of the text, each read on its own."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if starts_hand(line)]
    return read_hands(text, starts, _reader)


def _reader(lines: list[str], first: int) -> _Hand | _Modern:
    """The reader of a hand's format: the 2016 one (``Game started at:``) or the later one (``Hand #``)."""
    return _Modern(lines, first) if _HAND_START.match(lines[0].lstrip("\ufeff")) else _Hand(lines, first)


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


class _Modern:
    """A hand of the later format (``Hand #``): see the module."""

    def __init__(self, lines: list[str], first: int) -> None:
        self.lines, self.first = lines, first
        self.folded: set[str] = set()
        self.dealing = False  # a street's deal lines are being read
        # the rake of each pot as the last pot lines write it (so far: these lines open each street), and their line
        self.pot_rakes: dict[int, int] = {}
        self.pot_line: int | None = None

    def read(self) -> HandRecord:
        first = self.lines[0].lstrip("\ufeff").strip()
        header = _HAND.match(first)
        if header is None:
            said = _HAND_LIKE.match(first) or re.match(r"Hand #(?P<id>\d+)", first)
            if said is not None and "game" in said.groupdict():  # another game's header (a tournament's...): skipped
                game, limit = said["game"].strip(), said["limit"]
                if game.lower() not in _MODERN_GAMES or limit != "Fixed Limit":
                    raise NotStudGameError(f"{game} ({limit})", room=TITLE, hand=said["id"], line=self.first)
            raise SiteError(
                f"cannot read the header {first!r}: not 'Hand #N - GAME (LIMIT) - $SMALL/$BIG[, Ante $ANTE] - DATE'",
                room=TITLE,
                hand=said["id"] if said else "",
                line=self.first,
            )
        hand, game = header["id"], header["game"].strip()
        variant = _MODERN_GAMES.get(game.lower())
        if variant is None or header["limit"] != "Fixed Limit":
            raise NotStudGameError(f"{game} ({header['limit']})", room=TITLE, hand=hand, line=self.first)
        b = HandBuilder(TITLE, hand, self.first, cents=True)
        small, big = b.chips(header["small"], self.first), b.chips(header["big"], self.first)
        # the ante the header states (2026): the replay posts it, and each posted ante is checked against it
        ante = b.chips(header["ante"], self.first) if header["ante"] is not None else None
        b.info.update(
            {"year": int(header["y"]), "month": int(header["mo"]), "day": int(header["d"]), "time": header["time"]}
        )
        b.stated.returns_stated = True
        b.stated.odd_chip_low = True
        section, summary = "seats", False
        for offset, raw in enumerate(self.lines[1:], 1):
            number, line = self.first + offset, raw.strip()
            b.line = number
            if not line:
                continue
            mark = _MARK.match(line)
            if mark is not None:
                if mark["other"] != "SUMMARY":  # a street's or the showdown's pot lines follow
                    self.pot_rakes = {}
                self.close_street(b, number)
                if mark["n"] is not None:
                    b.new_street(int(mark["n"]), number)
                    section, self.dealing = "street", True
                else:
                    section = "summary" if mark["other"] == "SUMMARY" else "showdown"
                    summary = summary or section == "summary"
                continue
            if section == "seats":
                self.seat(b, line, number, offset)
            elif section == "summary":
                self.summary(b, line, number)
            else:
                self.play(b, line, number, section)
        if not summary:
            raise b.fail("the hand has no summary: it is cut short", self.first + len(self.lines) - 1)
        return b.build(variant, ante=ante, bring_in=None, small_bet=small, big_bet=big, options=OPTIONS, currency="USD")

    def seat(self, b: HandBuilder, line: str, number: int, offset: int) -> None:
        if (seat := _MODERN_SEAT.match(line)) is not None:
            b.seat(seat["name"], int(seat["seat"]), b.chips(seat["stack"], number), number)
        elif offset == 1:
            b.info["table"] = line
        else:
            name, rest = self.player(b, line, number)
            found = _MODERN_VERB.match(rest)
            if found is None or found["verb"] != "posts ante":
                raise b.fail(f"cannot read the line {line!r}", number)
            b.ante(name, b.chips(found["amount"], number), number, True if found["all_in"] else None)

    def close_street(self, b: HandBuilder, number: int) -> None:
        """The end of a street's deal: a live player whose card the saver did not see (7th street) gets it unknown."""
        street = b.street
        if not street or not self.dealing:
            return
        self.dealing = False
        for name in b.dealt_in():
            if name not in self.folded and street not in b.street_of.get(name, []):
                b.deal(name, [None], number)

    def player(self, b: HandBuilder, text: str, number: int) -> tuple[str, str]:
        """The seated player a line begins with (the longest name that fits) and the rest of it."""
        best = max((n for n in b.seats if text.startswith(n + " ")), key=len, default=None)
        if best is None:
            raise b.fail(f"cannot read the line {text!r}", number)
        return best, text[len(best) + 1 :]

    def play(self, b: HandBuilder, line: str, number: int, section: str) -> None:
        if (pots := _POTS.match(line)) is not None:
            self.pot_rakes[int(pots["n"]) if pots["n"] else 0] = b.chips(pots["rake"], number)
            self.pot_line = number
            if section == "showdown":  # the pots at the end, after the rake each paid (earlier: the pots so far)
                index = int(pots["n"]) if pots["n"] else 0
                b.stated.pots_after_rake = True
                b.pot(index, b.chips(pots["pot"], number), number)
                b.stated.pot_rakes.append(StatedAmount(b.chips(pots["rake"], number), number, None, index))
            return
        if (dealt := _DEALT.match(line)) is not None:
            name = b.known(dealt["name"], number)
            if b.street == 3 and dealt["b"] is None:
                cards: list[Card | None] = [b.card(t, number) for t in dealt["a"].split()]
                b.deal(name, [None] * (3 - len(cards)) + cards, number)
            elif dealt["b"] is not None:
                b.deal(name, [b.card(t, number) for t in dealt["b"].split()], number)
            else:
                raise b.fail(f"cannot read the line {line!r}", number)
            return
        self.close_street(b, number)
        if (uncalled := _UNCALLED.match(line)) is not None:
            b.returned(b.known(uncalled["name"], number), b.chips(uncalled["amount"], number), number)
            return
        if (collected := _COLLECTED.match(line)) is not None:
            pot = int(collected["n"]) if collected["n"] else 0
            b.collected(b.known(collected["name"], number), b.chips(collected["amount"], number), number, pot)
            return
        if (shows := _SHOWS.match(line)) is not None and shows["name"] in b.seats:
            name = shows["name"]
            b.reveal_in_any_order(name, [b.card(t, number) for t in shows["cards"].split()], number)
            b.show(name, list(b.cards[name]), number)
            return
        name, rest = self.player(b, line, number)
        found = _MODERN_VERB.match(rest)
        if found is None:
            if moves_chips(rest):
                raise b.fail(f"cannot read the line {line!r}", number)
            b.comment(line, number)
            return
        if found["bare"] in ("checks", "folds"):
            b.bet(name, "check" if found["bare"] == "checks" else "fold", number)
            if found["bare"] == "folds":
                self.folded.add(name)
            return
        if found["bare"] is not None:  # does not show, mucks
            b.show(name, None, number) if found["bare"] == "mucks" else b.comment(line, number)
            return
        chips = b.chips(found["amount"], number)
        all_in = True if found["all_in"] else None
        verb = found["verb"]
        if verb == "raises":
            if found["to"] is None:
                raise b.fail(f"cannot read the line {line!r}", number)
            to = b.chips(found["to"], number)
            kind = "complete" if b.street == 3 and max(b.round.values(), default=0) <= (b.bring_in or 0) else "raise"
            b.bet(name, kind, number, to=to, all_in=all_in)
        elif verb in ("brings in", "bets", "calls") and found["to"] is None:
            kind = {"brings in": "bring-in", "bets": "bet", "calls": "call"}[verb]
            b.bet(name, kind, number, added=chips, all_in=all_in)
        else:
            raise b.fail(f"cannot read the line {line!r}", number)

    def summary(self, b: HandBuilder, line: str, number: int) -> None:
        if (total := _TOTAL.match(line)) is not None:
            if b.stated.total_pot is not None:
                raise b.fail("a second total pot line", number)
            b.total_pot(b.chips(total["total"], number), number, includes_rake=False)
            if total["rake"] is not None:
                b.rake(b.chips(total["rake"], number) + (b.chips(total["jp"], number) if total["jp"] else 0), number)
            elif self.pot_line is not None:  # 2026: "Total pot $0.13" alone; the rake is the last pot lines' own
                b.rake(sum(self.pot_rakes.values()), self.pot_line)
            else:
                b.rake(0, number)
            return
        seat = _SUMMARY_SEAT.match(line)
        if seat is None:
            raise b.fail(f"cannot read the summary line {line!r}", number)
        name, rest = self.player(b, seat["rest"], number)
        if b.seats[name][0] != int(seat["seat"]):
            raise b.fail(f"{name} sits in seat {b.seats[name][0]}, not {seat['seat']}", number)
        if (folded := _FOLDED.match(rest)) is not None:
            b.folded_on(name, int(folded["n"]), number)
        elif (result := _RESULT_SEAT.match(rest)) is None:
            raise b.fail(f"cannot read the summary line {line!r}", number)
        elif result["won"] is not None:
            b.won(name, b.chips(result["won"], number), number)
