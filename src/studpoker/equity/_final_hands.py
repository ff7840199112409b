"""Every final hand of a player, counted exactly and weighted: the exact method of
:mod:`~studpoker.equity.categories`.

A player's final hand is his known cards and ``k`` unseen cards. Without ranges each k-subset of the unseen cards
is equally likely, so each is listed once (:class:`Listing`) and valued in batches. With ranges each subset ``Y``
counts with a weight (:class:`SetWeights`): for card removal by the other ranged players, the total weight of
their assignments that leave ``Y``'s cards unseen, ``sum over T subset of Y of (-1)^|T| M(T)``, ``M(T)`` the total
weight of the assignments that hold all of ``T`` (:func:`removal`); for a ranged player himself, either each
combination's completions in turn, or every ``Y`` at once weighted by the total weight of the combinations it
holds, times the removal weight (the other ranges must miss all of ``Y``), whichever is cheaper
(:func:`ranged_plan`).

The listing puts each subset as a *prefix* (its smallest cards) and a *tail* (the rest, from a table shared by
every prefix). A weight's sum over the subsets of ``Y`` splits the same way: subsets within the prefix (one number
per prefix), within the tail (one vector per tail table, computed once), and across both (a small table per
prefix, looked up by the tail's cards), so a final hand costs a few look-ups, not one per subset.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from ..engine import Variant
from ..evaluation import batch as _batch
from ..evaluation._tables import HIGH_CLASSES, LOW8_CLASSES, RAZZ_CLASSES
from ._deal import whole_values
from .spot import EquityError, Spot

__all__ = ["MAX_ASSIGNMENTS", "Histogram", "RangeRows", "count", "estimate"]

#: Exact counting with ranges enumerates at most this many assignments of the ranged players' down cards.
MAX_ASSIGNMENTS = 200_000

# Cost model (seconds), measured on the 2-core development VM: a final hand listed, valued and added up, with the
# compiled evaluator and without it; one look-up in a weight table; a batch of work started.
_ROW = 2.5e-8
_ROW_PURE = 4e-8
_LOOKUP = 6e-9
_JOB = 6e-5
_BLOCK = 1 << 20  # final hands valued at a time (about)

Cards = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float64]
Segment = tuple[int, int, tuple[int, ...], int]  # rows at, how many, the prefix's cards, the tail's first position


@dataclass(frozen=True)
class RangeRows:
    """A ranged player's down cards: every combination (rows of card indices, ascending), weights, card masks."""

    rows: Cards
    weights: Floats
    masks: npt.NDArray[np.uint64]

    @property
    def down(self) -> int:
        return int(self.rows.shape[1])


class Histogram:
    """Weighted counts of a player's final hands by value: the high (or razz) value, and the low in hi/lo."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        size = RAZZ_CLASSES + 1 if variant is Variant.RAZZ else HIGH_CLASSES + 1
        self.main = np.zeros(size, dtype=np.float64)
        self.low = np.zeros(LOW8_CLASSES + 1, dtype=np.float64) if variant is Variant.STUD7_HL8 else None

    def add(self, hands: Cards, weights: Floats | None = None, scale: float = 1.0) -> None:
        """Value ``hands`` (rows of card indices) and add them, each with its weight times ``scale``."""
        main, low = whole_values(self.variant, hands)
        self.main += np.bincount(main, weights=weights, minlength=len(self.main)) * scale
        if self.low is not None and low is not None:
            self.low += np.bincount(low, weights=weights, minlength=len(self.low)) * scale


# -- listing the final hands ------------------------------------------------------------------------------------------


@cache
def _colex(n: int, r: int) -> Cards:
    """Every r-subset of range(n), ascending in a row, in colex order: the subsets of range(m) are the first
    comb(m, r) rows, for every m <= n (so one table serves every tail length)."""
    rows = np.arange(n, dtype=np.uint8)[:, None]
    for size in range(2, r + 1):
        parts = [
            np.hstack([rows[: math.comb(top, size - 1)], np.full((math.comb(top, size - 1), 1), top, dtype=np.uint8)])
            for top in range(size - 1, n)
        ]
        rows = np.vstack(parts) if parts else np.zeros((0, size), dtype=np.uint8)
    rows.flags.writeable = False
    return rows


@dataclass
class Listing:
    """``known`` plus every k-subset of ``pool`` (ascending card indices) exactly once, in blocks of about
    :data:`_BLOCK` rows, the subset's cards ascending in the last k columns. A row is a prefix (the subset's
    smallest ``k - r`` cards) then a tail of ``r`` cards above it, from a colex table of pool positions mapped to
    cards once per first position (:meth:`tail`); each block says which rows have which prefix (its segments)."""

    known: tuple[int, ...]
    pool: tuple[int, ...]
    k: int
    r: int = field(init=False)
    cache: dict[tuple[int, int, int], Floats] = field(default_factory=dict)  # see SetWeights
    _tails: dict[int, Cards] = field(default_factory=dict)

    def __post_init__(self) -> None:
        m, k = len(self.pool), self.k
        r = k
        while r > 1 and math.comb(m - (k - r), r) > _BLOCK:
            r -= 1
        self.r = r

    def tail(self, begin: int) -> Cards:
        """Every r-subset of the pool from position ``begin`` on, as cards (rows ascending)."""
        if begin not in self._tails:
            positions = _colex(len(self.pool) - (self.k - self.r), self.r)[: math.comb(len(self.pool) - begin, self.r)]
            self._tails[begin] = np.asarray(self.pool, dtype=np.uint8)[positions + np.uint8(begin)]
        return self._tails[begin]

    def blocks(self) -> Iterator[tuple[Cards, list[Segment]]]:
        n, k, r, m = len(self.known), self.k, self.r, len(self.pool)
        if k == 0:
            yield np.array(self.known, dtype=np.uint8).reshape(1, n), [(0, 1, (), 0)]
            return
        if k > m:
            return
        pending: list[Segment] = []
        rows = 0
        for prefix in combinations(range(m - r), k - r):
            begin = prefix[-1] + 1 if prefix else 0
            count = math.comb(m - begin, r)
            pending.append((rows, count, tuple(self.pool[i] for i in prefix), begin))
            rows += count
            if rows >= _BLOCK // 2:
                yield self._block(pending, rows), pending
                pending, rows = [], 0
        if pending:
            yield self._block(pending, rows), pending

    def _block(self, segments: list[Segment], rows: int) -> Cards:
        n, k, r = len(self.known), self.k, self.r
        out = np.empty((rows, n + k), dtype=np.uint8)
        out[:, :n] = self.known
        for at, count, prefix, begin in segments:
            out[at : at + count, n : n + k - r] = prefix
            out[at : at + count, n + k - r :] = self.tail(begin)
        return out


# -- weights ----------------------------------------------------------------------------------------------------------


def _codes(cards: Cards, columns: Sequence[int]) -> npt.NDArray[np.int64]:
    """One number per row for the set of cards in ``columns`` (ascending cards): sum of card * 52^i."""
    code = np.zeros(len(cards), dtype=np.int64)
    for i, column in enumerate(columns):
        code += cards[:, column].astype(np.int64) * 52**i
    return code


def _code(cards: Sequence[int]) -> int:
    return sum(c * 52**i for i, c in enumerate(cards))


class Lookup:
    """The total weight of each set of t cards: a dense table for t <= 3 (52^t entries), sorted codes beyond."""

    def __init__(self, codes: npt.NDArray[np.int64], weights: Floats, t: int) -> None:
        self.dense: Floats | None = None
        if t <= 3:
            self.dense = np.bincount(codes, weights=weights, minlength=52**t).astype(np.float64)
            return
        self.keys, inverse = np.unique(codes, return_inverse=True)
        self.values = np.bincount(inverse.ravel(), weights=weights)

    def __call__(self, codes: npt.NDArray[np.int64]) -> Floats:
        if self.dense is not None:
            return self.dense.take(codes)
        at = np.minimum(np.searchsorted(self.keys, codes), len(self.keys) - 1)
        return np.where(self.keys[at] == codes, self.values[at], 0.0)


class SetWeights:
    """A weight for every final hand ``Y`` (its unseen cards): ``constant`` plus, for each level (t, sign, table),
    sign times the sum of the table over the t-card subsets of ``Y``."""

    def __init__(self, constant: float, levels: list[tuple[int, float, Lookup]]) -> None:
        self.constant, self.levels = constant, levels

    def __call__(self, cards: Cards, segments: Sequence[Segment], listing: Listing) -> Floats:
        """The weights of a block of ``listing`` (``cards``: its unseen cards; ``segments``: its prefixes)."""
        out = np.full(len(cards), self.constant)
        for level, (t, sign, table) in enumerate(self.levels):
            add = np.add if sign > 0 else np.subtract
            if table.dense is None or listing.r == listing.k:  # one look-up per subset of each row
                for columns in combinations(range(cards.shape[1]), t):
                    add(out, table(_codes(cards, columns)), out=out)
                continue
            for at, count, prefix, begin in segments:
                part = out[at : at + count]
                add(part, self._tail_sums(level, t, table.dense, listing, begin), out=part)
                for j in range(1, min(t, len(prefix)) + 1):  # j of the subset's cards in the prefix
                    below = [_code(a) for a in combinations(prefix, j)]
                    if j == t:
                        add(part, float(table.dense[below].sum()), out=part)
                        continue
                    across = table.dense.reshape(-1, 52**j)[:, below].sum(axis=1)  # by the tail cards' code
                    tail = listing.tail(begin)
                    for columns in combinations(range(listing.r), t - j):
                        index = tail[:, columns[0]] if t - j == 1 else _codes(tail, columns)
                        add(part, across.take(index), out=part)
        clipped: Floats = np.maximum(out, 0.0)  # an exact 0 may come out as -1e-17 after the alternating sums
        return clipped

    def _tail_sums(self, level: int, t: int, dense: Floats, listing: Listing, begin: int) -> Floats:
        """The table summed over the t-subsets of each tail from ``begin`` (kept: every prefix ending just before
        ``begin`` shares it)."""
        key = (id(self), level, begin)
        if key not in listing.cache:
            tail = listing.tail(begin)
            sums = np.zeros(len(tail))
            for columns in combinations(range(listing.r), t):
                sums += dense.take(_codes(tail, columns))
            listing.cache[key] = sums
        return listing.cache[key]


def removal(held: Cards, weights: Floats, top: int) -> SetWeights:
    """Card removal by the assignments ``held`` (rows: the ranged players' down cards, ascending) with their
    weights: a final hand's weight is the total weight of the assignments it shares no card with, by
    inclusion-exclusion over its subsets of at most ``top`` cards."""
    s = held.shape[1]
    levels = []
    for t in range(1, min(top, s) + 1):
        subsets = list(combinations(range(s), t))
        codes = np.concatenate([_codes(held, columns) for columns in subsets])
        levels.append((t, float((-1) ** t), Lookup(codes, np.tile(weights, len(subsets)), t)))
    return SetWeights(float(weights.sum()), levels)


def assign(ranges: Sequence[RangeRows]) -> tuple[Cards, Floats, npt.NDArray[np.uint64]]:
    """Every assignment of down cards to these ranged players with no card twice: the cards (ascending in a row),
    the product of the weights, the card masks."""
    held = np.zeros((1, 0), dtype=np.uint8)
    weights, taken = np.ones(1), np.zeros(1, dtype=np.uint64)
    for r in ranges:
        i = np.repeat(np.arange(len(held)), len(r.rows))
        j = np.tile(np.arange(len(r.rows)), len(held))
        keep = (taken[i] & r.masks[j]) == 0
        i, j = i[keep], j[keep]
        held = np.concatenate([held[i], r.rows[j]], axis=1)
        weights, taken = weights[i] * r.weights[j], taken[i] | r.masks[j]
    held.sort(axis=1)
    return held, weights, taken


# -- planning ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Job:
    """Final hands to value: ``known`` plus every ``k``-subset of ``pool``, each weighted ``scale`` times the
    product of ``weights``."""

    known: tuple[int, ...]
    pool: tuple[int, ...]
    k: int
    scale: float = 1.0
    weights: tuple[SetWeights, ...] = ()


def _cost(rows: int, lookups: int) -> float:
    row = _ROW if _batch._kernel is not None else _ROW_PURE
    return _JOB + rows * (row + _LOOKUP * lookups)


def _lookups(m: int, k: int, top: int) -> int:
    """Look-ups a final hand costs for the removal levels 1..top, as :class:`SetWeights` splits them."""
    r = Listing((), tuple(range(m)), k).r if k else 0
    if r == k:
        return sum(math.comb(k, t) for t in range(1, min(k, top) + 1))
    return sum(math.comb(r, t - j) for t in range(1, min(k, top) + 1) for j in range(1, min(t, k - r) + 1) if j < t)


def _build(assignments: int, held: int, k: int) -> float:
    """The cost of a removal table: every assignment under each of its subsets of at most k cards."""
    return assignments * sum(math.comb(held, t) for t in range(1, min(held, k) + 1)) * 2e-8 if held else 0.0


def ranged_plan(m: int, k: int, r: RangeRows, held: int, assignments: int) -> tuple[bool, float]:
    """How to count a ranged player's final hands, and the estimated seconds: ``True``, *merged*, every set of his
    ``k`` unseen cards from the ``m`` at once, weighted by the total weight of his combinations it holds (times the
    removal weight of the other ranges' ``assignments`` of ``held`` cards, when there are any); ``False``, each
    combination's completions in turn (with its own removal table)."""
    d = r.down
    own = _lookups(m, k, d) - _lookups(m, k, d - 1)  # the level of his own combinations
    merged = _cost(math.comb(m, k), own + _lookups(m, k, held)) + _build(assignments, held, k)
    each = _cost(math.comb(m - d, k - d), _lookups(m - d, k - d, held)) + _build(assignments, held, k - d)
    return (True, merged) if merged < len(r.rows) * each else (False, len(r.rows) * each)


def estimate(spot: Spot, ranges: Sequence[RangeRows | None] | None = None) -> float:
    """Roughly how many seconds an exact count of ``spot`` takes (``inf``: more assignments of the ranges' down
    cards than :data:`MAX_ASSIGNMENTS`), from the number of final hands to value and table look-ups."""
    ranges = ranges if ranges is not None else [None] * spot.n
    ranged = [r for r in ranges if r is not None]
    if math.prod(len(r.rows) for r in ranged) > MAX_ASSIGNMENTS:
        return math.inf
    m = len(spot.pool)
    held = sum(r.down for r in ranged)
    everyone = math.prod(len(r.rows) for r in ranged)
    seconds, seen = 0.0, set()
    for p, need in enumerate(spot.needs):
        k, r = need + spot.community_to_come, ranges[p]
        if r is None:
            if not ranged and spot.known[p] in seen:  # the same final hands as another player's (see count)
                continue
            seen.add(spot.known[p])
            seconds += _cost(math.comb(m, k), _lookups(m, k, held)) + _build(everyone, held, k)
            continue
        assignments = math.prod(len(o.rows) for o in ranged if o is not r)
        seconds += ranged_plan(m, k, r, held - r.down, assignments)[1]
    return seconds


def _jobs(spot: Spot, ranges: Sequence[RangeRows | None], p: int) -> Iterator[_Job]:
    """The final hands of player ``p`` to value, with their weights."""
    pool = spot.pool
    known = tuple(c.index for c in spot.known[p])
    k, mine = spot.needs[p] + spot.community_to_come, ranges[p]
    others = [r for o, r in enumerate(ranges) if r is not None and o != p]
    held, weights, taken = assign(others)
    cut = (removal(held, weights, k),) if others else ()
    if mine is None:
        yield _Job(known, pool, k, 1.0, cut)
        return
    d = mine.down
    if ranged_plan(len(pool), k, mine, held.shape[1], len(weights))[0]:
        table = Lookup(_codes(mine.rows, range(d)), mine.weights, d)
        yield _Job(known, pool, k, 1.0, (SetWeights(0.0, [(d, 1.0, table)]), *cut))
        return
    for row, weight, mask in zip(mine.rows.tolist(), mine.weights.tolist(), mine.masks.tolist(), strict=True):
        rest = tuple(c for c in pool if c not in row)
        if not others:
            yield _Job((*known, *row), rest, k - d, weight)
            continue
        fits = (taken & np.uint64(mask)) == 0
        if fits.any():
            yield _Job((*known, *row), rest, k - d, weight, (removal(held[fits], weights[fits], k - d),))


def count(spot: Spot, ranges: Sequence[RangeRows | None]) -> tuple[list[Histogram], list[int]]:
    """Every player's final hands counted exactly (``ranges``: each player's, or None; ``spot`` holds a ranged
    player's up cards); also how many final hands each distribution accounts for (the assignments of the ranges'
    down cards times the ways his own cards can come)."""
    ranged = [r for r in ranges if r is not None]
    assignments = len(assign(ranged)[1]) if ranged else 1
    if not assignments:
        raise EquityError("the ranges have no assignment of down cards with no card twice")
    left = len(spot.pool) - sum(r.down for r in ranged)
    histograms: list[Histogram] = []
    outcomes: list[int] = []
    for p in range(spot.n):
        mine = ranges[p]
        outcomes.append(
            assignments
            * math.comb(left, spot.needs[p] + spot.community_to_come - (mine.down if mine is not None else 0))
        )
        same = [o for o in range(p) if not ranged and spot.known[o] == spot.known[p]]
        if same:  # no card known (but a dealt community card), like an earlier player: the same final hands
            histograms.append(histograms[same[0]])
            continue
        histogram = Histogram(spot.variant)
        for job in _jobs(spot, ranges, p):
            listing = Listing(job.known, job.pool, job.k)
            n = len(job.known)
            for hands, segments in listing.blocks():
                weights = None
                for factor in job.weights:
                    w = factor(hands[:, n:], segments, listing)
                    weights = w if weights is None else weights * w
                histogram.add(hands, weights, job.scale)
        histograms.append(histogram)
    return histograms, outcomes
