"""Every way a player's missing cards can come, and what each finished hand is worth (NumPy arrays).

Shared by the exact and Monte Carlo methods. Values are "larger is better" in every game: the high hand's
value for the high games, the razz value for razz, and for stud hi/lo both the high value and the
eight-or-better low value (0 when the hand has no qualifying low).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from ..engine import Variant
from ..evaluation import high_batch, low8_batch, razz_batch

__all__ = ["combination_rows", "completions", "hand_values", "masks", "whole_values"]

Cards = npt.NDArray[np.uint8]


@cache
def _positions(m: int, k: int) -> npt.NDArray[np.uint8]:
    """All k-subsets of range(m) as rows, in lexicographic order (cached: spots repeat their shapes)."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.uint8)
    flat = np.fromiter((i for row in combinations(range(m), k) for i in row), dtype=np.uint8, count=comb(m, k) * k)
    rows = flat.reshape(-1, k)
    rows.flags.writeable = False
    return rows


def combination_rows(m: int, k: int) -> npt.NDArray[np.uint8]:
    """The k-subsets of ``range(m)``, one per row, lexicographic order."""
    return _positions(m, k)


def completions(pool: Sequence[int], k: int) -> Cards:
    """Every set of ``k`` cards from ``pool`` (card indices), one per row, each row ascending."""
    table = np.asarray(pool, dtype=np.uint8)
    return table[_positions(len(pool), k)]


def masks(cards: Cards) -> npt.NDArray[np.uint64]:
    """One 52-bit mask per row: bit ``c`` set for every card ``c`` in it."""
    out = np.zeros(len(cards), dtype=np.uint64)
    one = np.uint64(1)
    for column in range(cards.shape[1]):
        out |= one << cards[:, column].astype(np.uint64)
    return out


def hand_values(
    variant: Variant, known: Sequence[int], extra: Cards
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32] | None]:
    """(values, low values) of ``known`` + each row of ``extra``: the deciding value of the game, and for stud
    hi/lo the eight-or-better low (0: none) as well; larger is better."""
    rows = len(extra)
    hands = np.empty((rows, len(known) + extra.shape[1]), dtype=np.uint8)
    hands[:, : len(known)] = np.asarray(known, dtype=np.uint8)
    hands[:, len(known) :] = extra
    return whole_values(variant, hands)


def whole_values(
    variant: Variant, hands: npt.NDArray[np.uint8]
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32] | None]:
    """(values, low values) of whole hands, one per row, as :func:`hand_values` gives them."""
    if variant is Variant.RAZZ:
        return razz_batch(hands, check=False), None
    high = high_batch(hands, check=False)
    return high, (low8_batch(hands, check=False) if variant is Variant.STUD7_HL8 else None)
