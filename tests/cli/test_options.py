"""The argument types shared by the commands: one rule for a seed in ``stud play`` and ``stud equity``, reported by
argparse while it parses, on one line."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from studpoker.cli import play as play_cli
from studpoker.cli.options import MAX_SEED, WholeNumber, seed

from .helpers import stud


@pytest.mark.parametrize(
    ("text", "value"),
    [("0", 0), ("7", 7), (" 7 ", 7), ("1_000", 1000), ("1,000", 1000), ("1e6", 10**6), (str(MAX_SEED), 2**63 - 1)],
)
def test_seed_spellings(text: str, value: int) -> None:
    assert seed(text) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("-1", "--seed must be at least 0 (a whole number from 0 to 2**63-1), got '-1'"),
        (str(2**63), f"--seed must be at most 2**63-1 = {MAX_SEED}, got '{2**63}'"),
        ("1e999999", "--seed must be at most 2**63-1 = 9223372036854775807, got '1e999999'"),
        ("1.5", "--seed takes a whole number from 0 to 2**63-1, got '1.5'"),
        ("seven", "--seed takes a whole number from 0 to 2**63-1, got 'seven'"),
        ("nan", "--seed takes a whole number from 0 to 2**63-1, got 'nan'"),
        ("inf", "--seed takes a whole number from 0 to 2**63-1, got 'inf'"),
    ],
)
def test_seed_refusals(text: str, message: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as error:
        seed(text)
    assert str(error.value) == message


def test_whole_number_names_its_option() -> None:
    workers = WholeNumber("--workers", 1, 64)
    assert workers("8") == 8
    with pytest.raises(argparse.ArgumentTypeError, match=r"^--workers must be at most 64, got '65'$"):
        workers("65")


COMMANDS = {
    "play": ["play", "--bots", "random"],
    "equity": ["equity", "As Ad 7c", "Kh Kd Qs", "--trials", "1000"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("text", ["-1", str(2**63), "1.5", "x"])
def test_both_commands_refuse_the_same_seeds_on_one_line(
    command: str, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = stud(capsys, *COMMANDS[command], "--seed", text)
    with pytest.raises(argparse.ArgumentTypeError) as expected:
        seed(text)
    assert code == 2 and out == ""
    assert err == f"stud {command}: error: {expected.value}\n"  # one line, no usage, no traceback


def test_both_commands_take_the_largest_seed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = stud(capsys, *COMMANDS["equity"], "--seed", str(MAX_SEED))
    assert code == 0 and f"seed {MAX_SEED}," in out
    pytest.importorskip("textual")
    from studpoker.tui.app import StudApp

    seeds: list[int | None] = []

    def run(self: StudApp) -> None:  # instead of the terminal: deal one hand with the seed given
        seeds.append(self.game.table.seed)
        self.game.deal()

    monkeypatch.setattr(StudApp, "run", run)
    monkeypatch.setattr(play_cli, "has_terminal", lambda: True)  # no terminal here: the app's run is replaced
    path = tmp_path / "s.phhs"
    code, out, _ = stud(capsys, *COMMANDS["play"], "--players", "3", "--seed", str(MAX_SEED), "--save", str(path))
    assert code == 0 and out == f"Session saved to {path}\n" and seeds == [MAX_SEED]


def test_other_argparse_errors_keep_their_usage_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = stud(capsys, "play", "--preset", "home")
    assert code == 2 and err.startswith("usage: stud play") and "invalid choice: 'home'" in err
    code, _, err = stud(capsys, "play", "--players", "many")
    assert code == 2 and err.startswith("usage: stud play") and "invalid int value: 'many'" in err


@pytest.mark.parametrize("name", ["7stud8", "STUD7_HL8", "stud7_hl8", "F7S/8", "Seven-card stud hi/lo", "stud8"])
def test_every_command_takes_any_name_of_the_game(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--variant`` of equity, simulate and play: one vocabulary (Variant.parse), given on as the short name."""
    code, out, err = stud(capsys, "equity", "--variant", name, "As Kd 7c 5h 4h 9s", "Qs Qd 2c 3c 8d Jh", "--json")
    assert code == 0, err
    assert '"variant": "STUD7_HL8"' in out
    simulate = ["simulate", "--variant", name, "--bots", "random,random", "--hands", "20", "--seed", "1"]
    code, out, err = stud(capsys, *simulate)
    assert code == 0, err
    assert "Seven-card stud hi/lo" in out


@pytest.mark.parametrize("command", ["equity", "simulate", "play"])
def test_an_unknown_game_is_one_line_with_the_names(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = stud(capsys, command, "--variant", "holdem", "As Kd", "Qs Qd")
    assert code == 2 and out == ""
    assert err == (
        f"stud {command}: error: --variant must name a game, got 'holdem': use 7stud, 7stud8, 5stud or razz"
        " (or a name such as STUD7_HL8, F7S or Razz)\n"
    )
