"""``workers=None`` (the command line's default): every core for a long job, one process for a short one, and
the same answer either way."""

from __future__ import annotations

import os

import pytest

from studpoker.equity import EquityError, Spot, api, equity

SEVEN = ["As 2d 5c", "Kh Ks 4d", "Qd Jd 9d", "8c 8s 2h", "Ac 3c 6h", "Th Td 4s", "7s 7h 3d"]


@pytest.fixture
def four_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)


@pytest.mark.usefixtures("four_cores")
def test_long_jobs_get_every_core_and_short_ones_one() -> None:
    seven = Spot.parse("7stud", SEVEN)
    assert api.auto_workers(seven, "montecarlo", 10_000_000) == 4
    assert api.auto_workers(seven, "montecarlo", 100_000) == 1
    heads_up = Spot.parse("7stud", ["As 2d 5c", "Kh Ks 4d"], "7c 9h Js Ts")
    assert api.auto_workers(heads_up, "exact") == 1  # the sweep: one pass
    assert api.auto_workers(heads_up, "montecarlo", 1_000_000) == 1
    assert api.auto_workers(heads_up, "montecarlo", 100_000_000) == 4


def test_one_core_means_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert api.auto_workers(Spot.parse("7stud", SEVEN), "montecarlo", 100_000_000) == 1


@pytest.mark.slow
def test_auto_gives_the_same_answer_as_one_process() -> None:
    auto = equity(SEVEN, trials=3_000_000, seed=4, workers=None)
    one = equity(SEVEN, trials=3_000_000, seed=4, workers=1)
    assert [p.equity for p in auto.players] == [p.equity for p in one.players]


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2", True])
def test_bad_workers_are_refused(bad: object) -> None:
    with pytest.raises(EquityError, match="workers must be a positive whole number or None"):
        equity(SEVEN[:2], workers=bad)  # type: ignore[arg-type]
