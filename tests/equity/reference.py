"""A deliberately slow, obviously correct equity reference: every outcome dealt in plain Python loops.

Each player in turn takes every set of his missing cards from what is left of the pool (so the players' cards
are disjoint), the finished hands are valued with the scalar evaluators (``high_value``, ``low8_value``,
``razz_value``: larger is better in every one, a ``low8_value`` of 0 is no qualifying low), and the pot is
divided by the rules of the game:

* high-only games (seven-card stud, five-card stud, razz): the best hand takes the pot, tied best hands split it
  equally. ``win``: the one best hand; ``tie``: one of two or more tied best hands.
* stud hi/lo eight-or-better: half the pot to the best high hand and half to the best qualifying low (tied hands
  split their half equally); when no low qualifies the high hand takes the whole pot. ``win``: the whole pot
  alone (a scoop). ``no_low``: outcomes without a qualifying low.

Shares are kept as integers in units of ``1/scale`` of a pot with ``scale = 2 * lcm(1..n)``, which makes every
share of every outcome a whole number, so the totals are exact.

The community card (SPEC R8) is dealt here as the rules say, without the spot's own bookkeeping: a dealt one is
added to every hand, and one still to come is dealt after every player's own cards, each remaining card in turn,
and added to every hand (:func:`outcomes`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import lcm

import numpy as np

from studpoker.cards import Card
from studpoker.engine import Variant
from studpoker.equity.result import Tally
from studpoker.equity.spot import Spot
from studpoker.evaluation import high_value, low8_value, razz_value

__all__ = [
    "Exact",
    "deals",
    "exact_fractions",
    "numpy_tally",
    "outcomes",
    "reference_scale",
    "reference_tally",
    "settle",
]


def reference_scale(players: int) -> int:
    """Units of a pot in which every share of every outcome is a whole number: 2 * lcm(1, ..., players)."""
    return 2 * lcm(*range(1, players + 1))


def deals(pool: Sequence[int], needs: Sequence[int]) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every way to give player i ``needs[i]`` cards of ``pool``, no card to two players: one tuple per player."""
    if not needs:
        yield ()
        return
    first, rest = needs[0], needs[1:]
    for mine in combinations(pool, first):
        left = [c for c in pool if c not in mine]
        for others in deals(left, rest):
            yield (mine, *others)


def outcomes(spot: Spot) -> Iterator[list[list[int]]]:
    """Every outcome of ``spot`` as the players' finished hands (card indices), the community card included: each
    player gets his own missing cards (one fewer when the last street is a community card), then a community card
    still to come is each card left in turn."""
    size = spot.variant.cards
    shared = [spot.community.index] if isinstance(spot.community, Card) else []
    to_come = spot.community is True
    known = [[card.index for card in hand] for hand in spot.hands]
    seen = {c for hand in known for c in hand} | {card.index for card in spot.dead} | set(shared)
    pool = [c for c in range(52) if c not in seen]
    own = size - (1 if shared or to_come else 0)
    needs = [own - len(hand) for hand in known]
    for extra in deals(pool, needs):
        hands = [known[p] + list(extra[p]) + shared for p in range(len(known))]
        if not to_come:
            yield hands
            continue
        used = {c for part in extra for c in part}
        for card in pool:
            if card not in used:
                yield [[*hand, card] for hand in hands]


def settle(variant: Variant, hands: Sequence[Sequence[int]], scale: int) -> tuple[list[int], list[int], bool]:
    """One outcome: (each player's high share, each player's low share, in 1/scale pots; whether a low qualifies).

    High-only games put the whole share in the first list and zeros in the second."""
    n = len(hands)
    high_share, low_share = [0] * n, [0] * n
    if variant is Variant.RAZZ:
        values = [razz_value(list(hand)) for hand in hands]
    else:
        values = [high_value(list(hand)) for hand in hands]
    best = max(values)
    high_winners = [p for p in range(n) if values[p] == best]
    if variant is not Variant.STUD7_HL8:
        for p in high_winners:
            high_share[p] = scale // len(high_winners)
        return high_share, low_share, False
    lows = [low8_value(list(hand)) for hand in hands]
    best_low = max(lows)
    if best_low == 0:  # no qualifying low: the high hand takes the whole pot
        for p in high_winners:
            high_share[p] = scale // len(high_winners)
        return high_share, low_share, False
    low_winners = [p for p in range(n) if lows[p] == best_low]
    for p in high_winners:
        high_share[p] = scale // 2 // len(high_winners)
    for p in low_winners:
        low_share[p] = scale // 2 // len(low_winners)
    return high_share, low_share, True


def reference_tally(spot: Spot) -> Tally:
    """Every outcome of ``spot`` counted one by one (see the module docstring); ``scale = reference_scale(n)``."""
    n, scale = spot.n, reference_scale(spot.n)
    tally = Tally(n, scale)
    win, tie, share, high, low = [0] * n, [0] * n, [0] * n, [0] * n, [0] * n
    counted = no_low = 0
    for hands in outcomes(spot):
        assert all(len(hand) == spot.variant.cards for hand in hands)
        high_share, low_share, has_low = settle(spot.variant, hands, scale)
        counted += 1
        no_low += not has_low
        for p in range(n):
            total = high_share[p] + low_share[p]
            share[p] += total
            high[p] += high_share[p]
            low[p] += low_share[p]
            if total == scale:
                win[p] += 1
            elif spot.variant is not Variant.STUD7_HL8 and total > 0:
                tie[p] += 1
    if spot.variant is not Variant.STUD7_HL8:
        no_low = 0
    tally.outcomes, tally.no_low = counted, no_low
    for name, values in (("win", win), ("tie", tie), ("share", share), ("high", high), ("low", low)):
        getattr(tally, name)[:] = values
    return tally


@dataclass(frozen=True)
class Exact:
    """A tally as exact fractions: per player, the probability of a win (scoop) and of a tie, and the expected
    pot share in total and from the high and low hands; the probability of no qualifying low."""

    outcomes: int
    win: tuple[Fraction, ...]
    tie: tuple[Fraction, ...]
    share: tuple[Fraction, ...]
    high: tuple[Fraction, ...]
    low: tuple[Fraction, ...]
    no_low: Fraction


def exact_fractions(tally: Tally, *, hilo: bool) -> Exact:
    """The fractions a tally stands for, independent of its ``scale``. High-only games report their pot shares
    as ``high`` too (the whole pot goes to the high hand) and ``low`` as zero; ties are zero for hi/lo."""
    total, unit = tally.outcomes, tally.outcomes * tally.scale
    players = range(tally.players)
    share = tuple(Fraction(int(tally.share[p]), unit) for p in players)
    return Exact(
        outcomes=total,
        win=tuple(Fraction(int(tally.win[p]), total) for p in players),
        tie=tuple(Fraction(0) if hilo else Fraction(int(tally.tie[p]), total) for p in players),
        share=share,
        high=tuple(Fraction(int(tally.high[p]), unit) for p in players) if hilo else share,
        low=tuple(Fraction(int(tally.low[p]), unit) for p in players) if hilo else tuple(Fraction(0) for _ in players),
        no_low=Fraction(tally.no_low, total) if hilo else Fraction(0),
    )


def _completions(
    variant: Variant, known: Sequence[int], pool: Sequence[int], need: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every set of ``need`` cards of ``pool`` for one player (``itertools.combinations``), valued one by one with
    the scalar evaluators: (high or razz values, 8-or-better low values, card masks)."""
    rated = razz_value if variant is Variant.RAZZ else high_value
    high, low, bits = [], [], []
    for extra in combinations(pool, need):
        hand = [*known, *extra]
        high.append(rated(hand))
        low.append(low8_value(hand) if variant is Variant.STUD7_HL8 else 0)
        bits.append(sum(1 << c for c in extra))
    return np.array(high, dtype=np.int64), np.array(low, dtype=np.int64), np.array(bits, dtype=np.uint64)


def numpy_tally(spot: Spot) -> Tally:
    """The same count as :func:`reference_tally`, every outcome enumerated, vectorized with NumPy and sharing no
    code with ``studpoker.equity``: each player's completions come from ``itertools.combinations`` and are valued
    once with the scalar evaluators, the outcomes are every disjoint choice of one completion per player (built
    player by player, kept when the card masks do not overlap), and the pot is divided row by row. Quick enough
    for a few million outcomes; ``scale = reference_scale(n)``."""
    assert spot.community is False, "numpy_tally deals no community card: use reference_tally"
    n, scale, variant = spot.n, reference_scale(spot.n), spot.variant
    hilo = variant is Variant.STUD7_HL8
    valued = [
        _completions(variant, [c.index for c in hand], spot.pool, need)
        for hand, need in zip(spot.hands, spot.needs, strict=True)
    ]
    rows = [v[0] for v in valued]
    bits = [v[2] for v in valued]
    chosen = np.zeros((1, 0), dtype=np.int64)
    used = np.zeros(1, dtype=np.uint64)
    for p in range(n):
        before = np.repeat(np.arange(len(chosen)), len(rows[p]))
        mine = np.tile(np.arange(len(rows[p])), len(chosen))
        apart = (used[before] & bits[p][mine]) == 0
        before, mine = before[apart], mine[apart]
        chosen = np.column_stack([chosen[before], mine])
        used = used[before] | bits[p][mine]
    high = np.stack([valued[p][0][chosen[:, p]] for p in range(n)], axis=1)
    best = high == high.max(axis=1, keepdims=True)
    ways = best.sum(axis=1, keepdims=True)
    tally = Tally(n, scale)
    tally.outcomes = len(chosen)
    if not hilo:
        share = best * (scale // ways)
        tally.share[:] = tally.high[:] = share.sum(axis=0)
        tally.win[:] = (best & (ways == 1)).sum(axis=0)
        tally.tie[:] = (best & (ways > 1)).sum(axis=0)
        return tally
    lows = np.stack([valued[p][1][chosen[:, p]] for p in range(n)], axis=1)
    best_low = lows.max(axis=1, keepdims=True)
    has_low = best_low > 0
    low_best = (lows == best_low) & has_low
    low_ways = np.maximum(low_best.sum(axis=1, keepdims=True), 1)
    high_share = best * np.where(has_low, scale // 2 // ways, scale // ways)
    low_share = low_best * (scale // 2 // low_ways)
    tally.high[:] = high_share.sum(axis=0)
    tally.low[:] = low_share.sum(axis=0)
    tally.share[:] = tally.high + tally.low
    tally.win[:] = (high_share + low_share == scale).sum(axis=0)
    tally.no_low = int((~has_low).sum())
    return tally
