"""Monte Carlo against exact counting: agreement within 4 standard errors in every game, heads-up and multiway;
reproducible seeds; the same answers with two worker processes; and what ``method="auto"`` picks."""

from __future__ import annotations

from functools import cache
from math import sqrt

import pytest

from studpoker.engine import Variant
from studpoker.equity import EquityError, EquityResult, Spot, api, equity, exact, montecarlo

#: Spots whose exact count takes at most about a second and a half (heads-up third street in stud and razz is
#: the inclusion-exclusion fast path: about 1.8e10 outcomes).
SPOTS: list[tuple[str, tuple[str, ...], str]] = [
    ("7stud", ("As Ad 7c", "Kh Qh Jh"), ""),
    ("razz", ("As 2d 5c", "3h 4h Kc"), ""),
    ("7stud", ("Ah Kh 7h 2h 9c", "Qs Qd Jc Js 3d", "Tc 9d 8s 7d 2c"), "Jh 3h"),
    ("7stud", ("As Ad 7c 2h 9s 9d", "Kh Qh Jh 3c 3d 8h", "Tc Ts 5d 5s 6h 4c", "2c 2d 4s 8c 8d Qs"), ""),
    ("razz", ("As 2d 5c 8h 9s", "3h 4h Kc 6d Td", "Qs Qd 9c 7c 7s"), ""),
    ("razz", ("As 2d 5c 8h 9s Kd", "3h 4h Kc 6d Td 7d", "Qs Qd 9c 7c 7s 3s", "Ac 2c 3c 4c Jh Jd"), "5h"),
    ("7stud8", ("As 2d 5c 8h", "3h 4h Kc 6d"), ""),
    ("7stud8", ("As 2d 5c 8h 9s", "3h 4h Kc 6d Td", "Qs Qd 9c 7c 7s"), ""),
    ("7stud8", ("As 2s 3c 9d 9h", "Ad 2d 4c Kc Ks"), "5s 5h 3d"),
    ("7stud8", ("As 2d 5c 8h 9s Kd", "3h 4h Kc 6d Td 7d", "Qs Qd 9c 7c 7s 3s", "Ac 2c 3c 4c Jh Jd"), "5h"),
    ("5stud", ("As Kd", "Qh Qs"), ""),
    ("5stud", ("As Kd 4c", "Qh Qs 5d", "7c 8c 9c"), "Tc"),
    ("5stud", ("As Kd 4c Jd", "Qh Qs 5d 2h", "7c 8c 9c 3d", "2d 2s 3s 6h", "Td Th 4h 4s"), ""),
]
TRIALS = 200_000


@cache
def exact_result(variant: str, hands: tuple[str, ...], dead: str) -> EquityResult:
    return equity(list(hands), variant=variant, dead=dead, method="exact")


def bernoulli_se(p: float, trials: int) -> float:
    return sqrt(p * (1 - p) / trials)


def close(mc: float, truth: float, se: float | None, what: str) -> None:
    """Monte Carlo ``mc`` is within 4 standard errors of the exact ``truth``; an impossible or certain event is
    matched exactly."""
    assert se is not None, what
    if truth in (0.0, 1.0):
        assert mc == truth, what
        return
    assert se > 0, what
    assert abs(mc - truth) <= 4 * se, f"{what}: Monte Carlo {mc} vs exact {truth}, {abs(mc - truth) / se:.1f} se"


@pytest.mark.parametrize(("variant", "hands", "dead"), SPOTS)
def test_montecarlo_agrees_with_exact(variant: str, hands: tuple[str, ...], dead: str) -> None:
    truth = exact_result(variant, hands, dead)
    assert truth.method == "exact"
    assert truth.outcomes == Spot.parse(variant, hands, dead).outcomes
    mc = equity(list(hands), variant=variant, dead=dead, method="montecarlo", trials=TRIALS, seed=20240601)
    assert mc.method == "montecarlo"
    assert not mc.exact
    assert mc.outcomes == TRIALS
    assert mc.seed == 20240601
    hilo = variant == "7stud8"
    for p, (m, t) in enumerate(zip(mc.players, truth.players, strict=True)):
        assert m.hand == t.hand
        close(m.equity, t.equity, m.equity_se, f"player {p} equity")
        close(m.win, t.win, m.win_se, f"player {p} win")
        # the reported standard errors are those of the sampled quantities
        assert m.win_se == pytest.approx(bernoulli_se(t.win, TRIALS), rel=0.1, abs=1e-6)
        assert m.equity_se is not None
        assert m.equity_se <= 0.5 / sqrt(TRIALS - 1) + 1e-12  # a share is in [0, 1]: variance at most 1/4
        if hilo:
            assert m.tie is None
            assert t.high is not None and t.low is not None
            assert m.high is not None and m.low is not None
            close(m.high, t.high, m.high_se, f"player {p} high")
            close(m.low, t.low, m.low_se, f"player {p} low")
            assert m.equity == pytest.approx(m.high + m.low, abs=1e-12)
        else:
            assert t.tie is not None and m.tie is not None
            close(m.tie, t.tie, bernoulli_se(t.tie, TRIALS), f"player {p} tie")
            assert (m.high, m.low, m.high_se, m.low_se) == (None, None, None, None)
    assert sum(m.equity for m in mc.players) == pytest.approx(1.0, abs=1e-9)
    if hilo:
        assert truth.no_low is not None and mc.no_low is not None
        close(mc.no_low, truth.no_low, mc.no_low_se, "no low")
    else:
        assert mc.no_low is None


def test_spots_cover_every_game_heads_up_and_multiway() -> None:
    shapes = {(Spot.parse(v, h, d).variant, len(h) > 2) for v, h, d in SPOTS}
    assert shapes == {(variant, multiway) for variant in Variant for multiway in (False, True)}


def test_heads_up_third_street_is_the_exact_fast_path() -> None:
    for variant in ("7stud", "razz", "7stud8"):
        assert exact.feasible(Spot.parse(variant, ["As 2d 5c", "3h 4h Kc"]))
    # C(46, 4) * C(42, 4) deals, every one counted (and within 4 standard errors of Monte Carlo above)
    assert exact_result("7stud", ("As Ad 7c", "Kh Qh Jh"), "").outcomes == 163_185 * 111_930 == 18_265_297_050


# --- seeds and workers ------------------------------------------------------------------------------------------------


def test_same_seed_same_answer() -> None:
    hands = ["As 2d 5c 8h", "3h 4h Kc 6d", "Qs Qd 9c"]
    first = equity(hands, variant="7stud8", method="montecarlo", trials=30_000, seed=11)
    again = equity(hands, variant="7stud8", method="montecarlo", trials=30_000, seed=11)
    other = equity(hands, variant="7stud8", method="montecarlo", trials=30_000, seed=12)
    assert first.players == again.players
    assert first.no_low == again.no_low
    assert first.players != other.players
    assert first.seed == 11
    assert other.seed == 12


def test_seed_reproduces_every_sampler() -> None:
    spot = Spot.parse("razz", ["As 2d 5c", "3h 4h Kc", "7s 8s"])
    for sampler in ("completions", "shuffle"):
        one = montecarlo.sample(spot, 20_000, seed=5, sampler=sampler)
        two = montecarlo.sample(spot, 20_000, seed=5, sampler=sampler)
        assert one.win.tolist() == two.win.tolist()
        assert one.share.tolist() == two.share.tolist()


@pytest.mark.parametrize(
    ("variant", "hands"),
    [("7stud", ["As Ad 7c", "Kh Qh Jh"]), ("7stud8", ["As 2d 5c 8h", "3h 4h Kc 6d", "Qs Qd 9c 7c"])],
)
def test_montecarlo_two_workers_same_answer(variant: str, hands: list[str]) -> None:
    trials = 2 * montecarlo.CHUNK + 1_000  # three chunks: the workers share them
    one = equity(hands, variant=variant, method="montecarlo", trials=trials, seed=99, workers=1)
    two = equity(hands, variant=variant, method="montecarlo", trials=trials, seed=99, workers=2)
    assert one.players == two.players
    assert one.no_low == two.no_low
    assert one.outcomes == two.outcomes == trials


def test_exact_two_workers_same_tally() -> None:
    hands = ("As 2d 5c 8h 9s", "3h 4h Kc 6d Td", "Qs Qd 9c 7c 7s")  # three players: the chunked tuple counter
    spot = Spot.parse("razz", hands)
    chunks: list[int] = []
    two = exact.count(spot, workers=2, progress=lambda done, total: chunks.append(total))
    assert chunks and chunks[-1] > 1  # really split among the workers
    one = exact_result("razz", hands, "")
    assert two.outcomes == one.outcomes
    result = EquityResult.from_tally(spot, "exact", two)
    assert result.players == one.players


def test_exact_two_workers_same_tally_hilo() -> None:
    spot = Spot.parse("7stud8", ["As 2d 5c 8h", "3h 4h Kc 6d", "Qs Qd 9c 7c 7s Jd"])
    one, two = exact.count(spot, workers=1), exact.count(spot, workers=2)
    assert one.scale == two.scale
    assert (one.outcomes, one.no_low) == (two.outcomes, two.no_low)
    for name in ("win", "tie", "share", "high", "low"):
        assert getattr(one, name).tolist() == getattr(two, name).tolist(), name


# --- auto -----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "hands"),
    [
        ("7stud", ["As Ad Kc Kd 7h 7s", "Qs Js Ts 9s 3h 3d"]),
        ("razz", ["As 2d 5c 8h 9s", "3h 4h Kc 6d Td", "Qs Qd 9c 7c 7s"]),
        ("7stud8", ["As 2d 5c 8h", "3h 4h Kc 6d"]),
        ("5stud", ["As Kd", "Qh Qs"]),
    ],
)
def test_auto_counts_small_spots(variant: str, hands: list[str]) -> None:
    spot = Spot.parse(variant, hands)
    assert exact.feasible(spot)
    result = equity(hands, variant=variant)
    assert result.method == "exact"
    assert result.exact
    assert result.outcomes == spot.outcomes
    assert result.players == equity(hands, variant=variant, method="exact").players


@pytest.mark.parametrize(
    ("variant", "hands"),
    [
        ("7stud", ["As", "Kh", "Qd", "Jc", "Tc", "9d", "8h"]),  # seven players, one up card each
        ("7stud8", ["As", "Kh", "Qd", "Jc", "Tc", "9d", "8h"]),
        ("5stud", ["As", "Kh", "Qd", "Jc", "Tc", "9d", "8h", "7s"]),  # eight players
        ("razz", ["As 2d 5c", "3h 4h Kc", "Qs Qd 9c"]),  # three-way third street
    ],
)
def test_auto_samples_huge_spots(variant: str, hands: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    spot = Spot.parse(variant, hands)
    assert not exact.feasible(spot)
    monkeypatch.setattr(api, "DEFAULT_TRIALS", 20_000)  # the default million trials, made quick
    result = equity(hands, variant=variant, seed=3)
    assert result.method == "montecarlo"
    assert not result.exact
    assert result.outcomes == 20_000
    assert result.seed == 3
    assert sum(p.equity for p in result.players) == pytest.approx(1.0, abs=1e-9)
    assert all(p.equity_se is not None and p.equity_se > 0 for p in result.players)


def test_auto_with_trials_samples() -> None:
    result = equity(["As Ad Kc Kd 7h 7s", "Qs Js Ts 9s 3h 3d"], trials=5_000, seed=1)
    assert result.method == "montecarlo"
    assert result.outcomes == 5_000


def test_exact_refuses_what_it_cannot_hold() -> None:
    spot = Spot.parse("7stud", ["As", "Kh", "Qd", "Jc", "Tc", "9d", "8h"])
    with pytest.raises(EquityError, match=r"too large to count exactly \(198,761,898,.* outcomes\): use Monte Carlo"):
        equity(spot, method="exact")
