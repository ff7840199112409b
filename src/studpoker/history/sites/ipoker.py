"""iPoker network XML session files.

A file is one ``<session>``: its ``<general>`` names the game and stakes (``<gametype>7 Card Stud L
$0.05/$0.10</gametype>``; a tournament's has no stakes and adds ``<tournamentname>``), the table, the
currency and ``<mode>`` (``real`` or play money). Each hand is a ``<game gamecode="...">``: its players
(``<player seat= name= chips= win= bet=/>``: the stack before the hand, what he took from the table and
what he put on it, both counting an uncalled bet given back), then ``<round no="0">`` (the antes),
``<round no="1">`` (blinds: empty in stud) and one round per street. A street lists each player's new
cards (``<cards player=...>X X H6</cards>``: suit letter then rank, ``X`` a card not seen) and the
actions (``<action no= player= type= sum=/>``, ``no`` the order of play: the file lists them by player, not
in order). A player who reaches the showdown has his cards written at the deal; the showdown itself is not
written (the replay shows the known hands).

Action types: 0 fold, 3 call, 4 check, 5 bet (or completion), 7 all-in (bet, raise or call), 15 ante,
16 bring-in, 23 raise; ``sum`` is the chips the action adds, except a raise's: the raiser's total for the
round.

**What the file states, and how it is checked.** Every action's ``sum`` goes to the replay's check. Each
player's ``bet`` must be what his actions put in (a raiser's may count his ante twice, see :data:`OPTIONS`),
else the hand is refused naming his line; ``win`` less what his actions put in is his net result, checked
against the replay. The rake is not written: it is what the players put in less what they take, which must
be the room's (nothing in a tournament, 5% of a cash pot).

The XML is read with the standard library's expat parser, one hand (``<game>``) at a time so that a
broken hand costs only itself (the text cut before each ``<game`` as it comes: :func:`read_pieces`, so that a
file is read without holding it whole); a file declaring a DOCTYPE or an ENTITY is refused before parsing.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, Final, NamedTuple, NoReturn
from xml.parsers import expat

from ...cards import Card
from ...engine import Variant
from ..model import HandRecord
from .base import HandBuilder, NotStudGameError, SiteError

__all__ = ["OPTIONS", "TITLE", "detect", "loads_each", "read_pieces"]

TITLE: Final = "iPoker"

#: iPoker's table rules on top of the ``casino`` preset (cash games and tournaments alike), found by replaying
#: the three files (2 cash hands of seven-card stud, 1 of five-card stud, 117 tournament hands of seven-card
#: stud) under each choice:
#:
#: ``open_pair_double_bet`` (the casino default: on in stud high)
#:     tournament hands bet the big bet on 4th street over an open pair: 4045005063 (Player13, 800 at 400/800)
#:     and 4045006251 (Player13, 1,200 at 600/1,200). The ``tournament`` preset has no double bet and refuses
#:     both, so tournament hands are replayed under ``casino`` as well.
#: ``raise_cap=3`` (casino)
#:     4044980553: a completion, two raises and a short all-in raise (Player10 to 1,070) on 3rd street, which a
#:     cap of 2 refuses; no round of the files has a fourth raise, so nothing shows a larger cap.
#: ``allow_fold_when_check_available=True`` (casino)
#:     4044888963: Player5 folds on 4th street where he could check.
#: ``headsup_uncap``, ``later_street_tiebreak``, ``odd_chip_rule``: no hand tells the choices apart (no heads-up
#:     round reaches the cap with more raises, no tie of boards decides who acts, no split pot): casino defaults.
#: Position: the lowest seat first (the bring-in by the lowest door card, later streets by the best board), as
#:     the ``no`` numbers show in every hand. The ``dealer="1"`` mark is on the lowest seat in all 120 hands:
#:     the reader refuses a hand where it is not (a seat number that changed the order).
#: Numbering: a hand's actions are numbered 1 to N (all 120 hands); a gap or a repeat is refused. A player
#:     other than the file's hero (``<nickname>``) whose down cards are written never folds (they are written
#:     for a hand shown down, and in 4044860560 for a winner who showed): such a fold is refused.
#: **The rake** (cash) is not written: it is what the players put in less what they win, taken as implied and
#:     checked not to be negative. The files of 2010-2011 show 5% of the pot rounded down to the cent ($0.13 pays
#:     nothing, 2418629537; $0.34 $0.01, 2418630592; $0.44 $0.02, 3013529647), a hi/lo file of 2014 less (5710054735:
#:     $0.03 of $0.82; fpdb's ``7-StudHL-EUR-0.05-0.10-201405``): no formula is imposed.
#: **A raiser's bet**: ``type="23"`` writes the raiser's total for the round (every other type the chips
#:     added), and the ``bet`` of a player who raised counts his ante twice in 17 of the 18 raisers of the files
#:     (4044860560 Player20: 376 for 368 put in); Player0 of 4044982218 is written exactly. Both are accepted
#:     for a raiser, only the exact sum for anyone else.
OPTIONS: Final[Mapping[str, Any]] = MappingProxyType({})

#: The levels of iPoker's seven-card stud sit-and-go (the tournament file): the ante names the level,
#: whose bring-in and bets the hands show (``type="16"``, the 3rd- and 4th-street bets, the 5th-street
#: bets). The file does not write the level: it is the place of the ante in this table.
LEVELS: Final[Mapping[int, tuple[int, int, int, int]]] = MappingProxyType(
    {
        8: (1, 15, 60, 120),
        10: (2, 20, 80, 160),
        15: (3, 30, 100, 200),
        20: (4, 40, 150, 300),
        30: (5, 60, 200, 400),
        40: (6, 80, 300, 600),
        50: (7, 100, 400, 800),
        80: (8, 150, 600, 1200),
        100: (9, 200, 800, 1600),
        150: (10, 300, 1000, 2000),
    }
)

_GAME_START = re.compile(r"<game[\s>/]")
_GAME_OR_SESSION = re.compile(r"<game[\s>/]|<session[\s>/]")
_HOSTILE = re.compile(r"<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE)
_HOSTILE_BEGUN = re.compile(r"<(?:!\s*\w{0,6})?")  # what a declaration's start may look like, cut short
_SPACES = re.compile(r"\s+")
_DECLARATION = re.compile(r"\s*<\?xml[^>]*\?>")
_GAMETYPE = re.compile(r"^(?P<game>.*?)\s+(?P<limit>L|NL|PL|FL|Limit|No Limit|Pot Limit)(?:\s+(?P<stakes>\S.*))?$")
_STAKES = re.compile(r"^(?P<small>[^/\s]+)\s*/\s*(?P<big>[^/\s]+)$")
_DATE = re.compile(r"^(?P<year>\d{4})-(?P<month>\d\d)-(?P<day>\d\d)[ T](?P<time>\d\d:\d\d(?::\d\d)?)$")
_NUMBER = re.compile(r"[0-9]{1,9}")
_CARD = re.compile(r"^(?P<suit>[CDHScdhs])(?P<rank>10|[2-9TJQKAtjqka])$")
_TAIL = re.compile(r"\s*(?:</session>\s*)?(?:<\?xml[^>]*\?>\s*)?")  # a session's end, the next file's start


# -- XML, with the line of every element -----------------------------------------------------------------


class XmlElement:
    """An element of a parsed fragment: tag, attributes, the file line it starts on, children and text."""

    __slots__ = ("attrs", "children", "line", "tag", "text")

    def __init__(self, tag: str, attrs: dict[str, str], line: int) -> None:
        self.tag, self.attrs, self.line = tag, attrs, line
        self.children: list[XmlElement] = []
        self.text = ""

    def get(self, name: str) -> str:
        return self.attrs.get(name, "")

    def all(self, tag: str) -> list[XmlElement]:
        return [child for child in self.children if child.tag == tag]

    def first(self, tag: str) -> XmlElement | None:
        return next((child for child in self.children if child.tag == tag), None)

    def child_text(self, tag: str) -> str:
        found = self.first(tag)
        return found.text.strip() if found is not None else ""


def refuse_hostile(text: str | Iterable[str], room: str) -> None:
    """A DOCTYPE or ENTITY declaration (entity expansion, external entities): the file is refused unparsed. The
    text may come a piece at a time (a file read as it goes: it is looked over whole before any hand is read)."""
    line = hostile_line([text] if isinstance(text, str) else text)
    if line is not None:
        raise SiteError("the file declares a DOCTYPE or an ENTITY: refused, not parsed", room=room, line=line)


def hostile_line(pieces: Iterable[str]) -> int | None:
    """The line of the first DOCTYPE or ENTITY declaration of a text given a piece at a time, or None. A
    declaration cut between two pieces is found: the start of it that ends a piece is carried to the next, its
    white space squeezed (what is carried stays a few characters whatever the text)."""
    line, carry, squeezed = 1, "", 0  # the line where the carry starts; the line ends squeezed out of it
    for piece in pieces:
        text = carry + piece
        found = _HOSTILE.search(text)
        if found is not None:  # it starts at the carried "<" or past the carry
            return line if found.start() < len(carry) else line + squeezed + text.count("\n", 0, found.start())
        cut = text.rfind("<")
        keep = cut >= 0 and _HOSTILE_BEGUN.fullmatch(text, cut) is not None
        if keep and carry and cut == 0:  # the carried start goes on through this piece
            squeezed += piece.count("\n")
        else:
            line += squeezed + text.count("\n", 0, cut if keep else len(text))
            squeezed = text.count("\n", cut) if keep else 0
        carry = _SPACES.sub(" ", text[cut:]) if keep else ""
    return None


def parse_xml(text: str, first_line: int, room: str, hand: str = "", *, final: bool = True) -> list[XmlElement]:
    """The elements of an XML fragment (several top-level elements allowed) whose first line is ``first_line``
    of the file; ``final=False`` reads an unclosed beginning (what is complete of it). Any fault of the XML is
    a :class:`SiteError` naming its line."""
    declaration = _DECLARATION.match(text)
    if declaration is not None:
        text = re.sub(r"[^\n]", " ", declaration.group(0)) + text[declaration.end() :]
    parser = expat.ParserCreate("UTF-8")
    root = XmlElement("", {}, first_line)
    stack = [root]
    offset = first_line - 1

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = XmlElement(tag, attrs, offset + parser.CurrentLineNumber)
        stack[-1].children.append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        stack[-1].text += data

    def hostile(*_: object) -> NoReturn:
        raise SiteError("a DOCTYPE or ENTITY declaration: refused", room=room, hand=hand, line=first_line)

    parser.buffer_text = True
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.StartDoctypeDeclHandler = hostile
    parser.EntityDeclHandler = hostile
    try:
        parser.Parse("<_>" + text + ("</_>" if final else ""), final)
    except expat.ExpatError as error:
        message = f"the XML is broken: {expat.errors.messages.get(error.code, 'error')}"
        raise SiteError(message, room=room, hand=hand, line=offset + (error.lineno or 1)) from None
    except (UnicodeError, RecursionError):
        raise SiteError("the XML cannot be read (broken characters)", room=room, hand=hand, line=first_line) from None
    return root.children[0].children if root.children else []


def number(b: HandBuilder, text: str, what: str, line: int) -> int:
    """A whole number of the file (a seat, an order number): digits only."""
    if _NUMBER.fullmatch(text.strip()) is None:
        raise b.fail(f"{what} {text!r} is not a number", line)
    return int(text)


class Part(NamedTuple):
    """A stretch of an XML session file between two places where a hand or a session begins: ``kind`` (``head``:
    the start of the file; ``session``: from a ``<session`` on; ``game``: from a ``<game`` on), the ``line`` it
    starts on, its ``text``, and whether it is ``over`` the cap on its size (then ``text`` is only its end)."""

    kind: str
    line: int
    text: str
    over: bool = False


def cut_parts(pieces: Iterable[str], sessions: bool, limit: int = sys.maxsize) -> Iterator[Part]:
    """The text given a piece at a time, cut before each ``<game`` (and, when ``sessions``, each ``<session`` but
    the first: iPoker, whose first header runs from the file's start), as the readers cut it whole: the ``head``
    part first (empty when a cut starts the text), then one part a cut. A part over ``limit`` characters keeps
    only its last ``limit`` as they come, so that memory stays bounded however long a part runs."""
    pattern = _GAME_OR_SESSION if sessions else _GAME_START
    first_session = sessions
    kind, start_line, line = "head", 1, 1  # the part's kind and first line; the line of buf[start]
    # the text held, where the part begins in it, where the next cut is looked for, what was let go of the part: the
    # part is cut off by moving ``start``, not by copying the rest of the text (a text of 10,000 hands in one piece
    # would be copied 10,000 times); what is cut off is let go of when the next piece comes
    buf, start, at, dropped = "", 0, 0, 0
    for piece in _then_none(pieces):
        if start:
            buf, at, start = buf[start:], at - start, 0
        buf += piece or ""
        while (found := pattern.search(buf, at)) is not None:
            at = found.end()
            if found.group().startswith("<s") and first_session:
                first_session = False
                continue
            begin = found.start()
            yield Part(kind, start_line, buf[start:begin], dropped + begin - start > limit)
            line += buf.count("\n", start, begin)
            kind = "game" if found.group().startswith("<g") else "session"
            start_line, start, dropped = line, begin, 0
        if piece is None:
            break
        at = max(at, len(buf) - 8)  # a cut begun in the last 8 characters ends in the next piece
        if len(buf) - start > limit:  # over the cap: only the part's end is held
            cut = min(len(buf) - limit, at)
            line += buf.count("\n", start, cut)
            dropped += cut - start
            start = cut
    yield Part(kind, start_line, buf[start:], dropped + len(buf) - start > limit)


def _then_none(pieces: Iterable[str]) -> Iterator[str | None]:
    """``pieces``, then None for the end."""
    yield from pieces
    yield None


def cut_game(text: str, line: int, room: str, allowed_tail: re.Pattern[str]) -> str:
    """The text of one ``<game>`` element (from its start to its ``</game>``); what follows it up to the next
    hand may only be ``allowed_tail``."""
    end = text.rfind("</game>")
    if end < 0:
        raise SiteError("the hand is cut short: no </game>", room=room, line=line)
    if allowed_tail.fullmatch(text, end + 7) is None:
        tail_line = line + text.count("\n", 0, end + 7)
        tail = text[end + 7 :].strip()
        raise SiteError(f"text after the hand's </game>: {tail[:30]!r}", room=room, line=tail_line)
    return text[: end + 7]


# -- the room ----------------------------------------------------------------------------------------------


def detect(text: str) -> bool:
    """An iPoker file is an XML ``<session>`` whose ``<general>`` has a ``<gametype>``."""
    head = text.lstrip()
    return head.startswith(("<?xml", "<session")) and "<session" in head[:300] and "<gametype>" in head


def loads_each(text: str) -> list[tuple[int, HandRecord | SiteError]]:
    """Every hand (``<game>``) of the text, each read on its own (a text of several sessions: each hand under
    the ``<general>`` of its own)."""
    text = text.removeprefix("\ufeff")
    refuse_hostile(text, TITLE)
    return list(read_pieces([text]))


def read_pieces(
    pieces: Iterable[str], limit: int = sys.maxsize, too_long: str = ""
) -> Iterator[tuple[int, HandRecord | SiteError]]:
    """Each hand of a text given a piece at a time (its DOCTYPE and ENTITY refused beforehand), cut by
    :func:`cut_parts` and read as it comes: a ``<game>`` under the header of its session (the text from the
    session's start to its first game, read once for all its games); a part over ``limit`` characters is the
    error ``too_long``."""
    header = Part("head", 1, "")  # cut_parts gives the head first
    session: _Session | SiteError | None = None
    games = 0
    for part in cut_parts(pieces, sessions=True, limit=limit):
        if part.kind != "game":
            header, session = part, None
            continue
        games += 1
        if session is None:
            session = _session(header, too_long)
        if part.over:
            yield part.line, SiteError(too_long, room=TITLE, line=part.line)
        elif isinstance(session, SiteError):
            yield part.line, session
        else:
            try:
                yield part.line, _Game(session, part.text, part.line).read()
            except SiteError as error:
                yield part.line, error
    if not games:
        yield 1, SiteError("no <game> in the session", room=TITLE, line=1)


def _session(header: Part, too_long: str) -> _Session | SiteError:
    """The session whose header is ``header``, or why it cannot be read."""
    if header.over:
        return SiteError(too_long, room=TITLE, line=header.line)
    try:
        return _Session(header.text, header.line)
    except SiteError as error:
        return error


class _Session:
    """The session's ``<general>``: game, stakes, table, currency, tournament."""

    def __init__(self, header: str, line: int) -> None:
        elements = parse_xml(header, line, TITLE, final=False)
        session = elements[0] if len(elements) == 1 and elements[0].tag == "session" else None
        general = session.first("general") if session is not None else None
        if general is None:
            raise SiteError("no <session> with a <general> before the hand", room=TITLE, line=line)
        self.line = general.line
        self.gametype = general.child_text("gametype")
        self.table = general.child_text("tablename")
        self.currency = general.child_text("currency") or None
        self.play = general.child_text("mode").lower() not in ("real", "")
        self.hero = general.child_text("nickname")
        self.tournament = general.child_text("tournamentname") or None
        found = _GAMETYPE.match(self.gametype)
        self.game = found["game"].strip() if found is not None else self.gametype
        self.limit = found["limit"] if found is not None else ""
        self.stakes = found["stakes"] if found is not None and found["stakes"] else ""
        self.variant = _variant(self.game)


def _variant(game: str) -> Variant | None:
    text = game.lower().replace(" ", "")
    if "razz" in text:
        return Variant.RAZZ
    if "7cardstud" in text or "sevencardstud" in text:
        return (
            Variant.STUD7_HL8 if ("hi-lo" in text or "hi/lo" in text or "h/l" in text or "8" in text) else Variant.STUD7
        )
    if "5cardstud" in text or "fivecardstud" in text:
        return None if "lo" in text else Variant.STUD5
    return None


class _Game:
    def __init__(self, session: _Session, text: str, line: int) -> None:
        self.session, self.line = session, line
        self.text = cut_game(text, line, TITLE, _TAIL)
        self.raised: set[str] = set()

    def read(self) -> HandRecord:
        session = self.session
        elements = parse_xml(self.text, self.line, TITLE)
        game = elements[0] if len(elements) == 1 and elements[0].tag == "game" else None
        if game is None:
            raise SiteError("a hand is not one <game> element", room=TITLE, line=self.line)
        hand = game.get("gamecode") or f"at line {self.line}"
        if session.variant is None or session.limit not in ("L", "FL", "Limit"):
            name = f"{session.game} {session.limit}".strip()
            raise NotStudGameError(name or "an unnamed game", room=TITLE, hand=hand, line=self.line)
        tournament = session.tournament is not None
        cents = not tournament and not session.play
        b = HandBuilder(TITLE, hand, self.line, cents=cents)
        generals = game.all("general")
        if len(generals) != 1:
            raise b.fail(f"the hand has {len(generals)} <general> elements", self.line)
        general = generals[0]
        self.info(b, general)
        players = general.first("players")
        if players is None:
            raise b.fail("the hand has no <players>", general.line)
        claims: dict[str, tuple[int, int, int]] = {}  # name: (win, bet, line)
        dealers: list[tuple[int, str, int]] = []
        for player in players.all("player"):
            name = player.get("name")
            if not name:
                continue  # an empty seat
            seat = number(b, player.get("seat"), "seat", player.line)
            if seat < 1:
                raise b.fail(f"seat {seat}: iPoker numbers its seats from 1", player.line)
            b.seat(name, seat, b.chips(player.get("chips"), player.line), player.line)
            claims[name] = (
                b.chips(player.get("win"), player.line),
                b.chips(player.get("bet"), player.line),
                player.line,
            )
            if player.get("dealer") == "1":
                dealers.append((seat, name, player.line))
        lowest = min((seat for seat, _, _ in b.seats.values()), default=0)
        if len(dealers) != 1 or dealers[0][0] != lowest:  # iPoker marks the lowest seat in every stud hand
            where = dealers[-1][2] if dealers else players.line
            marked = ", ".join(name for _, name, _ in dealers) or "nobody"
            raise b.fail(f"the dealer mark is on {marked}, not on the lowest seat ({lowest}) alone", where)
        rounds = self.rounds(b, game)
        antes = [self.amount(b, a) for a in rounds.get(0, ([], []))[1] if a.get("type") == "15"]
        ante = max(antes, default=0)
        if tournament:
            level = LEVELS.get(ante)
            if level is None:
                raise b.fail(f"no level of iPoker's stud tournaments has an ante of {ante}: the stakes are unknown")
            b.info["level"] = level[0]
            bring_in, small, big = level[1:]
        else:
            stakes = _STAKES.match(session.stakes)
            if stakes is None:
                raise b.fail(f"the game type {session.gametype!r} names no stakes", session.line)
            small, big = b.chips(stakes["small"], session.line), b.chips(stakes["big"], session.line)
            bring_in = 0
        put_in = self.play(b, rounds, session.variant, bring_in)
        self.results(b, claims, put_in, tournament)
        return b.build(
            session.variant,
            ante=ante if tournament else None,
            bring_in=bring_in or None,
            small_bet=small,
            big_bet=big,
            options=OPTIONS,
            currency=session.currency if cents else None,
        )

    def info(self, b: HandBuilder, general: XmlElement) -> None:
        session = self.session
        b.info["table"] = session.table
        if session.hero:
            b.info["hero"] = session.hero
        if session.tournament is not None:
            b.info["tournament"] = session.tournament
            found = re.search(r",\s*(\d+)", session.table)  # "$5 Limit 7 Card Stud, 699476041, 699476041"
            if found is not None:
                b.info["tournament_id"] = found.group(1)
        if session.play:
            b.info["money"] = "play"
        date = _DATE.match(general.child_text("startdate"))
        if date is not None:
            b.info.update(
                {
                    "year": int(date["year"]),
                    "month": int(date["month"]),
                    "day": int(date["day"]),
                    "time": date["time"],
                }
            )

    def rounds(self, b: HandBuilder, game: XmlElement) -> dict[int, tuple[list[XmlElement], list[XmlElement]]]:
        """Each round's number: its cards (in the file's order) and its actions (in the order of play)."""
        out: dict[int, tuple[list[XmlElement], list[XmlElement]]] = {}
        seen: set[int] = set()
        for element in game.all("round"):
            no = number(b, element.get("no"), "round", element.line)
            if no in out:
                raise b.fail(f"round {no} is written twice", element.line)
            cards, actions = [], []
            for child in element.children:
                if child.tag == "cards":
                    cards.append(child)
                elif child.tag == "action":
                    order = number(b, child.get("no"), "action number", child.line)
                    if order in seen:
                        raise b.fail(f"two actions are number {order}", child.line)
                    seen.add(order)
                    actions.append((order, child))
                else:
                    raise b.fail(f"unknown element <{child.tag}> in a round", child.line)
            actions.sort(key=lambda item: item[0])
            out[no] = (cards, [a for _, a in actions])
        if seen and (min(seen) != 1 or max(seen) != len(seen)):  # the files number a hand's actions 1 to N
            raise b.fail(f"the {len(seen)} actions are numbered {min(seen)} to {max(seen)}, not 1 to {len(seen)}")
        return out

    def amount(self, b: HandBuilder, action: XmlElement) -> int:
        return b.chips(action.get("sum"), action.line)

    def play(
        self,
        b: HandBuilder,
        rounds: dict[int, tuple[list[XmlElement], list[XmlElement]]],
        variant: Variant,
        bring_in: int,
    ) -> dict[str, int]:
        """Tell the builder the antes, cards and actions; what each player put in, by the actions."""
        put_in: dict[str, int] = {}
        last = 5 if variant is Variant.STUD5 else 6  # the last street's round
        order = sorted(rounds)
        if order and order[-1] > last:
            raise b.fail(f"round {order[-1]}: {variant.title.lower()} has rounds 0 to {last}")
        previous = -1
        for no in order:
            cards, actions = rounds[no]
            if no < 2:
                if cards:
                    raise b.fail("cards dealt before the first street", cards[0].line)
                for action in actions:
                    name = b.known(action.get("player"), action.line)
                    if no != 0 or action.get("type") != "15":
                        raise b.fail(f"an action of type {action.get('type')!r} before the cards", action.line)
                    chips = self.amount(b, action)
                    put_in[name] = put_in.get(name, 0) + chips
                    b.ante(name, chips, action.line)
                continue
            where = (cards + actions)[0].line if cards or actions else self.line
            if previous >= 2 and no != previous + 1:
                raise b.fail(f"round {no} follows round {previous}", where)
            previous = no
            b.new_street(no if variant is Variant.STUD5 else no + 1, where)
            for element in cards:
                name = b.known(element.get("player"), element.line)
                b.deal(name, [_card(b, token, element.line) for token in element.text.split()], element.line)
            for action in actions:
                name = b.known(action.get("player"), action.line)
                before = b.round.get(name, 0)
                self.action(b, name, action, self.amount(b, action), first=no == 2, bring_in=bring_in)
                put_in[name] = put_in.get(name, 0) + b.round.get(name, 0) - before
                if action.get("type") == "23":
                    self.raised.add(name)
        return put_in

    def action(self, b: HandBuilder, name: str, action: XmlElement, chips: int, *, first: bool, bring_in: int) -> None:
        code, line = action.get("type"), action.line
        high = max(b.round.values(), default=0)
        if code in ("0", "4"):
            if chips:
                raise b.fail(f"a {'fold' if code == '0' else 'check'} that puts in {chips} chips", line)
            held = b.cards.get(name, [])
            if code == "0" and name != self.session.hero and held and None not in held:
                raise b.fail(
                    f"{name} folds, but his down cards are written (iPoker shows them only at a showdown)", line
                )
            b.bet(name, "fold" if code == "0" else "check", line)
        elif code == "3":
            b.bet(name, "call", line, added=chips)
        elif code == "16":
            b.bet(name, "bring-in", line, added=chips)
        elif code == "5":
            b.bet(name, "complete" if first and high <= max(bring_in, b.bring_in or 0) else "bet", line, added=chips)
        elif code == "23":
            b.bet(name, "raise", line, to=chips)
        elif code == "7":
            to = b.round.get(name, 0) + chips
            if to <= high:
                b.bet(name, "call", line, added=chips, all_in=True)
            elif first and high == 0:
                brings = bring_in == 0 or chips <= bring_in
                b.bet(name, "bring-in" if brings and b.bring_in is None else "complete", line, added=chips, all_in=True)
            else:
                b.bet(name, "raise" if high else "bet", line, added=chips, all_in=True)
        elif code == "15":
            raise b.fail("an ante after the cards are dealt", line)
        else:
            raise b.fail(f"unknown action type {code!r}", line)

    def results(
        self, b: HandBuilder, claims: dict[str, tuple[int, int, int]], put_in: dict[str, int], tour: bool
    ) -> None:
        """Each player's ``win`` and ``bet``: ``bet`` is what his actions put in, ``win - bet`` his net (a claim);
        the rake they leave is the room's."""
        dealt = set(b.dealt_in())
        for name, (win, bet, line) in claims.items():
            actual = put_in.get(name, 0)
            if bet != actual and not (name in self.raised and bet == actual + b.anted.get(name, 0)):
                raise b.fail(f"{name}'s bet is {b.money(bet)}, but his actions put in {b.money(actual)}", line)
            if name in dealt:
                b.net(name, win - actual, line)
            elif win:
                raise b.fail(f"{name} wins {b.money(win)} but was not dealt in", line)
        total = sum(put_in.values())
        won = sum(win for win, _, _ in claims.values())
        line = min((line for win, _, line in claims.values() if win), default=b.first_line)
        if won > total:
            raise b.fail(f"the players take {b.money(won)}, more than the {b.money(total)} they put in", line)
        rake = total - won
        if tour:
            if rake:
                raise b.fail(
                    f"the players take {b.money(won)} of the {b.money(total)} they put in (a tournament takes no rake)",
                    line,
                )
            return
        b.implied_rake(rake, line)  # not written; no formula of ours refuses a hand


def _card(b: HandBuilder, token: str, line: int) -> Card | None:
    if token.upper() == "X":
        return None
    found = _CARD.match(token)
    if found is None:
        raise b.fail(f"{token!r} is not a card", line)
    rank = "T" if found["rank"] == "10" else found["rank"].upper()
    return b.card(rank + found["suit"].lower(), line)
