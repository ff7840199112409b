"""``bench/solve.py`` still runs against the solver as it is: one round of the razz spot, the LP check, the peer.

The bench calls ``solve``, ``RiverSpot.parse``, ``Solution``'s fields, ``solve_lp`` and ``toys.kuhn`` directly, so a
change to any of them breaks it without any other test noticing; this one does. Its checks (the two methods agree,
CFR matches the LP, OpenSpiel agrees with us on Kuhn poker) must pass; the seconds it prints are not checked
(speed targets live in the benchmark, not in tests).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "solve.py"


@pytest.mark.slow
def test_the_solve_bench_runs_and_its_checks_pass(tmp_path: Path) -> None:
    picture = tmp_path / "curve.svg"
    done = subprocess.run(
        [sys.executable, str(BENCH), "--quick", "--spot", "razz", "--plot", str(picture)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,  # generous: a busy machine is slow, the run itself is about ten seconds
    )
    out = done.stdout
    assert done.returncode == 0, out[-3000:] + done.stderr[-3000:]
    assert "CHECK FAILED" not in out, out
    assert "razz: Razz" in out and "methods agree on each range's EV" in out, out
    assert "convergence on razz" in out, out
    assert "(b) exact check" in out and "LP " in out, out
    assert "(c) peer" in out and ("OpenSpiel CFR+" in out or "skipped" in out), out
    assert picture.read_text().lstrip().startswith("<?xml"), "the plot is not an SVG"
