"""Shared test settings, and where the shared real hand histories are."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from hypothesis import settings

# A suite started in the background (``cmd &`` in a shell without job control) inherits SIGINT ignored, and so would
# every command a test starts: the Ctrl-C tests (tests/test_pool.py...) need it as a terminal gives it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Tables are built on first use, so the first example of a run may be slow: no deadline. The default
# profile is derandomized, so that CI runs the same examples every time; `pytest --hypothesis-profile=thorough`
# explores new random examples (2,000 for a test that sets no number of its own).
settings.register_profile("studpoker", deadline=None, max_examples=200, derandomize=True)
settings.register_profile("thorough", deadline=None, max_examples=2000)
settings.load_profile("studpoker")

#: ``$STUDPOKER_DATA``, or ``../shared/data`` next to the repository.
DATA = Path(os.environ.get("STUDPOKER_DATA", Path(__file__).resolve().parents[1] / ".." / "shared" / "data"))


def pytest_configure(config: pytest.Config) -> None:
    """Empty test-artifacts/ of the last run's screenshots, axe reports and failed tests' frames, once per run: in
    the one process, or in pytest-xdist's controller before its workers start (a worker emptying it would delete
    another's files); never in a run that only collects (tests/test_tiers.py runs some while the browser tests may
    be writing there)."""
    if hasattr(config, "workerinput") or config.option.collectonly:
        return
    artifacts = Path(__file__).resolve().parents[1] / "test-artifacts"
    for old in [*artifacts.glob("*.png"), *artifacts.glob("axe-*.json"), *artifacts.glob("frames-*.txt")]:
        old.unlink()


@pytest.fixture
def shared_data() -> Path:
    """The shared data folder; tests that need it skip, saying so, where it is absent."""
    if not DATA.is_dir():
        pytest.skip(f"the shared hand histories are not at {DATA} (set STUDPOKER_DATA)")
    return DATA
