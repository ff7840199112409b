"""What every room's tests share: read a file of ``../shared/data/sites/``, replay and check each hand, and
compare the outcome with the test's table of expected counts and refusals."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from studpoker.history import sites
from studpoker.history.model import HandRecord
from studpoker.history.stated import StatedAction, StatedAmount


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


def said(record: HandRecord) -> object:
    """Every amount a record's file states (``info["stated"]``) without the lines that state them: a hand written
    again and read back says the same on other lines."""
    return _no_lines(dataclasses.asdict(record.info["stated"]))


def _no_lines(value: object) -> object:
    if isinstance(value, (StatedAmount, StatedAction)):
        return {k: getattr(value, k) for k in value.__match_args__ if k != "line"}
    if isinstance(value, dict):
        return {k: _no_lines(v) for k, v in value.items() if k != "line"}
    if isinstance(value, list):
        return [_no_lines(v) for v in value]
    return value
