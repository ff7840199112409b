"""Exact heads-up equity by one sweep in order of value, for the spots the tuple counter cannot hold.

Heads-up with an opponent whose down cards are unknown, one player has millions of completions (heads-up 3rd
street: 12,271,512 for a hand with only its door card known), and the sorted key arrays of
:mod:`~studpoker.equity.exact` would hold hundreds of millions of keys. The sweep needs none of them. Call one
player *Q* (queried) and the other *I* (inserted); both lists are put in order of value. Walking up the values,
each of I's completions adds one to a counter for every subset of its cards of at most ``s = min(k_Q, k_I)``
cards (``k``: cards still to come). When the walk reaches a completion ``q`` of Q, the counters hold exactly I's
completions worth less than ``q``, and those sharing no card with ``q`` are, by inclusion-exclusion,

    sum over T subset of q, |T| <= s, of (-1)^|T| counter[T]

(an I completion cannot share more than ``s`` cards with ``q``). The same read after I's completions of equal
value gives "at most as much", so every outcome is counted: Q wins, ties or loses. The work is one pass over
both lists, ``C(k_I, <=s)`` counter updates per I completion and twice ``C(k_Q, <=s)`` reads per Q completion
(the roles are given the cheaper way round), with counters for every subset of the pool of at most four cards.
In stud hi/lo each counter is a Fenwick tree over the inserted completions' lows, so each read also splits the
disjoint completions by how their low compares. It runs in the compiled counting kernel (``_count.c``) only;
without it these spots are left to the tuple counter or sampled.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from types import ModuleType

import numpy as np
import numpy.typing as npt

from ..engine import Variant
from ._deal import whole_values
from .result import Tally
from .spot import Spot

_count: ModuleType | None
try:
    from . import _count
except ImportError:  # no compiled kernel: exact.feasible then leaves these spots to Monte Carlo
    _count = None

__all__ = ["MAX_ROWS", "MAX_WORK", "count", "suitable", "work"]

#: The longest completion list the sweep builds (heads-up 3rd street with a door card only: 12,271,512).
MAX_ROWS = 20_000_000
#: Counter updates and reads above which ``auto`` samples instead (a few seconds on the reference machine).
MAX_WORK = 1_500_000_000
_MAX_SUBSET = 4  # the kernel keeps counters for subsets of at most four cards


def _subsets(k: int, s: int) -> int:
    return sum(math.comb(k, j) for j in range(s + 1))


def _roles(spot: Spot) -> tuple[int, int, int]:
    """(queried player, inserted player, work) for the cheaper way round. In hi/lo each update and each read
    walks a Fenwick tree (about 6 steps) and a read is made three times (below, at most, all)."""
    m, hilo = len(spot.pool), spot.variant is Variant.STUD7_HL8
    best: tuple[int, int, int] | None = None
    for q in (0, 1):
        i = 1 - q
        kq, ki = spot.needs[q], spot.needs[i]
        s = min(kq, ki)
        if hilo:
            cost = 6 * math.comb(m, ki) * _subsets(ki, s) + 18 * 3 * math.comb(m, kq) * _subsets(kq, s)
        else:
            cost = math.comb(m, ki) * _subsets(ki, s) + 2 * math.comb(m, kq) * _subsets(kq, s)
        if best is None or cost < best[2]:
            best = (q, i, cost)
    assert best is not None
    return best


def suitable(spot: Spot) -> bool:
    """Whether the sweep can count ``spot``: the compiled kernel is there, two players who both get cards (no
    community card to come), and lists and counters that fit (:data:`MAX_ROWS`, four-card subsets)."""
    if _count is None or spot.n != 2 or spot.community_to_come:
        return False
    needs, m = spot.needs, len(spot.pool)
    if min(needs) < 1 or min(needs) > _MAX_SUBSET:
        return False
    return max(math.comb(m, k) for k in needs) <= MAX_ROWS


def work(spot: Spot) -> int:
    """The sweep's counter updates and reads for ``spot`` (what :data:`MAX_WORK` bounds)."""
    return _roles(spot)[2]


def _completions(
    spot: Spot, player: int
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32], npt.NDArray[np.int32] | None]:
    """The player's completions as rows of pool positions (lexicographic order), their values and, in hi/lo,
    their eight-or-better lows (0: none)."""
    assert _count is not None
    m, k = len(spot.pool), spot.needs[player]
    known = bytes(c.index for c in spot.known[player])
    rows = np.empty((math.comb(m, k), k), dtype=np.uint8)
    hands = np.empty((len(rows), len(known) + k), dtype=np.uint8)
    _count.deal_all(bytes(spot.pool), known, k, rows, hands)
    values, lows = whole_values(spot.variant, hands)
    as_int32 = np.ascontiguousarray
    return rows, as_int32(values, dtype=np.int32), None if lows is None else as_int32(lows, dtype=np.int32)


def count(spot: Spot) -> Tally:
    """Every outcome of ``spot`` counted (see the module docstring); ``spot`` must be :func:`suitable`."""
    if not suitable(spot) or _count is None:
        raise ValueError("the sweep counts heads-up spots only, with the compiled kernel")
    q, i, _ = _roles(spot)
    q_rows, q_values, q_lows = _completions(spot, q)
    i_rows, i_values, i_lows = _completions(spot, i)
    m = len(spot.pool)
    disjoint = math.comb(m - spot.needs[q], spot.needs[i])  # I's completions beside each of Q's
    total = len(q_values) * disjoint
    if q_lows is not None and i_lows is not None:
        ways = _count.sweep_hilo(m, q_rows, spot.needs[q], q_values, q_lows, i_rows, spot.needs[i], i_values, i_lows)
        tally = _hilo(q, i, ways)
        tally.outcomes = total
        return tally
    below, upto = _count.sweep(m, q_rows, spot.needs[q], q_values, i_rows, spot.needs[i], i_values)
    equal, above = upto - below, total - upto
    tally = Tally(2, 2)  # shares in half pots: a tie is one half each
    tally.outcomes = total
    tally.win[q], tally.tie[q], tally.share[q] = below, equal, 2 * below + equal
    tally.win[i], tally.tie[i], tally.share[i] = above, equal, 2 * above + equal
    return tally


def _hilo(q: int, i: int, ways: Sequence[int]) -> Tally:
    """The hi/lo tally from the sweep's class counts: ``ways[has_low * 9 + high * 3 + low]``, where Q's
    completions have a low or not, and I's high and low are below (0), equal to (1) or above (2) Q's."""
    tally = Tally(2, 4)  # shares in quarter pots: half a pot for each of high and low, tied halves split
    for has_low in (0, 1):
        for high in range(3):
            for low in range(3):
                w = ways[has_low * 9 + high * 3 + low]
                if not w:
                    continue
                nobody = low == 1 and not has_low  # no low at all: the high hand takes the whole pot
                half = 4 if nobody else 2
                q_high = half if high == 0 else half // 2 if high == 1 else 0
                q_low = 0 if nobody else (2, 1, 0)[low]
                i_low = 0 if nobody else 2 - q_low
                for player, h, lo in ((q, q_high, q_low), (i, half - q_high, i_low)):
                    tally.high[player] += h * w
                    tally.low[player] += lo * w
                    tally.share[player] += (h + lo) * w
                if high == 0 and (low == 0 or nobody):
                    tally.win[q] += w
                if high == 2 and (low == 2 or nobody):
                    tally.win[i] += w
                if nobody:
                    tally.no_low += w
    return tally
