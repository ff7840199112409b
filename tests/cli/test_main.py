"""The ``stud`` command line."""

import subprocess
import sys

import pytest

from .helpers import stud as run


def test_eval_high(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", "As", "Ad", "7c", "7h", "2s", "Kd", "9c")
    assert code == 0
    assert out == "High: Two pair, aces and sevens (As Ad 7h 7c Kd)\n"


def test_eval_lows_and_symbols(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", "A♠", "2♠", "3d", "4h", "5s", "8c", "--low8", "--razz", "--symbols")
    assert code == 0
    assert out.splitlines() == [
        "High: Straight, five high (5♠ 4♥ 3♦ 2♠ A♠)",
        "Low (8 or better): 5-4-3-2-A low (5♠ 4♥ 3♦ 2♠ A♠)",
        "Razz: 5-4-3-2-A low (5♠ 4♥ 3♦ 2♠ A♠)",
    ]
    code, out, _ = run(capsys, "eval", "AsAd7c7h2sKd9c", "--low8")
    assert out.splitlines()[1] == "Low (8 or better): none"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["As", "Ad", "7c", "7h", "2s", "Kd", "9x"], "'9x' is not a card"),
        (["As", "Ad", "7c", "7h"], "expected 5 or 6 or 7 cards, got 4"),
        (["As", "As", "7c", "7h", "2d"], "duplicate card As"),
    ],
)
def test_eval_errors_are_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = run(capsys, "eval", *args)
    assert code == 2 and out == ""
    assert err.startswith("stud eval: error: ") and message in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_console_script_entry_point() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "studpoker", "eval", "Kh", "Kd", "Ks", "7c", "7d"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "High: Full house, kings full of sevens (Ks Kh Kd 7d 7c)\n"
    result = subprocess.run([sys.executable, "-m", "studpoker"], capture_output=True, text=True, check=False)
    assert result.returncode == 2 and "Traceback" not in result.stderr
