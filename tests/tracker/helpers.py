"""A small hand database for the tracker's tests: the PokerStars stud files kept under tests/history/wild."""

from __future__ import annotations

from pathlib import Path

from studpoker.tracker.importer import import_paths
from studpoker.tracker.store import Store

#: Real PokerStars stud, stud hi/lo and razz files (18 files, 91 hands readable, 1 refused).
FILES = Path(__file__).resolve().parents[1] / "history" / "wild" / "PokerStars"
#: The player with the most hands in them.
HERO = "Hero"


def imported(path: Path) -> Path:
    """A SQLite hand database at ``path`` holding :data:`FILES`, imported in this process."""
    with Store(path) as store:
        report = import_paths(store, [FILES], workers=1)
    assert report.added.imported > 50 and report.added.refused >= 1
    return path
