"""Every 5-card and every 7-card hand, through the public batch API (the evaluator's "perft").

The expected numbers are the published counts of poker hand categories; the
7-card run is 133,784,560 hands and takes a few seconds per evaluator.
"""

from collections.abc import Iterator
from math import comb

import numpy as np
import numpy.typing as npt
import pytest

from studpoker.evaluation import (
    HandCategory,
    high_batch,
    high_categories,
    high_value,
    low8_batch,
    low8_value,
)
from studpoker.evaluation._tables import low8_classes

#: The published number of five-card hands in each category (2,598,960 in all).
FIVE_CARD_CATEGORIES = {
    HandCategory.STRAIGHT_FLUSH: 40,
    HandCategory.FOUR_OF_A_KIND: 624,
    HandCategory.FULL_HOUSE: 3_744,
    HandCategory.FLUSH: 5_108,
    HandCategory.STRAIGHT: 10_200,
    HandCategory.THREE_OF_A_KIND: 54_912,
    HandCategory.TWO_PAIR: 123_552,
    HandCategory.ONE_PAIR: 1_098_240,
    HandCategory.HIGH_CARD: 1_302_540,
}
#: The published number of seven-card hands whose best five are in each category (133,784,560 in all).
SEVEN_CARD_CATEGORIES = {
    HandCategory.STRAIGHT_FLUSH: 41_584,
    HandCategory.FOUR_OF_A_KIND: 224_848,
    HandCategory.FULL_HOUSE: 3_473_184,
    HandCategory.FLUSH: 4_047_644,
    HandCategory.STRAIGHT: 6_180_020,
    HandCategory.THREE_OF_A_KIND: 6_461_620,
    HandCategory.TWO_PAIR: 31_433_400,
    HandCategory.ONE_PAIR: 58_627_800,
    HandCategory.HIGH_CARD: 23_294_460,
}


def colex_combinations(n: int, r: int) -> npt.NDArray[np.uint8]:
    """All r-subsets of range(n), ascending within a row, in colex order: the subsets of
    range(m) are exactly the first comb(m, r) rows, for every m <= n."""
    rows = np.arange(n, dtype=np.uint8)[:, None]
    for size in range(2, r + 1):
        parts = [
            np.hstack([rows[: comb(top, size - 1)], np.full((comb(top, size - 1), 1), top, dtype=np.uint8)])
            for top in range(size - 1, n)
        ]
        rows = np.vstack(parts)
    return rows


def all_hands(size: int) -> Iterator[npt.NDArray[np.uint8]]:
    """Every ``size``-card hand exactly once, in blocks sharing their two lowest cards."""
    tails = colex_combinations(50, size - 2)
    for low in range(52):
        for second in range(low + 1, 52):
            count = comb(51 - second, size - 2)
            if count == 0:
                continue
            block = np.empty((count, size), dtype=np.uint8)
            block[:, 0] = low
            block[:, 1] = second
            block[:, 2:] = tails[:count] + (second + 1)
            yield block


@pytest.mark.slow
def test_the_enumeration_is_complete() -> None:
    blocks = list(all_hands(5))
    hands = np.vstack(blocks)
    assert len(hands) == comb(52, 5)
    codes = (hands.astype(np.int64) * (52 ** np.arange(5))).sum(axis=1)
    assert len(np.unique(codes)) == comb(52, 5)
    assert (np.diff(hands.astype(np.int16), axis=1) > 0).all()


def _categories(counts: npt.NDArray[np.int64]) -> dict[HandCategory, int]:
    values = np.arange(len(counts))
    cats = high_categories(values[1:])
    return {HandCategory(c): int(counts[1:][cats == c].sum()) for c in range(9)}


def test_every_five_card_hand() -> None:
    high = np.zeros(7463, dtype=np.int64)
    low = np.zeros(57, dtype=np.int64)
    for block in all_hands(5):
        high += np.bincount(high_batch(block), minlength=7463)
        low += np.bincount(low8_batch(block), minlength=57)
    assert high.sum() == 2_598_960
    assert np.count_nonzero(high) == 7462
    assert _categories(high) == FIVE_CARD_CATEGORIES
    # Each of the 56 lows comes in 4^5 suit combinations.
    assert low[1:].tolist() == [1024] * 56


@pytest.mark.slow
def test_every_seven_card_hand() -> None:
    high = np.zeros(7463, dtype=np.int64)
    low = np.zeros(57, dtype=np.int64)
    sample: list[npt.NDArray[np.uint8]] = []
    for i, block in enumerate(all_hands(7)):
        high += np.bincount(high_batch(block), minlength=7463)
        low += np.bincount(low8_batch(block), minlength=57)
        if i % 13 == 0:
            sample.append(block[:: max(1, len(block) // 40)])
    assert high.sum() == 133_784_560
    assert np.count_nonzero(high) == 4_824
    assert _categories(high) == SEVEN_CARD_CATEGORIES
    # Eight-or-better: how many hands hold a qualifying low, by the low's top card.
    assert int(low[1:].sum()) == 24_530_944
    assert np.count_nonzero(low[1:]) == 56
    by_top: dict[int, int] = {}
    for value, cls in enumerate(low8_classes(), 1):
        top = cls.ranks[0] + 2  # rank index 3 is a five
        by_top[top] = by_top.get(top, 0) + int(low[value])
    assert by_top == {5: 781_824, 6: 3_151_360, 7: 7_426_560, 8: 13_171_200}
    # The scalar functions agree with the batch on a spread-out sample of these hands.
    hands = np.vstack(sample)
    assert len(hands) > 1000
    assert [high_value(h) for h in hands.tolist()] == high_batch(hands).tolist()
    assert [low8_value(h) for h in hands.tolist()] == low8_batch(hands).tolist()
