"""Showdown sums with card removal, without the dense n0 x n1 matrices: the sorted-strength sweep.

A hold'em river solver sorts the opponent's hands by strength and sweeps prefix sums of their reach; stud hands
hold k private cards (k = 1..3), so card removal is handled by inclusion-exclusion. For my hand with card set A,

    Σ_{g disjoint from A, value_g < v} r_g  =  Σ_{S ⊆ A} (-1)^|S| Σ_{g ⊇ S, value_g < v} r_g,

where g ⊇ S means hand g holds every card of S. Every opponent hand gets 2^k *keys* (each subset of its cards,
the empty set included); the entries (hand, key) are sorted once by (key, value), and for each of my hands and
each subset S of its cards :func:`numpy.searchsorted` finds the start of S's group, its first entry of value
>= v, its first of value > v and its end. A call then gathers the reach into entry order, takes one prefix sum
(float64, against cancellation) and reads every sum as a signed difference of prefix-sum rows: O(n 2^k K) work
and O(n 2^k K) memory: the prefix sums hold n_other * 2^k + 1 rows of K float64 (11.6 MB for 10,660 hands,
k = 3, K = 17), and a call briefly holds about three such arrays. Hi/lo adds a second structure on the low
values and reuses the high one on the reach of the opponent's hands without a low.

>>> import numpy as np
>>> cards = (np.array([[0], [1]], np.uint8), np.array([[0], [2]], np.uint8))
>>> values = (np.array([5, 3], np.int32), np.array([4, 4], np.int32))
>>> share, compatible = CardShowdown(cards, values).sums(0, np.ones((2, 1)))
>>> share[:, 0].tolist(), compatible[:, 0].tolist()
([1.0, 0.0], [1.0, 2.0])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["CardShowdown"]

Floats = npt.NDArray[np.float64]
Reach = npt.NDArray[np.float32] | npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

#: The base of a key: a subset's sorted cards c_1 < c_2 < ... as the digits c_j + 1 (0 for no card).
_BASE = 53
#: The most private cards a hand may hold (the keys of 2^k subsets, each a k-digit number in base 53).
MAX_CARDS = 4


def _subset_keys(cards: npt.NDArray[np.int64]) -> Ints:
    """The key of every subset of every hand's (sorted) cards: a 2^k x n array, row = the subset's bit mask."""
    n, k = cards.shape
    keys = np.zeros((1 << k, n), np.int64)
    for mask in range(1 << k):
        digit = 1
        for position in range(k):
            if mask >> position & 1:
                keys[mask] += (cards[:, position] + 1) * digit
                digit *= _BASE
    return keys


def _signs(k: int) -> Floats:
    """(-1)^|S| for every subset bit mask S of k cards."""
    return np.array([(-1.0) ** bin(mask).count("1") for mask in range(1 << k)])


@dataclass(frozen=True)
class _Sweep:
    """One player's sums against the other's values: the entry order and, per subset and hand, four positions."""

    #: The other player's hand of every sorted entry.
    order: npt.NDArray[np.intp]
    #: 2^k x n_me positions in the prefix sums: the start of S's group, first value >= mine, first > mine, end.
    start: Ints
    less: Ints
    upto: Ints
    end: Ints

    @classmethod
    def build(cls, keys_other: Ints, values_other: Ints, keys_me: Ints, values_me: Ints) -> _Sweep:
        """Sort the other's entries by (key, value) and find my hands' positions among them."""
        low = min(int(values_other.min(initial=0)), int(values_me.min(initial=0)))
        high = max(int(values_other.max(initial=0)), int(values_me.max(initial=0)))
        width = high - low + 2  # a value's slot in [0, width - 2]; width - 1 is free, so groups never touch
        n_other = values_other.shape[0]
        combined = (keys_other * width + (values_other - low)[None, :]).ravel()
        sort = np.argsort(combined, kind="stable")
        combined = combined[sort]
        order = (sort % n_other).astype(np.intp)
        base = keys_me * width
        mine = base + (values_me - low)[None, :]
        return cls(
            order=order,
            start=np.searchsorted(combined, base, "left").astype(np.int64),
            less=np.searchsorted(combined, mine, "left").astype(np.int64),
            upto=np.searchsorted(combined, mine, "right").astype(np.int64),
            end=np.searchsorted(combined, base + width, "left").astype(np.int64),
        )

    def restrict(self, rows: npt.NDArray[np.intp]) -> _Sweep:
        """The same sweep for `rows` of my hands only."""
        return _Sweep(self.order, self.start[:, rows], self.less[:, rows], self.upto[:, rows], self.end[:, rows])

    def prefix(self, reach: Reach) -> Floats:
        """The reach in entry order, summed: row j is the total of the first j entries (float64).

        Summed along contiguous rows of the transpose, then transposed back for fast row gathers: NumPy's
        cumsum down the columns of a C-ordered array is three times slower."""
        columns = np.ascontiguousarray(reach.T, np.float64)
        summed = np.empty((reach.shape[1], self.order.shape[0] + 1), np.float64)
        summed[:, 0] = 0.0
        np.cumsum(np.take(columns, self.order, axis=1), axis=1, out=summed[:, 1:])
        return np.ascontiguousarray(summed.T)

    def totals(self, prefix: Floats, signs: Floats) -> tuple[Floats, Floats]:
        """(share, compatible) of my hands: the other's reach below my value plus half the tied, and all of it."""
        shape = (self.start.shape[1], prefix.shape[1])
        starts, halves, ends, row = np.zeros(shape), np.zeros(shape), np.zeros(shape), np.empty(shape)
        for mask, sign in enumerate(signs):
            accumulate = np.add if sign > 0 else np.subtract
            for positions, total in ((self.start, starts), (self.less, halves), (self.upto, halves), (self.end, ends)):
                np.take(prefix, positions[mask], axis=0, out=row)
                accumulate(total, row, out=total)
        halves *= 0.5
        halves -= starts
        ends -= starts
        return halves, ends


class CardShowdown:
    """Showdown sums of two players' hands of k private cards each, with card removal, by the sorted sweep.

    Built once per pair of ranges (the sorting and searching); :meth:`sums` then costs a gather, a prefix sum
    and 4 * 2^k gathers of n x K rows per call (memory: n_other * 2^k rows of K float64, about three times
    that at the peak of a call). The positions kept between calls: 4 * 2^k int64 per hand and structure.
    """

    def __init__(
        self,
        cards: tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]],
        high: tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]],
        low: tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]] | None = None,
    ) -> None:
        """Check the hands and values, and build each player's sweep against the other's hands."""
        hands = tuple(np.sort(np.asarray(c, np.int64), axis=1) if np.ndim(c) == 2 else None for c in cards)
        if len(hands) != 2 or hands[0] is None or hands[1] is None:
            raise ValueError("cards must be two n x k arrays of card indices")
        ordered: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] = (hands[0], hands[1])
        k = ordered[0].shape[1]
        if ordered[1].shape[1] != k or not 1 <= k <= MAX_CARDS:
            raise ValueError(f"both players must hold the same number of cards, 1 to {MAX_CARDS}")
        for hand in ordered:
            if hand.size and (hand.min() < 0 or hand.max() > 51):
                raise ValueError("card indices must be 0 to 51")
            if k > 1 and np.any(hand[:, 1:] == hand[:, :-1]):
                raise ValueError("the cards of a hand must be distinct")
        self.k = k
        self.sizes = (ordered[0].shape[0], ordered[1].shape[0])
        self.cards = ordered
        self.high = self._values(high, "high")
        self.low = None if low is None else self._values(low, "low")
        if self.low is not None and (min(int(v.min(initial=0)) for v in self.low) < 0):
            raise ValueError("low values must be >= 0 (0: no qualifying low)")
        self._signs = _signs(k)
        keys = (_subset_keys(ordered[0]), _subset_keys(ordered[1]))
        self._high = tuple(_Sweep.build(keys[1 - p], self.high[1 - p], keys[p], self.high[p]) for p in (0, 1))
        self._low: tuple[_Sweep, ...] | None = None
        self._no_low: tuple[npt.NDArray[np.intp], ...] = ()
        self._high_no_low: tuple[_Sweep, ...] = ()
        if self.low is not None:
            self._low = tuple(_Sweep.build(keys[1 - p], self.low[1 - p], keys[p], self.low[p]) for p in (0, 1))
            self._no_low = tuple(np.flatnonzero(self.low[p] == 0) for p in (0, 1))
            self._high_no_low = tuple(self._high[p].restrict(self._no_low[p]) for p in (0, 1))

    def _values(
        self, values: tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]], name: str
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Each player's values as int64, one per hand."""
        result = tuple(np.asarray(v, np.int64) for v in values)
        if len(result) != 2 or any(v.shape != (n,) for v, n in zip(result, self.sizes, strict=True)):
            raise ValueError(f"{name} must give one value per hand of each player")
        return result[0], result[1]

    def sums(self, player: int, reach: Reach) -> tuple[Floats, Floats]:
        """(share, compatible), each n_player x K float64: the other's reach (n_other x K, float32 or float64)
        times `player`'s pot share, summed over the other's hands disjoint from each of `player`'s hands; and the
        plain sum of that reach."""
        if player not in (0, 1):
            raise ValueError("player must be 0 or 1")
        other = 1 - player
        if reach.ndim != 2 or reach.shape[0] != self.sizes[other]:
            raise ValueError(f"reach must be {self.sizes[other]} x K (the other player's hands)")
        sweep = self._high[player]
        share, compatible = sweep.totals(sweep.prefix(reach), self._signs)
        if self._low is None or self.low is None:
            return share, compatible
        low_sweep = self._low[player]
        low_share, _ = low_sweep.totals(low_sweep.prefix(reach), self._signs)
        # s = H/2 + L/2, and where neither has a low (L counts that as a tie) s = H: add (H - 1/2)/2 there.
        rows = self._no_low[player]
        masked = reach * (self.low[other] == 0)[:, None]
        restricted = self._high_no_low[player]
        none_share, none_compatible = restricted.totals(restricted.prefix(masked), self._signs)
        share *= 0.5
        share += 0.5 * low_share
        share[rows] += 0.5 * (none_share - 0.5 * none_compatible)
        return share, compatible

    def dense(self) -> tuple[Floats, Floats]:
        """(compatible, share of player 0), each n0 x n1, built directly: for small games and for tests."""
        bits = tuple(np.bitwise_or.reduce(np.uint64(1) << c.astype(np.uint64), axis=1) for c in self.cards)
        compatible = ((bits[0][:, None] & bits[1][None, :]) == 0).astype(np.float64)
        share = self._share(self.high[0][:, None], self.high[1][None, :])
        if self.low is not None:
            low0, low1 = self.low[0][:, None], self.low[1][None, :]
            share = np.where((low0 == 0) & (low1 == 0), share, 0.5 * share + 0.5 * self._share(low0, low1))
        return compatible, share * compatible

    @staticmethod
    def _share(mine: npt.NDArray[np.int64], theirs: npt.NDArray[np.int64]) -> Floats:
        """1 where mine is larger, 1/2 where equal, 0 where smaller."""
        result: Floats = 0.5 * (np.sign(mine - theirs) + 1.0)
        return result
