"""A file of junk (issue 27, item 5): the errors are listed up to a bound and counted past it, and the readers keep
no traceback per hand (a traceback holds every frame it passed through: 1.26 GB for 50 MB of junk)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studpoker.cli.histories import MAX_LISTED
from studpoker.history import phh, pokerstars
from studpoker.history.sites import base

from .helpers import stud

HANDS = 3_000


def _junk_phhs() -> str:
    return "".join(f"[{i}]\ngarbage = line here\n" for i in range(1, HANDS + 1))


def _junk_pokerstars() -> str:
    return "".join(f"PokerStars Hand #{i}: 7 Card Stud junk\ngarbage\n\n\n" for i in range(1, HANDS + 1))


@pytest.mark.parametrize(("name", "text"), [("junk.phhs", _junk_phhs()), ("junk.txt", _junk_pokerstars())])
@pytest.mark.parametrize("command", ["replay", "convert"])
def test_a_file_of_junk_lists_a_bounded_number_of_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, command: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    args = [command, path] + ([tmp_path / "out.phhs"] if command == "convert" else [])
    code, out, err = stud(capsys, *args)
    lines = err.splitlines()
    assert code == 1 and len(lines) == MAX_LISTED + 1 + (command == "convert"), lines[-3:]
    assert lines[MAX_LISTED] == (
        f"stud {command}: error: {path}: and {HANDS - MAX_LISTED:,} more errors (the first {MAX_LISTED} are listed)"
    )
    if command == "replay":
        assert out == f"0 hands replayed; {HANDS:,} could not be read\n"
    else:
        assert lines[-1] == "stud convert: nothing written"
        assert sorted(tmp_path.iterdir()) == [path]  # neither the file nor the part written on the way


def test_the_readers_keep_no_traceback_per_hand() -> None:
    errors = [found for _, found in phh.loads_each(_junk_phhs())]
    errors += [found for _, found in pokerstars.loads_each(_junk_pokerstars())]
    assert len(errors) == 2 * HANDS and all(isinstance(e, ValueError) for e in errors)
    for error in errors:
        assert error.__traceback__ is None and error.__context__ is None and error.__cause__ is None


def test_a_room_reader_keeps_no_traceback_per_hand() -> None:
    class Broken:
        def __init__(self, lines: list[str], line: int) -> None:
            self.line = line

        def read(self) -> object:
            try:
                raise KeyError("inner")
            except KeyError:
                raise base.SiteError(f"hand at line {self.line} is junk") from None

    text = "HAND\njunk\n" * 50
    found = base.read_hands(text, range(0, 100, 2), Broken)  # type: ignore[arg-type]
    assert len(found) == 50
    for _, error in found:
        assert isinstance(error, base.SiteError)
        assert error.__traceback__ is None and error.__context__ is None


def test_replay_json_is_printed_a_hand_at_a_time_as_one_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], shared_data: Path
) -> None:
    """``--json`` prints each hand as it is replayed, not a list held to the end: the document is still
    ``json.dumps(..., indent=2)`` to the letter, for hands, errors, and none."""
    junk = tmp_path / "junk.txt"
    junk.write_text("".join(_junk_pokerstars().splitlines(keepends=True)[:8]), encoding="utf-8")  # 2 hands
    for args in ([shared_data / "pokerstars" / "7-Stud-USD-0.04-0.08-200911.txt", junk], [junk]):
        code, out, _ = stud(capsys, "replay", *args, "--json")
        document = json.loads(out)
        assert code == 1 and out == json.dumps(document, indent=2) + "\n"
        assert document["unreadable"] == 2 and len(document["hands"]) == (11 if len(args) == 2 else 0)
