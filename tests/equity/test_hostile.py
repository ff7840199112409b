"""What a hostile or careless caller hands ``equity()``: every mistake is an ``EquityError`` saying what is wrong,
sizes are bounded, and exact counting neither starts more processes than it can use nor outlives Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from studpoker.cards import CARDS
from studpoker.equity import EquityError, Spot, equity, exact
from tests.processes import PATIENCE, alive, descendants, wait_until

E2 = ["As Ad 7c 7h 2s", "Kh Kd Qs Jc 9c", "8s 8d 4c 4h Th"]
SEVENTH = ["As Ad 7c 7h 2s Kd", "Kh Ks Qs Jc 9c 8h"]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: equity(["As", None]), "hand 2: expected cards as text"),
        (lambda: equity([5, "Kh"]), "hand 1: expected cards as text"),
        (lambda: equity(None), "hands must be a list of hands"),  # type: ignore[arg-type]
        (lambda: equity("AsKd"), "hands must be a list of hands"),
        (lambda: equity(["As Kd", "Qh"], dead=5), "the dead cards: expected cards as text"),  # type: ignore[arg-type]
        (lambda: equity(["As Kd", "Qh"], variant=["razz"]), "unknown game"),  # type: ignore[arg-type]
        (lambda: equity(["As", [1.5]]), "hand 2: expected a card"),  # type: ignore[list-item]
        (lambda: equity(["As"] * 100), "at most 64 hands"),
        (lambda: equity(["As" * 600, "Kh"]), "hand 1: 1,200 characters is not a hand"),
        (lambda: equity(SEVENTH, seed="x"), "seed must be a whole number"),  # type: ignore[arg-type]
        (lambda: equity(SEVENTH, seed=2**130), "seed must be a whole number"),
        (lambda: equity(SEVENTH, method="exact", trials=1000), "trials are for Monte Carlo"),
        (lambda: equity(["As Ad 7c", "Kh"], trials=2**70), "trials must be a whole number from 1 to"),
        (lambda: equity(SEVENTH, progress=5), "progress must be a function"),  # type: ignore[arg-type]
        (lambda: Spot.parse("7stud", ["As", "Kh"]).with_community(True), "the community card: expected a card"),
        (lambda: Spot.parse("7stud", ["As", "Kh"]).with_community(52), "the community card: expected a card"),
        (lambda: Spot("7stud", (("As",), ("Kh",))), "variant must be an engine Variant"),  # type: ignore[arg-type]
    ],
)
def test_mistakes_are_equity_errors(call: Any, message: str) -> None:
    with pytest.raises(EquityError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_no_dead_cards_may_be_none() -> None:
    assert equity(SEVENTH, dead=None).outcomes == equity(SEVENTH).outcomes


def test_nothing_to_deal_is_one_outcome_for_every_method() -> None:
    spot = Spot.parse("7stud", ["As Ad 7c 7h 2s Kd 3c", "Kh Ks Qs Jc 9c 8h 2d"])
    assert exact.count(spot).outcomes == 1
    every_card = Spot.parse("7stud", [CARDS[:7], CARDS[7:14]], CARDS[14:])  # no card left at all
    assert exact.count(every_card).outcomes == 1


def test_exact_counting_starts_no_more_processes_than_it_can_use(monkeypatch: pytest.MonkeyPatch) -> None:
    from concurrent import futures

    started: list[int] = []
    real = futures.ProcessPoolExecutor

    def spy(*args: Any, **kwargs: Any) -> futures.ProcessPoolExecutor:
        started.append(kwargs["max_workers"])
        return real(*args, **kwargs)

    monkeypatch.setattr(futures, "ProcessPoolExecutor", spy)
    result = equity(E2, dead="3c 5d 6s", method="exact", workers=64)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    assert result.outcomes == 121_041_360
    assert not started or max(started) <= cores


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals, /proc")
def test_ctrl_c_stops_an_exact_count_on_several_processes(tmp_path: Path) -> None:
    stud = Path(sys.executable).parent / "stud"
    command = [str(stud), "equity", "As Ad 7c", "Kh Kd Qs", "8s 8d 4c", "--exact", "--workers", "2"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    wait_until(lambda: len(descendants(process.pid)) >= 2, "the two workers started", process)
    workers = descendants(process.pid)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    try:
        _, err = process.communicate(timeout=PATIENCE)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail("stud equity --exact --workers 2 did not stop on Ctrl-C")
    assert process.returncode == 130 and err == b"stud equity: interrupted\n"
    wait_until(lambda: not any(alive(pid) for pid in workers), "the workers ended")
