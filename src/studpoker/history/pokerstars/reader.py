"""PokerStars text read into records: the hands cut apart, each line parsed on its own, the record built."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

from ...cards import Card
from ...engine import Variant
from ..model import HandRecord
from ..text import read_text
from .builder import _Builder, _Item, _Parsed
from .vocabulary import (
    _ACTION_WORDS,
    _ACTIONS,
    _ANY_GAME,
    _CAPPED,
    _CARD_OF,
    _CASH_STAKES,
    _COLLECTED,
    _COLON_INFO,
    _CURRENCIES,
    _DEALT,
    _GAME,
    _GAME_NAMES,
    _GAMES_FOLDED,
    _HEADER,
    _LEVEL_STAKES,
    _LOOKS_LIKE_ACTION,
    _NO_LOW,
    _PAIR,
    _POT_PART,
    _SEAT,
    _SECTION,
    _STREETS,
    _SUMMARY_KINDS,
    _SUMMARY_SEAT,
    _TABLE,
    _TOTAL,
    _UNCALLED,
    NotStudError,
    PokerStarsError,
    _is_chat,
)

# -- reading ------------------------------------------------------------------------------------------------


def load(path: str | Path) -> list[HandRecord]:
    """Every hand of the PokerStars text file at ``path`` (UTF-8, with or without a byte-order mark)."""
    return loads(read_text(path, PokerStarsError))


def loads(text: str) -> list[HandRecord]:
    """Every hand of a PokerStars stud hand-history text, in order (an empty text has none).

    Raises :class:`PokerStarsError` for text that is not such a history, naming the hand and the
    line (:class:`NotStudError` for a hand of another game). Reading checks what the text says of
    itself (players, cards, sections, amounts); whether the hand obeys the rules and adds up is for
    :func:`replay` and :func:`check` (both in :func:`verify`). :func:`loads_each` reads what it can.
    """
    hands = []
    for _line, hand in loads_each(text):
        if isinstance(hand, PokerStarsError):
            raise hand
        hands.append(hand)
    return hands


def loads_each(text: str) -> list[tuple[int, HandRecord | PokerStarsError]]:
    """Every hand of a text, each read on its own: the line its header is on, and its record or why it could not
    be read (a :class:`NotStudError` for a hand of another game, to skip). One bad hand spoils no other.

    >>> [(line, type(hand).__name__) for line, hand in loads_each("PokerStars Hand #1:  Hold'em Limit ($1/$2)"
    ...  " - 2017/01/21 16:58:03 ET\\nTable 'T' 6-max")]
    [(1, 'NotStudError')]
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    return list(read_each(_split_hands(text)))


#: What follows a player's name on the lines that start with one: an action, a collection, cards dealt.
_AFTER_NAME = (": ", " collected ", " [")

#: The actions whose line names an amount (and may say ``and is all-in``).
_WAGERS = frozenset({"ante", "pb", "call", "bet", "raise"})

#: The amount texts already read, by scale (1: chips as written, 100: cents), and the bracket texts already read as
#: cards: a file says the same few amounts and cards again and again. Each is emptied when it holds :data:`_MEMORY`.
_AMOUNTS_READ: dict[int, dict[str, int]] = {1: {}, 100: {}}
_CARDS_READ: dict[str, tuple[Card, ...]] = {}
_MEMORY = 20_000

_T = TypeVar("_T")


def _remember(memo: dict[str, _T], text: str, value: _T) -> None:
    """Keep what ``text`` was read as, in a memo that never holds more than :data:`_MEMORY` texts."""
    if len(memo) >= _MEMORY:
        memo.clear()
    memo[text] = value


#: How many hands :func:`read_each` holds back, at most, waiting for a bring-in their own text does not state.
LOOKAHEAD = 1000


def read_each(
    hands: Iterable[tuple[int, list[str] | ValueError, list[int]]], lookahead: int = LOOKAHEAD
) -> Iterator[tuple[int, HandRecord | PokerStarsError]]:
    """:func:`loads_each` of hands already split, one at a time: each is the line it starts on, its lines (stripped,
    blank ones dropped; or the error that kept them from being read) and their line numbers.

    A hand that states no bring-in takes the first one stated at its stakes in the file, so it waits for one, up to
    ``lookahead`` hands (then the bring-in is assumed); the hands come out in order, and memory does not grow with
    the file."""
    bring_ins: dict[tuple[object, ...], int] = {}
    waiting: deque[tuple[int, _Parsed | PokerStarsError]] = deque()
    for number, (start, lines, numbers) in enumerate(hands, 1):
        read: _Parsed | PokerStarsError
        if isinstance(lines, ValueError):
            read = PokerStarsError(str(lines))
        elif not is_header(lines[0]):
            read = PokerStarsError(f"line {start} ({lines[0][:60]!r}) comes before any 'PokerStars Hand #' header")
        else:
            try:
                read = _HandText(lines, number, numbers).parse()
            except PokerStarsError as error:  # kept without its traceback: a file of junk has one a hand
                read = _bare(error)
        if isinstance(read, _Parsed) and read.bring_in is not None:
            bring_ins.setdefault(read.stakes, read.bring_in)
        waiting.append((start, read))
        while waiting and (len(waiting) > lookahead or _ready(waiting[0][1], bring_ins)):
            yield _built(*waiting.popleft(), bring_ins)
    while waiting:
        yield _built(*waiting.popleft(), bring_ins)


def is_header(line: str) -> bool:
    """Whether a (stripped) line starts a hand: ``PokerStars Hand #...``, ``PokerStars Game #...``."""
    return line.startswith("PokerStars ") and " #" in line


def _ready(hand: _Parsed | PokerStarsError, bring_ins: Mapping[tuple[object, ...], int]) -> bool:
    """Whether a hand can be built now: an error, or a hand whose stakes have a known bring-in."""
    return isinstance(hand, PokerStarsError) or hand.bring_in is not None or hand.stakes in bring_ins


def _built(
    start: int, hand: _Parsed | PokerStarsError, bring_ins: Mapping[tuple[object, ...], int]
) -> tuple[int, HandRecord | PokerStarsError]:
    """A parsed hand as a record (under the first bring-in of its stakes), or the error that stops it."""
    if isinstance(hand, PokerStarsError):
        return start, hand
    try:
        return start, _Builder(hand, bring_ins.get(hand.stakes)).build()
    except PokerStarsError as error:
        return start, _bare(error)


def _split_hands(text: str) -> Iterator[tuple[int, list[str], list[int]]]:
    """The hands of a text: the line each starts on, its lines (stripped: PokerStars pads some lines with a space;
    blank lines dropped) and their line numbers. Text before the first header comes as a hand of its own."""
    current: list[str] | None = None
    numbers: list[int] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if is_header(line):
            if current is not None:
                yield numbers[0], current, numbers
            current, numbers = [line], [number]
        elif current is None:  # text before the first header: a "hand" of its own, which cannot be read
            current, numbers = [line], [number]
        else:
            current.append(line)
            numbers.append(number)
    if current is not None:
        yield numbers[0], current, numbers


class _HandText:
    """Reads the lines of one hand into a :class:`_Parsed`, checking each line on its own."""

    def __init__(self, lines: list[str], number: int, line_numbers: list[int] | None = None) -> None:
        self.lines = lines
        self.number = number
        self.line_numbers = line_numbers
        self.hand_id = "?"
        self.currency: str | None = None
        self.scale = 1
        self.amounts = _AMOUNTS_READ[1]  # the amount texts read before, at this scale
        self.names: list[str] = []
        self.name_set: set[str] = set()
        self.plain_names = False
        self.seats: list[tuple[int, str, int, str]] = []
        # what the lines say, filled in as :meth:`parse` reads them (set here, so that no reading narrows their type)
        self.antes: dict[str, tuple[int, bool]] = {}
        self.ante_lines: dict[str, int] = {}
        self.items: list[_Item] = []
        self.returned: list[tuple[str, int, int]] = []
        self.collected: list[tuple[str, int, str, int]] = []
        self.summary: dict[str, tuple[str, tuple[Card, ...] | None, int, int]] = {}
        self.total: tuple[int, int, list[tuple[str, int]], int] | None = None
        self.board: Card | None = None
        self.street = 0
        self.bring_in: int | None = None
        self.contributions: dict[str, int] = {}
        self.folded: set[str] = set()
        self.section = "antes"  # antes, street, showdown, summary
        self.capped: list[tuple[int, int]] = []
        self.open_pair: list[tuple[int, int]] = []
        self.no_low: list[int] = []
        self.hand_won = False  # a pot was collected
        self.at = 0  # the file line being read

    def fail(self, message: str, line: str | None = None) -> PokerStarsError:
        where = f"hand {self.number} (#{self.hand_id})"
        if line is not None:
            if self.line_numbers is not None and line in self.lines:
                where += f", line {self.line_numbers[self.lines.index(line)]} ({line[:80]!r})"
            else:
                where += f", line {line[:80]!r}"
        return PokerStarsError(f"{where}: {message}")

    def chips(self, text: str, line: str) -> int:
        """An amount in chips (the cents of a cash game, tournament chips as they are): the digits of
        :data:`_AMOUNT`, read without a ``Fraction`` (a hand has a hundred of them, most of them seen before)."""
        symbol = text[0] if text[0] in _CURRENCIES else ""
        if symbol and self.currency != _CURRENCIES[symbol]:
            raise self.fail(f"{text} is not in the hand's currency", line)
        known = self.amounts.get(text)
        if known is not None:
            return known
        whole, _, fraction = text[len(symbol) :].partition(".")
        fraction = fraction.rstrip("0")
        places = 2 if self.scale == 100 else 0
        if len(fraction) > places:
            raise self.fail(f"{text} is not a whole number of chips", line)
        chips = int(whole) * self.scale + (int(fraction.ljust(places, "0")) if fraction else 0)
        _remember(self.amounts, text, chips)
        return chips

    def cards(self, text: str, line: str) -> tuple[Card, ...]:
        """The cards of a bracket's text; the same text gives the same (shared) tuple."""
        known = _CARDS_READ.get(text)
        if known is not None:
            return known
        out: list[Card] = []
        for token in text.split():
            card = _CARD_OF.get(token)
            if card is None:
                raise self.fail(f"{token!r} is not a card", line)
            out.append(card)
        if len(set(out)) != len(out):
            raise self.fail("the same card twice", line)
        cards = tuple(out)
        _remember(_CARDS_READ, text, cards)
        return cards

    def player(self, text: str, start: int = 0) -> int:
        """Where the name of the seated player that begins ``text`` at ``start`` ends (the longest name that fits),
        or -1: an index, not a slice, as most lines start with a name."""
        if self.plain_names:  # no name holds ": ", " collected " or " [": the name is what comes before one
            for mark in _AFTER_NAME:
                cut = text.find(mark, start)
                if cut > start:
                    if text[start:cut] in self.name_set:
                        return cut
                    break
        for name in self.names:
            end = start + len(name)
            if text.startswith(name, start) and (len(text) == end or text[end] in ": "):
                return end
        return -1

    # -- the hand ----------------------------------------------------------------------------------------

    def parse(self) -> _Parsed:
        header = self.lines[0]
        self.parse_header(header)
        table = _TABLE.match(self.lines[1]) if len(self.lines) > 1 else None
        if table is None:
            raise self.fail(
                "the second line must be \"Table '...' N-max\"", self.lines[1] if len(self.lines) > 1 else None
            )
        index = 2
        seats: list[tuple[int, str, int, str]] = []
        while index < len(self.lines) and (seat := _SEAT.match(self.lines[index])):
            line = self.lines[index]
            if any(s[0] == int(seat["seat"]) or s[1] == seat["name"] for s in seats):
                raise self.fail("a seat or a name appears twice", line)
            seats.append((int(seat["seat"]), seat["name"], self.chips(seat["stack"], line), seat["rest"]))
            index += 1
        if not seats:
            raise self.fail("no seat lines")
        self.seats = seats
        self.names = sorted((s[1] for s in seats), key=len, reverse=True)
        self.name_set = set(self.names)
        self.plain_names = not any(mark in n for n in self.names for mark in _AFTER_NAME)
        numbers = self.line_numbers or list(range(1, len(self.lines) + 1))
        for i in range(index, len(self.lines)):
            self.at = numbers[i]
            self.parse_line(self.lines[i])
        if self.section != "summary" or self.total is None:
            raise self.fail("the hand is truncated: no '*** SUMMARY ***' with its 'Total pot ... | Rake ...' line")
        if not self.antes:
            raise self.fail("nobody posts the ante")
        if self.street == 0:
            raise self.fail("no cards are dealt (no '*** 3rd STREET ***')")
        total, rake, pots, total_line = self.total
        return _Parsed(
            number=self.number,
            hand_id=self.hand_id,
            header=header,
            line=numbers[0],
            total_line=total_line,
            ante_lines=self.ante_lines,
            date=self.date,
            game=self.game,
            variant=self.variant,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            chip_value=1 / self.scale if self.scale != 1 else 1.0,
            currency=self.currency,
            table=table["table"],
            max_seats=int(table["max"]),
            table_rest=table["rest"],
            seats=seats,
            antes=self.antes,
            items=self.items,
            returned=self.returned,
            collected=self.collected,
            total_pot=total,
            rake=rake,
            pots=pots,
            board=self.board,
            summary=self.summary,
            bring_in=self.bring_in,
            capped=self.capped,
            open_pair=self.open_pair,
            no_low=self.no_low,
        )

    def parse_header(self, header: str) -> None:
        match = _HEADER.match(header)
        if match is None:
            raise self.fail("not a PokerStars hand header ('PokerStars Hand #N: GAME (STAKES) - DATE')", header)
        self.hand_id = match["id"]
        self.date = match["date"]
        body = match["body"]
        game = _GAME.search(body)
        if game is None:
            other = _ANY_GAME.search(body)
            name = other.group(0).strip() if other else "a game studpoker does not play"
            error = self.fail(f"{name} is not one of the four stud games (7 Card Stud, Hi/Lo, Razz, 5 Card)", header)
            raise NotStudError(str(error), name)
        if game["limit"].lower() != "limit":
            name = f"{game['game']} {game['limit']}"
            error = self.fail(f"{game['limit']} stud: studpoker plays fixed-limit stud only", header)
            raise NotStudError(str(error), name)
        variant = _GAMES_FOLDED[game["game"].lower()]
        self.game = f"{_GAME_NAMES[variant]} Limit"  # PokerStars' spelling, whatever the case of the text
        self.variant = variant
        tournament = body.lower().startswith("tournament #")
        stakes = (_LEVEL_STAKES if tournament else _CASH_STAKES).search(body, game.end())
        if stakes is None:
            raise self.fail("the header names no stakes (small bet/big bet)", header)
        small, big = stakes["small"], stakes["big"]
        symbol = small[0] if small[0] in _CURRENCIES else ""
        if (big[0] if big[0] in _CURRENCIES else "") != symbol:
            raise self.fail("the stakes mix currencies", header)
        if symbol:
            self.currency = stakes.groupdict().get("code") or _CURRENCIES[symbol]
            self.scale = 100
            self.amounts = _AMOUNTS_READ[100]
        self.small_bet = self.chips(small, header)
        self.big_bet = self.chips(big, header)
        if not 0 < self.small_bet <= self.big_bet:
            raise self.fail("the stakes must be a small bet and a big bet at least as large", header)

    def parse_line(self, line: str) -> None:
        if self.section == "summary":
            self.parse_summary(line)
            return
        section = _SECTION.match(line) if line.startswith("*** ") else None
        if section is not None:
            self.parse_section(section["name"], section["cards"], line)
        elif line in (_CAPPED, _PAIR, _NO_LOW):
            if line == _CAPPED:
                self.capped.append((sum(1 for i in self.items if i.kind == "bet") - 1, self.at))
            elif line == _NO_LOW:
                self.no_low.append(self.at)
            elif all(street != self.street for street, _ in self.open_pair):
                self.open_pair.append((self.street, self.at))
        elif line.startswith("Dealt to "):
            self.parse_dealt(line)
        elif line.startswith("Uncalled bet ") and (uncalled := _UNCALLED.match(line)) is not None:
            name = uncalled["name"]
            if name not in self.antes:
                raise self.fail(f"chips returned to {name!r}, who is not in the hand", line)
            amount = self.chips(uncalled["amount"], line)
            self.returned.append((name, amount, self.at))
            self.contributions[name] = self.contributions.get(name, 0) - amount
        elif 'said, "' in line and _is_chat(line) and not any(line.startswith(n + ":") for n in self.names):
            self.items.append(_Item("comment", text=line, line=self.at))
        else:
            end = self.player(line)
            if end > 0 and line.startswith(": ", end):  # most lines: an action
                self.parse_action(line[:end], line, end + 2)
            elif end > 0 and (collected := _COLLECTED.match(line, end)) is not None:
                name = line[:end]
                if name not in self.antes or self.street == 0:
                    raise self.fail(f"{name} collects without being in the hand", line)
                self.collected.append((name, self.chips(collected["amount"], line), collected["pot"], self.at))
                self.hand_won = True
            elif (end > 0 and line.startswith(":", end)) or _LOOKS_LIKE_ACTION.search(line):
                # "Name:..." is how every action of a seated player starts
                raise self.fail("a line that looks like an action but cannot be read", line)
            else:
                self.items.append(_Item("comment", text=line, line=self.at))

    def parse_section(self, name: str, cards: str | None, line: str) -> None:
        if name == "SUMMARY":
            self.section = "summary"
            return
        if name == "SHOW DOWN":
            if self.street == 0 or self.section == "showdown":
                raise self.fail("a showdown out of place", line)
            self.section = "showdown"
            self.items.append(_Item("showdown", line=self.at))
            return
        first, last = (2, 5) if self.variant is Variant.STUD5 else (3, 7)
        street = last if name == "RIVER" else _STREETS.get(name)
        if street is None:
            raise self.fail(f"an unknown section {name!r}", line)
        expected = first if self.street == 0 else self.street + 1
        if street != expected or self.section == "showdown" or self.hand_won:
            raise self.fail(f"a street out of order (street {expected} is next)", line)
        board = None
        if cards is not None:
            dealt = self.cards(cards, line)
            if street != last or len(dealt) != 1:
                raise self.fail("only the last street may show one community card", line)
            board = self.board = dealt[0]
        self.street = street
        self.section = "street"
        self.contributions = {}
        self.items.append(_Item("street", street=street, board=board, line=self.at))

    def parse_dealt(self, line: str) -> None:
        end = self.player(line, len("Dealt to "))
        if end < 0 or not line.startswith(" [", end):
            raise self.fail("cards dealt to somebody who is not seated here", line)
        name = line[len("Dealt to ") : end]
        dealt = _DEALT.match(line, end + 1)
        if dealt is None or self.section != "street" or self.hand_won:
            raise self.fail("a 'Dealt to' line out of place or unreadable", line)
        if name not in self.antes or name in self.folded:
            raise self.fail(f"{name} is dealt cards without being in the hand", line)
        earlier, later = dealt.group("old", "new")
        if later is None:
            old, new = None, self.cards(earlier, line)
        else:
            old, new = self.cards(earlier, line), self.cards(later, line)
        self.items.append(_Item("deal", player=name, street=self.street, cards=new, old=old, text=line, line=self.at))

    def parse_action(self, name: str, line: str, start: int) -> None:
        """The action of ``line`` that begins at ``start``, after its player's ``name: ``."""
        space = line.find(" ", start)
        kind_of = _ACTION_WORDS.get(line[start:] if space < 0 else line[start:space])  # the verb: which pattern
        matched = _ACTIONS[kind_of].match(line, start) if kind_of is not None else None
        if kind_of is None or matched is None:
            if _COLON_INFO.match(line, start):
                self.items.append(_Item("comment", text=line, line=self.at))
                return
            raise self.fail("an action that cannot be read", line)
        kind = kind_of
        amount, all_in = 0, False
        if kind in _WAGERS:  # an amount, perhaps all-in
            amount = self.chips(matched.group("amount"), line)
            all_in = matched.group("all_in") is not None
        if kind == "ante":
            if self.street != 0 or name in self.antes:
                raise self.fail("an ante out of place", line)
            self.antes[name] = (amount, all_in)
            self.ante_lines[name] = self.at
            return
        if name not in self.antes:
            raise self.fail(f"{name} acts without being dealt in", line)
        if kind in ("show", "muck", "no show"):
            if self.section != "showdown" and not self.hand_won:
                raise self.fail("a show or muck before the betting is over", line)
            shown = self.cards(matched.group("cards"), line) if kind == "show" else ()
            kind = "show" if kind == "show" else "muck"
            self.items.append(_Item(kind, player=name, cards=shown, text=line, line=self.at))
            return
        if self.section != "street" or self.hand_won:
            raise self.fail("a betting action outside a betting round", line)
        if name in self.folded:
            raise self.fail(f"{name} acts after folding", line)
        mine = self.contributions.get(name, 0)
        if kind == "pb":
            if any(i.kind == "bet" and i.street == self.street for i in self.items) or self.street > 3:
                raise self.fail("a bring-in that is not the first action of the first street", line)
            if not all_in:
                self.bring_in = amount
            verb, total = "pb", amount
        elif kind == "call":
            verb, total = "cc", mine + amount
        elif kind in ("check", "fold"):
            verb, total = ("cc" if kind == "check" else "f"), mine
            if kind == "fold":
                self.folded.add(name)
        elif kind == "bet":
            verb, total = "cbr", mine + amount
        else:
            verb, total = "cbr", self.chips(matched.group("to"), line)
        if verb == "cbr" and total <= 0:
            raise self.fail("a wager of nothing", line)
        self.contributions[name] = total
        self.items.append(
            _Item(
                "bet",
                player=name,
                street=self.street,
                verb=verb,
                amount=total,
                said=kind,
                said_amount=amount,
                all_in=all_in,
                text=line,
                line=self.at,
            )
        )

    def parse_summary(self, line: str) -> None:
        total = _TOTAL.match(line)
        if total is not None:
            if self.total is not None:
                raise self.fail("two 'Total pot' lines", line)
            pots = [(m["label"], self.chips(m["amount"], line)) for m in _POT_PART.finditer(total["pots"])]
            self.total = (self.chips(total["total"], line), self.chips(total["rake"], line), pots, self.at)
            return
        if line.startswith("Board [") and line.endswith("]"):
            board = self.cards(line[len("Board [") : -1], line)
            if len(board) != 1 or board[0] != self.board:
                raise self.fail("the summary's board is not the community card dealt", line)
            return
        seat = _SUMMARY_SEAT.match(line)
        if seat is None:
            return  # other summary lines say nothing we use
        entry = next((s for s in self.seats if s[0] == int(seat["seat"])), None)
        if entry is None or entry[1] not in self.antes or not seat["rest"].startswith(entry[1] + " "):
            raise self.fail("a summary line for a seat that is not in the hand", line)
        name, rest = entry[1], seat["rest"][len(entry[1]) + 1 :]
        found = _first_match(_SUMMARY_KINDS, rest)
        if found is None:
            raise self.fail("a summary line that cannot be read", line)
        kind, groups = found
        cards = self.cards(groups["cards"], line) if groups.get("cards") else None
        value = self.chips(groups["amount"], line) if groups.get("amount") else 0
        if kind == "folded":
            street = groups["street"]
            value = (5 if self.variant is Variant.STUD5 else 7) if street == "River" else int(street[0])
        if name in self.summary:
            raise self.fail(f"two summary lines for {name}", line)
        self.summary[name] = (kind, cards, value, self.at)


def _first_match(patterns: Mapping[str, re.Pattern[str]], text: str) -> tuple[str, dict[str, Any]] | None:
    """The first pattern that matches ``text``: its name and its groups."""
    for kind, pattern in patterns.items():
        match = pattern.match(text)
        if match is not None:
            return kind, match.groupdict()
    return None


def _bare(error: PokerStarsError) -> PokerStarsError:
    """``error`` without its traceback and the exceptions it came from, which hold every frame they passed through:
    a file of junk lines has an error a hand, and must not keep a traceback a hand."""
    error.__traceback__ = error.__context__ = error.__cause__ = None
    return error
