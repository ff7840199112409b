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

import threading
from array import array
from collections.abc import Callable
from dataclasses import dataclass

from ..cards import _BY_TEXT, CARDS, Card, CardError, CardsLike, Rank, card_indices, parse_cards
from . import _tables
from ._ordering import Ranked
from ._tables import CARD_KEYS, RANK_MASK, RANK_WEIGHTS, SUIT_SHIFT, HandCategory, scan

#: The compiled kernel's one-hand function (``_kernel.value``): a value, or a negative code
#: (``NOT_LOADED``: hand it the tables first; anything else: take the Python path).
_fast: Callable[[object, int], int] | None
NOT_LOADED = -3
try:
    from ._kernel import value as _fast
except ImportError:  # built without a C compiler: the Python path below
    _fast = None

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
    if _fast is not None:  # a list or tuple of ints or Cards, in C; anything else comes back negative
        value = _fast(cards, 0)
        if value >= 0:
            return value
        if value == NOT_LOADED:
            return kernel_value(cards, "high")
    return _value(scan(cards), cards)


KIND_IDS = {"high": 0, "low8": 1, "razz": 2}  # the kernel's numbers for the kinds of value
_LOAD_LOCK = threading.Lock()


def _text_tables() -> tuple[bytes, bytes]:
    """For each ASCII character: its rank and its suit in two-character card text (255: none),
    read from the card parser's own table, so the kernel accepts exactly the same text."""
    ranks, suits = bytearray([255] * 128), bytearray([255] * 128)
    two = {text: card for text, card in _BY_TEXT.items() if len(text) == 2 and text.isascii()}
    for text, card in two.items():
        ranks[ord(text[0])], suits[ord(text[1])] = card.rank, card.suit
    # every rank character with every suit character is that card, and nothing else is: each text agrees with
    # the tables (no character means two ranks or two suits), and there are as many texts as pairs of characters
    for text, card in two.items():
        if (ranks[ord(text[0])], suits[ord(text[1])]) != (card.rank, card.suit):
            raise AssertionError(f"card text {text!r} is not a rank and a suit character")
    if len(two) != sum(r < 13 for r in ranks) * sum(s < 4 for s in suits):
        raise AssertionError("some rank character with some suit character is not a card")
    return bytes(ranks), bytes(suits)


def load_kernel(size: int, kind: str) -> None:
    """Hand the compiled kernel the tables of ``_tables`` for ``size``-card hands of ``kind``
    (once; they are then kept). No NumPy: the kernel spreads the (key, value) pairs itself."""
    from . import _kernel

    with _LOAD_LOCK:
        if _kernel.is_loaded(size, KIND_IDS[kind]):
            return
        rank_keys = array("I", [RANK_WEIGHTS[i >> 2] for i in range(52)])
        text_ranks, text_suits = _text_tables()
        flushes = _tables.unsigned("flush_values")
        _kernel.set_common(array("I", CARD_KEYS), rank_keys, flushes, text_ranks, text_suits, Card)
        keys, values = _tables.unsigned(f"keys{size}"), _tables.unsigned(f"{kind}{size}")  # 16-bit values
        suits = array("b", _tables.flush_suits(size)).tobytes() if kind == "high" else None
        _kernel.set_table(size, KIND_IDS[kind], keys, values, suits)


def kernel_value(cards: CardsLike, kind: str) -> int:
    """First use of the kernel for a hand size: hand it the tables, then evaluate (``kind``
    is "high", "low8" or "razz"); the Python path when the kernel cannot read the hand."""
    assert _fast is not None
    try:
        size = len(parse_cards(cards)) if isinstance(cards, str) else len(cards)  # type: ignore[arg-type]
    except CardError:
        size = 0  # the Python path below words the error
    if size in _SIZES:
        load_kernel(size, kind)
        value = _fast(cards, KIND_IDS[kind])
        if value >= 0:
            return value
    packed = scan(cards)
    if kind == "high":
        return _value(packed, cards)
    return _tables.scalar_tables(packed & 7)[1 if kind == "low8" else 2][packed >> 3 & RANK_MASK]


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

    def _repr_svg_(self) -> str:
        """The five cards drawn with the hand's description (:func:`studpoker.svg.cards`), for notebooks."""
        from ..svg import cards  # imported here: drawing is for notebooks only

        return cards(self.cards, label=self.description)

    def _repr_html_(self) -> str:
        return self._repr_svg_()


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
