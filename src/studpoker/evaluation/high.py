"""High hands: the best five of 5, 6 or 7 cards (SPEC R10.1).

>>> from studpoker.cards import format_cards
>>> hand = evaluate_high("As Ad 7c 7h 2s Kd 9c")
>>> hand.description
'Two pair, aces and sevens'
>>> hand.category is HandCategory.TWO_PAIR, format_cards(hand.cards)
(True, 'As Ad 7h 7c Kd')
>>> evaluate_high("5d 4c 3h 2s Ah") < evaluate_high("6d 5c 4h 3s 2s")
True

:func:`high_value` is the fast path: an ``int`` in 1..7462, larger is better,
equal for hands of equal strength (suits never break a tie). The same numbers
come out of :func:`studpoker.evaluation.high_batch`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import CARDS, Card, CardsLike, Rank, card_indices
from . import _tables
from ._ordering import Ranked
from ._tables import RANK_MASK, SUIT_SHIFT, HandCategory, scan

__all__ = ["HandCategory", "HighHand", "evaluate_high", "high_category", "high_value"]

_SIZES = _tables.HAND_SIZES
# Per hand size: (flush suit by suit part of the key, rank key -> value without a flush,
# flush rank bits -> flush value), filled on first use.
_LOADED: dict[int, tuple[tuple[int, ...], dict[int, int], tuple[int, ...]]] = {}
#: First value of each category, weakest first (high card starts at 1).
CATEGORY_STARTS = (1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453)


def _load(size: int) -> tuple[tuple[int, ...], dict[int, int], tuple[int, ...]]:
    loaded = _tables.flush_suits(size), _tables.scalar_tables(size)[0], _tables.flush_values()
    _LOADED[size] = loaded
    return loaded


def _value(packed: int, cards: CardsLike) -> int:
    """High value of a hand from its :func:`~._tables.scan`; ``cards`` are read again only for a flush."""
    try:
        suits, table, flushes = _LOADED[packed & 7]
    except KeyError:
        suits, table, flushes = _load(packed & 7)
    suit = suits[packed >> (SUIT_SHIFT + 3)]
    if suit < 0:
        return table[packed >> 3 & RANK_MASK]
    mask = 0
    for c in card_indices(cards):
        if c & 3 == suit:
            mask |= 1 << (c >> 2)
    return flushes[mask]


def high_value(cards: CardsLike) -> int:
    """Strength of the best five-card high hand in 5 to 7 cards: 1 (7-5-4-3-2) .. 7462 (royal flush)."""
    return _value(scan(cards), cards)


def high_category(value: int) -> HandCategory:
    """The category of a high value from :func:`high_value`."""
    if not 1 <= value <= _tables.HIGH_CLASSES:
        raise ValueError(f"{value} is not a high-hand value (1..{_tables.HIGH_CLASSES})")
    category = sum(1 for start in CATEGORY_STARTS if start <= value) - 1
    return HandCategory(category)


_WORDS = {
    HandCategory.STRAIGHT_FLUSH: "Straight flush, {0.noun} high",
    HandCategory.FOUR_OF_A_KIND: "Four of a kind, {0.plural}",
    HandCategory.FULL_HOUSE: "Full house, {0.plural} full of {3.plural}",
    HandCategory.FLUSH: "Flush, {0.noun} high",
    HandCategory.STRAIGHT: "Straight, {0.noun} high",
    HandCategory.THREE_OF_A_KIND: "Three of a kind, {0.plural}",
    HandCategory.TWO_PAIR: "Two pair, {0.plural} and {2.plural}",
    HandCategory.ONE_PAIR: "Pair of {0.plural}",
    HandCategory.HIGH_CARD: "High card, {0.noun}",
}


def _describe(category: HandCategory, ranks: tuple[int, ...]) -> str:
    if category == HandCategory.STRAIGHT_FLUSH and ranks[0] == Rank.ACE:
        return "Royal flush"
    return _WORDS[category].format(*(Rank(r) for r in ranks))


@dataclass(frozen=True, slots=True, eq=False)
class HighHand(Ranked):
    """A high hand: its value (larger is better), category and the five cards it plays.

    Hands compare by value only: equal values are equal hands, whatever the suits.
    ``cards`` are in naming order (the group first, a straight from its top card;
    ``5 4 3 2 A`` for the wheel).
    """

    value: int
    category: HandCategory
    cards: tuple[Card, ...]

    @property
    def ranks(self) -> tuple[int, ...]:
        """The five ranks as played (0 = deuce .. 12 = ace)."""
        return _tables.high_classes()[self.value - 1].ranks

    @property
    def description(self) -> str:
        """The hand in words, e.g. ``"Full house, kings full of sevens"``."""
        return _describe(self.category, self.ranks)

    def __str__(self) -> str:
        return self.description

    def __repr__(self) -> str:
        cards = " ".join(map(str, self.cards))
        return f"HighHand({self.description!r}, cards='{cards}', value={self.value})"


def evaluate_high(cards: CardsLike) -> HighHand:
    """The best high hand in 5 to 7 cards, with its category, cards and description."""
    idx = card_indices(cards, counts=_SIZES)
    value = _value(scan(idx), idx)
    cls = _tables.high_classes()[value - 1]
    category = HandCategory(cls.category)
    suit = None
    if category in (HandCategory.FLUSH, HandCategory.STRAIGHT_FLUSH):
        suit = max(range(4), key=lambda s: sum(1 for c in idx if c & 3 == s))
    used = _tables.pick_cards(idx, cls.ranks, suit)
    return HighHand(value, category, tuple(CARDS[c] for c in used))
