"""Batch evaluation: many hands per call, same values as the scalar functions.

Each function takes hands of 5 to 7 cards each, all the same size, and returns
an ``int32`` NumPy array with one value per hand; larger is better and the
numbers equal :func:`~studpoker.evaluation.high_value`,
:func:`~studpoker.evaluation.low8_value` and :func:`~studpoker.evaluation.razz_value`.
The hands can be:

* an integer NumPy array of shape ``(N, k)`` of card indices (``4 * rank + suit``),
  any integer dtype and byte order, any strides, read in place by the compiled kernel
  (``int32`` and ``int64`` close to ``uint8``, which reads the least memory and is the fastest);
* a list or tuple of N lists/tuples of k ints or :class:`~studpoker.cards.Card`
  objects, or of N strings (``"As Kd 7c 7h 2s"``);
* ``bytes``, ``bytearray`` or a 1-D buffer of one byte per card with
  ``cards_per_hand=k`` (a 2-D memoryview or a 1-D array with ``cards_per_hand``
  works as well).

>>> import numpy as np
>>> from studpoker.cards import card_indices
>>> hands = np.array([card_indices("As Ad 7c 7h 2s Kd 9c"), card_indices("5c 4c 3c 2c Ac Kd Kh")])
>>> high_batch(hands).tolist()
[4929, 7453]
>>> low8_batch(hands).tolist()                      # 0: no qualifying low
[0, 56]
>>> high_batch(["As Ad 7c 7h 2s Kd 9c", "5c 4c 3c 2c Ac Kd Kh"]).tolist()
[4929, 7453]
>>> razz_batch(bytes(hands.astype(np.uint8)), cards_per_hand=7).tolist()
[5293, 6175]

The input is checked (integer cards, shape, indices in 0..51, no card twice in
a row); ``check=False`` skips only the duplicate test, for hands the caller
already knows to be valid.

How it is fast: a hand's key is the sum of per-card keys (see ``_tables``); one
lookup in a per-hand-size table indexed by the key gives the value. When the
compiled kernel (``_kernel.c``, built at install time where a C compiler is
present) imports, every call is one C loop over the rows: range check,
duplicate check with a 64-bit card mask, key sum, lookup, flush path. Without
it the same tables are used from NumPy: the keys are looked up two cards at a
time in a 2,704-entry table of card pairs, in blocks that stay in the CPU
cache, and no Python code runs per hand. Both paths give the same values and
the same errors.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations
from types import ModuleType
from typing import cast

import numpy as np
import numpy.typing as npt

from ..cards import CARDS, Card, CardError, parse_cards
from . import _tables
from ._tables import CARD_KEYS, RANK_MASK, RANK_WEIGHTS, SUIT_SHIFT
from .high import KIND_IDS as _KIND_IDS
from .high import load_kernel as _load_kernel

_kernel: ModuleType | None
try:
    from . import _kernel
except ImportError:  # built without a C compiler (or STUDPOKER_PURE=1): the NumPy path below
    _kernel = None

__all__ = ["board_batch", "high_batch", "high_categories", "low8_batch", "razz_batch"]

_OUTER = 65536  # rows transposed (and checked for duplicates) at a time
_INNER = 8192  # rows per gather block: the block's intermediates stay in the L2 cache

Hands = npt.ArrayLike | bytes | bytearray | memoryview
Values = npt.NDArray[np.int32]
Sums = npt.NDArray[np.uint32]


@cache
def _key_tables(rank_only: bool) -> npt.NDArray[np.uint32]:
    """Keys of card pairs at ``52 * first + second``, then of single cards at ``2704 + card``."""
    if rank_only:
        keys = np.array([RANK_WEIGHTS[i >> 2] for i in range(52)], dtype=np.uint32)
    else:
        keys = np.array(CARD_KEYS, dtype=np.uint32)
    return np.concatenate([(keys[:, None] + keys[None, :]).ravel(), keys])


@cache
def _flush_arrays(size: int) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint64], npt.NDArray[np.int32]]:
    """Flush lookups: (suit part of a key sum -> has a flush), (card -> its rank bit in its
    suit's 16-bit field), (13-bit ranks of one suit -> best flush value or 0)."""
    has_flush = np.array(_tables.flush_suits(size), dtype=np.int16) >= 0
    suit_bits = np.array([1 << (16 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.uint64)
    values = np.array(_tables.flush_values(), dtype=np.int32)
    return has_flush, suit_bits, values


def _rows(cards: list[object] | tuple[object, ...]) -> list[list[object]] | None:
    """Rows of card text or :class:`Card` objects as rows of indices (other items kept), or None if there are none."""
    if not any(type(row) is str or (isinstance(row, (list, tuple)) and Card in map(type, row)) for row in cards):
        return None
    out: list[list[object]] = []
    for row in cards:
        if isinstance(row, str):
            out.append([c.index for c in parse_cards(row)])
        else:
            out.append([c.index if type(c) is Card else c for c in row])  # type: ignore[attr-defined]
    return out


def _hands(cards: Hands, cards_per_hand: int | None = None) -> npt.NDArray[np.integer]:
    """The input as an (N, k) integer array; the card indices are checked block by block later."""
    if isinstance(cards, (bytes, bytearray, memoryview)):
        arr: npt.NDArray[np.generic] = np.asarray(memoryview(cards))
    elif isinstance(cards, (list, tuple)):
        rows = _rows(cards)
        arr = np.asarray(cards if rows is None else rows)
    else:
        arr = np.asarray(cards)
    if cards_per_hand is not None:
        if cards_per_hand not in _tables.HAND_SIZES:
            raise CardError(f"cards_per_hand must be 5, 6 or 7, got {cards_per_hand!r}")
        if arr.ndim == 1:
            if arr.size % cards_per_hand:
                raise CardError(f"{arr.size} cards do not make hands of {cards_per_hand}")
            arr = arr.reshape(-1, cards_per_hand)
        elif arr.ndim == 2 and arr.shape[1] != cards_per_hand:
            raise CardError(f"cards_per_hand={cards_per_hand}, but the hands have shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise CardError(f"hands must be an integer array of card indices 0..51, got dtype {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] not in _tables.HAND_SIZES:
        raise CardError(f"hands must have shape (N, k) with k in 5..7 cards, got shape {arr.shape}")
    return cast("npt.NDArray[np.integer]", arr)  # its dtype was checked above


def _check_range(block: npt.NDArray[np.integer], first_row: int) -> None:
    """Raise unless every index in ``block`` (rows from ``first_row`` on) lies in 0..51."""
    if (block.dtype.kind == "i" and block.min() < 0) or block.max() > 51:
        row, col = np.argwhere((block < 0) | (block > 51))[0]
        raise CardError(f"card index {block[row, col]} in row {first_row + row}, column {col} is outside 0..51")


def _check_duplicates(cols: npt.NDArray[np.uint8], first_row: int, arr: npt.NDArray[np.integer]) -> None:
    """Raise if any row of the transposed block ``cols`` holds a card twice."""
    pairs = list(combinations(range(cols.shape[0]), 2))
    same = cols[0] == cols[1]
    for i, j in pairs[1:]:
        same |= cols[i] == cols[j]
    if same.any():
        row = first_row + int(np.flatnonzero(same)[0])
        cards = " ".join(str(CARDS[c]) for c in arr[row].tolist())
        raise CardError(f"row {row} holds the same card twice: {cards}")


def _key_sums(arr: npt.NDArray[np.integer], check: bool, rank_only: bool) -> Iterator[tuple[int, int, Sums]]:
    """Check the hands and yield (start, stop, per-row key sums) block by block.

    Rows are transposed (and narrowed to one byte per card) a block at a time,
    so each card position is one contiguous run while the block is in cache;
    cards are then looked up two at a time in a table of card pairs (index
    ``52 * a + b``), which halves the number of lookups.
    """
    n, k = arr.shape
    keys = _key_tables(rank_only)
    lookups = (k + 1) // 2  # k // 2 pairs, and the last card alone if k is odd
    index = np.empty((lookups, _INNER), dtype=np.uint16)
    for outer in range(0, n, _OUTER):
        block = arr[outer : outer + _OUTER]
        _check_range(block, outer)
        cols = np.ascontiguousarray(block.astype(np.uint8, copy=False).T)
        if check:
            _check_duplicates(cols, outer, arr)
        for a in range(0, cols.shape[1], _INNER):
            x = cols[:, a : a + _INNER]
            m = x.shape[1]
            idx = index[:, :m]
            np.multiply(x[0 : k - 1 : 2], 52, out=idx[: k // 2], dtype=np.uint16)
            idx[: k // 2] += x[1:k:2]
            if k % 2:
                np.add(x[k - 1], 2704, out=idx[-1], dtype=np.uint16)
            g = np.take(keys, idx)
            s: Sums = g[0] + g[1]
            for j in range(2, lookups):
                s += g[j]
            yield outer + a, outer + a + m, s


def _compiled(cards: object, kind: str, check: bool, cards_per_hand: int | None) -> Values | None:
    """The values from the compiled kernel, or None: no kernel, an input form it does not
    read, or an error in the hands (the NumPy path then raises it, worded as always)."""
    if _kernel is None:
        return None
    shape: tuple[int, ...]
    if type(cards) is np.ndarray:
        if cards.dtype.kind not in "iu":
            return None
        shape = cards.shape
    elif type(cards) is list or type(cards) is tuple:
        first = cards[0] if cards else None
        if type(first) is str:
            try:
                shape = (len(cards), len(parse_cards(first)))
            except CardError:
                return None
        elif type(first) is list or type(first) is tuple:
            shape = (len(cards), len(first))
        else:
            return None
    elif type(cards) is bytes or type(cards) is bytearray or type(cards) is memoryview:
        shape = memoryview(cards).shape or ()
    else:
        return None
    if len(shape) == 1 and cards_per_hand is not None and cards_per_hand > 0 and shape[0] % cards_per_hand == 0:
        shape = (shape[0] // cards_per_hand, cards_per_hand)
    if len(shape) != 2 or shape[0] == 0 or shape[1] not in _tables.HAND_SIZES:
        return None
    n, k = shape
    if cards_per_hand is not None and cards_per_hand != k:
        return None
    out = np.empty(n, dtype=np.int32)
    code = _kernel.batch(out, cards, k, _KIND_IDS[kind], check)
    if code == _kernel.NOT_LOADED:
        _load_kernel(k, kind)
        code = _kernel.batch(out, cards, k, _KIND_IDS[kind], check)
    return out if code == _kernel.OK else None


def high_batch(cards: Hands, *, check: bool = True, cards_per_hand: int | None = None) -> Values:
    """High values (1..7462, larger is better) of each hand of 5 to 7 cards."""
    out = _compiled(cards, "high", check, cards_per_hand)
    return _numpy_high(_hands(cards, cards_per_hand), check) if out is None else out


def _numpy_high(arr: npt.NDArray[np.integer], check: bool) -> Values:
    n, k = arr.shape
    out = np.empty(n, dtype=np.int32)
    if n == 0:
        return out
    table = _tables.dense_table(k, "high")
    has_flush, suit_bits, flush_values = _flush_arrays(k)
    flush = np.empty(n, dtype=np.bool_)
    for a, b, sums in _key_sums(arr, check, rank_only=False):
        np.take(has_flush, sums >> SUIT_SHIFT, out=flush[a:b])
        np.bitwise_and(sums, RANK_MASK, out=sums)
        np.take(table, sums, out=out[a:b])
    rows = np.flatnonzero(flush)
    if rows.size:  # about 3% of random 7-card hands
        # Per row, the ranks held in each suit as four 16-bit fields; the flush suit's
        # field is the only one with 5+ bits, so the best of the four lookups is the flush.
        bits = np.take(suit_bits, arr[rows])
        held = bits[:, 0] | bits[:, 1]
        for j in range(2, k):
            held |= bits[:, j]
        best = np.take(flush_values, held & 0x1FFF)
        for suit in (1, 2, 3):
            np.maximum(best, np.take(flush_values, (held >> (16 * suit)) & 0x1FFF), out=best)
        out[rows] = best
    return out


def _rank_only(cards: Hands, check: bool, kind: str, cards_per_hand: int | None) -> Values:
    out = _compiled(cards, kind, check, cards_per_hand)
    return _numpy_rank_only(_hands(cards, cards_per_hand), check, kind) if out is None else out


def _numpy_rank_only(arr: npt.NDArray[np.integer], check: bool, kind: str) -> Values:
    n, k = arr.shape
    out = np.empty(n, dtype=np.int32)
    if n == 0:
        return out
    table = _tables.dense_table(k, kind)
    for a, b, s in _key_sums(arr, check, rank_only=True):
        np.take(table, s, out=out[a:b])
    return out


def low8_batch(cards: Hands, *, check: bool = True, cards_per_hand: int | None = None) -> Values:
    """Eight-or-better low values of each hand: 0 = no qualifying low, else 1..56 (56 = wheel)."""
    return _rank_only(cards, check, "low8", cards_per_hand)


def razz_batch(cards: Hands, *, check: bool = True, cards_per_hand: int | None = None) -> Values:
    """Razz low values of each hand: 1..6175, larger is better (6175 = 5-4-3-2-A)."""
    return _rank_only(cards, check, "razz", cards_per_hand)


def high_categories(values: npt.ArrayLike) -> npt.NDArray[np.int8]:
    """The :class:`~studpoker.evaluation.HandCategory` number (0..8) of each high value."""
    from .high import CATEGORY_STARTS

    v = np.asarray(values)
    if v.size and (v.min() < 1 or v.max() > _tables.HIGH_CLASSES):
        raise ValueError(f"high values must lie in 1..{_tables.HIGH_CLASSES}")
    starts = np.array(CATEGORY_STARTS)
    return (np.searchsorted(starts, v, side="right") - 1).astype(np.int8)


@cache
def _board_arrays() -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """The board automaton of :func:`~studpoker.evaluation.board.board_automaton` as arrays."""
    from .board import board_automaton

    step, high, low = board_automaton()
    return np.array(step, dtype=np.int16), np.array(high, dtype=np.int32), np.array(low, dtype=np.int32)


def board_batch(boards: Hands, *, low: bool = False, check: bool = True) -> Values:
    """:func:`~studpoker.evaluation.high_board_value` (or, with ``low``, the razz board value) of every row of
    ``boards``: an (N, k) array of card indices with 1 <= k <= 4, or a list of rows of indices, cards or card
    text. Each card is one step of the board automaton, one table lookup for all the rows at once (no loop to
    compile: the work is the lookups). Larger acts first, as for the one-board functions. ``check=False`` skips
    the duplicate test."""
    if isinstance(boards, (list, tuple)):
        rows = [
            [c.index for c in parse_cards(row)]
            if isinstance(row, str)
            else [parse_cards(c)[0].index if isinstance(c, str) else c.index if type(c) is Card else c for c in row]
            for row in boards
        ]
        if len({len(row) for row in rows}) > 1:
            raise CardError("boards in one batch must all hold the same number of cards")
        arr = np.asarray(rows)
    elif isinstance(boards, (bytes, bytearray, memoryview)):
        raise CardError("boards must be an (N, k) array or a list of rows: bytes do not say how many cards a board has")
    else:
        arr = np.asarray(boards)
    if arr.dtype.kind not in "iu" or arr.ndim != 2 or not 1 <= arr.shape[1] <= 4:
        raise CardError(
            f"boards must be an integer array of shape (N, k) with 1 to 4 cards a board, got {arr.dtype} {arr.shape}"
        )
    out = np.empty(len(arr), dtype=np.int32)
    step, high, low_values = _board_arrays()
    values = low_values if low else high
    for start in range(0, len(arr), _OUTER):
        block = arr[start : start + _OUTER]
        _check_range(block, start)
        cols = np.ascontiguousarray(block.T, dtype=np.uint8)
        if check and cols.shape[0] > 1:
            _check_duplicates(cols, start, arr)
        state = np.zeros(len(block), dtype=np.intp)
        for col in cols:
            state = step[state, col >> 2]
        out[start : start + len(block)] = values[state]
    return out
