"""Exact equity: every outcome counted, without visiting the outcomes one by one.

Each player's possible completions (the ways his missing cards can come) are evaluated once. One
player, the *last*, is never enumerated: every other player's completions are combined into the
*explicit tuples* (one completion each, no card twice), and for each tuple the last player's
completions are *counted* by how they compare with the tuple's best hand.

The count must skip the last player's completions that use a card the tuple holds. With ``S`` the
tuple's cards and ``N_T(pred)`` the number of the last player's completions that contain the set ``T``
and satisfy ``pred``, inclusion-exclusion gives

    #{c : c and S disjoint, pred(c)} = sum over T subset of S, |T| <= k, of (-1)^|T| N_T(pred)

(``k`` is how many cards the last player needs; a completion cannot contain more than ``k`` of
``S``). Every ``N_T(value < x)`` is one binary search in a sorted array of keys ``(id(T), value)``
that holds each completion once under each of its ``2^k`` subsets. For stud hi/lo the comparison is
two-dimensional (the high hand and the low): the tuples are grouped by their best low, and for each
group a running count of "low below it" along that array turns each two-dimensional count into a
difference of two lookups.

So heads-up 3rd street (about 10^10 outcomes) costs about 135,751 tuples times 16 terms, and three
players with five known cards each (121,041,360 outcomes) about 278,000 tuples times 11 terms.

A community card still to come (SPEC R8, :attr:`Spot.community_to_come`) is summed over: for every card ``c`` of
the pool, the spot with ``c`` dealt as the community card (known, part of every hand, out of the pool) is counted
as above and the tallies are added. Every community card is equally likely and each of these spots has the same
number of outcomes, so the sum is the spot's tally; the plan is the same for each of them, and its work is
counted ``len(pool)`` times (:attr:`Plan.repeats`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import reduce
from itertools import combinations
from types import ModuleType

import numpy as np
import numpy.typing as npt

from .._cores import usable_cores
from ..engine import Variant
from . import sweep
from ._deal import combination_rows, hand_values, masks
from .result import Tally
from .spot import EquityError, Spot

_count: ModuleType | None
try:
    from . import _count
except ImportError:  # no compiled kernel: the NumPy counter below
    _count = None

__all__ = ["MAX_TERMS", "Plan", "count", "feasible", "plan"]

#: Work above which ``auto`` prefers Monte Carlo: explicit tuples times inclusion-exclusion terms
#: (a few seconds on the reference machine).
MAX_TERMS = 30_000_000
#: The largest sorted key array (the last player's completions times 2^k) we build.
MAX_KEYS = 8_000_000

_V = 1 << 13  # values are below 8192 in every game: key = id * _V + value
#: Hi/lo in the compiled counter keeps a table of 58 counts per key; above this many keys, NumPy counts.
MAX_PREFIX_KEYS = 250_000
_LOWS = 58  # eight-or-better lows are 0..56: thresholds 0..57
#: One explicit player for the compiled counter: rows, cards needed, masks, values, lows (hi/lo) or None.
_Side = tuple[npt.NDArray[np.uint8], int, npt.NDArray[np.uint64], npt.NDArray[np.int32], npt.NDArray[np.int32] | None]
_BLOCK = 1 << 17  # explicit tuples per vectorised block

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Plan:
    """How a spot is counted: ``last`` is the counted player, ``explicit`` the enumerated ones (the first is
    split into chunks), ``tuples`` the number of explicit tuples, ``terms`` the inclusion-exclusion terms per
    tuple, ``keys`` the size of the sorted key array. ``repeats``: how many times that count is made, once per
    possible community card when one is to come (each time with that card known), else once."""

    spot: Spot
    last: int
    explicit: tuple[int, ...]
    tuples: int
    terms: int
    keys: int
    repeats: int = 1

    @property
    def work(self) -> int:
        return self.tuples * self.terms * self.repeats

    @property
    def feasible(self) -> bool:
        return self.keys <= MAX_KEYS and self.work <= MAX_TERMS


def plan(spot: Spot) -> Plan:
    """The cheapest way to count ``spot``: which player is counted rather than enumerated. With a community card to
    come, the plan of each spot with the community card dealt (they are all alike), made ``len(pool)`` times."""
    if spot.community_to_come:
        each = plan(spot.with_community(spot.pool[0]))
        return replace(each, spot=spot, repeats=len(spot.pool))
    pool, needs = len(spot.pool), spot.needs
    best: Plan | None = None
    for last in range(spot.n):
        explicit = sorted((p for p in range(spot.n) if p != last), key=lambda p: -math.comb(pool, needs[p]))
        tuples, left = 1, pool
        for p in explicit:
            tuples *= math.comb(left, needs[p])
            left -= needs[p]
        k, held = needs[last], sum(needs[p] for p in explicit)
        terms = sum(math.comb(held, j) for j in range(k + 1))
        keys = math.comb(pool, k) << k
        candidate = Plan(spot, last, tuple(explicit), tuples, terms, keys)
        if best is None or (candidate.feasible, -candidate.work, -candidate.keys) > (
            best.feasible,
            -best.work,
            -best.keys,
        ):
            best = candidate
    assert best is not None
    return best


def feasible(spot: Spot) -> bool:
    """Whether counting ``spot`` exactly is quick (a few seconds at most); ``auto`` samples otherwise. Heads-up
    spots are counted by :mod:`~studpoker.equity.sweep` when the compiled kernel is there."""
    if sweep.suitable(spot):
        return sweep.work(spot) <= sweep.MAX_WORK
    return plan(spot).feasible


def count(spot: Spot, *, workers: int = 1, progress: Progress | None = None) -> Tally:
    """Count every outcome of ``spot`` (see the module docstring); ``workers`` > 1 counts chunks in parallel
    processes. Refuses (:class:`EquityError`) only what would not fit in memory."""
    if spot.community_to_come:  # one count per possible community card (see the module docstring)
        return _count_community(spot, workers, progress)
    if sweep.suitable(spot):  # heads-up with one winner: one compiled pass, whatever the street
        tally = sweep.count(spot)
        if progress is not None:
            progress(1, 1)
        return tally
    how = plan(spot)
    if how.keys > MAX_KEYS:
        raise EquityError(
            f"this spot is too large to count exactly ({spot.outcomes:,} outcomes): use Monte Carlo (--trials)"
        )
    counter = _Counter(how)
    chunks = counter.chunks()
    total = len(chunks)
    tally = counter.empty()
    if workers > 1 and total > 1:
        from concurrent.futures import as_completed

        from .._pool import owned_pool, submit

        global _SHARED
        _SHARED = counter
        cores = usable_cores()
        try:  # on an error or Ctrl-C the workers are ended at once, their chunks not waited for
            with owned_pool(max(1, min(workers, total, cores)), method="fork") as pool:
                futures = [submit(pool, _count_chunk, chunk) for chunk in chunks]
                for done, future in enumerate(as_completed(futures), 1):
                    tally.add(future.result())
                    if progress is not None:
                        progress(done, total)
        finally:
            _SHARED = None
    else:
        for done, chunk in enumerate(chunks, 1):
            tally.add(counter.count(chunk))
            if progress is not None:
                progress(done, total)
    if tally.outcomes != spot.outcomes:  # every outcome is counted once: a check on the whole method
        raise AssertionError(f"counted {tally.outcomes} outcomes, the spot has {spot.outcomes}")
    return tally


def _count_community(spot: Spot, workers: int, progress: Progress | None) -> Tally:
    """:func:`count` of a spot with a community card to come: the sum over the pool's cards of the counts with
    that card dealt as the community card. ``progress`` runs over all of them."""
    cards = spot.pool
    tally: Tally | None = None
    for i, card in enumerate(cards):

        def step(done: int, total: int, i: int = i) -> None:
            assert progress is not None
            progress(i * total + done, len(cards) * total)

        try:
            part = count(spot.with_community(card), workers=workers, progress=step if progress is not None else None)
        except EquityError:  # too large (the first one already: they are all alike): say so of the whole spot
            raise EquityError(
                f"this spot is too large to count exactly ({spot.outcomes:,} outcomes): use Monte Carlo (--trials)"
            ) from None
        if tally is None:
            tally = part
        else:
            tally.add(part)
    assert tally is not None  # a community card to come leaves at least one card in the pool
    if tally.outcomes != spot.outcomes:
        raise AssertionError(f"counted {tally.outcomes} outcomes, the spot has {spot.outcomes}")
    return tally


_SHARED: _Counter | None = None


def _count_chunk(chunk: npt.NDArray[np.int64]) -> Tally:
    """A worker's share: the prepared counter comes with the fork, the chunk with the call."""
    assert _SHARED is not None
    return _SHARED.count(chunk)


class _Counter:
    """The prepared structures for one spot: completions, values and the last player's sorted keys."""

    def __init__(self, how: Plan) -> None:
        spot = self.spot = how.spot
        self.how = how
        self.hilo = spot.variant is Variant.STUD7_HL8
        self.n = spot.n
        pool = np.asarray(spot.pool, dtype=np.uint8)
        self.size = len(pool)
        needs = spot.needs
        known = [[c.index for c in hand] for hand in spot.known]  # a dealt community card is in every hand
        # every player's completions, as positions in the pool, with values (and lows) and position masks
        self.rows: dict[int, npt.NDArray[np.uint8]] = {}
        self.values: dict[int, npt.NDArray[np.int32]] = {}
        self.lows: dict[int, npt.NDArray[np.int32]] = {}
        self.masks: dict[int, npt.NDArray[np.uint64]] = {}
        for p in range(self.n):
            rows = combination_rows(self.size, needs[p])
            values, lows = hand_values(spot.variant, known[p], pool[rows])
            self.rows[p], self.values[p] = rows, values
            if lows is not None:
                self.lows[p] = lows
            if p != how.last:
                self.masks[p] = masks(rows)  # bits of pool positions: all that disjointness needs
        self.k = needs[how.last]
        self.held = sum(needs[p] for p in how.explicit)
        self.disjoint = math.comb(self.size - self.held, self.k)  # the last player's completions avoiding a tuple
        # binomials for colex ranks, and where each subset size starts among the ids
        self.binom = np.array(
            [[math.comb(t, i) for i in range(self.k + 1)] for t in range(self.size + 1)], dtype=np.int64
        )
        self.offset = [sum(math.comb(self.size, j) for j in range(i)) for i in range(self.k + 2)]
        self._build_keys()
        # the inclusion-exclusion terms: subsets of the tuple's held cards (by column), with their signs
        self.terms = [cols for j in range(self.k + 1) for cols in combinations(range(self.held), j)]
        self.scale = reduce(math.lcm, range(1, self.n + 1)) * (2 if self.hilo else 1)
        self._sides: tuple[_Side, ...] | None = None  # the explicit players' arrays for the compiled counter
        # hi/lo in the compiled counter: keys before each position with a low below each threshold 0..57
        self._prefix: npt.NDArray[np.int32] | None = None
        if self.hilo and _count is not None and len(self.keys) <= MAX_PREFIX_KEYS:
            below = self.sorted_lows[:, None] < np.arange(_LOWS, dtype=np.int8)[None, :]
            self._prefix = np.zeros((len(self.keys) + 1, _LOWS), dtype=np.int32)
            np.cumsum(below, axis=0, dtype=np.int32, out=self._prefix[1:])

    def _ids(self, rows: npt.NDArray[np.integer], cols: Sequence[int]) -> npt.NDArray[np.int64]:
        """Colex ids of the subsets ``rows[:, cols]`` (each row ascending)."""
        ids = np.full(len(rows), self.offset[len(cols)], dtype=np.int64)
        for i, column in enumerate(cols, 1):
            ids += self.binom[rows[:, column], i]
        return ids

    def _build_keys(self) -> None:
        last = self.how.last
        rows, values = self.rows[last], self.values[last].astype(np.int64)
        parts = [
            self._ids(rows, cols) * _V + values for j in range(self.k + 1) for cols in combinations(range(self.k), j)
        ]
        keys = np.concatenate(parts)
        order = np.argsort(keys, kind="stable")
        self.keys = keys[order]
        ids = np.arange(self.offset[self.k + 1] + 1, dtype=np.int64)
        self.starts = np.searchsorted(self.keys, ids * _V)  # where each id's run begins (and the last one ends)
        if self.hilo:  # each key's low, in key order
            self.sorted_lows = np.tile(self.lows[last], 1 << self.k)[order].astype(np.int8)

    def empty(self) -> Tally:
        return Tally(self.n, self.scale)

    def chunks(self) -> list[npt.NDArray[np.int64]]:
        """The first explicit player's completions, split so that each chunk makes about one block of tuples."""
        explicit = self.how.explicit
        first = len(self.rows[explicit[0]])
        others = max(self.how.tuples // first, 1)
        step = max(1, _BLOCK // others)
        return [np.arange(i, min(i + step, first), dtype=np.int64) for i in range(0, first, step)]

    def _tuples(self, chunk: npt.NDArray[np.int64]) -> list[npt.NDArray[np.int64]]:
        """Index arrays (one per explicit player) of the disjoint tuples whose first completion is in ``chunk``."""
        explicit = self.how.explicit
        picked = [chunk]
        mask = self.masks[explicit[0]][chunk]
        for p in explicit[1:]:
            theirs = self.masks[p]
            a, b = np.nonzero((mask[:, None] & theirs[None, :]) == 0)
            picked = [index[a] for index in picked] + [b.astype(np.int64)]
            mask = mask[a] | theirs[b]
        return picked

    def count(self, chunk: npt.NDArray[np.int64]) -> Tally:
        """The tally of every outcome whose first explicit completion is in ``chunk``."""
        explicit = self.how.explicit
        if _count is not None and len(chunk) and (not self.hilo or self._prefix is not None):
            return self._compiled(chunk)
        picked = self._tuples(chunk)
        tally = self.empty()
        if not len(picked[0]):
            return tally
        values = np.stack([self.values[p][i] for p, i in zip(explicit, picked, strict=True)], axis=1)
        best = values.max(axis=1)
        held = np.concatenate([self.rows[p][i] for p, i in zip(explicit, picked, strict=True)], axis=1)
        held.sort(axis=1)
        if self.hilo:
            lows = np.stack([self.lows[p][i] for p, i in zip(explicit, picked, strict=True)], axis=1)
            self._hilo(tally, values, best, lows, held)
        else:
            self._high(tally, values, best, held)
        tally.outcomes = len(best) * self.disjoint
        return tally

    def _compiled(self, chunk: npt.NDArray[np.int64]) -> Tally:
        """:meth:`count` in the compiled kernel: the same tuples, terms and shares, in one C loop."""
        assert _count is not None
        explicit, last = self.how.explicit, self.how.last
        if self._sides is None:
            self._sides = tuple(
                (
                    np.ascontiguousarray(self.rows[p]),
                    self.spot.needs[p],
                    np.ascontiguousarray(self.masks[p]),
                    np.ascontiguousarray(self.values[p], dtype=np.int32),
                    np.ascontiguousarray(self.lows[p], dtype=np.int32) if self.hilo else None,
                )
                for p in explicit
            )
        out = np.zeros((5, len(explicit) + 1), dtype=np.int64)
        tuples, no_low = _count.tuples(
            self.size,
            int(chunk[0]),
            int(chunk[-1]) + 1,
            self._sides,
            self.keys,
            self.starts,
            self.k,
            self.disjoint,
            self.scale,
            self._prefix,
            out,
        )
        tally = self.empty()
        for column, p in enumerate((*explicit, last)):
            tally.share[p], tally.win[p], tally.tie[p] = out[0, column], out[1, column], out[2, column]
            tally.high[p], tally.low[p] = out[3, column], out[4, column]
        tally.outcomes = tuples * self.disjoint
        tally.no_low = no_low
        return tally

    # -- high-only games ----------------------------------------------------------------------------

    def _below(self, held: npt.NDArray[np.uint8], best: npt.NDArray[np.int32]) -> tuple[npt.NDArray[np.int64], ...]:
        """For each tuple: the last player's disjoint completions worth less than ``best``, and at most ``best``."""
        below = np.zeros(len(best), dtype=np.int64)
        upto = np.zeros(len(best), dtype=np.int64)
        threshold = best.astype(np.int64)
        for cols in self.terms:
            ids = self._ids(held, cols)
            base = ids * _V
            start = self.starts[ids]
            lt = np.searchsorted(self.keys, base + threshold) - start
            le = np.searchsorted(self.keys, base + threshold + 1) - start
            if len(cols) % 2:
                below -= lt
                upto -= le
            else:
                below += lt
                upto += le
        return below, upto

    def _high(
        self, tally: Tally, values: npt.NDArray[np.int32], best: npt.NDArray[np.int32], held: npt.NDArray[np.uint8]
    ) -> None:
        explicit, last, scale = self.how.explicit, self.how.last, self.scale
        below, upto = self._below(held, best)
        equal = upto - below
        above = self.disjoint - upto
        at_best = values == best[:, None]
        m = at_best.sum(axis=1)
        # the last player below: the tied best among the explicit split; equal: they split with him
        per_below = scale // m
        per_equal = scale // (m + 1)
        for column, p in enumerate(explicit):
            mine = at_best[:, column]
            tally.share[p] += int(np.sum((below * per_below + equal * per_equal)[mine]))
            tally.win[p] += int(np.sum(below[mine & (m == 1)]))
            tally.tie[p] += int(np.sum(below[mine & (m > 1)])) + int(np.sum(equal[mine]))
        tally.share[last] += int(np.sum(above)) * scale + int(np.sum(equal * per_equal))
        tally.win[last] += int(np.sum(above))
        tally.tie[last] += int(np.sum(equal))

    # -- stud hi/lo -----------------------------------------------------------------------------------

    def _hilo(
        self,
        tally: Tally,
        values: npt.NDArray[np.int32],
        best: npt.NDArray[np.int32],
        lows: npt.NDArray[np.int32],
        held: npt.NDArray[np.uint8],
    ) -> None:
        explicit, last, scale = self.how.explicit, self.how.last, self.scale
        top_low = lows.max(axis=1)  # 0: no explicit player has a low
        threshold = best.astype(np.int64)
        names = ("h<", "h<=", "h<l<", "h<l<=", "h<=l<", "h<=l<=", "l<", "l<=")
        n = {name: np.zeros(len(best), dtype=np.int64) for name in names}
        zero = np.zeros(1, dtype=np.int64)
        # tuples with the same best explicit low share one pair of running low counts along the keys
        for q in np.unique(top_low):
            rows = np.nonzero(top_low == q)[0]
            below_q = np.concatenate([zero, np.cumsum(self.sorted_lows < q, dtype=np.int64)])
            upto_q = np.concatenate([zero, np.cumsum(self.sorted_lows <= q, dtype=np.int64)])
            sub = {name: np.zeros(len(rows), dtype=np.int64) for name in names}
            part_held, part_threshold = held[rows], threshold[rows]
            for cols in self.terms:
                ids = self._ids(part_held, cols)
                base = ids * _V
                start = self.starts[ids]
                end = self.starts[ids + 1]
                lt = np.searchsorted(self.keys, base + part_threshold)
                le = np.searchsorted(self.keys, base + part_threshold + 1)
                sign = -1 if len(cols) % 2 else 1
                s0, s1 = below_q[start], upto_q[start]
                sub["h<"] += sign * (lt - start)
                sub["h<="] += sign * (le - start)
                sub["h<l<"] += sign * (below_q[lt] - s0)
                sub["h<l<="] += sign * (upto_q[lt] - s1)
                sub["h<=l<"] += sign * (below_q[le] - s0)
                sub["h<=l<="] += sign * (upto_q[le] - s1)
                sub["l<"] += sign * (below_q[end] - s0)
                sub["l<="] += sign * (upto_q[end] - s1)
            for name in names:
                n[name][rows] = sub[name]
        total = self.disjoint
        # the nine classes (high below / equal / above) x (low below / equal / above)
        h = {"<": n["h<"], "=": n["h<="] - n["h<"], ">": total - n["h<="]}
        hl = {
            ("<", "<"): n["h<l<"],
            ("<", "="): n["h<l<="] - n["h<l<"],
            ("=", "<"): n["h<=l<"] - n["h<l<"],
            ("=", "="): (n["h<=l<="] - n["h<=l<"]) - (n["h<l<="] - n["h<l<"]),
        }
        hl[("<", ">")] = h["<"] - hl[("<", "<")] - hl[("<", "=")]
        hl[("=", ">")] = h["="] - hl[("=", "<")] - hl[("=", "=")]
        low_below, low_equal = n["l<"], n["l<="] - n["l<"]
        hl[(">", "<")] = low_below - hl[("<", "<")] - hl[("=", "<")]
        hl[(">", "=")] = low_equal - hl[("<", "=")] - hl[("=", "=")]
        hl[(">", ">")] = h[">"] - hl[(">", "<")] - hl[(">", "=")]
        at_high = values == best[:, None]
        at_low = (lows == top_low[:, None]) & (top_low[:, None] > 0)
        m = at_high.sum(axis=1)
        q = at_low.sum(axis=1)
        no_explicit_low = top_low == 0
        for (rh, rl), ways in hl.items():
            self._class(tally, rh, rl, ways, at_high, at_low, m, q, no_explicit_low, explicit, last, scale)

    def _class(
        self,
        tally: Tally,
        rh: str,
        rl: str,
        ways: npt.NDArray[np.int64],
        at_high: npt.NDArray[np.bool_],
        at_low: npt.NDArray[np.bool_],
        m: npt.NDArray[np.int64],
        q: npt.NDArray[np.int64],
        no_explicit_low: npt.NDArray[np.bool_],
        explicit: tuple[int, ...],
        last: int,
        scale: int,
    ) -> None:
        """Share out the pot for ``ways`` outcomes per tuple in which the last player's high compares ``rh``
        and his low ``rl`` with the tuple's best (an impossible class has no ways)."""
        ones = np.ones_like(m)
        high_count = m if rh == "<" else m + 1 if rh == "=" else ones
        low_count = q if rl == "<" else q + 1 if rl == "=" else ones
        # with no explicit low, "=" means nobody has one: the high hands take the whole pot
        nobody = no_explicit_low if rl == "=" else np.zeros_like(no_explicit_low)
        high_each = np.where(nobody, scale, scale // 2) // np.maximum(high_count, 1)
        low_each = np.where(nobody, 0, (scale // 2) // np.maximum(low_count, 1))
        if rl == "=":
            tally.no_low += int(np.sum(ways[nobody]))
        for column, p in enumerate(explicit):
            gets_high = at_high[:, column] if rh != ">" else np.zeros(len(m), dtype=bool)
            gets_low = at_low[:, column] if rl != ">" else np.zeros(len(m), dtype=bool)
            high_part = np.where(gets_high, high_each, 0) * ways
            low_part = np.where(gets_low, low_each, 0) * ways
            tally.high[p] += int(np.sum(high_part))
            tally.low[p] += int(np.sum(low_part))
            tally.share[p] += int(np.sum(high_part)) + int(np.sum(low_part))
            scoop = gets_high & (high_count == 1) & (nobody | (gets_low & (low_count == 1)))
            tally.win[p] += int(np.sum(ways[scoop]))
        if rh != "<":
            high_part = high_each * ways
            tally.high[last] += int(np.sum(high_part))
            tally.share[last] += int(np.sum(high_part))
        if rl != "<":
            low_part = low_each * ways  # zero where nobody has a low
            tally.low[last] += int(np.sum(low_part))
            tally.share[last] += int(np.sum(low_part))
        if rh != "<":
            last_low_alone = (low_count == 1) & ~nobody if rl != "<" else np.zeros_like(nobody)
            scoop = (high_count == 1) & (nobody | last_low_alone)
            tally.win[last] += int(np.sum(ways[scoop]))
