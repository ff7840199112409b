"""The lookup-table construction: weights, packing and the five-card class list."""

import itertools
from collections import Counter

from studpoker.evaluation import _tables
from studpoker.evaluation._tables import (
    CARD_KEYS,
    RANK_MASK,
    RANK_WEIGHTS,
    SUIT_SHIFT,
    HandCategory,
    high_classes,
    low8_classes,
    razz_classes,
)


def test_rank_weights_give_every_rank_multiset_its_own_sum() -> None:
    # The property the whole evaluator rests on, checked for every hand size used.
    for size in (5, 6, 7):
        sums = [sum(RANK_WEIGHTS[r] for r in m) for m in _tables._multisets(size)]
        assert len(set(sums)) == len(sums)
        assert max(sums) <= RANK_MASK  # rank part never spills into the suit part


def test_multiset_counts() -> None:
    assert [len(_tables._multisets(k)) for k in (5, 6, 7)] == [6175, 18395, 49205]


def test_suit_part_of_a_key_sum_counts_suits_without_overflow() -> None:
    for size in (5, 6, 7):
        for hand in itertools.islice(itertools.combinations(range(52), size), 0, None, 9973):
            key = sum(CARD_KEYS[c] for c in hand)
            assert key < 2**32
            suits = Counter(c & 3 for c in hand)
            part = key >> SUIT_SHIFT
            assert (part & 7, part >> 3 & 7, part >> 6) == (suits[0], suits[1], suits[2])
            flush = next((s for s in range(4) if suits[s] >= 5), -1)
            assert _tables.flush_suits(size)[part] == flush


def test_five_card_classes() -> None:
    classes = high_classes()
    assert len(classes) == 7462
    counts = Counter(HandCategory(c.category) for c in classes)
    assert counts == {
        HandCategory.HIGH_CARD: 1277,
        HandCategory.ONE_PAIR: 2860,
        HandCategory.TWO_PAIR: 858,
        HandCategory.THREE_OF_A_KIND: 858,
        HandCategory.STRAIGHT: 10,
        HandCategory.FLUSH: 1277,
        HandCategory.FULL_HOUSE: 156,
        HandCategory.FOUR_OF_A_KIND: 156,
        HandCategory.STRAIGHT_FLUSH: 10,
    }
    # Weakest first, categories in order, each class named once.
    assert [c.category for c in classes] == sorted(c.category for c in classes)
    assert len({(c.category, c.ranks) for c in classes}) == 7462
    assert classes[0].ranks == (5, 3, 2, 1, 0)  # 7-5-4-3-2
    assert classes[-1].ranks == (12, 11, 10, 9, 8)  # royal flush
    assert len(razz_classes()) == 6175 and len(low8_classes()) == 56
    assert low8_classes()[-1].ranks == (3, 2, 1, 0, 12)  # the wheel is the best low
    assert low8_classes()[0].ranks == (6, 5, 4, 3, 2)  # 8-7-6-5-4 the worst


def test_unsigned_tables_hold_the_stored_values() -> None:
    """The kernel's tables read straight from the file's bytes (issue 27, item 13) are the stored values."""
    for name, _code, count in _tables._LAYOUT:
        if name.endswith("_classes"):
            continue
        table = _tables.unsigned(name)
        assert table.typecode in "HI" and len(table) == count
        assert table.tolist() == _tables._ints(name).tolist()
