"""``stud simulate``: the tables, JSON without timing identical across workers, the plot, the histories, progress on
terminals only, Ctrl-C, and a one-line error for every mistake."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from studpoker.cli import simulate as cli_simulate
from studpoker.history import phh
from tests.processes import PATIENCE, alive, descendants, wait_until

from ..cli.helpers import stud

BASE = ["simulate", "--bots", "tag,calling-station", "--variant", "razz", "--seed", "3"]


def test_the_tables_by_bot_and_by_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = stud(capsys, *BASE, "--hands", "400", "--chunk", "200", "--workers", "1")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Razz (casino), ante 1, bring-in 3, 10/20; 2 bots, each hand from 100 big bets;")
    assert "400 hands (2 chunks of 200), seed 3" in lines[0]
    assert lines[2].split() == ["bot", "hands", "net", "bb/100", "SE", "95%", "interval"]
    assert lines[3].startswith("1:tight-aggressive") and lines[4].startswith("2:calling-station")
    assert any(line.startswith("seat 2 ") for line in lines)
    assert any(line.startswith("bb/100 by seat") for line in lines)
    assert lines[-1].startswith("400 hands in ") and lines[-1].endswith("hands/s on 1 process")


def test_duplicate_mode_reports_its_gain(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = stud(capsys, *BASE, "--hands", "401", "--duplicate", "--workers", "1")
    assert code == 0
    assert "402 hands (1 chunk), seed 3, duplicate: 201 deals x 2 rotations" in out
    row = next(line for line in out.splitlines() if line.startswith("1:tight-aggressive") and line.endswith("x"))
    assert float(row.split()[-1].rstrip("x")) > 0


def test_json_is_byte_identical_on_one_and_two_processes(capsys: pytest.CaptureFixture[str]) -> None:
    texts = []
    for workers, backend in (("1", "1 process"), ("2", "2 processes")):
        code, out, err = stud(capsys, *BASE, "--hands", "600", "--chunk", "200", "--workers", workers, "--json")
        assert code == 0
        assert err.startswith("stud simulate: 600 hands in ") and err.endswith(f"hands/s on {backend}\n")
        texts.append(out)
    assert texts[0] == texts[1]
    document = json.loads(texts[0])
    assert document["hands"] == 600 and document["spec"]["seed"] == 3 and document["duplicate"] is None
    assert [bot["name"] for bot in document["bots"]] == ["1:tight-aggressive", "2:calling-station"]
    bot = document["bots"][0]
    assert set(bot) == {"bot", "name", "tag", "hands", "net", "bb_per_100", "se", "ci95", "seats"}
    assert bot["ci95"][0] < bot["bb_per_100"] < bot["ci95"][1]
    assert document["curve"]["hands"] == [200, 400, 600] and len(document["curve"]["big_bets"][1]) == 3


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_the_plot_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (the [plot] extra)")
    target = tmp_path / f"curve{suffix}"
    code, out, err = stud(capsys, *BASE, "--hands", "300", "--chunk", "100", "--workers", "1", "--plot", target)
    assert code == 0, err
    assert f"plot written to {target}" in out
    data = target.read_bytes()
    if suffix == ".png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
    else:
        root = ElementTree.fromstring(data)
        assert root.tag.endswith("svg")


def test_histories_are_saved_and_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "hands.phhs"
    args = ["--hands", "200", "--workers", "1", "--save-histories", target, "--sample", "0.5", "--json"]
    code, out, err = stud(capsys, *BASE, *args)
    assert code == 0, err
    document = json.loads(out)
    records = phh.loads(target.read_text(encoding="utf-8"))
    assert document["histories"] == {"path": str(target), "hands": len(records)} and 60 < len(records) < 140
    assert document["sampled_hands"] == len(records)
    assert {record.players[0].split(":")[1] for record in records} == {"tight-aggressive", "calling-station"}


def test_an_external_bot_that_fails_is_one_line_and_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = stud(capsys, "simulate", "--bots", "tag,external:false", "--hands", "10", "--workers", "1")
    assert code == 1 and out == ""
    assert err.startswith("stud simulate: error: external bot 'false'") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "tag,foo"], "unknown bot 'foo'"),
        (["--bots", "tag"], "Seven-card stud seats 2 to 8 bots, got 1"),
        (["--bots", ",".join(["random"] * 9)], "seats 2 to 8 bots, got 9"),
        (["--bots", "tag,,random"], "--bots takes bot tags separated by commas"),
        (["--bots", "tag,external:/no/such/bot"], "there is no program '/no/such/bot'"),
        (["--bots", "tag,random", "--hands", "0"], "--hands must be at least 1"),
        (["--bots", "tag,random", "--hands", "1e11"], "--hands must be at most 10**10"),
        (["--bots", "tag,random", "--hands", "2.5"], "--hands takes a whole number"),
        (["--bots", "tag,random", "--chunk", "0"], "--chunk must be at least 1"),
        (["--bots", "tag,random", "--hands", "1e10", "--chunk", "100"], "use chunks of at least 10,000 hands"),
        (["--bots", "tag,random", "--workers", "0"], "--workers takes auto or a whole number"),
        (["--bots", "tag,random", "--workers", "many"], "--workers takes auto or a whole number"),
        (["--bots", "tag,random", "--variant", "holdem"], "--variant must name a game, got 'holdem'"),
        (["--bots", "tag,random", "--preset", "home"], "unknown preset 'home'"),
        (["--bots", "tag,random", "--stakes", "10"], "--stakes takes SMALL/BIG"),
        (["--bots", "tag,random", "--stakes", "10/5"], "big_bet 5 must be at least small_bet 10"),
        (["--bots", "tag,random", "--bring-in", "50"], "bring_in 50 must be at most small_bet 10"),
        (["--bots", "tag,random", "--seed", "-1"], "--seed must be at least 0"),
        (["--bots", "tag,random", "--sample", "0.5"], "--sample is the share of hands --save-histories keeps"),
        (["--bots", "tag,random", "--save-histories", "x.phhs", "--sample", "2"], "--sample takes a share"),
        (["--bots", "tag,random", "--save-histories", "x.txt"], "name a .phhs file"),
        (["--bots", "tag,random", "--save-histories", "/no/such/dir/h.phhs"], "there is no directory /no/such/dir"),
        (["--bots", "tag,random", "--save-histories", "folder.phhs"], "folder.phhs: it is a directory"),
        (["--bots", "tag,random", "--hands", "1e8", "--save-histories", "h.phhs", "--sample", "0.1"], "1,000,000"),
        (["--bots", "tag,random", "--plot", "curve.pdf"], "a plot is written as .png or .svg"),
        (["--bots", "tag,random", "--plot", "/no/such/dir/c.png"], "cannot write the plot"),
        (["--bots", "tag,random", "--ray", "127.0.0.1:1"], "cannot reach a Ray cluster at 127.0.0.1:1"),
        (["--variant", "razz"], "the following arguments are required: --bots"),
    ],
)
def test_every_mistake_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder.phhs").mkdir()
    code, out, err = stud(capsys, "simulate", *args)
    assert code == 2 and out == ""
    assert err.startswith("stud simulate: error: ") and message in err, err
    assert "Traceback" not in err and err.count("\n") == 1
    assert [p.name for p in tmp_path.iterdir()] == ["folder.phhs"]


def test_without_ray_or_matplotlib_the_error_says_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = stud(capsys, "simulate", "--bots", "tag,random", "--hands", "10", "--ray", "local")
    assert code == 2 and "--ray needs Ray, which is not installed: pip install 'ray>=2.60' (the [ray] extra; " in err
    code, _, err = stud(capsys, "simulate", "--bots", "tag,random", "--hands", "10", "--plot", "c.png")
    assert code == 2 and "plotting needs matplotlib, which is not installed" in err


class _Screen(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("use_rich", [False, True])
def test_progress_on_a_terminal_shows_rates_then_clears(use_rich: bool) -> None:
    screen = _Screen()
    progress = cli_simulate.Progress(screen, ["1:tight-aggressive", "2:random"], delay=0.0, use_rich=use_rich)
    progress(500, 1_000, (12.5, -12.5))
    if not use_rich:
        shown = screen.getvalue()
        assert "stud simulate:  50.0%" in shown and "500 hands" in shown and "bb/100 1:+12.5  2:-12.5" in shown
    progress.close()
    size = len(screen.getvalue())
    progress(1_000, 1_000, (0.0, 0.0))  # closed: nothing more
    assert len(screen.getvalue()) == size
    assert cli_simulate.open_progress(io.StringIO(), ["1:x"]) is None
    assert cli_simulate.open_progress(_Screen(), ["1:x"]) is not None


def test_the_command_shows_progress_on_a_terminal_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    screens: list[_Screen] = []

    def fake_open(stream: object, names: list[str]) -> cli_simulate.Progress:
        screens.append(_Screen())
        return cli_simulate.Progress(screens[-1], names, delay=0.0, use_rich=False)

    monkeypatch.setattr(cli_simulate, "open_progress", fake_open)
    code, _, _ = stud(capsys, *BASE, "--hands", "200", "--chunk", "100", "--workers", "1")
    assert code == 0 and len(screens) == 1 and "hands/s" in screens[0].getvalue()
    code, _, _ = stud(capsys, *BASE, "--hands", "200", "--chunk", "100", "--workers", "1", "--json")
    assert code == 0 and len(screens) == 1  # --json: no progress at all


def test_ctrl_c_stops_every_worker_cleanly(tmp_path: Path) -> None:
    target = tmp_path / "h.phhs"
    command = [sys.executable, "-m", "studpoker", *BASE, "--hands", "1e6", "--chunk", "500", "--workers", "2"]
    command += ["--save-histories", str(target), "--sample", "0.01"]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    # until the two workers (under the forkserver) run and the first chunk is in: the command is under way
    wait_until(lambda: len(descendants(process.pid)) >= 3, "the workers started", process)
    workers = descendants(process.pid)
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C does: the signal to the whole process group
    out, err = process.communicate(timeout=PATIENCE)
    wait_until(lambda: not any(alive(pid) for pid in workers), "the workers ended")
    assert process.returncode == 130 and out == ""
    assert err.startswith("stud simulate: interrupted after ") and err.endswith("hands: no result reported\n")
    assert "Traceback" not in err and err.count("\n") == 1
    assert not list(tmp_path.iterdir())  # neither the histories nor their partial file
