"""The worked example, examples/train_razz_agent.py, on a few hundred hands: it trains, plays its greedy policy
as a bot against the calling station through run_match, and reports (the full run's result is in docs/rl.md)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_razz_agent.py"


def test_the_example_trains_and_evaluates(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("train_razz_agent", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # the dataclass looks its module up
    try:
        spec.loader.exec_module(module)
        outcome = module.main(["--hands", "300", "--eval-hands", "300", "--seed", "2"])
    finally:
        del sys.modules[spec.name]
    assert outcome.hands == 300 and outcome.result.hands == 300
    assert outcome.states > 10  # the abstraction's keys the learner visited
    assert sum(map(sum, outcome.result.net)) == 0
    report = capsys.readouterr().out
    assert "trained 300 hands" in report and "bb/100, 95% interval" in report
