"""Equity against ranges: players whose down cards are a :class:`~studpoker.equity.ranges.Range`.

A ranged player's known cards are his up cards; his down cards are one of the range's combinations, each with
its weight. Every other card is as in :mod:`~studpoker.equity.api`: unseen cards are equally likely to be anyone's
next card. So an assignment of down cards to the ranged players (no card twice, none of them visible) comes with
probability proportional to the product of its weights, and given it the rest of the deal is uniform; the number
of ways to deal the rest is the same for every assignment (each takes the same number of cards out of the deck),
so equity is the weight-averaged equity of the assignments.

* **Exact**: every assignment is counted exactly (by the sweep heads-up, the tuple counter otherwise) and the
  answers are averaged with their weights; used when the estimated time is at most :data:`EXACT_SECONDS`.
* **Monte Carlo**: each trial picks the ranged players' down cards by weight (the whole assignment again while two
  picks share a card), then deals the rest by the shuffle (:func:`studpoker.equity.montecarlo.sample`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from itertools import product
from typing import TYPE_CHECKING

from ..cards import Card
from ..engine import Variant
from .ranges import Range, is_range
from .result import EquityResult, PlayerEquity
from .spot import CommunityLike, EquityError, Spot, game_of

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["EXACT_SECONDS", "MAX_ASSIGNMENTS", "parse_hands", "range_equity"]

#: ``auto`` counts exactly when the estimate is at most this many seconds, and samples otherwise.
EXACT_SECONDS = 3.0
#: Exact counting enumerates at most this many assignments of down cards (``method="exact"`` included).
MAX_ASSIGNMENTS = 200_000
_SPOT_SECONDS = 4e-4  # what one exact count costs beyond its work (building the spot, listing completions)

Hand = str | Iterable[Card | str] | Range


def range_equity(
    hands: Sequence[Hand],
    *,
    variant: str | Variant = "7stud",
    dead: str | Iterable[Card | str] | None = (),
    community: CommunityLike = None,
    method: str = "auto",
    trials: int | None = None,
    seed: int | None = None,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    default_trials: int = 1_000_000,
) -> EquityResult:
    """Each player's equity when some hands are ranges (see the module docstring); the arguments are those of
    :func:`studpoker.equity.equity`, which calls this when a hand is a range."""
    start = time.perf_counter()
    base, ranges, combos = parse_hands(hands, variant, dead, community)
    if method == "auto":
        method = "exact" if trials is None and _exact_seconds(base, combos) <= EXACT_SECONDS else "montecarlo"
    if method == "exact":
        result = _exact(base, ranges, combos, workers, progress, start)
    else:
        result = _sample(base, ranges, combos, trials or default_trials, seed, workers, progress, start)
    return _with_counts(result, base, ranges)


def _with_counts(result: EquityResult, base: Spot, ranges: Sequence[Range | None]) -> EquityResult:
    """Card removal made visible: each ranged player's terms with how many combinations each has left beside every
    card in view (``PlayerEquity.range_counts``)."""
    import dataclasses

    visible = [c for hand in base.known for c in hand] + list(base.dead)
    players = tuple(
        player
        if r is None
        else dataclasses.replace(player, range_counts=tuple((str(term), n) for term, n in r.counts(visible)))
        for player, r in zip(result.players, ranges, strict=True)
    )
    return dataclasses.replace(result, players=players)


def parse_hands(
    hands: Sequence[Hand],
    variant: str | Variant = "7stud",
    dead: str | Iterable[Card | str] | None = (),
    community: CommunityLike = None,
) -> tuple[Spot, list[Range | None], list[list[tuple[tuple[Card, ...], float]] | None]]:
    """The question with ranges split out: the spot with each ranged player's up cards as his known cards, each
    player's range (None for known cards), and each range's combinations that use no card in view (with their
    weights). Every mistake is an :class:`EquityError`, worded as :func:`range_equity` words it."""
    game = game_of(variant)
    ranges: list[Range | None] = []
    known: list[str | Iterable[Card | str]] = []
    for i, hand in enumerate(hands, 1):
        if isinstance(hand, Range):
            if hand.variant is not game:
                raise EquityError(f"hand {i}: a range for {hand.variant.title}, in a {game.title} question")
            ranges.append(hand)
            known.append(hand.up)
        elif isinstance(hand, str) and is_range(hand):
            parsed = Range.parse(hand, game)
            ranges.append(parsed)
            known.append(parsed.up)
        else:
            ranges.append(None)
            known.append(hand)
    base = Spot.parse(game, known, dead, community)  # checks every visible card is in one place
    visible = [c for hand in base.known for c in hand] + list(base.dead)
    combos: list[list[tuple[tuple[Card, ...], float]] | None] = []
    for i, r in enumerate(ranges, 1):
        if r is None:
            combos.append(None)
            continue
        if r.down > base.needs[i - 1]:
            raise EquityError(f"hand {i}: {r.down} down cards and {len(r.up)} up cards are more than a hand holds")
        listed = r.combos(visible)
        if not listed:
            raise EquityError(f"hand {i}: no combination of {r.text!r} is left beside the cards in view")
        combos.append(listed)
    return base, ranges, combos


def _assignments(combos: Sequence[Sequence[tuple[tuple[Card, ...], float]] | None]) -> int:
    return math.prod(len(c) for c in combos if c is not None)


def _exact_seconds(base: Spot, combos: Sequence[Sequence[tuple[tuple[Card, ...], float]] | None]) -> float:
    """A rough estimate of an exact count: the assignments times the cost of one (its work, from one example)."""
    from . import exact, sweep

    count = _assignments(combos)
    if count > MAX_ASSIGNMENTS:
        return math.inf
    if _complete(base, combos):  # every hand complete once its down cards are known: one batch showdown
        return count * 2e-6
    example = None
    for tried, assignment in enumerate(product(*(c if c is not None else [(None, 1.0)] for c in combos))):
        cards = [card for down, _ in assignment if down is not None for card in down]
        if len(set(cards)) == len(cards):
            example = _assigned(base, [down for down, _ in assignment])
            break
        if tried > 10_000:
            break
    if example is None:  # no consistent assignment among the first ones: leave it to Monte Carlo
        return math.inf
    if sweep.suitable(example):
        each = sweep.work(example) / 1e9
    elif exact.feasible(example):
        each = exact.plan(example).work / 75e6
    else:
        return math.inf
    return count * (_SPOT_SECONDS + each)


def _assigned(base: Spot, downs: Sequence[tuple[Card, ...] | None]) -> Spot:
    """The spot with each ranged player's down cards added to his up cards."""
    hands = tuple(hand + down if down is not None else hand for hand, down in zip(base.hands, downs, strict=True))
    return Spot(base.variant, hands, base.dead, base.community)


def _exact(
    base: Spot,
    ranges: Sequence[Range | None],
    combos: Sequence[Sequence[tuple[tuple[Card, ...], float]] | None],
    workers: int,
    progress: Callable[[int, int], None] | None,
    start: float,
) -> EquityResult:
    """Every consistent assignment counted exactly, the answers averaged with the products of their weights."""
    from . import exact

    if _assignments(combos) > MAX_ASSIGNMENTS:
        raise EquityError(
            f"the ranges make {_assignments(combos):,} assignments of down cards, more than {MAX_ASSIGNMENTS:,}"
            " to count one by one: use Monte Carlo (--trials)"
        )
    n, hilo = base.n, base.variant is Variant.STUD7_HL8
    if _complete(base, combos):
        return _showdown(base, ranges, combos, start)
    choices = [c if c is not None else [(None, 1.0)] for c in combos]
    total_weight, outcomes, no_low = 0.0, 0, 0.0
    sums = {name: [0.0] * n for name in ("equity", "win", "tie", "high", "low")}
    count, done = _assignments(combos), 0
    for assignment in product(*choices):
        done += 1
        downs = [down for down, _ in assignment]
        cards = [c for down in downs if down is not None for c in down]
        if len(set(cards)) < len(cards):
            continue  # two ranged players would hold the same card
        weight = math.prod(w for _, w in assignment)
        spot = _assigned(base, downs)
        result = EquityResult.from_tally(spot, "exact", exact.count(spot))  # small counts: one process each
        total_weight += weight
        outcomes += result.outcomes
        for p, player in enumerate(result.players):
            for name, column in sums.items():
                value = getattr(player, name)
                if value is not None:
                    column[p] += weight * value
        if result.no_low is not None:
            no_low += weight * result.no_low
        if progress is not None and (done % 64 == 0 or done == count):
            progress(done, count)
    if total_weight <= 0:
        raise EquityError("the ranges have no assignment of down cards with no card twice (and a weight above 0)")
    players = tuple(
        PlayerEquity(
            hand=base.hands[p],
            equity=sums["equity"][p] / total_weight,
            win=sums["win"][p] / total_weight,
            tie=None if hilo else sums["tie"][p] / total_weight,
            high=sums["high"][p] / total_weight if hilo else None,
            low=sums["low"][p] / total_weight if hilo else None,
            range=ranges[p].text if ranges[p] is not None else None,  # type: ignore[union-attr]
        )
        for p in range(n)
    )
    return EquityResult(
        spot=base,
        method="exact",
        outcomes=outcomes,
        players=players,
        no_low=no_low / total_weight if hilo else None,
        seconds=time.perf_counter() - start,
    )


def _complete(base: Spot, combos: Sequence[Sequence[tuple[tuple[Card, ...], float]] | None]) -> bool:
    """Whether nothing is left to deal once the ranged players' down cards are known (the final board)."""
    if base.community_to_come:
        return False
    downs = [0 if c is None else len(c[0][0]) for c in combos]
    return all(need == down for need, down in zip(base.needs, downs, strict=True))


def _showdown(
    base: Spot,
    ranges: Sequence[Range | None],
    combos: Sequence[Sequence[tuple[tuple[Card, ...], float]] | None],
    start: float,
) -> EquityResult:
    """The final board: every consistent assignment's showdown at once, weighted. A ranged player's ``win`` is
    then the share of his range (by weight) that beats every other hand."""
    import numpy as np

    from ._deal import whole_values

    n, hilo = base.n, base.variant is Variant.STUD7_HL8
    choices = [c if c is not None else [((), 1.0)] for c in combos]
    rows: list[list[list[int]]] = [[] for _ in range(n)]
    weights: list[float] = []
    for assignment in product(*choices):
        cards = [c for down, _ in assignment for c in down]
        if len(set(cards)) < len(cards):
            continue
        weights.append(math.prod(w for _, w in assignment))
        for p, (down, _) in enumerate(assignment):
            rows[p].append([c.index for c in base.known[p] + down])
    if not weights or sum(weights) <= 0:
        raise EquityError("the ranges have no assignment of down cards with no card twice (and a weight above 0)")
    w = np.array(weights) / sum(weights)
    hands = [np.array(r, dtype=np.uint8) for r in rows]
    valued = [whole_values(base.variant, h) for h in hands]
    highs = np.stack([high for high, _ in valued], axis=1)
    at = highs == highs.max(axis=1, keepdims=True)
    m = at.sum(axis=1, keepdims=True)
    if hilo:
        lows = np.stack([low for _, low in valued if low is not None], axis=1)
        best_low = lows.max(axis=1, keepdims=True)
        at_low = (lows == best_low) & (best_low > 0)
        q = at_low.sum(axis=1, keepdims=True)
        has_low = q > 0
        high = np.where(has_low, 0.5, 1.0) * at / m
        low = np.where(has_low, 0.5 * at_low / np.maximum(q, 1), 0.0)
        win = at & (m == 1) & (~has_low | (at_low & (q == 1)))
        tie = None
    else:
        high, low = at / m, np.zeros_like(at, dtype=np.float64)
        win, tie = at & (m == 1), at & (m > 1)
    players = tuple(
        PlayerEquity(
            hand=base.hands[p],
            equity=float(w @ (high[:, p] + low[:, p])),
            win=float(w @ win[:, p]),
            tie=None if tie is None else float(w @ tie[:, p]),
            high=float(w @ high[:, p]) if hilo else None,
            low=float(w @ low[:, p]) if hilo else None,
            range=r.text if r is not None else None,
        )
        for p, r in enumerate(ranges)
    )
    no_low = float(w @ (q[:, 0] == 0)) if hilo else None
    return EquityResult(
        spot=base,
        method="exact",
        outcomes=len(weights),
        players=players,
        no_low=no_low,
        seconds=time.perf_counter() - start,
    )


def _sample(
    base: Spot,
    ranges: Sequence[Range | None],
    combos: Sequence[Sequence[tuple[tuple[Card, ...], float]] | None],
    trials: int,
    seed: int | None,
    workers: int,
    progress: Callable[[int, int], None] | None,
    start: float,
) -> EquityResult:
    """Monte Carlo with the ranged players' down cards picked by weight in every trial."""
    import dataclasses

    import numpy as np

    from . import montecarlo

    given: list[tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]] | None] = []
    for listed in combos:
        if listed is None:
            given.append(None)
            continue
        rows = np.array([[c.index for c in down] for down, _ in listed], dtype=np.uint8)
        given.append((rows, np.array([w for _, w in listed], dtype=np.float64)))
    tally = montecarlo.sample(base, trials, seed=seed, workers=workers, progress=progress, ranges=given)
    result = EquityResult.from_tally(base, "montecarlo", tally, time.perf_counter() - start, seed)
    players = tuple(
        dataclasses.replace(player, range=r.text if r is not None else None)
        for player, r in zip(result.players, ranges, strict=True)
    )
    return dataclasses.replace(result, players=players)
