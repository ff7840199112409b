"""Stud ranges: what an opponent may hold face down, given his up cards.

A range is a union of terms in parentheses, each with an optional weight, followed by the player's up cards
(the door card first). ``docs/equity.md`` ("Stud ranges") gives the grammar and the meaning of every pattern.

>>> kings = Range.parse("(KK),(AA):0.5 Ks")
>>> [(format_cards(cards), weight) for cards, weight in kings.combos()][:4]
[('Kc Kd', 1.0), ('Kc Kh', 1.0), ('Kd Kh', 1.0), ('Ac Ad', 0.5)]
>>> kings.matches(parse_cards("Ad As")), kings.matches(parse_cards("Qd Qs"))
(0.5, 0.0)
>>> [(str(term), count) for term, count in kings.counts(dead=parse_cards("Kd"))]
[('(KK)', 1), ('(AA):0.5', 6)]
>>> str(Range.parse("(ak) , (aa) : .50  Ks7d"))    # the normal form
'(AK),(AA):0.5 Ks 7d'
>>> Range.parse("(KZ),(AA)")
Traceback (most recent call last):
    ...
studpoker.equity.ranges.RangeError: unknown rank 'Z' at position 2
(KZ),(AA)
  ^

Only the standard library is used here (the module imports without NumPy).
"""

from __future__ import annotations

import difflib
import operator
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, compress, product
from typing import Literal

from ..cards import CARDS, RANK_CHARS, Card, CardError, Rank, format_cards, parse_card, parse_cards
from ..engine import Variant
from .spot import MAX_TEXT, EquityError, game_of

__all__ = ["KEYWORDS", "MAX_UP", "Kind", "Range", "RangeError", "Term", "is_range"]

#: The keyword patterns, evaluated on the down cards together with the range's up cards.
KEYWORDS = ("pair+", "rolled", "flush3", "straight3", "low3")

#: The most up cards a range may have (sixth street in the seven-card games, fifth street in five-card stud).
MAX_UP = 4

#: What a term's pattern is: exact cards, rank characters, or a keyword.
Kind = Literal["cards", "ranks", "keyword"]

#: The numbers of down cards a range may describe in each game (the first one is the default).
_DOWN = {
    Variant.STUD7: (2, 3),
    Variant.STUD7_HL8: (2, 3),
    Variant.RAZZ: (2, 3),
    Variant.STUD5: (1, 2),
}

#: The rank characters of a ranks pattern (either case); None is X, any rank.
_PATTERN_RANKS: dict[str, Rank | None] = {c: Rank(i) for i, c in enumerate(RANK_CHARS)}
_PATTERN_RANKS.update({c.lower(): Rank(i) for i, c in enumerate(RANK_CHARS)})
_PATTERN_RANKS.update({"X": None, "x": None})


def _is_card(text: str) -> bool:
    try:
        parse_card(text)
    except CardError:
        return False
    return True


#: How a card's rank and suit may be written (what :func:`~studpoker.cards.parse_card` takes).
_CARD_RANKS = frozenset(r for r in (*RANK_CHARS, *RANK_CHARS.lower(), "10") if _is_card(r + "c"))
_SUITS = frozenset(s for s in "cdhsCDHS♣♦♥♠♧♢♡♤" if _is_card("A" + s))

_WEIGHT_TOKEN = re.compile(r"[+-]?[0-9.]*(?:[eE][+-]?[0-9]*)?")
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")
_WORD = re.compile(r"[a-z][a-z0-9+]*")
_SHOWN = 76  # characters of the text an error message shows around the position


class RangeError(EquityError):
    """Range text that does not parse. ``text`` is the text, ``position`` the 0-based index of the offending
    character (``len(text)`` when something is missing at the end), ``problem`` what is wrong; the message
    adds the text with a caret under the position."""

    def __init__(self, problem: str, text: str, position: int) -> None:
        self.problem = problem
        self.text = text
        self.position = position
        super().__init__(f"{problem} at position {position}\n{_caret(text, position)}")

    def __reduce__(self) -> tuple[type[RangeError], tuple[str, str, int]]:
        return type(self), (self.problem, self.text, self.position)


def _caret(text: str, position: int) -> str:
    """The text (a window of it when it is long) and a caret line under ``position``."""
    start = 0
    if len(text) > _SHOWN:
        start = max(0, min(position - _SHOWN // 2, len(text) - _SHOWN))
    piece = text[start : start + _SHOWN]
    shown = "".join(" " if ch.isspace() else ch if ch.isprintable() else "?" for ch in piece)
    left = "..." if start > 0 else ""
    right = "..." if start + _SHOWN < len(text) else ""
    return f"{left}{shown}{right}\n{' ' * (len(left) + position - start)}^"


@dataclass(frozen=True)
class Term:
    """One term of a range: a pattern, its weight, whether it excludes.

    ``kind`` says which pattern it is: ``"cards"`` (``cards``, the exact down cards, highest first),
    ``"ranks"`` (``ranks``, one rank a down card, highest first, ``None`` for X last; ``suited`` True for
    ``s``, False for ``o``, None for either; ``plus`` for ``+``) or ``"keyword"`` (``keyword``, one of
    :data:`KEYWORDS`). ``start`` and ``end`` are the term's span in the range's text and ``text`` that part of
    it; they do not take part in comparisons.
    """

    kind: Kind
    cards: tuple[Card, ...] = ()
    ranks: tuple[Rank | None, ...] = ()
    suited: bool | None = None
    plus: bool = False
    keyword: str = ""
    weight: float = 1.0
    exclude: bool = False
    start: int = field(default=0, compare=False, repr=False)
    end: int = field(default=0, compare=False, repr=False)
    text: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        # One order for equal patterns, however built: cards and ranks highest first, X last.
        if isinstance(self.cards, tuple) and all(isinstance(c, Card) for c in self.cards):
            object.__setattr__(self, "cards", tuple(sorted(self.cards, key=lambda c: -c.index)))
        if isinstance(self.ranks, tuple) and all(r is None or isinstance(r, Rank) for r in self.ranks):
            object.__setattr__(self, "ranks", tuple(sorted(self.ranks, key=_rank_order, reverse=True)))

    @property
    def pattern(self) -> str:
        """The pattern in normal form, without the parentheses: ``AsKd``, ``K9s+``, ``AX``, ``pair+``."""
        if self.kind == "cards":
            return "".join(str(c) for c in self.cards)
        if self.kind == "ranks":
            ranks = "".join("X" if r is None else r.char for r in self.ranks)
            return ranks + ("" if self.suited is None else "s" if self.suited else "o") + ("+" if self.plus else "")
        return self.keyword

    def __str__(self) -> str:
        return _term_text(self, compact=False)


def _rank_order(rank: Rank | None) -> int:
    return -1 if rank is None else int(rank)


def _term_text(term: Term, *, compact: bool) -> str:
    weight = "" if term.weight == 1 else ":" + _weight_text(term.weight, compact=compact)
    return f"{'!' if term.exclude else ''}({term.pattern}){weight}"


def _weight_text(weight: float, *, compact: bool) -> str:
    """A weight below 1 as a plain decimal that reads back as the same float: ``0.5`` (compact: ``.5``)."""
    text = repr(weight)
    if "e" in text or "E" in text:
        text = format(Decimal(text), "f")
    return text[1:] if compact and text.startswith("0.") else text


# --- what a term matches ----------------------------------------------------------------------------------------


def _rank_alternatives(ranks: tuple[Rank | None, ...], plus: bool) -> list[tuple[int, ...]]:
    """The fixed (non-X) ranks a ranks pattern asks for, one tuple each way ``+`` allows."""
    fixed = tuple(int(r) for r in ranks if r is not None)
    if not plus:
        return [fixed]
    if len(set(fixed)) == 1:  # 99+, 999+, 9+: that rank or any higher, all equal
        return [(r,) * len(fixed) for r in range(fixed[0], 13)]
    top, second = fixed  # K9+: K9, KT, KJ, KQ
    return [(top, r) for r in range(second, top)]


def _straight3(ranks: set[int]) -> bool:
    """Three distinct ranks within five consecutive ranks, the ace (12) high or low (-1)."""
    have = (ranks | {-1}) if 12 in ranks else ranks
    return any(sum(1 for r in have if low <= r <= low + 4) >= 3 for low in range(-1, 9))


@dataclass(frozen=True)
class _Rows:
    """Every combination of ``down`` cards avoiding some up cards, in lexicographic order, by columns: the card
    indices (ascending), their ranks (so ascending too), their suits, whether they are all of one suit, the card
    mask and the cards."""

    indices: tuple[tuple[int, ...], ...]
    ranks: tuple[tuple[int, ...], ...]
    suits: tuple[tuple[int, ...], ...]
    suited: tuple[bool, ...]
    masks: tuple[int, ...]
    cards: tuple[tuple[Card, ...], ...]


@lru_cache(maxsize=4)
def _all_rows(down: int) -> _Rows:
    """Every combination of ``down`` cards of the deck."""
    indices = tuple(combinations(range(52), down))
    suits = tuple(tuple(i & 3 for i in combo) for combo in indices)
    return _Rows(
        indices,
        tuple(tuple(i >> 2 for i in combo) for combo in indices),
        suits,
        tuple(s.count(s[0]) == down for s in suits),
        tuple(sum(1 << i for i in combo) for combo in indices),
        tuple(tuple(CARDS[i] for i in combo) for combo in indices),
    )


@lru_cache(maxsize=16)
def _rows(up_mask: int, down: int) -> _Rows:
    """The combinations avoiding these up cards (shared by every range with the same up cards)."""
    rows = _all_rows(down)
    if not up_mask:
        return rows
    keep = [not mask & up_mask for mask in rows.masks]
    return _Rows(
        tuple(compress(rows.indices, keep)),
        tuple(compress(rows.ranks, keep)),
        tuple(compress(rows.suits, keep)),
        tuple(compress(rows.suited, keep)),
        tuple(compress(rows.masks, keep)),
        tuple(compress(rows.cards, keep)),
    )


@dataclass(frozen=True)
class _Test:
    """A term compiled for the range's up cards: the down cards match when their key (``on``: the card
    indices, the ranks or the suits, each ascending by card index) is in ``allowed`` and, if ``suited`` is not
    None, they are all of one suit (True) or not (False)."""

    on: Literal["indices", "ranks", "suits"]
    allowed: frozenset[tuple[int, ...]]
    suited: bool | None = None

    def __call__(self, indices: tuple[int, ...], ranks: tuple[int, ...], suits: tuple[int, ...]) -> bool:
        key = indices if self.on == "indices" else ranks if self.on == "ranks" else suits
        if key not in self.allowed:
            return False
        return self.suited is None or (suits.count(suits[0]) == len(suits)) == self.suited

    def rows(self, rows: _Rows) -> list[int]:
        """The numbers of the rows it matches: a set lookup a row, run from C (map, compress), and for s or o
        the row's suitedness (hit and suited; hit and not suited: hit > suited)."""
        hits: Iterable[bool] = map(self.allowed.__contains__, getattr(rows, self.on))
        if self.suited is not None:
            hits = map(operator.and_, hits, rows.suited) if self.suited else map(operator.gt, hits, rows.suited)
        return list(compress(range(len(rows.masks)), hits))


def _compile(term: Term, up: tuple[int, ...], down: int) -> _Test:
    """The term as a test on the down cards (the range's up cards, ``up``, fixed)."""
    if term.kind == "cards":
        return _Test("indices", frozenset({tuple(sorted(c.index for c in term.cards))}))
    if term.kind == "ranks":
        return _Test("ranks", _rank_keys(term.ranks, term.plus, down), term.suited)
    return _Test("suits" if term.keyword == "flush3" else "ranks", _keyword_keys(term.keyword, up, down))


@lru_cache(maxsize=1024)
def _rank_keys(ranks: tuple[Rank | None, ...], plus: bool, down: int) -> frozenset[tuple[int, ...]]:
    """The rank keys a ranks pattern allows: one alternative's fixed ranks and any ranks for the Xs."""
    return frozenset(
        tuple(sorted(fixed + free))
        for fixed in _rank_alternatives(ranks, plus)
        for free in combinations_with_replacement(range(13), down - len(fixed))
    )


@lru_cache(maxsize=1024)
def _keyword_keys(keyword: str, up: tuple[int, ...], down: int) -> frozenset[tuple[int, ...]]:
    """The keys a keyword allows with these up cards, found by trying every key: the suits of the down cards
    for flush3 (at most 64 keys), else their ranks (at most 455)."""
    up_ranks = tuple(i >> 2 for i in up)
    up_suits = tuple(i & 3 for i in up)
    if keyword == "flush3":
        return frozenset(s for s in product(range(4), repeat=down) if max(Counter(s + up_suits).values()) >= 3)

    def test(ranks: tuple[int, ...]) -> bool:
        every = ranks + up_ranks
        if keyword == "pair+":
            return len(set(every)) < len(every)
        if keyword == "rolled":
            return all(r == up_ranks[0] for r in ranks)
        if keyword == "straight3":
            return _straight3(set(every))
        return len({r for r in every if r == 12 or r <= 6}) >= 3  # low3: the ace (12) and the deuce to the eight

    return frozenset(filter(test, combinations_with_replacement(range(13), down)))


@dataclass(frozen=True)
class _Table:
    """A range's combinations once computed: those in it (mask, cards, weight), and the card masks of the
    combinations each term matches."""

    combos: list[tuple[int, tuple[Card, ...], float]]
    hits: list[list[int]]


# --- the range --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Range:
    """What a player may hold face down: ``down`` cards, described by ``terms``, given his ``up`` cards.

    Build one with :meth:`parse`. ``text`` is the text it was parsed from (not compared); ``str(range)`` is a
    normal form that parses back to an equal range.
    """

    variant: Variant
    down: int
    terms: tuple[Term, ...]
    up: tuple[Card, ...] = ()
    text: str = field(default="", compare=False)
    _tests: tuple[tuple[_Test, float, bool], ...] = field(init=False, repr=False, compare=False, default=())
    _table: _Table | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        problem = _problem(self)
        if problem:
            raise EquityError(f"not a range: {problem}")
        up = tuple(c.index for c in self.up)
        tests = tuple((_compile(t, up, self.down), t.weight, t.exclude) for t in self.terms)
        object.__setattr__(self, "_tests", tests)

    @classmethod
    def parse(cls, text: str, variant: str | Variant = "7stud", down: int | None = None) -> Range:
        """Parse range text such as ``"(KK),(AA):0.5 Ks"`` for ``variant`` (``7stud``, ``7stud8``, ``razz``,
        ``5stud`` or a :class:`~studpoker.engine.Variant`); ``down`` is the number of down cards the range
        describes (default 2 in the seven-card games, 1 in five-card stud; 3 for a seventh-street hand, 2 in
        five-card stud with the last card dealt down). Malformed text raises :class:`RangeError`."""
        game = game_of(variant)
        allowed = _DOWN[game]
        if down is None:
            down = allowed[0]
        elif type(down) is not int or down not in allowed:
            raise EquityError(
                f"down must be {' or '.join(map(str, allowed))} in {game.title.lower()} (cards a range describes),"
                f" got {down!r}"
            )
        if not isinstance(text, str):
            raise EquityError(f'a range must be text such as "(KK),(AA):0.5 Ks", got {type(text).__name__}')
        if len(text) > MAX_TEXT:
            raise RangeError(f"range text longer than {MAX_TEXT:,} characters ({len(text):,})", text, MAX_TEXT)
        terms, up = _Parser(text, down, min(MAX_UP, game.cards - down)).parse()
        return cls(game, down, terms, up, text)

    def matches(self, down_cards: Sequence[Card | str | int] | str) -> float:
        """The weight of these down cards in the range (0.0: not in it). Whether they are visible is not checked:
        see :meth:`combos` for that."""
        try:
            indices = tuple(sorted(_indices(down_cards, "the down cards")))
        except CardError as error:
            raise EquityError(f"the down cards: {error}") from None
        if len(indices) != self.down or len(set(indices)) != self.down:
            shown = format_cards(CARDS[i] for i in indices)
            raise EquityError(f"the range describes {_cards(self.down, 'distinct down card')}, got {shown!r}")
        return self._weight(indices, tuple(i >> 2 for i in indices), tuple(i & 3 for i in indices))

    def combos(self, dead: str | Iterable[Card | str | int] = ()) -> list[tuple[tuple[Card, ...], float]]:
        """Every combination in the range and its weight (above 0), cards ascending by index, combinations in
        lexicographic order of their indices; none uses an up card of the range or a ``dead`` card."""
        mask = _mask(dead)
        table = self._computed()
        if not mask:
            return [(cards, weight) for _, cards, weight in table.combos]
        return [(cards, weight) for m, cards, weight in table.combos if not m & mask]

    def counts(self, dead: str | Iterable[Card | str | int] = ()) -> list[tuple[Term, int]]:
        """For each term, how many combinations of the unseen cards (not up cards, not ``dead``) it matches,
        whatever the other terms say: what card removal leaves of it."""
        mask = _mask(dead)
        table = self._computed()
        return [(term, sum(1 for m in hits if not m & mask)) for term, hits in zip(self.terms, table.hits, strict=True)]

    def __str__(self) -> str:
        text = ",".join(str(t) for t in self.terms) + "".join(f" {c}" for c in self.up)
        if len(text) <= MAX_TEXT:
            return text
        # Longer than parse takes (weights such as .5 gained a 0, spaces between up cards): the compact form,
        # never longer than the text the range was parsed from.
        text = ",".join(_term_text(t, compact=True) for t in self.terms)
        if self.up:
            glued = self.terms[-1].weight == 1 or not str(self.up[0])[0].isdigit()
            text += ("" if glued else " ") + "".join(str(c) for c in self.up)
        return text

    def __repr__(self) -> str:
        return f"Range.parse({str(self)!r}, {self.variant.short_name!r}, down={self.down})"

    def _weight(self, indices: tuple[int, ...], ranks: tuple[int, ...], suits: tuple[int, ...]) -> float:
        best = 0.0 if any(not exclude for _, _, exclude in self._tests) else 1.0
        for test, weight, exclude in self._tests:
            if exclude:
                if test(indices, ranks, suits):
                    return 0.0
            elif weight > best and test(indices, ranks, suits):
                best = weight
        return best

    def _computed(self) -> _Table:
        table = self._table
        if table is not None:
            return table
        rows = _rows(sum(1 << c.index for c in self.up), self.down)
        everything = range(len(rows.masks))
        # Which rows each term matches (the tests run from C, through map and compress); then the weights of the
        # rows some included term matches, the terms taken by increasing weight so that the largest wins; then
        # the exclusions. A range of exclusions only starts from every row, weighing 1.
        matched = [test.rows(rows) for test, _, _ in self._tests]
        weights: dict[int, float] = {}
        if any(not exclude for _, _, exclude in self._tests):
            for k in sorted(range(len(self._tests)), key=lambda k: self._tests[k][1]):
                if not self._tests[k][2]:
                    weights.update(dict.fromkeys(matched[k], self._tests[k][1]))
        else:
            weights = dict.fromkeys(everything, 1.0)
        for k, (_, _, exclude) in enumerate(self._tests):
            if exclude:
                for row in matched[k]:
                    weights.pop(row, None)
        masks, cards = rows.masks, rows.cards
        combos = [(masks[row], cards[row], weights[row]) for row in sorted(weights)]
        hits = [[masks[row] for row in rows_matched] for rows_matched in matched]
        table = _Table(combos, hits)
        object.__setattr__(self, "_table", table)
        return table


def is_range(text: str) -> bool:
    """Whether ``text`` is range text (it has a ``(``) rather than plain known cards such as ``"As Kd 7c"``."""
    return isinstance(text, str) and "(" in text


def _cards(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _indices(cards: Iterable[Card | str | int], where: str) -> list[int]:
    if isinstance(cards, str):
        return [c.index for c in parse_cards(cards)]
    if not isinstance(cards, Iterable):
        raise EquityError(f"{where}: expected cards, got {type(cards).__name__}")
    out: list[int] = []
    for c in cards:
        if isinstance(c, Card):
            out.append(c.index)
        elif isinstance(c, str):
            out.append(parse_card(c).index)
        elif type(c) is int and 0 <= c < 52:
            out.append(c)
        else:
            raise EquityError(f"{where}: expected a card, its text or an index 0..51, got {c!r}")
    return out


def _mask(dead: str | Iterable[Card | str | int]) -> int:
    try:
        indices = _indices(dead, "the dead cards")
    except CardError as error:
        raise EquityError(f"the dead cards: {error}") from None
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


def _problem(r: Range) -> str:
    """What makes a directly built range inconsistent ("" when nothing does)."""
    if not isinstance(r.variant, Variant):
        return f"variant must be an engine Variant, got {r.variant!r}"
    if r.down not in _DOWN[r.variant]:
        return f"down must be {' or '.join(map(str, _DOWN[r.variant]))} in {r.variant.title.lower()}"
    if not isinstance(r.up, tuple) or not all(isinstance(c, Card) for c in r.up):
        return "up must be a tuple of Cards"
    if len(set(r.up)) != len(r.up) or len(r.up) > min(MAX_UP, r.variant.cards - r.down):
        return f"up cards {format_cards(r.up)}: a card twice, or too many"
    if not isinstance(r.terms, tuple) or not r.terms or not all(isinstance(t, Term) for t in r.terms):
        return "terms must be a non-empty tuple of Terms"
    for t in r.terms:
        number = isinstance(t.weight, (int, float)) and not isinstance(t.weight, bool)
        if not number or not 0 < t.weight <= 1 or (t.exclude and t.weight != 1):
            return f"term {t}: the weight must be above 0 and at most 1 (1 for an exclusion)"
        if t.kind == "cards":
            if len(t.cards) != r.down or len(set(t.cards)) != r.down or set(t.cards) & set(r.up):
                return f"term {t}: {_cards(r.down, 'distinct card')} that are not up cards"
        elif t.kind == "ranks":
            if len(t.ranks) != r.down or not all(x is None or isinstance(x, Rank) for x in t.ranks):
                return f"term {t}: {_cards(r.down, 'rank')} (None for X)"
            fixed = [x for x in t.ranks if x is not None]
            if t.plus and (len(fixed) < r.down or (len(set(fixed)) > 1 and r.down != 2)):
                return f"term {t}: '+' with X, or with different ranks and not two down cards"
        elif t.kind == "keyword":
            if t.keyword not in KEYWORDS:
                return f"unknown keyword {t.keyword!r}"
            if t.keyword == "rolled" and (r.down != 2 or not r.up):
                return "rolled needs two down cards and an up card"
        else:
            return f"unknown term kind {t.kind!r}"
    return ""


# --- the parser -------------------------------------------------------------------------------------------------


class _Parser:
    """The grammar of docs/equity.md, by hand: every malformed text is a RangeError at the offending character."""

    def __init__(self, text: str, down: int, most_up: int) -> None:
        self.text = text
        self.down = down
        self.most_up = most_up
        self.card_spots: list[tuple[Card, int, int]] = []  # each exact card of a term: card, position, term number

    def fail(self, problem: str, position: int) -> RangeError:
        return RangeError(problem, self.text, position)

    def skip(self, i: int) -> int:
        text = self.text
        while i < len(text) and text[i].isspace():
            i += 1
        return i

    def parse(self) -> tuple[tuple[Term, ...], tuple[Card, ...]]:
        text, n = self.text, len(self.text)
        i = self.skip(0)
        if i == n:
            raise self.fail("empty range: write at least one term, such as (AK)", 0)
        terms: list[Term] = []
        comma: int | None = None
        while True:
            term = self.term(i, comma, len(terms))
            terms.append(term)
            i = self.skip(term.end)
            if i < n and text[i] == ",":
                comma, i = i, self.skip(i + 1)
                if i == n:
                    raise self.fail("trailing comma: a term must follow ','", comma)
                continue
            break
        up = self.up_cards(i)
        where = {card: at for card, at in up}
        for card, _, number in self.card_spots:
            if card in where:
                raise self.fail(f"{card} is both a down card of {terms[number].text} and an up card", where[card])
        for term in terms:
            if term.keyword == "rolled" and not up:
                at = term.start + term.exclude + 1
                raise self.fail("rolled needs the door card: write the up cards after the terms, as in (rolled) Ks", at)
        return tuple(terms), tuple(card for card, _ in up)

    def term(self, i: int, comma: int | None, number: int) -> Term:
        text, n = self.text, len(self.text)
        start = i
        exclude = text.startswith("!", i)
        if exclude:
            i += 1
        if i >= n or text[i] != "(":
            if exclude:
                raise self.fail("expected '(' after '!'", i)
            if i < n and text[i] == ")":
                raise self.fail("unbalanced ')'", i)
            if comma is not None:
                raise self.fail("expected a term such as (AK) after ','", i)
            raise self.fail("expected '(': a range starts with a term such as (AK) or !(AK)", i)
        i += 1
        begin = i
        while i < n and text[i] not in "(),":
            i += 1
        if i >= n or text[i] == ",":
            raise self.fail("missing ')'", i)
        if text[i] == "(":
            raise self.fail("'(' inside a term (missing ')' before it?)", i)
        if i == begin:
            raise self.fail("empty term: write a pattern between the parentheses, such as (AK)", i)
        pattern = self.pattern(begin, i, number)
        end = i + 1
        weight = 1.0
        j = self.skip(end)
        if j < n and text[j] == ":":
            if exclude:
                raise self.fail("an excluded term takes no weight (its combinations are removed)", j)
            weight, end = self.weight(self.skip(j + 1))
        return replace(pattern, weight=weight, exclude=exclude, start=start, end=end, text=text[start:end])

    def pattern(self, begin: int, end: int, number: int) -> Term:
        text, down = self.text, self.down
        for k in range(begin, end):
            if text[k].isspace():
                raise self.fail("space inside a term", k)
        pattern = text[begin:end]
        word = pattern.lower()
        if word in KEYWORDS:
            if word == "rolled" and down != 2:
                raise self.fail(f"rolled needs two down cards, the range has {down}", begin)
            return Term("keyword", keyword=word)
        if pattern.startswith("10") or (len(pattern) >= 2 and pattern[0] in _CARD_RANKS and pattern[1] in _SUITS):
            return self.exact_cards(begin, end, number)
        # a word (at least two letters that no ranks pattern has) is taken for a keyword
        if len(word) >= 3 and _WORD.fullmatch(word) and sum(ch.isalpha() and ch not in "tjqkaxso" for ch in word) >= 2:
            close = difflib.get_close_matches(word, KEYWORDS, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise self.fail(f"unknown keyword {pattern!r}{hint}: the keywords are {', '.join(KEYWORDS)}", begin)
        return self.rank_pattern(begin, end)

    def exact_cards(self, begin: int, end: int, number: int) -> Term:
        found: list[tuple[Card, int]] = []
        i = begin
        while i < end:
            card, j = self.card(i, end, "a card")
            if any(card == c for c, _ in found):
                raise self.fail(f"{card} twice in the term", i)
            found.append((card, i))
            i = j
        d = self.down
        if len(found) > d:
            raise self.fail(f"too many cards: {len(found)} for {_cards(d, 'down card')}", found[d][1])
        if len(found) < d:
            raise self.fail(f"too few cards: {len(found)} for {_cards(d, 'down card')}", end)
        self.card_spots.extend((card, at, number) for card, at in found)
        return Term("cards", cards=tuple(c for c, _ in found))

    def rank_pattern(self, begin: int, end: int) -> Term:
        text, d = self.text, self.down
        i = begin
        found: list[tuple[Rank | None, int]] = []
        while i < end and text[i] in _PATTERN_RANKS:
            found.append((_PATTERN_RANKS[text[i]], i))
            i += 1
        suffix: int | None = None
        plus: int | None = None
        if i < end and text[i] in "sSoO":
            suffix, i = i, i + 1
        if i < end and text[i] == "+":
            plus, i = i, i + 1
        if i < end:
            ch = text[i]
            if ch in _PATTERN_RANKS and plus is not None:
                raise self.fail("misplaced '+': it comes last, after the ranks (and s or o)", plus)
            if ch in _PATTERN_RANKS and suffix is not None:
                raise self.fail(f"misplaced {text[suffix]!r}: s or o comes after all the ranks", suffix)
            if ch == "+":
                raise self.fail("misplaced '+': one '+' at most, at the end", i)
            if ch in "sSoO" and plus is not None:
                raise self.fail(f"misplaced {ch!r}: s or o comes before '+'", i)
            if ch in "sSoO":
                raise self.fail(f"misplaced {ch!r}: a term is either s (suited) or o (offsuit)", i)
            if ch.isalnum():
                raise self.fail(f"unknown rank {ch!r}", i)
            raise self.fail(f"unexpected {ch!r} in a term", i)
        if not found:
            ch = text[begin]
            if ch == "+":
                raise self.fail("misplaced '+': it follows ranks, as in 99+", begin)
            raise self.fail(f"{ch!r} with no rank before it", begin)
        ranks = sorted((r for r, _ in found), key=_rank_order, reverse=True)
        if len(found) > d:
            raise self.fail(f"too many ranks: {len(found)} for {_cards(d, 'down card')}", found[d][1])
        if len(found) < d:
            raise self.fail(f"too few ranks: {len(found)} for {_cards(d, 'down card')}", found[-1][1] + 1)
        suited = None
        if suffix is not None:
            letter = text[suffix]
            if d < 2:
                raise self.fail(f"{letter!r} needs at least two down cards, the range has one", suffix)
            suited = letter in "sS"
            pair = next((r for r, n in Counter(ranks).items() if r is not None and n > 1), None)
            if suited and pair is not None:
                raise self.fail(f"{letter!r} with two {pair.plural}: two cards of one rank are never suited", suffix)
        if plus is not None:
            if None in ranks:
                raise self.fail("misplaced '+': it cannot follow X", plus)
            if len(set(ranks)) > 1 and d != 2:
                raise self.fail(
                    f"misplaced '+': with {_cards(d, 'down card')} it follows only equal ranks, as in 999+", plus
                )
        return Term("ranks", ranks=tuple(ranks), suited=suited, plus=plus is not None)

    def weight(self, i: int) -> tuple[float, int]:
        text, n = self.text, len(self.text)
        if i >= n:
            raise self.fail("missing weight after ':'", i)
        match = _WEIGHT_TOKEN.match(text, i)
        token, j = (match.group(), match.end()) if match else ("", i)  # the pattern matches "" at least
        if j < n and text[j].isalnum() and text[j] not in _CARD_RANKS:  # glued junk, as in 0.5x or 0x1
            while j < n and not text[j].isspace() and text[j] not in ",()":
                j += 1
            raise self.fail(f"bad weight {text[i:j]!r}: write a number such as 0.5", i)
        if not token:
            raise self.fail(f"expected a weight after ':', a number such as 0.5, not {text[i]!r}", i)
        if token.startswith("-") and _DECIMAL.fullmatch(token[1:]):
            raise self.fail(f"weight {token} is out of range: a weight is above 0 and at most 1", i)
        if not _DECIMAL.fullmatch(token):
            raise self.fail(f"bad weight {token!r}: write a plain decimal number such as 0.5", i)
        if not 0 < Decimal(token) <= 1:
            raise self.fail(f"weight {token} is out of range: a weight is above 0 and at most 1", i)
        weight = float(token)
        if weight == 0:
            raise self.fail(f"weight {token} is too small: it rounds to 0", i)
        return weight, j

    def card(self, i: int, end: int, what: str) -> tuple[Card, int]:
        """The card written at ``i`` (before ``end``) and the position after it."""
        text = self.text
        rank = "10" if text.startswith("10", i) and i + 2 <= end else text[i]
        if rank not in _CARD_RANKS:
            ch = text[i]
            if ch.isalnum():
                raise self.fail(f"unknown rank {ch!r} in {what}", i)
            raise self.fail(f"unexpected {ch!r}: expected {what} such as Ks", i)
        j = i + len(rank)
        if j >= end:
            raise self.fail(f"missing suit after {rank!r}", j)
        if text[j] not in _SUITS:
            raise self.fail(f"unknown suit {text[j]!r}", j)
        return parse_card(rank + text[j]), j + 1

    def up_cards(self, i: int) -> list[tuple[Card, int]]:
        text, n = self.text, len(self.text)
        out: list[tuple[Card, int]] = []
        while True:
            i = self.skip(i)
            if i >= n:
                return out
            ch = text[i]
            if ch in "(!":
                if out:
                    raise self.fail("a term after the up cards: write the terms first, then the up cards", i)
                raise self.fail("missing ',' between terms", i)
            if ch == ")":
                raise self.fail("unbalanced ')'", i)
            if ch == ",":
                raise self.fail("unexpected ',' among the up cards (separate them with spaces)", i)
            if ch == ":":
                raise self.fail("unexpected ':' (a weight comes right after its term's ')')", i)
            card, j = self.card(i, n, "an up card")
            if any(card == c for c, _ in out):
                raise self.fail(f"{card} twice among the up cards", i)
            if len(out) == self.most_up:
                raise self.fail(f"too many up cards: at most {self.most_up} with {_cards(self.down, 'down card')}", i)
            out.append((card, i))
            i = j
