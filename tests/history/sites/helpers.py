"""What every room's tests share: read a file of ``../shared/data/sites/``, replay and check each hand, and
compare the outcome with the test's table of expected counts and refusals."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from studpoker.history import sites
from studpoker.history.model import HandRecord


@dataclass(frozen=True)
class Expected:
    """One file: the room it is detected as, how many hands replay with every amount matching, the games
    skipped (game: count), and the hands refused (hand id: a phrase the reason must contain)."""

    room: str
    replayed: int
    skipped: dict[str, int] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)


@dataclass
class Outcome:
    room: str
    records: list[HandRecord]
    skipped: dict[str, int]
    refused: dict[str, str]


def outcome(path: Path) -> Outcome:
    """Read ``path`` (room detected) and verify each hand."""
    room, hands = sites.load_each(path)
    records: list[HandRecord] = []
    skipped: dict[str, int] = {}
    refused: dict[str, str] = {}
    for hand in hands:
        if hand.skipped is not None:
            skipped[hand.skipped] = skipped.get(hand.skipped, 0) + 1
        elif hand.error is not None:
            refused[hand.error.hand or str(hand.number)] = str(hand.error)
        else:
            assert hand.record is not None
            try:
                sites.verify(hand.record)
            except sites.SiteError as error:
                refused[error.hand or str(hand.number)] = str(error)
            else:
                records.append(hand.record)
    return Outcome(room, records, skipped, refused)


def assert_file(data: Path, name: str, expected: Expected) -> Outcome:
    """The file ``name`` (under ``data/sites``) gives exactly what ``expected`` says."""
    return assert_path(data / "sites" / name, expected)


def assert_path(path: Path, expected: Expected) -> Outcome:
    """The file at ``path`` gives exactly what ``expected`` says."""
    found = outcome(path)
    assert found.room == expected.room
    assert found.skipped == expected.skipped
    assert set(found.refused) == set(expected.refused), found.refused
    for hand, phrase in expected.refused.items():
        assert phrase in found.refused[hand], (hand, found.refused[hand])
    assert len(found.records) == expected.replayed, found.refused
    return found
