"""``stud simulate --sit-and-go N``: the table of places and ROI, JSON, and a one-line error for every mistake."""

from __future__ import annotations

import json

import pytest

from ..cli.helpers import stud

BASE = ["simulate", "--bots", "tag,calling-station,random", "--seed", "3"]


def test_the_table_of_places_and_roi(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = stud(capsys, *BASE, "--sit-and-go", "3", "--hands-per-level", "5")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("3 sit-and-gos of 3 bots, Seven-card stud, turbo, 5 hands a level; buy-in 100, seed 3;")
    assert lines[2].split() == ["bot", "1st", "2nd", "3rd", "avg", "ROI"]
    assert [line.split()[0] for line in lines[3:6]] == ["1:tight-aggressive", "2:calling-station", "3:random"]
    assert lines[-1].startswith("3 sit-and-gos (") and lines[-1].endswith("on 1 process")


def test_json_is_the_same_from_the_same_seed(capsys: pytest.CaptureFixture[str]) -> None:
    documents = []
    for _ in range(2):
        code, out, err = stud(capsys, *BASE, "--sit-and-go", "2", "--variant", "razz", "--json")
        assert code == 0 and err.startswith("stud simulate: 2 sit-and-gos (")
        documents.append(out)
    assert documents[0] == documents[1]
    document = json.loads(documents[0])
    assert document["variant"] == "Razz" and document["sit_and_gos"] == 2 and document["seed"] == 3
    assert sum(bot["prizes"] for bot in document["bots"]) == 2 * 3 * 100
    assert set(document["bots"][0]) == {"name", "places", "average_place", "prizes", "roi"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sit-and-go", "0"], "--sit-and-go must be at least 1 (a whole number from 1 to 1,000,000), got '0'"),
        (["--sit-and-go", "2", "--hands", "10"], "--sit-and-go plays tournaments of the turbo structure: --hands does"),
        (["--sit-and-go", "2", "--duplicate", "--stakes", "5/10"], "--stakes, --duplicate do not apply"),
        (["--hands-per-level", "3"], "--hands-per-level is a sit-and-go's: give --sit-and-go N too"),
        (["--sit-and-go", "2", "--hands-per-level", "x"], "--hands-per-level takes a whole number from 1"),
    ],
)
def test_mistakes_are_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = stud(capsys, *BASE, *args)
    assert code == 2 and out == ""
    assert err.startswith("stud simulate: error: ") and message in err and err.count("\n") == 1


def test_bots_that_cannot_sit_together(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = stud(capsys, "simulate", "--bots", ",".join(["tag"] * 9), "--sit-and-go", "1")
    assert code == 2 and "9 bots: a seven-card stud table has 2 to 8 seats, got 9" in err
    code, _, err = stud(capsys, "simulate", "--bots", "tag,nobody", "--sit-and-go", "1")
    assert code == 2 and "unknown bot 'nobody'" in err
