"""``stud solve``: the table, the JSON, and one-line errors for every mistake in the question."""

from __future__ import annotations

import json

import pytest

from .helpers import stud as run

RANGES = ["(AKX),(AAX),(88X) Ah Kd 8c 3s", "(QXX):0.5,(99X) Qs Qd 9h 4c"]


def stud(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    return run(capsys, "solve", *args)


def test_the_table_says_what_was_solved_and_how_well(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = stud(capsys, *RANGES, "--pot", "60", "--bet", "20", "--dead", "2c 7h", "--limit", "3")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Seven-card stud, river: Ah Kd 8c 3s vs Qs Qd 9h 4c, dead 2c 7h; pot 60, bet 20, 3 raises"
    assert lines[1].startswith("Solved by DCFR in ")
    percent = float(lines[1].rsplit("chips, ", 1)[1].split("%")[0])
    assert percent <= 0.1
    assert "Player 2 first to act (reached 100.0%):" in out  # the pair of queens showing acts first
    assert "Player 1 after check (reached " in out and "Player 1 after bet (reached " in out


def test_json_has_every_hand(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = stud(
        capsys,
        *RANGES,
        "--pot",
        "60",
        "--bet",
        "20",
        "--raises",
        "none",
        "--stacks",
        "50",
        "70",
        "--json",
        "--method",
        "cfr+",
        "--first",
        "1",
        "--target",
        "0.5",
    )
    assert status == 0
    data = json.loads(out)
    assert data["method"] == "cfr+" and data["first"] == 1 and data["raises"] is None and data["stacks"] == [50, 70]
    assert data["exploitability"]["pot"] <= 0.005
    assert len(data["players"][0]["hand"]) == data["players"][0]["hands"]
    for node in data["nodes"]:
        assert all(len(row) == len(node["actions"]) for row in node["hands"])
        assert max(node["put"]) <= 70


def test_iterations_and_seconds_stop_it(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = stud(capsys, *RANGES, "--pot", "60", "--bet", "20", "--target", "0", "--iterations", "7", "--json")
    assert status == 0 and json.loads(out)["iterations"] == 7
    status, out, _ = stud(capsys, *RANGES, "--pot", "60", "--bet", "20", "--target", "0", "--seconds", "0.2", "--json")
    assert status == 0 and json.loads(out)["iterations"] < 10_000


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pot", "0", "--bet", "2"], "--pot must be at least 1"),
        (["--pot", "1e99", "--bet", "2"], "--pot must be at most 10**12"),
        (["--pot", "5", "--bet", "two"], "--bet takes a whole number"),
        (["--pot", "5", "--bet", "2", "--raises", "-1"], "--raises must be at least 0"),
        (["--pot", "5", "--bet", "2", "--raises", "none"], "give the stacks"),
        (["--pot", "5", "--bet", "2", "--target", "nan"], "--target takes a number from 0 to"),
        (["--pot", "5", "--bet", "2", "--seconds", "-1"], "--seconds takes a number"),
        (["--pot", "5", "--bet", "2", "--dead", "Ah"], "Ah is in player 1's up cards and in the dead cards"),
        (["--pot", "5", "--bet", "2", "--variant", "holdem"], "--variant must name a game"),
        (["--pot", "5", "--bet", "2", "--iterations", "0"], "--iterations must be at least 1"),
    ],
)
def test_a_mistake_is_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    status, out, err = stud(capsys, *RANGES, *args)
    assert status == 2 and out == ""
    assert err.startswith("stud solve: error: ") and message in err and err.count("\n") == 1, err


def test_a_range_mistake_points_at_it(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = stud(capsys, "(AKZ) Ah Kd 8c 3s", RANGES[1], "--pot", "5", "--bet", "2")
    assert status == 2 and "player 1's range: unknown rank 'Z'" in err
    status, _, err = stud(capsys, "(AKX) Ah Kd 8c", RANGES[1], "--pot", "5", "--bet", "2")
    assert status == 2 and "has 3 down and 3 up cards" in err


def test_sixth_street_and_the_river(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--street", "sixth", "(AA),(KK),(A8) Ah Kd 8c 3s", "(QQ),(99),(Q9) Qs Qd 9h 4c", "--pot", "60"]
    status, out, err = stud(capsys, *args, "--bet", "20", "--raises", "1", "--dead", "2c 7h", "--min-reach", "0")
    assert status == 0 and err == ""
    assert out.startswith("Seven-card stud, sixth street and the river: Ah Kd 8c 3s vs Qs Qd 9h 4c")
    assert "Player 2 after bet, call, the river card (reached " in out
    assert "left out" not in out  # --min-reach 0 shows every decision
    status, _, err = stud(capsys, *args, "--bet", "20", "--variant", "5stud")
    assert status == 2 and "sixth street is a street of the seven-card games" in err


def test_the_progress_bar_fills_as_the_exploitability_falls_to_the_target() -> None:
    from studpoker.cli.solve import _Shown

    shown = _Shown(0.001, 60)
    seen: list[tuple[int, int, str]] = []
    shown.bar.show = lambda done, total, info="": seen.append((done, total, info))  # type: ignore[method-assign]
    for iteration, percent in ((10, 1.0), (20, 0.1 * 10**0.5), (30, 0.1), (40, 0.05)):
        shown.update(iteration, 0.0, percent / 100 * 60)
    assert [done for done, _, _ in seen] == [0, 500, 1000, 1000]  # a log scale from the first measure to the target
    assert seen[1][2] == "iteration 20, 0.316% of the pot"
