"""``stud play`` on the command line: option errors in one line with exit status 2, the missing extra, saving."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from studpoker.cli import main
from studpoker.cli import play as play_cli
from studpoker.engine import Variant
from studpoker.tui import game as game_module


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--stakes", "10-20"], "--stakes takes SMALL/BIG, e.g. 10/20, got '10-20'"),
        (["--bring-in", "15"], "bring_in 15 must be at most small_bet 10"),
        (["--players", "9"], "--players must be 2 to 8 for 7stud, got 9"),
        (["--bots", "random,nobody"], "unknown bot 'nobody'"),
        (["--bots", "random,,random"], "--bots takes bot tags separated by commas"),
        (["--buy-in", "10"], "below the minimum buy-in of 200"),
        (["--delay", "-1"], "--delay must be zero or more seconds"),
        (["--auto-deal", "61"], "--auto-deal must be 0 to 60 seconds, got 61.0"),
        (["--auto-deal", "nan"], "--auto-deal must be 0 to 60 seconds, got nan"),
        (["--variant", "holdem"], "--variant must name a game, got 'holdem': use 7stud, 7stud8, 5stud or razz"),
    ],
)
def test_bad_options(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", *argv])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("stud play: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("name", ["razz", "RAZZ", "FR", "Razz"])
def test_any_name_of_the_game(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--variant`` takes every spelling Variant.parse does; the table is the same game."""
    made: list[game_module.Game] = []
    real_create = game_module.Game.create

    def create(options: game_module.PlayOptions) -> game_module.Game:
        made.append(real_create(options))
        raise game_module.SetupError("stop here")

    monkeypatch.setattr(game_module.Game, "create", staticmethod(create))
    with pytest.raises(SystemExit):
        main(["play", "--variant", name, "--bots", "random"])
    assert [game.table.rules.variant for game in made] == [Variant.RAZZ]
    made[0].close()


@pytest.fixture(autouse=True)
def a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The in-process tests replace the app's run; they have no terminal, which the command checks (tested apart)."""
    monkeypatch.setattr(play_cli, "has_terminal", lambda: True)


def test_textual_missing_is_one_line_before_any_import_of_it() -> None:
    """Without Textual (and rich, which it brings) the command says how to install it, in one line, exit 2."""
    code = (
        "import sys\n"
        "sys.modules['textual'] = sys.modules['rich'] = None  # as if neither were installed\n"
        "from studpoker.cli import main\n"
        "sys.exit(main(['play', '--bots', 'random']))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("stud play needs Textual, the terminal extra: pip install 'textual>=8.0' (")
    assert "pip install -e '.[tui]'" in result.stderr and result.stderr.count("\n") == 1 and result.stdout == ""


def test_no_terminal_is_refused_in_one_line(tmp_path: Path) -> None:
    """Output to a pipe (no terminal): one line, exit 2, no escape codes and no session file."""
    result = subprocess.run(
        [sys.executable, "-m", "studpoker", "play", "--bots", "random", "--save", str(tmp_path / "s.phhs")],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.startswith(b"stud play: error: the game needs a terminal, and standard input or output")
    assert result.stderr.count(b"\n") == 1 and b"\x1b" not in result.stderr
    assert not list(tmp_path.iterdir())


def test_session_saved_after_the_app(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("textual")
    pytest.importorskip("studpoker.history.session")
    from studpoker.history.session import load_session
    from studpoker.tui.app import StudApp

    def run(self: StudApp) -> None:  # instead of the terminal: deal a hand and stop in its middle
        self.game.deal()

    monkeypatch.setattr(StudApp, "run", run)
    path = tmp_path / "s.phhs"
    assert main(["play", "--seed", "3", "--bots", "calling-station", "--players", "3", "--save", str(path)]) == 0
    assert capsys.readouterr().out == f"Session saved to {path}\n"
    table = load_session(path)
    assert len(table.hands) == 1 and [s.name for s in table.occupied] == ["You", "Bob", "Cid"]


def test_nothing_played_nothing_saved(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("textual")
    from studpoker.tui.app import StudApp

    monkeypatch.setattr(StudApp, "run", lambda self: None)
    path = tmp_path / "s.phhs"
    assert main(["play", "--bots", "random", "--save", str(path)]) == 0
    assert "no session file" in capsys.readouterr().out
    assert not path.exists()


def test_the_command_line_does_not_load_textual() -> None:
    code = (
        "import sys\n"
        "from studpoker.cli import _parser\n"
        "_parser().parse_args(['play', '--seed', '1'])\n"
        "assert 'textual' not in sys.modules, 'textual imported'\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.stdout == "ok\n", result.stderr


def _unsaveable(tmp_path: Path) -> list[tuple[Path, str]]:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a directory\n")
    cases = [
        (Path("/nonexistent-dir/x.phhs"), "there is no directory /nonexistent-dir"),
        (tmp_path / "no" / "such" / "x.phhs", f"there is no directory {tmp_path / 'no' / 'such'}"),
        (a_file / "x.phhs", f"{a_file} is not a directory"),
        (tmp_path, f"it is a directory; name a file in it, e.g. {tmp_path / 'session.phhs'}"),
    ]
    if Path("/proc/self").is_dir():  # Linux: no file can be made in /proc, not even by root
        cases.append((Path("/proc/x.phhs"), "cannot write in /proc"))
    return cases


def test_a_save_path_that_cannot_be_written_is_refused_before_the_game(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("textual")
    from studpoker.tui.app import StudApp

    def run(self: StudApp) -> None:
        raise AssertionError("the game started")

    monkeypatch.setattr(StudApp, "run", run)
    for path, message in _unsaveable(tmp_path):
        with pytest.raises(SystemExit) as exit_info:
            main(["play", "--bots", "random", "--save", str(path)])
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith(f"stud play: error: cannot save the session to {path}: {message}"), err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_the_default_save_path_is_checked_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if not Path("/proc/self").is_dir():  # pragma: no cover - Linux has /proc
        return
    monkeypatch.chdir("/proc")  # the default file goes in the current directory, and /proc takes no file
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--bots", "random"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert re.fullmatch(
        r"stud play: error: cannot save the session to studpoker-session-\d{8}-\d{6}\.phhs: "
        r"cannot write in \. \(.+\)\n",
        err,
    ), err


def test_an_existing_session_file_may_be_named_and_the_check_leaves_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("textual")
    from studpoker.tui.app import StudApp

    monkeypatch.setattr(StudApp, "run", lambda self: None)
    path = tmp_path / "old.phhs"
    path.write_text("an older session\n")
    assert main(["play", "--bots", "random", "--save", str(path)]) == 0
    assert "no session file" in capsys.readouterr().out
    assert path.read_text() == "an older session\n"  # nothing played: not written, not even opened to truncate
    assert sorted(tmp_path.iterdir()) == [path]  # the directory's trial file is gone
