"""``bench/load.py`` still runs against the room as it is: a few seconds on two tables, the books balanced after.

The bench writes its accounts and tables straight to the database and serves the room as ``stud serve`` does, so a
change to either (a new key column, a new uvicorn option) breaks it without any other test noticing; this one does.
The numbers it prints are not checked (speed targets live in the benchmark, not in tests).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

BENCH = Path(__file__).resolve().parents[2] / "bench" / "load.py"


def test_the_load_bench_runs_and_the_books_balance() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--tables", "2", "--seconds", "2", "--warmup", "1", "--procs", "1"],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,  # generous: a busy machine is slow, the run itself is a few seconds
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    assert "2 tables x 6 clients" in done.stdout and "ledger ok" in done.stdout, done.stdout
