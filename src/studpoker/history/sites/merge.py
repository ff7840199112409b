"""Merge Gaming network XML hand histories (files named ``.txt`` or ``.xml``, the same XML).

A file is a run of top-level elements, no root: each hand is a ``<description type="7-Stud H/L8"
stakes="Limit $0.25/$0.50"/>`` and a ``<game id= starttime= realmoney= data="date|table|...">``. The game
has ``<players>`` (``<player seat= nickname= balance= dealtin=/>``, seats from 0, the balance before the
hand) and ``<round id=...>`` elements: ``BLINDS`` (the antes), ``BRING_IN`` (the bring-in and the 3rd-street
cards), ``THIRD_STREET`` to ``SEVENTH_STREET``, ``SHOWDOWN``, ``END_OF_FOLDED_GAME`` / ``END_OF_GAME``.
Betting is ``<event sequence= type= player=SEAT amount=/>`` (``amount``: the chips the action adds, but a
``RAISE``'s is the raiser's total for the round: razz 43618199-14 raises to $1.00, $1.50, $2.00 over $0.10 in);
cards are ``<cards type= cards="null,null,7s" player=SEAT/>``, each listing the player's whole hand so far
(``null`` or nothing: a card not seen), written after the round's events though dealt before them; the
result is ``<winner amount= potnumber= player=/>``, the amount counting an uncalled bet given back.

**What the file states, and how it is checked.** Every event's amount; each player's winnings less what
his events put in is his net result, checked against the replay. The rake is not written: it is what the
players put in less what the winners take (below).

**Rules** (:data:`OPTIONS`, the ``casino`` preset otherwise). The three fixed-limit hands (one seven-card
stud, two stud hi/lo) show: seats act from the lowest up (the bring-in by the lowest door card, 4s of
seat 5 in 31423297-107; later streets the best board); nothing shows a raise cap, a tie of boards or a
split pot, so the casino defaults stand.

**The rake** is not written: it is what the players put in less what the winners take, taken as implied and
checked not to be negative. The first files fit 5% of the pot as it stood when the seventh street began: $0.18
of $3.65 (31423297-107), nothing of $0.14 (40263637-116), $0.16 of $4.39 (70969727-130, $3.39 before the
seventh street's $1.00 bet and call); thin evidence, and no formula of ours refuses a hand.
No-limit and pot-limit games (``NL7-StudHL``) are skipped.

Seats are numbered as the file numbers them plus one (the file's seat 0 is seat 1).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, Final

from ...cards import Card
from ...engine import Variant
from ..model import HandRecord
from .base import HandBuilder, NotStudGameError, SiteError
from .ipoker import Part, XmlElement, cut_game, cut_parts, number, parse_xml, refuse_hostile

__all__ = ["OPTIONS", "TITLE", "detect", "loads_each", "read_pieces"]

TITLE: Final = "Merge Gaming"

#: Merge's table rules on top of the ``casino`` preset: nothing in its files differs from it.
OPTIONS: Final[Mapping[str, Any]] = MappingProxyType({})

_GAMES: Final = {
    "7-stud": Variant.STUD7,
    "7-stud h/l8": Variant.STUD7_HL8,
    "7-stud h/l": Variant.STUD7_HL8,
    "razz": Variant.RAZZ,
    "5-stud": Variant.STUD5,
}
#: A mixed game's hands (``<description type="HORSE">``) name their game in the ``<game>``'s ``multigametype``
#: (a cash table's codes, then a tournament's: stud 39/41, stud hi/lo 43/45, razz 47/49, as the hands' own
#: ``hand=`` descriptions show in fpdb's ``HORSE-Tournament-Freeroll.201107`` and ``HORSE-8max-...-201409``).
_MULTI_GAMES: Final = {
    "39": "7-stud",
    "41": "7-stud",
    "43": "7-stud h/l8",
    "45": "7-stud h/l8",
    "47": "razz",
    "49": "razz",
}
_OTHER_GAMES: Final = {"23": "Hold'em", "37": "Omaha Hi/Lo"}
_DESCRIPTION = re.compile(r"<description\b[^>]*>")
_TAIL = re.compile(r"\s*(?:<description\b[^>]*>\s*)?")
_STAKES = re.compile(r"^(?P<limit>Limit|No Limit|Pot Limit)(?:\s*\(?(?P<small>[^/()\s]+)/(?P<big>[^/()\s]+))?")
_START = re.compile(r"^(?P<year>\d{4})(?P<month>\d\d)(?P<day>\d\d)(?P<h>\d\d)(?P<m>\d\d)(?P<s>\d\d)$")
_STREETS: Final = {
    "BRING_IN": 3,
    "THIRD_STREET": 3,
    "FOURTH_STREET": 4,
    "FIFTH_STREET": 5,
    "SIXTH_STREET": 6,
    "SEVENTH_STREET": 7,
}
_WAGERS: Final = {"BRING_IN": "bring-in", "COMPLETE": "complete", "BET": "bet", "RAISE": "raise", "CALL": "call"}


def detect(text: str) -> bool:
    """A Merge file starts with a ``<description type=... stakes=...>`` or a ``<game id=... gametype=...>``."""
    head = text.lstrip()
    if head.startswith("<?xml"):
        head = head[head.find("?>") + 2 :].lstrip()
    if head.startswith("<description"):
        return "stakes=" in head[:300]
    return head.startswith("<game ") and " gametype=" in head[:400] and " id=" in head[:400]


def loads_each(text: str) -> list[tuple[int, HandRecord | SiteError]]:
    """Every hand (``<game>``, with the ``<description>`` before it) of the text, each read on its own."""
    text = text.removeprefix("\ufeff")
    refuse_hostile(text, TITLE)
    return list(read_pieces([text]))


def read_pieces(
    pieces: Iterable[str], limit: int = sys.maxsize, too_long: str = ""
) -> Iterator[tuple[int, HandRecord | SiteError]]:
    """Each hand of a text given a piece at a time (its DOCTYPE and ENTITY refused beforehand), cut before each
    ``<game`` (:func:`~studpoker.history.sites.ipoker.cut_parts`) and read as it comes under the last
    ``<description>`` of the text before it (since the previous ``<game`` began); a hand over ``limit`` characters
    is the error ``too_long``."""
    mark: tuple[str, int] | None = None  # the last <description> so far: its text and line (one may serve many games)
    games = 0
    for part in cut_parts(pieces, sessions=False, limit=limit):
        if part.kind == "game":
            games += 1
            yield part.line, _read(part, mark, too_long)
        marks = list(_DESCRIPTION.finditer(part.text))
        if marks:
            mark = (marks[-1].group(0), part.line + part.text.count("\n", 0, marks[-1].start()))
    if not games:
        yield 1, SiteError("no <game> in the file", room=TITLE, line=1)


def _read(part: Part, mark: tuple[str, int] | None, too_long: str) -> HandRecord | SiteError:
    """The hand of one ``<game>`` part under its description (``mark``), or why it cannot be read."""
    if part.over:
        return SiteError(too_long, room=TITLE, line=part.line)
    try:
        description = None
        if mark is not None:
            elements = parse_xml(mark[0], mark[1], TITLE)
            description = elements[0] if len(elements) == 1 else None
        chunk = cut_game(part.text, part.line, TITLE, _TAIL)
        return _Game(chunk, part.line, description).read()
    except SiteError as error:
        return error


class _Game:
    def __init__(self, text: str, line: int, description: XmlElement | None) -> None:
        self.text, self.line, self.description = text, line, description
        self.seats: dict[str, str] = {}  # the file's seat: the player's name
        self.result_line = 10**9  # the first round naming a winner (a loser's net result is stated there)
        self.sequences: set[int] = set()
        self.wagers: list[tuple[int, str, int]] = []  # (street, complete or bet, chips): the level's stakes

    def read(self) -> HandRecord:
        elements = parse_xml(self.text, self.line, TITLE)
        game = elements[0] if len(elements) == 1 and elements[0].tag == "game" else None
        if game is None:
            raise SiteError("a hand is not one <game> element", room=TITLE, line=self.line)
        hand = game.get("id") or f"at line {self.line}"
        if self.description is None:
            raise SiteError("the hand has no <description> naming its game", room=TITLE, hand=hand, line=self.line)
        kind, stakes_text = self.description.get("type"), self.description.get("stakes")
        stakes = _STAKES.match(stakes_text)
        variant = _GAMES.get(kind.lower())
        code = game.get("multigametype").strip()
        if variant is None and code:
            variant = _GAMES.get(_MULTI_GAMES.get(code, ""))
            kind = f"{kind} ({_OTHER_GAMES.get(code, f'game {code}')})" if variant is None else kind
        if variant is None or stakes is None or stakes["limit"] != "Limit":
            limit = stakes["limit"] if stakes is not None else stakes_text
            raise NotStudGameError(f"{kind} {limit}".strip(), room=TITLE, hand=hand, line=self.line)
        play = game.get("realmoney") == "false"
        # a tournament's hand (the data's last field "true") counts chips, written as dollars and cents
        tour = game.get("data").split("|")[-1].strip() == "true"
        cents = not tour and (not play or "." in stakes_text)
        b = HandBuilder(TITLE, hand, self.line, cents=cents)
        where = self.description.line
        small = b.chips(stakes["small"], where) if stakes["small"] else None
        big = b.chips(stakes["big"], where) if stakes["big"] else None
        if tour:
            b.info["tournament"] = True
        self.info(b, game, play)
        players = game.all("players")
        if len(players) != 1:
            raise b.fail(f"the hand has {len(players)} <players> elements", self.line)
        # a tournament's balance is written after the ante (fpdb's HORSE freeroll of 2011: Player5, 5 after his
        # ante in 36487050-14, folds and antes his last 5 in -15 from a balance of 0), a cash table's before it
        anted: dict[str, int] = {}
        if tour:
            for round_ in game.all("round"):
                if round_.get("id") == "BLINDS":
                    for event in round_.all("event"):
                        if event.get("type") == "ANTE" and event.get("amount"):
                            seat_id = event.get("player").strip()
                            anted[seat_id] = anted.get(seat_id, 0) + b.chips(event.get("amount"), event.line)
        for player in players[0].all("player"):
            seat = number(b, player.get("seat"), "seat", player.line)
            name = player.get("nickname")
            if not name:
                raise b.fail("a player without a nickname", player.line)
            stack = b.chips(player.get("balance"), player.line) + anted.get(player.get("seat").strip(), 0)
            b.seat(name, seat + 1, stack, player.line)
            self.seats[player.get("seat").strip()] = name
        put_in, winnings = self.play(b, game)
        self.results(b, put_in, winnings, tour)
        if small is None or big is None:  # a tournament's level is not written: the hand's wagers say it
            small, big = self.stakes(b)
        return b.build(
            variant,
            ante=None,
            bring_in=None,
            small_bet=small,
            big_bet=big,
            options=OPTIONS,
            currency=_currency(stakes_text) if cents and not play else None,
        )

    def stakes(self, b: HandBuilder) -> tuple[int, int]:
        """The small and big bets of a hand whose description names none (a tournament's ``stakes="Limit"``): the
        first full wager of the 3rd or 4th street is the small bet, of a later street the big bet, the big bet twice
        the small; a hand with no wager takes a small bet of four bring-ins (a level's usual: 25 and 100)."""
        for street, kind, chips in self.wagers:
            if kind in ("complete", "bet") and street in (3, 4):
                return chips, 2 * chips
            if kind == "bet" and street >= 5:
                return chips // 2, chips
        bring_in = b.bring_in or 1
        return 4 * bring_in, 8 * bring_in

    def info(self, b: HandBuilder, game: XmlElement, play: bool) -> None:
        data = game.get("data").split("|")
        if len(data) > 1 and data[1]:
            b.info["table"] = data[1]
        if play:
            b.info["money"] = "play"
        start = _START.match(game.get("starttime"))
        if start is not None:
            b.info.update(
                {
                    "year": int(start["year"]),
                    "month": int(start["month"]),
                    "day": int(start["day"]),
                    "time": f"{start['h']}:{start['m']}:{start['s']}",
                }
            )

    def name(self, b: HandBuilder, element: XmlElement) -> str:
        name = self.seats.get(element.get("player").strip())
        if name is None:
            raise b.fail(f"no player sits in seat {element.get('player')!r}", element.line)
        return name

    def play(self, b: HandBuilder, game: XmlElement) -> tuple[dict[str, int], dict[str, tuple[int, int]]]:
        """Tell the builder the antes, cards, actions and showdown; what each player's events put in, and what
        each winner takes (chips, the line of his first winner element)."""
        put_in: dict[str, int] = {}
        winnings: dict[str, tuple[int, int]] = {}
        street = 0
        seen: set[str] = set()
        for round_ in game.all("round"):
            label = round_.get("id")
            if label in seen:
                raise b.fail(f"the round {label} is written twice", round_.line)
            seen.add(label)
            next_street = _STREETS.get(label, street)
            if next_street < street:
                raise b.fail(f"the round {label} comes after a later street", round_.line)
            if next_street != street:
                street = next_street
                b.new_street(street, round_.line)
            for chat in round_.children:  # a chat line names its speaker, not his seat, and repeats a number
                if chat.tag == "event" and chat.get("type") == "CHAT":
                    b.comment(f"{chat.get('player')}: {chat.get('text')}", chat.line)
            events = sorted(
                (
                    (number(b, e.get("sequence"), "event sequence", e.line), e)
                    for e in round_.children
                    if e.tag == "event" and e.get("type") != "CHAT"
                ),
                key=lambda item: item[0],
            )
            shown: dict[str, tuple[str, XmlElement]] = {}
            for cards in round_.all("cards"):
                name = self.name(b, cards)
                held = _cards(b, cards.get("cards"), cards.line)
                if cards.get("type") in ("SHOWN", "MUCKED"):
                    shown[name] = (cards.get("type"), cards)
                    b.reveal(name, held, cards.line)
                elif street:
                    b.deal_so_far(name, held, cards.line)
                else:
                    raise b.fail("cards dealt before the bring-in", cards.line)
            for order, event in events:
                if order in self.sequences:
                    raise b.fail(f"two events are number {order}", event.line)
                self.sequences.add(order)
                self.event(b, event, label, put_in, shown)
            for winner in round_.all("winner"):
                self.result_line = min(self.result_line, round_.line)
                name = self.name(b, winner)
                number(b, winner.get("potnumber") or "1", "pot number", winner.line)
                chips, line = winnings.get(name, (0, winner.line))
                winnings[name] = (chips + b.chips(winner.get("amount"), winner.line), line)
            for child in round_.children:
                if child.tag not in ("event", "cards", "winner"):
                    raise b.fail(f"unknown element <{child.tag}> in a round", child.line)
        numbers = self.sequences
        if numbers and (min(numbers) != 1 or max(numbers) != len(numbers)):  # the files number events 1 to N
            raise b.fail(f"the {len(numbers)} events are numbered {min(numbers)} to {max(numbers)}, not 1 to N")
        return put_in, winnings

    def event(
        self,
        b: HandBuilder,
        event: XmlElement,
        label: str,
        put_in: dict[str, int],
        shown: Mapping[str, tuple[str, XmlElement]],
    ) -> None:
        kind, line = event.get("type"), event.line
        name = self.name(b, event)
        if kind == "PLAYER_OUT":  # a tournament's elimination: no chips move
            b.comment(f"{name} is out of the tournament", line)
            return
        if kind in ("SHOW", "MUCK"):
            if label == "SHOWDOWN":
                b.show(name, b.cards.get(name, []) if kind == "SHOW" else None, line)
            return
        chips = b.chips(event.get("amount"), line) if event.get("amount") else 0
        if kind == "ANTE":
            if label != "BLINDS":
                raise b.fail(f"an ante in the round {label}", line)
            b.ante(name, chips, line)
        elif label not in _STREETS:
            raise b.fail(f"a {kind} event in the round {label}", line)
        elif kind in ("FOLD", "CHECK"):
            if chips:
                raise b.fail(f"a {kind.lower()} that puts in {b.money(chips)}", line)
            b.bet(name, kind.lower(), line)
        elif kind == "RAISE":  # the raiser's total for the round (razz 43618199-14: to $1, $1.50, $2 over $0.10 in)
            before = b.round.get(name, 0)
            b.bet(name, "raise", line, to=chips)
            chips -= before
        elif kind in _WAGERS:
            if kind in ("COMPLETE", "BET"):
                self.wagers.append((b.street, _WAGERS[kind], chips))
            b.bet(name, _WAGERS[kind], line, added=chips)
        elif kind in ("ALL_IN", "ALLIN"):
            high = max(b.round.values(), default=0)
            to = b.round.get(name, 0) + chips
            verb = "call" if to <= high else ("raise" if high else "bet")
            b.bet(name, verb, line, added=chips, all_in=True)
        else:
            raise b.fail(f"unknown event type {kind!r}", line)
        put_in[name] = put_in.get(name, 0) + chips

    def results(
        self, b: HandBuilder, put_in: Mapping[str, int], winnings: Mapping[str, tuple[int, int]], tour: bool
    ) -> None:
        """Each player's net (winnings less what his events put in) as a claim; the rake they leave."""
        for name in b.dealt_in():
            chips, line = winnings.get(name, (0, self.result_line))
            b.net(name, chips - put_in.get(name, 0), line)
        for name in winnings:
            if name not in b.dealt_in():
                raise b.fail(f"{name} wins but was not dealt in", winnings[name][1])
        total = sum(put_in.values())
        won = sum(chips for chips, _ in winnings.values())
        line = min((line for _, line in winnings.values()), default=b.first_line)
        if not winnings:
            raise b.fail("the hand names no winner", b.first_line)
        if won > total:
            raise b.fail(f"the winners take {b.money(won)}, more than the {b.money(total)} put in", line)
        rake = total - won
        if rake and tour:
            raise b.fail(f"the winners take {b.money(won)} of {b.money(total)} (a tournament takes no rake)", line)
        b.implied_rake(rake, line)  # not written; no formula of ours refuses a hand


def _currency(stakes: str) -> str:
    return "EUR" if "€" in stakes else "GBP" if "£" in stakes else "USD"


def _cards(b: HandBuilder, text: str, line: int) -> list[Card | None]:
    return [None if token.strip() in ("", "null") else b.card(token, line) for token in text.split(",")]
