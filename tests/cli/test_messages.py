"""Messages that used to mislead (issue 27, item 6): each says what the user typed and what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import stud

#: p2 folds to p1's bring-in: p1 wins. ``stud play`` names its player "You".
ONE_HAND = """variant = 'F7S'
antes = [1, 1]
bring_in = 3
small_bet = 10
big_bet = 20
starting_stacks = [100, 100]
players = ['You', 'Bob']
hand = 7
actions = ['d dh p1 AsKs2c', 'd dh p2 QdQc9h', 'p1 pb', 'p2 f']
finishing_stacks = [101, 99]
"""


def test_replay_says_you_win(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "session.phh"
    path.write_text(ONE_HAND, encoding="utf-8")
    code, out, _ = stud(capsys, "replay", path)
    assert code == 0 and "; You win 2; net: You +1, Bob -1" in out, out


def test_convert_into_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "session.phh"
    path.write_text(ONE_HAND, encoding="utf-8")
    folder = tmp_path / "out"
    folder.mkdir()
    code, _, err = stud(capsys, "convert", path, folder)
    assert code == 1 and f"{folder} is a directory: name the file to write, e.g. {folder / 'hands.phhs'}" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["serve", "--clock", "-5"], "stud serve: error: --clock must be more than 0 seconds, got -5.0\n"),
        (["serve", "--time-bank", "-1"], "stud serve: error: --time-bank must be 0 or more, got -1.0\n"),
        (
            ["equity", "As Kd", "Qh Qs", "--dead", "2c", "--dead", "2c"],
            "stud equity: error: 2c is named twice in the dead cards: a card can be in one place only\n",
        ),
        (["simulate", "--ante", "-1"], "--ante must be at least 1 (a whole number from 1 to 1000000000), got '-1'"),
        (["simulate", "--bring-in", "0"], "--bring-in must be at least 1"),
    ],
)
def test_the_option_is_named_as_typed(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = stud(capsys, *args)
    assert code == 2 and message in err and "/" not in err.split(":")[2], err


def test_saving_every_hand_names_the_sample_rate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--variant", "7stud", "--bots", "tag,tag", "--hands", "1e7"]
    code, _, err = stud(capsys, *args, "--save-histories", tmp_path / "h.phhs", "--workers", "1")
    assert code == 2 and err == (
        "stud simulate: error: saving every one of 10,000,000 hands (a sample rate of 1, the default) is more than"
        " 1,000,000 histories: lower the sample rate (--sample) to 0.1 or less\n"
    )


def test_create_user_without_a_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("fastapi")
    code, _, err = stud(capsys, "admin", "create-user", "floorman", "--db", tmp_path / "room.db")
    # pytest's standard input is not a terminal: nothing to ask on, and no password read from it
    assert code == 2 and err == (
        "stud admin: error: no terminal to ask the password on: give it on standard input with --password-stdin\n"
    )
