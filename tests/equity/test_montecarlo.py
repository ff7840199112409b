"""Monte Carlo equity: reproducible for a seed whatever the workers, shares that add up, and answers within a few
standard errors of a brute-force enumeration in every game, for both samplers."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future
from functools import cache
from itertools import combinations
from math import comb, sqrt
from typing import Any

import numpy as np
import pytest

from studpoker.engine import Variant
from studpoker.equity import EquityError, Spot
from studpoker.equity import montecarlo as mc
from studpoker.equity.result import EquityResult, Tally
from studpoker.evaluation import high_value, low8_value, razz_value

HEADS_UP = ["As Ad 7c", "Kh Qh Jh"]  # third street, heads-up
DEAD = "2c 5d 9s"


@cache
def _brute(spot: Spot) -> dict[str, list[float] | float]:
    """Exact probabilities by dealing every outcome in plain Python with the scalar evaluators (larger is better):
    each player's expected pot share, high and low shares (hi/lo), win and tie chances, and the no-low chance."""
    n, hilo = spot.n, spot.variant is Variant.STUD7_HL8
    known = [[c.index for c in hand] for hand in spot.hands]

    def deals(p: int, left: tuple[int, ...]) -> Iterator[list[tuple[int, ...]]]:
        if p == n:
            yield []
            return
        for extra in combinations(left, spot.needs[p]):
            rest = tuple(c for c in left if c not in extra)
            for tail in deals(p + 1, rest):
                yield [extra, *tail]

    totals = {name: [0.0] * n for name in ("share", "high", "low", "win", "tie")}
    outcomes = no_low = 0
    for deal in deals(0, spot.pool):
        outcomes += 1
        hands = [known[p] + list(deal[p]) for p in range(n)]
        score = razz_value if spot.variant is Variant.RAZZ else high_value
        highs = [score(h) for h in hands]
        best = [p for p in range(n) if highs[p] == max(highs)]
        lows = [low8_value(h) for h in hands] if hilo else [0] * n
        low_best = [p for p in range(n) if lows[p] == max(lows)] if max(lows) > 0 else []
        no_low += not low_best
        half = 0.5 if low_best else 1.0
        for p in best:
            totals["high"][p] += half / len(best)
            totals["share"][p] += half / len(best)
        for p in low_best:
            totals["low"][p] += 0.5 / len(low_best)
            totals["share"][p] += 0.5 / len(low_best)
        if len(best) == 1 and (not low_best or low_best == best):
            totals["win"][best[0]] += 1
        if len(best) > 1 and not hilo:
            for p in best:
                totals["tie"][p] += 1
    out: dict[str, list[float] | float] = {name: [v / outcomes for v in vals] for name, vals in totals.items()}
    out["no_low"] = no_low / outcomes
    return out


def _se(p: float, trials: int) -> float:
    return sqrt(max(p * (1 - p), 0.0) / trials)


def _close(got: float, want: float, se: float | None, label: str) -> None:
    assert se is not None
    assert abs(got - want) <= 4 * se + 1e-9, f"{label}: {got:.5f} vs exact {want:.5f} (se {se:.5f})"


def _check_against_brute(spot: Spot, sampler: mc.Sampler, trials: int, seed: int) -> None:
    exact = _brute(spot)
    result = EquityResult.from_tally(spot, "montecarlo", mc.sample(spot, trials, seed=seed, sampler=sampler), 0, seed)
    hilo = spot.variant is Variant.STUD7_HL8
    for p, player in enumerate(result.players):
        assert isinstance(exact["share"], list) and isinstance(exact["win"], list)
        _close(player.equity, exact["share"][p], player.equity_se, f"equity {p}")
        _close(player.win, exact["win"][p], player.win_se, f"win {p}")
        if hilo:
            assert isinstance(exact["high"], list) and isinstance(exact["low"], list)
            assert player.high is not None and player.low is not None
            _close(player.high, exact["high"][p], player.high_se, f"high {p}")
            _close(player.low, exact["low"][p], player.low_se, f"low {p}")
        else:
            assert isinstance(exact["tie"], list) and player.tie is not None
            _close(player.tie, exact["tie"][p], _se(exact["tie"][p], trials), f"tie {p}")
    if hilo:
        assert isinstance(exact["no_low"], float) and result.no_low is not None
        _close(result.no_low, exact["no_low"], result.no_low_se, "no low")


# Small spots (each player needs at most one card) that a plain loop deals out completely, in every game.
SMALL = {
    "7stud": (["As Ad 7c 7d 2s 3h", "Kh Qh Jh Th 4c 4s"], "9h 8h"),
    "7stud8": (["As 2d 3c Kc Kd 9h", "4h 5h 6c Qs Qd 8c", "7s 7h 2c Td Jd 3s"], ""),
    "razz": (["As 2d 3c Kc 9h", "4h 5h 6c 8c Js 7s", "2s 3s 4s 5s 6s 7c 8d"], ""),
    "5stud": (["As Ad 7c 3d", "Kh Qh Jh Th", "9c 9d 4s 5s"], "2h"),
}


@pytest.mark.parametrize("sampler", ["completions", "shuffle"])
@pytest.mark.parametrize("variant", sorted(SMALL))
def test_agrees_with_brute_force(variant: str, sampler: mc.Sampler) -> None:
    hands, dead = SMALL[variant]
    spot = Spot.parse(variant, hands, dead)
    _check_against_brute(spot, sampler, 200_000, seed=7)


@pytest.mark.parametrize("sampler", ["completions", "shuffle"])
def test_heads_up_hilo_two_cards_each_against_brute_force(sampler: mc.Sampler) -> None:
    """Heads-up with two cards to come each (the completions sampler throws clashing trials away here)."""
    dead = "2c 2h 2s 3d 3h 3s 4c 4d 4s 5c 5d 5s 6c 6d Jh Jc Jd Js Tc Td Th"
    spot = Spot.parse("7stud8", ["As 2d 3c 9h Kd", "4h 5h Qc Qs 8d"], dead)
    assert mc._plan(spot, "completions").drop > 0
    _check_against_brute(spot, sampler, 200_000, seed=11)


def test_three_players_pick_again() -> None:
    """Three players with cards to come: the later players' clashing picks are picked again (no trial thrown)."""
    dead = "2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 5h 6c 6d 6h 7c 7d 7h 8c 8d 8h 9c 9d 9h Tc Td Th Jc"
    spot = Spot.parse("7stud", ["As Ad Ks Kd Qs 2s", "Ah Ac Kh Kc Qh 3s", "Jd Jh Js Qd Qc 4s"], dead)
    assert len(spot.pool) == 6  # 5s to Ts: picks clash often
    plan = mc._plan(spot, "completions")
    assert plan.drop == 0 and mc.choose_sampler(spot, 100_000) == "completions"
    _check_against_brute(spot, "completions", 100_000, seed=3)


@pytest.mark.parametrize("sampler", ["completions", "shuffle"])
def test_same_seed_same_answer_for_any_workers(sampler: mc.Sampler) -> None:
    spot = Spot.parse("7stud8", HEADS_UP, DEAD)
    trials = 2 * mc.CHUNK + 1234  # three chunks
    one = mc.sample(spot, trials, seed=42, sampler=sampler)
    again = mc.sample(spot, trials, seed=42, sampler=sampler)
    two = mc.sample(spot, trials, seed=42, workers=2, sampler=sampler)
    for other in (again, two):
        for name in ("win", "tie", "share", "high", "low", "share_sq", "high_sq", "low_sq"):
            assert np.array_equal(getattr(one, name), getattr(other, name)), name
        assert (other.outcomes, other.no_low) == (one.outcomes, one.no_low)
    different = mc.sample(spot, trials, seed=43, sampler=sampler)
    assert not np.array_equal(one.share, different.share)


def test_no_seed_draws_fresh_entropy() -> None:
    """Unseeded runs differ. Two runs of 10,000 trials give the same count about once in 170 (the counts' difference
    has a spread of about 70), so five runs are compared: all five equal by chance is about one in 10^9."""
    spot = Spot.parse("7stud", HEADS_UP, DEAD)
    counts = {tuple(mc.sample(spot, 10_000).share) for _ in range(5)}
    assert len(counts) > 1


def _assert_adds_up(tally: Tally, trials: int, hilo: bool) -> None:
    assert tally.outcomes == trials
    assert tally.share.sum() == pytest.approx(trials, rel=1e-12)
    assert np.all(tally.win <= tally.outcomes) and tally.win.sum() <= trials
    assert tally.share_sq is not None and np.all(tally.share_sq <= tally.share + 1e-9)
    if hilo:
        assert tally.high.sum() + tally.low.sum() == pytest.approx(trials, rel=1e-12)
        assert np.allclose(tally.high + tally.low, tally.share)
        assert tally.low.sum() == pytest.approx((trials - tally.no_low) / 2, rel=1e-12)
        assert not tally.tie.any()
    else:
        assert not tally.high.any() and not tally.low.any() and tally.no_low == 0
        # A win is worth the pot, a tie a part of it.
        assert np.all(tally.share >= tally.win) and np.all(tally.share <= tally.win + tally.tie)


@pytest.mark.parametrize("sampler", ["completions", "shuffle"])
@pytest.mark.parametrize("variant", ["7stud", "7stud8", "razz", "5stud"])
def test_shares_add_up_to_one_per_trial(variant: str, sampler: mc.Sampler) -> None:
    hands = ["As Ad", "Kh Qh", "2c 2d"] if variant == "5stud" else ["As 2d 3c", "Kh Qh Jh", "4c 5c 6c"]
    spot = Spot.parse(variant, hands)
    _assert_adds_up(mc.sample(spot, 50_000, seed=1, sampler=sampler), 50_000, variant == "7stud8")


@pytest.mark.parametrize("variant", ["7stud", "7stud8", "razz", "5stud"])
def test_suit_mirrored_hands_have_equal_equity(variant: str) -> None:
    """Swapping spades and hearts turns one hand into the other and leaves the dead cards as they are: 50-50."""
    hands = ["As 4s", "Ah 4h"] if variant == "5stud" else ["As 4s 7s", "Ah 4h 7h"]
    spot = Spot.parse(variant, hands, "Kc Kd 3c")
    result = EquityResult.from_tally(spot, "montecarlo", mc.sample(spot, 400_000, seed=5), 0, 5)
    for player in result.players:
        _close(player.equity, 0.5, player.equity_se, variant)
    if variant == "7stud8":
        first, second = result.players
        assert first.high is not None and second.high is not None and first.low is not None
        assert second.low is not None and first.high_se is not None and first.low_se is not None
        assert abs(first.high - second.high) <= 8 * first.high_se
        assert abs(first.low - second.low) <= 8 * first.low_se


def test_swapping_seats_swaps_the_answer() -> None:
    forward = Spot.parse("razz", ["As 2d 3c", "Kh Qh 7h", "4c 5c 6c"], DEAD)
    back = Spot.parse("razz", ["4c 5c 6c", "Kh Qh 7h", "As 2d 3c"], DEAD)
    a = EquityResult.from_tally(forward, "montecarlo", mc.sample(forward, 200_000, seed=1), 0, 1).players
    b = EquityResult.from_tally(back, "montecarlo", mc.sample(back, 200_000, seed=2), 0, 2).players
    for p, q in ((0, 2), (1, 1), (2, 0)):
        se = a[p].equity_se
        assert se is not None
        assert abs(a[p].equity - b[q].equity) <= 6 * se


def test_a_finished_hand_needs_no_cards() -> None:
    spot = Spot.parse("7stud", ["As Ad Ac 7d 7s 2c 3d", "Kh Qh Jh Th"], "Ah")  # only a straight flush beats him
    assert spot.needs == (0, 3)
    _check_against_brute(spot, "completions", 100_000, seed=9)
    _check_against_brute(spot, "shuffle", 100_000, seed=9)


def test_every_hand_finished() -> None:
    spot = Spot.parse("7stud8", ["As 2d 3c 4h 5s 6d Kc", "Ah 2h 3h 4c 5d Qd Qc"])  # a six-high straight, two wheels
    for sampler in ("completions", "shuffle"):
        tally = mc.sample(spot, 1000, seed=1, sampler=sampler)
        assert tally.win.tolist() == [0, 0] and tally.no_low == 0
        assert tally.high.tolist() == [500.0, 0.0] and tally.low.tolist() == [250.0, 250.0]


def test_a_hand_with_no_known_card() -> None:
    """A player with nothing known: both samplers (the completions one forced: 1.5 million completions) agree."""
    spot = Spot.parse("5stud", ["As Kd Qh", ""], "2c")
    assert spot.needs == (2, 5) and mc.choose_sampler(spot, 10**6) == "shuffle"  # the tables would take too long
    one = EquityResult.from_tally(spot, "montecarlo", mc.sample(spot, 200_000, seed=1, sampler="completions"), 0, 1)
    two = EquityResult.from_tally(spot, "montecarlo", mc.sample(spot, 200_000, seed=1, sampler="shuffle"), 0, 1)
    first, second = one.players[0], two.players[0]
    assert first.equity_se is not None and second.equity_se is not None
    assert abs(first.equity - second.equity) <= 4 * sqrt(first.equity_se**2 + second.equity_se**2)


def test_acceptance_and_the_choice_of_sampler() -> None:
    spot = Spot.parse("7stud", HEADS_UP, DEAD)
    assert mc.acceptance(spot) == pytest.approx((1.0, comb(39, 4) / comb(43, 4)))
    assert mc.choose_sampler(spot, 1_000_000) == "completions"
    assert mc.choose_sampler(spot, 1_000) == "shuffle"  # building the tables would take longer than the trials
    crowded = Spot.parse("7stud", ["As Ad 7c", "Kh Qh Jh", "9c 9d 2h", "5s 6s 7s", "Tc Jd Qd", "3h 3s 4c"])
    assert mc.choose_sampler(crowded, 10**7) == "shuffle"


def test_acceptance_is_the_chance_that_picks_fit() -> None:
    """Checked by counting: pairs of disjoint 2-card completions from a 6-card pool."""
    spot = Spot.parse(
        "5stud",
        ["As Kd Qh", "2c 3c 4c"],
        "5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d 8d 9d Td "
        "Jd Qd Ad 2h 3h 4h 5h 6h 7h 8h 9h Th Jh 2s 3s 4s 5s 6s 7s 8s 9s",
    )
    pool = spot.pool
    assert len(pool) == 6
    pairs = list(combinations(pool, 2))
    fit = sum(not set(a) & set(b) for a in pairs for b in pairs) / len(pairs) ** 2
    assert mc.acceptance(spot)[1] == pytest.approx(fit)


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_is_reported_per_chunk(workers: int) -> None:
    spot = Spot.parse("razz", HEADS_UP, DEAD)
    calls: list[tuple[int, int]] = []
    trials = mc.CHUNK + 10
    mc.sample(spot, trials, seed=1, workers=workers, progress=lambda done, total: calls.append((done, total)))
    assert sorted(calls) == [(10, trials), (trials, trials)] or calls == [(mc.CHUNK, trials), (trials, trials)]
    assert calls[-1] == (trials, trials)


def test_chunks_finished_together_are_each_reported() -> None:
    """On a busy machine two chunks can finish before the parent looks: each still counts as one report."""
    pending: dict[Future[Any], int] = {}
    for size, value in ((mc.CHUNK, 1), (10, 2)):
        future: Future[Any] = Future()
        future.set_result(np.full(3, value, dtype=np.int64))
        pending[future] = size
    counts = np.zeros(3, dtype=np.int64)
    assert sorted(mc._collect(pending, counts)) == [10, mc.CHUNK]
    assert not pending and counts.tolist() == [3, 3, 3]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"trials": 0}, "trials"),
        ({"workers": 0}, "workers"),
        ({"seed": -1}, "seed"),
        ({"sampler": "magic"}, "sampler"),
    ],
)
def test_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    spot = Spot.parse("7stud", HEADS_UP)
    args: dict[str, object] = {"trials": 100, **kwargs}
    with pytest.raises(EquityError, match=message):
        mc.sample(spot, **args)  # type: ignore[arg-type]


def test_results_from_the_public_api() -> None:
    from studpoker.equity import equity

    result = equity(HEADS_UP, dead=DEAD, method="montecarlo", trials=100_000, seed=3)
    assert result.method == "montecarlo" and result.outcomes == 100_000 and result.seed == 3
    assert sum(p.equity for p in result.players) == pytest.approx(1.0)
    assert result.players[0].equity == pytest.approx(0.6035, abs=0.006)  # AA7 vs KQJ suited, third street


# -- the heads-up path without NumPy (issue 27, item 13) --------------------------------------------------------

LEAN = mc._sample is not None and mc._kernel is not None  # the NumPy-free path needs both compiled kernels


@pytest.mark.parametrize("entropy", [0, 1, 7, 2**32 - 1, 2**32, 2**64 + 5, 2**127 + 3, 2**128 - 1])
@pytest.mark.parametrize("index", [0, 1, 38, 2**32 + 1])
def test_chunk_state_is_numpys_seed_sequence(entropy: int, index: int) -> None:
    expected = np.random.SeedSequence(entropy, spawn_key=(index,)).generate_state(4, np.uint64).tobytes()
    assert mc._chunk_state(entropy, index) == expected


LEAN_SPOTS = [
    ("7stud", ["As 2d 5c", "Kh Ks 4d"], "7c 9h Js Ts"),
    ("7stud8", ["As 2d 5c", "Kh Ks 4d"], "7c 9h Js Ts"),
    ("razz", ["As 2d 5c", "Kh Ks 4d"], "7c 9h"),
    ("5stud", ["As", "Kh"], "7c 9h Js Ts"),
    ("7stud", ["As Ad 7c 7h 2s", "Kh Qh Jh"], ""),  # one player with 2 cards to come, one with 4
]


@pytest.mark.parametrize(("variant", "hands", "dead"), LEAN_SPOTS, ids=[s[0] for s in LEAN_SPOTS])
def test_the_numpy_free_path_gives_the_same_answer(variant: str, hands: list[str], dead: str) -> None:
    spot = Spot.parse(variant, hands, dead)
    trials = 3 * mc.CHUNK + 999  # four chunks, four streams
    assert mc.choose_sampler(spot, trials) == "completions"
    if LEAN:
        plan = mc._plan(spot, "completions")
        assert tuple(mc._lean_entries(spot, p) for p in range(2)) == plan.entries
    lean = mc.sample(spot, trials, seed=3, plain=True)
    assert isinstance(lean.share, list) == LEAN  # it took the NumPy-free path if it could
    arrays = mc.sample(spot, trials, seed=3)
    assert isinstance(arrays.share, np.ndarray)
    a = EquityResult.from_tally(spot, "montecarlo", lean, 0, 3)
    b = EquityResult.from_tally(spot, "montecarlo", arrays, 0, 3)
    assert a == b


def test_plain_keeps_numpy_where_the_lean_path_does_not_apply() -> None:
    three = Spot.parse("7stud", ["As 2d 5c", "Kh Ks 4d", "Qd Jd 9d"], "")
    assert isinstance(mc.sample(three, 20_000, seed=1, plain=True).share, np.ndarray)
    heads_up = Spot.parse("7stud", HEADS_UP, DEAD)
    assert isinstance(mc.sample(heads_up, 20_000, seed=1, sampler="shuffle", plain=True).share, np.ndarray)
