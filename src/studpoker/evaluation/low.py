"""Ace-to-five low hands: eight-or-better (stud hi/lo, SPEC R10.2) and razz (SPEC R12a.1).

Straights and flushes never count; the ace is always low.

>>> evaluate_low8("As 2d 3c 6s 7h Qd Qh").description
'7-6-3-2-A low'
>>> evaluate_low8("8d 5c 4h 3s Jd Jh Td") is None   # only four cards eight or lower
True
>>> evaluate_razz("Ks Kd Qc Qh 2s 2d 3c").description
'Pair of twos, K-Q-3-2-2'

:func:`low8_value` (0 = no qualifying low, else 1..56) and :func:`razz_value`
(1..6175) are the fast paths; larger is always better, matching
:func:`studpoker.evaluation.low8_batch` and :func:`~studpoker.evaluation.razz_batch`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import CARDS, RANK_CHARS, Card, CardsLike, Rank, card_indices
from . import _tables
from ._ordering import Ranked
from ._tables import RANK_MASK, LowCategory, scan
from .high import NOT_LOADED as _NOT_LOADED
from .high import _fast as _kernel_fast
from .high import kernel_value

__all__ = [
    "LowCategory",
    "LowHand",
    "evaluate_low8",
    "evaluate_razz",
    "low8_value",
    "razz_value",
]

_SIZES = _tables.HAND_SIZES
_LOW8, _RAZZ = 1, 2  # positions in _tables.scalar_tables(size)
_LOADED: dict[int, tuple[dict[int, int], dict[int, int], dict[int, int]]] = {}


def _low(packed: int, which: int) -> int:
    """Eight-or-better (``_LOW8``) or razz (``_RAZZ``) value of a hand from its :func:`~._tables.scan`."""
    n = packed & 7
    tables = _LOADED.get(n)
    if tables is None:
        tables = _LOADED[n] = _tables.scalar_tables(n)
    return tables[which][packed >> 3 & RANK_MASK]


_fast = _kernel_fast  # the compiled kernel's one-hand function, or None (see high.py)


def low8_value(cards: CardsLike) -> int:
    """Strength of the best eight-or-better low in 5 to 7 cards: 0 if none, else 1 (8-7-6-5-4) .. 56 (wheel)."""
    if _fast is not None:
        value = _fast(cards, _LOW8)
        if value >= 0:
            return value
        if value == _NOT_LOADED:
            return kernel_value(cards, "low8")
    return _low(scan(cards), _LOW8)


def razz_value(cards: CardsLike) -> int:
    """Strength of the best razz low in 5 to 7 cards: 1 (K-K-K-K-Q) .. 6175 (5-4-3-2-A)."""
    if _fast is not None:
        value = _fast(cards, _RAZZ)
        if value >= 0:
            return value
        if value == _NOT_LOADED:
            return kernel_value(cards, "razz")
    return _low(scan(cards), _RAZZ)


def _low_char(rank: int) -> str:
    return RANK_CHARS[rank]


_CATEGORY_WORDS = {
    LowCategory.ONE_PAIR: "Pair of {0}",
    LowCategory.TWO_PAIR: "Two pair, {0} and {2}",
    LowCategory.THREE_OF_A_KIND: "Three of a kind, {0}",
    LowCategory.FULL_HOUSE: "Full house, {0} full of {3}",
    LowCategory.FOUR_OF_A_KIND: "Four of a kind, {0}",
}


@dataclass(frozen=True, slots=True, eq=False)
class LowHand(Ranked):
    """An ace-to-five low: value (larger is better), shape, and the five cards it plays.

    ``game`` is ``"low8"`` (eight-or-better; always five different ranks) or
    ``"razz"``. Only hands of the same game compare. ``cards`` run from the
    highest card down in low order (ace last), paired cards together.
    """

    game: str
    value: int
    category: LowCategory
    cards: tuple[Card, ...]

    @property
    def ranks(self) -> tuple[int, ...]:
        """The five ranks, highest first in low order (0 = deuce .. 12 = ace, which plays as one)."""
        return tuple(c.rank for c in self.cards)

    @property
    def description(self) -> str:
        """The hand in words, e.g. ``"7-5-4-2-A low"`` or ``"Pair of twos, K-Q-3-2-2"``."""
        spelled = "-".join(_low_char(r) for r in self.ranks)
        if self.category == LowCategory.NO_PAIR:
            return f"{spelled} low"
        cls = _classes(self.game)[self.value - 1]
        words = [Rank(r).plural for r in cls.ranks]
        return f"{_CATEGORY_WORDS[LowCategory(self.category)].format(*words)}, {spelled}"

    def __str__(self) -> str:
        return self.description

    def __repr__(self) -> str:
        cards = " ".join(map(str, self.cards))
        return f"LowHand({self.game!r}, {self.description!r}, cards='{cards}', value={self.value})"

    def _repr_svg_(self) -> str:
        """The five cards drawn with the hand's description (:func:`studpoker.svg.cards`), for notebooks."""
        from ..svg import cards  # imported here: drawing is for notebooks only

        return cards(self.cards, label=self.description)

    def _repr_html_(self) -> str:
        return self._repr_svg_()

    def _kind(self) -> tuple[object, ...]:
        return (LowHand, self.game)


def _classes(game: str) -> tuple[_tables.HandClass, ...]:
    return _tables.low8_classes() if game == "low8" else _tables.razz_classes()


def _low_order(card: int) -> tuple[int, int]:
    """Sort key: low rank (ace lowest), then suit."""
    rank = card >> 2
    return (0 if rank == 12 else rank + 1, card & 3)


def _make(game: str, idx: list[int], value: int) -> LowHand:
    cls = _classes(game)[value - 1]
    used = _tables.pick_cards(idx, cls.ranks)
    used.sort(key=_low_order, reverse=True)
    return LowHand(game, value, LowCategory(cls.category), tuple(CARDS[c] for c in used))


def evaluate_low8(cards: CardsLike) -> LowHand | None:
    """The best eight-or-better low in 5 to 7 cards, or ``None`` if the cards hold no qualifying low."""
    idx = card_indices(cards, counts=_SIZES)
    value = _low(scan(idx), _LOW8)
    return _make("low8", idx, value) if value else None


def evaluate_razz(cards: CardsLike) -> LowHand:
    """The best razz low in 5 to 7 cards (pairs count against it; every hand has one)."""
    idx = card_indices(cards, counts=_SIZES)
    return _make("razz", idx, _low(scan(idx), _RAZZ))
