"""The NumPy batch API: shapes, dtypes, input checks, agreement with the scalar functions."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from studpoker import CardError
from studpoker.cards import card_indices
from studpoker.evaluation import (
    HandCategory,
    high_batch,
    high_categories,
    high_value,
    low8_batch,
    low8_value,
    razz_batch,
    razz_value,
)

BATCH = [high_batch, low8_batch, razz_batch]
hands_st = st.integers(5, 7).flatmap(lambda k: st.lists(st.permutations(range(52)).map(lambda p: p[:k]), max_size=30))


@pytest.mark.slow
@given(hands_st)
def test_scalar_equals_batch(hands: list[list[int]]) -> None:
    arr = np.array(hands, dtype=np.int64).reshape(len(hands), -1 if hands else 5)
    assert high_batch(arr).tolist() == [high_value(h) for h in hands]
    assert low8_batch(arr).tolist() == [low8_value(h) for h in hands]
    assert razz_batch(arr).tolist() == [razz_value(h) for h in hands]


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64, np.uint64])
def test_every_integer_dtype(dtype: type) -> None:
    hands = np.array([card_indices("As Ad 7c 7h 2s Kd 9c"), card_indices("5c 4c 3c 2c Ac Kd Kh")], dtype=dtype)
    assert high_batch(hands).tolist() == [high_value("As Ad 7c 7h 2s Kd 9c"), 7453]
    assert low8_batch(hands).tolist() == [0, 56]
    assert high_batch(hands).dtype == np.int32


def test_non_contiguous_input_and_lists() -> None:
    base = np.arange(52, dtype=np.int64).reshape(4, 13)[:, ::2]  # 4 x 7, strided
    assert high_batch(base).tolist() == [high_value(row) for row in base.tolist()]
    assert high_batch(base.tolist()).tolist() == high_batch(base).tolist()
    fortran = np.asfortranarray(base)
    assert low8_batch(fortran).tolist() == [low8_value(row) for row in base.tolist()]


def test_many_blocks() -> None:
    rng = np.random.default_rng(0)
    hands = np.argsort(rng.random((20_000, 52)), axis=1)[:, :7].astype(np.uint8)
    expected = [high_value(h) for h in hands[::97].tolist()]
    assert high_batch(hands)[::97].tolist() == expected
    assert high_batch(hands, check=False).tolist() == high_batch(hands).tolist()


def test_empty_batch() -> None:
    for fn in BATCH:
        out = fn(np.zeros((0, 7), dtype=np.uint8))
        assert out.shape == (0,) and out.dtype == np.int32


@pytest.mark.parametrize("fn", BATCH)
def test_bad_input(fn: object) -> None:
    call = fn  # type: ignore[assignment]
    with pytest.raises(CardError, match=r"shape \(N, k\) with k in 5..7 cards, got shape \(3, 4\)"):
        call(np.zeros((3, 4), dtype=np.uint8))  # type: ignore[operator]
    with pytest.raises(CardError, match=r"got shape \(7,\)"):
        call(np.arange(7))  # type: ignore[operator]
    with pytest.raises(CardError, match=r"integer array .* got dtype float64"):
        call(np.zeros((1, 7)))  # type: ignore[operator]
    good = np.array([[0, 1, 2, 3, 4, 5, 6]] * 5)
    bad = good.copy()
    bad[3, 4] = 52
    with pytest.raises(CardError, match=r"card index 52 in row 3, column 4 is outside 0\.\.51"):
        call(bad)  # type: ignore[operator]
    bad[3, 4] = -3
    with pytest.raises(CardError, match="card index -3 in row 3, column 4"):
        call(bad)  # type: ignore[operator]
    dup = good.copy()
    dup[2, 6] = 0
    with pytest.raises(CardError, match="row 2 holds the same card twice: 2c 2d 2h 2s 3c 3d 2c"):
        call(dup)  # type: ignore[operator]


def test_duplicates_found_in_any_block_and_any_column_pair() -> None:
    hands = np.tile(np.arange(7, dtype=np.uint8), (70_000, 1))
    for i, j in [(0, 1), (2, 5), (5, 6)]:
        bad = hands.copy()
        bad[66_000, j] = bad[66_000, i]
        with pytest.raises(CardError, match="row 66000 holds the same card twice"):
            high_batch(bad)


def test_high_categories() -> None:
    values = np.array([1, 1277, 1278, 7452, 7453, 7462])
    assert high_categories(values).tolist() == [0, 0, 1, 7, 8, 8]
    assert HandCategory(int(high_categories([5864])[0])) is HandCategory.FLUSH
    with pytest.raises(ValueError, match=r"1..7462"):
        high_categories([0])
