"""run_match: chips conserved, rebuys counted, deterministic for a seed, statistics computed right."""

from __future__ import annotations

import math

import pytest

from studpoker.bots import CallingStation, MatchResult, RandomBot, TightAggressive, run_match
from studpoker.engine import Rules, Variant


def rules(variant: Variant = Variant.STUD7, **options: object) -> Rules:
    return Rules(variant, ante=1, bring_in=3, small_bet=10, big_bet=20, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("rotate", [False, True])
def test_chips_are_conserved_and_rebuys_counted(rotate: bool) -> None:
    small = rules(min_buy_in=20)
    bots = [RandomBot(seed=i) for i in range(4)] + [TightAggressive(seed=9)]
    result = run_match(small, bots, 300, seed=3, buy_in=20, rotate=rotate)  # short stacks: many rebuys
    assert result.hands == 300 and all(len(r) == 300 for r in result.net)
    assert all(sum(hand) == 0 for hand in zip(*result.net, strict=True))
    assert sum(result.rebuys) > 0
    for i in range(5):
        assert result.buy_in + result.rebuys[i] + result.total(i) == result.stacks[i]


def test_rotation_moves_the_bots() -> None:
    bots = [CallingStation(), CallingStation(), TightAggressive(seed=1)]
    still = run_match(rules(), bots, 40, seed=5)
    moving = run_match(rules(), bots, 40, seed=5, rotate=True)
    assert still.seats == moving.seats == (1, 2, 3)
    assert still.net[0][0] == moving.net[0][0]  # the first hand is dealt before any rotation
    assert still.net != moving.net


def test_deterministic_for_a_seed() -> None:
    def play(seed: int) -> MatchResult:
        bots = [TightAggressive(seed=1), RandomBot(seed=2), RandomBot(seed=3), CallingStation()]
        return run_match(rules(Variant.STUD7_HL8), bots, 120, seed=seed)

    assert play(11) == play(11)
    assert play(11).net != play(12).net


def test_statistics() -> None:
    result = MatchResult(
        names=("a", "b"),
        tags=("x", "y"),
        net=((20, -20, 40, 0), (-20, 20, -40, 0)),
        rebuys=(0, 0),
        seats=(1, 2),
        stacks=(240, 160),
        buy_in=200,
        big_bet=20,
        seed=0,
        rotate=False,
    )
    assert result.total(0) == 40 and result.bb_per_100(0) == pytest.approx(50.0)
    sd = math.sqrt(sum((x - 10) ** 2 for x in (20, -20, 40, 0)) / 3)  # chips per hand
    low, high = result.interval(0)
    assert (high - low) / 2 == pytest.approx(1.96 * 100 * sd / math.sqrt(4) / 20)
    assert result.interval(1) == pytest.approx((-high, -low))
    assert "bb/100" in result.summary().splitlines()[0]


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="at least two bots"):
        run_match(rules(), [CallingStation()], 10, seed=1)
    with pytest.raises(ValueError, match="do not fit"):
        run_match(rules(), [CallingStation() for _ in range(9)], 10, seed=1)
