"""Exact equity for small spots, outcome by outcome, on the scalar tables and without NumPy.

A spot with few outcomes (seventh street: one; heads-up sixth street: about 1,500) is answered before NumPy
would have finished loading, let alone the batch tables: each player's completions are valued once on the
scalar tables (the values of :func:`~studpoker.evaluation.high_value`, :func:`~studpoker.evaluation.low8_value`
and :func:`~studpoker.evaluation.razz_value`), then every outcome (one completion per player, no card twice) is
shared out by the rules of :mod:`~studpoker.equity.result`. The tally is exactly the one
:func:`studpoker.equity.exact.count` gives (the tests compare them); only the time differs.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import reduce
from itertools import combinations
from math import lcm

from ..engine import Variant
from ..evaluation import _tables
from .result import Tally
from .spot import Spot

__all__ = ["MAX_OUTCOMES", "count", "suitable"]

#: The most outcomes counted this way; larger spots go to :mod:`~studpoker.equity.exact` (at this size both take a
#: few milliseconds of work, and this way needs no NumPy).
MAX_OUTCOMES = 3_000

#: One completion: (bit mask of its cards, the deciding value, the eight-or-better low or 0).
Completion = tuple[int, int, int]


def _scale(spot: Spot) -> int:
    """Units of a pot in which every share of every outcome is whole: lcm(1..n), doubled for hi/lo's halves."""
    return reduce(lcm, range(1, spot.n + 1)) * (2 if spot.variant is Variant.STUD7_HL8 else 1)


def suitable(spot: Spot) -> bool:
    """Whether ``spot`` is small enough to count here."""
    return spot.outcomes <= MAX_OUTCOMES


def _evaluator(size: int, kind: str) -> Callable[[list[int]], int]:
    """A ``size``-card evaluator straight on the tables of :mod:`~studpoker.evaluation._tables` (their scalar
    form, read from the cache without NumPy), the same values as ``high_value``, ``low8_value`` and
    ``razz_value``, whatever those are compiled into."""
    scan, shift, rank_mask = _tables.scan, _tables.SUIT_SHIFT + 3, _tables.RANK_MASK
    table = _tables.scalar_table(size, kind)
    if kind != "high":
        return lambda cards: table[scan(cards) >> 3 & rank_mask]
    suits, flushes = _tables.flush_suits(size), _tables.flush_values()

    def value(cards: list[int]) -> int:
        packed = scan(cards)
        suit = suits[packed >> shift]
        if suit < 0:
            return table[packed >> 3 & rank_mask]
        mask = 0
        for c in cards:
            if c & 3 == suit:
                mask |= 1 << (c >> 2)
        return flushes[mask]

    return value


def _completions(spot: Spot, player: int) -> list[Completion]:
    known = [c.index for c in spot.known[player]]
    size = spot.variant.cards
    value = _evaluator(size, "razz" if spot.variant is Variant.RAZZ else "high")
    low = _evaluator(size, "low8") if spot.variant is Variant.STUD7_HL8 else None
    out = []
    for extra in combinations(spot.pool, spot.needs[player]):
        cards = known + list(extra)
        mask = 0
        for c in extra:
            mask |= 1 << c
        out.append((mask, value(cards), low(cards) if low is not None else 0))
    return out


def count(spot: Spot) -> Tally:
    """Count every outcome of ``spot`` (see the module docstring). With a community card to come, each possible
    community card is counted as a spot of its own (the card known, out of the pool) and the tallies added up:
    every community card is equally likely and each such spot has the same number of outcomes."""
    if spot.community_to_come:
        tally = Tally(spot.n, _scale(spot), plain=True)
        for card in spot.pool:
            tally.add(count(spot.with_community(card)))
        if tally.outcomes != spot.outcomes:
            raise AssertionError(f"counted {tally.outcomes} outcomes, the spot has {spot.outcomes}")
        return tally
    n, hilo = spot.n, spot.variant is Variant.STUD7_HL8
    tally = Tally(n, _scale(spot), plain=True)
    scale = tally.scale
    choices = [_completions(spot, p) for p in range(n)]
    win, tie, share, high, low = tally.win, tally.tie, tally.share, tally.high, tally.low
    outcomes = no_low = 0
    picked: list[Completion] = []

    def settle() -> None:
        nonlocal outcomes, no_low
        outcomes += 1
        best = max(c[1] for c in picked)
        highs = [p for p, c in enumerate(picked) if c[1] == best]
        best_low = max(c[2] for c in picked) if hilo else 0
        if not best_low:  # high-only games, or nobody has a qualifying low: the high hands take the pot
            each = scale // len(highs)
            for p in highs:
                share[p] += each
                if hilo:
                    high[p] += each
                if len(highs) == 1:
                    win[p] += 1
                elif not hilo:
                    tie[p] += 1
            no_low += hilo
            return
        lows = [p for p, c in enumerate(picked) if c[2] == best_low]
        high_each, low_each = scale // 2 // len(highs), scale // 2 // len(lows)
        for p in highs:
            high[p] += high_each
            share[p] += high_each
        for p in lows:
            low[p] += low_each
            share[p] += low_each
        if len(highs) == 1 and len(lows) == 1 and highs == lows:
            win[highs[0]] += 1

    def deal(player: int, used: int) -> None:
        if player == n:
            settle()
            return
        for completion in choices[player]:
            if not completion[0] & used:
                picked.append(completion)
                deal(player + 1, used | completion[0])
                picked.pop()

    deal(0, 0)
    tally.outcomes, tally.no_low = outcomes, no_low
    if outcomes != spot.outcomes:  # every outcome is counted once
        raise AssertionError(f"counted {outcomes} outcomes, the spot has {spot.outcomes}")
    return tally
