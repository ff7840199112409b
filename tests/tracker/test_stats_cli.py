"""``stud stats``: the table in its three forms, the filters, the refused hands, the list of statistics, each graph
as PNG and SVG, and a one-line error with exit status 2 for each mistake."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from studpoker.tracker.graphs import KINDS
from studpoker.tracker.stats import STATS
from studpoker.tracker.store import Filters, Store

from ..cli.helpers import stud
from .helpers import HERO, imported

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return imported(tmp_path_factory.mktemp("stats") / "hands.db")


def _hero_hands(db: Path, **filters: object) -> int:
    with Store(db) as store:
        return sum(1 for _ in store.hands_of(Filters(players=(HERO,), **filters), ["net"]))  # type: ignore[arg-type]


def test_the_table(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = stud(capsys, "stats", "--db", db)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["player", "hands", "VPIP"] and lines[0].split()[-1] == "Net"
    hero = next(line for line in lines if line.startswith(f"{HERO} "))
    assert hero.split()[1] == str(_hero_hands(db))
    assert "refused at import: stud stats --refused lists them" in err


def test_json_and_csv(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = stud(capsys, "stats", "--db", db, "--player", HERO, "--by", "game", "--stat", "vpip", "--json")
    assert code == 0
    document = json.loads(out)
    assert document["by"] == ["game"] and document["filters"] == {"players": [HERO]}
    assert {row["player"] for row in document["rows"]} == {HERO}
    assert sum(row["hands"] for row in document["rows"]) == _hero_hands(db)
    vpip = document["rows"][0]["values"]["vpip"]
    assert set(vpip) == {"value", "numerator", "denominator"} and vpip["denominator"] == document["rows"][0]["hands"]
    code, out, _ = stud(capsys, "stats", "--db", db, "--csv", "--min-hands", 20, "--sort", "hands")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and rows and all(int(row["hands"]) >= 20 for row in rows)
    assert [int(r["hands"]) for r in rows] == sorted((int(r["hands"]) for r in rows), reverse=True)
    assert rows[0]["player"] == HERO


def test_filters(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = stud(capsys, "stats", "--db", db, "--player", HERO, "--game", "razz", "--json")
    razz = json.loads(out)["rows"]
    assert code == 0 and razz and razz[0]["hands"] == _hero_hands(db, games=("Razz",)) < _hero_hands(db)
    code, out, _ = stud(capsys, "stats", "--db", db, "--player", HERO, "--room", "pokerstars", "--json")
    assert json.loads(out)["rows"][0]["hands"] == _hero_hands(db)
    code, out, _ = stud(capsys, "stats", "--db", db, "--player", HERO, "--since", "2031-01-01", "--json")
    assert code == 0 and json.loads(out)["rows"] == []
    code, out, _ = stud(capsys, "stats", "--db", db, "--by", "stakes", "--by", "table_size", "--csv")
    assert code == 0 and out.splitlines()[0].startswith("player,stakes,table_size,hands,")


def test_refused_and_list_stats(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = stud(capsys, "stats", "--db", db, "--refused")
    assert code == 0 and "'of' is not a card" in out and "Triple-Stud" in out
    code, out, _ = stud(capsys, "stats", "--db", db, "--refused", "--json")
    assert json.loads(out)["refused"] == len(json.loads(out)["hands"]) >= 1
    code, out, _ = stud(capsys, "stats", "--list-stats")
    assert code == 0 and all(any(line.startswith(key + " ") for line in out.splitlines()) for key in STATS)
    code, out, _ = stud(capsys, "stats", "--list-stats", "--json")
    assert [entry["key"] for entry in json.loads(out)["stats"]] == list(STATS)


@pytest.mark.parametrize("kind", KINDS)
def test_each_graph_as_png_and_svg(db: Path, tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    png, svg = tmp_path / "g.png", tmp_path / "g.svg"
    code, out, err = stud(capsys, "stats", "--db", db, "--player", HERO, "--graph", png, "--kind", kind)
    assert (code, err) == (0, "") and f"{kind} of {HERO}" in out
    assert png.read_bytes().startswith(PNG)
    code, _, err = stud(
        capsys, "stats", "--db", db, "--player", HERO, "--player", "Player0", "--graph", svg, "--kind", kind
    )
    if kind == "matrix":  # a heat map of one player's results
        assert code == 2 and err == "stud stats: error: the door card and position matrix is drawn for one player\n"
        code, _, err = stud(capsys, "stats", "--db", db, "--player", HERO, "--graph", svg, "--kind", kind)
    assert (code, err) == (0, "")
    assert ET.parse(svg).getroot().tag == "{http://www.w3.org/2000/svg}svg"


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["--stat", "vpipp"], "no statistic 'vpipp': use one of vpip,"),
        (["--sort", "nope"], "no statistic 'nope'"),
        (["--since", "2024-13-01"], "--since takes a day as YYYY-MM-DD, got '2024-13-01'"),
        (["--until", "yesterday"], "--until takes a day as YYYY-MM-DD, got 'yesterday'"),
        (["--since", "2024-02-01", "--until", "2024-01-01"], "--since 2024-02-01 is after --until 2024-01-01"),
        (["--game", "holdem"], "--game takes 7stud, stud8, razz, 5stud, got 'holdem'"),
        (["--room", "Nowhere"], "--room 'Nowhere': the hand database has no such hands (it has PokerStars)"),
        (["--stakes", "3/7"], "--stakes '3/7': the hand database has no such hands (it has "),
        (["--player", "nobody"], "--player 'nobody': no such player in the hand database"),
        (["--table-size", "1"], "--table-size must be at least 2"),
        (["--by", "day"], "argument --by: invalid choice: 'day'"),
        (["--graph", "OUT.png"], "--graph draws one player's hands: name him with --player NAME"),
        (["--player", HERO, "--graph", "x.pdf"], "a graph is written as .png or .svg, got 'x.pdf'"),
        (["--player", HERO, "--graph", "/no/such/dir/x.png"], "cannot write the graph to /no/such/dir/x.png: there is"),
        (["--player", HERO, "--graph", "OUT.png", "--json"], "--graph draws a file: it does not take --json"),
        (["--player", HERO, "--kind", "doors"], "--kind chooses the graph: give --graph FILE.png too"),
        ([*(w for i in range(6) for w in ("--player", f"p{i}")), "--graph", "OUT.png"], "at most 5 players, got 6"),
        (["--json", "--csv"], "argument --csv: not allowed with argument --json"),
    ],
)
def test_each_mistake_is_one_line(
    db: Path, capsys: pytest.CaptureFixture[str], words: list[str], message: str, tmp_path: Path
) -> None:
    words = [str(tmp_path / w) if w == "OUT.png" else w for w in words]
    code, out, err = stud(capsys, "stats", "--db", db, *words)
    assert (code, out) == (2, "")
    assert err.startswith("stud stats: error: ") and message in err and err.count("\n") == 1, err


def test_a_missing_database_is_not_created(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none" / "hands.db"
    code, _, err = stud(capsys, "stats", "--db", missing)
    assert code == 2 and err == (
        f"stud stats: error: {missing}: no hand database there (it does not exist): import hands first with stud"
        " import FILES\n"
    )
    assert not missing.parent.exists()
    junk = tmp_path / "junk.db"
    junk.write_text("not a database\n" * 100)
    code, _, err = stud(capsys, "stats", "--db", junk)
    assert code == 2 and err.startswith(f"stud stats: error: {junk}: ") and err.count("\n") == 1


def test_the_database_sums_the_graphs_as_the_hands_add_up(db: Path) -> None:
    """The graphs' numbers come from the database's sums (running sums, groups); they equal the sums of the
    hands' rows read one by one."""
    import numpy as np

    from studpoker.tracker import graphs

    hero = Filters(players=(HERO,))
    with Store(db) as store:
        rows = list(store.hands_of(hero, ["net_bb", "showdown", "allin_ev_bb"]))
        line = graphs.from_store(store, "winnings", hero)
        assert isinstance(line, graphs.Winnings) and line.hands == len(rows) > 0
        assert line.x[-1] == len(rows) and line.x[0] == 0
        assert line.total[-1] == pytest.approx(sum(r[0] for r in rows))
        assert line.showdown[-1] == pytest.approx(sum(r[0] for r in rows if r[1]))
        assert line.expected[-1] == pytest.approx(sum(r[2] for r in rows))
        assert np.all(np.diff(line.x) > 0)
        cells = list(store.hands_of(hero, ["door_card", "bring_in_position", "net_bb"]))
        matrix = graphs.from_store(store, "matrix", hero)
        assert isinstance(matrix, graphs.Matrix) and graphs.hands_in(matrix) == len(rows)
        for (door, position), group in _grouped(cells, lambda r: (r[0][:-1].replace("10", "T"), r[1])).items():
            at = (graphs.RANKS.index(door), position)
            assert matrix.hands[at] == len(group) and matrix.net_bb[at] == pytest.approx(sum(r[2] for r in group))
        for kind, column in (("streets", "street_reached"), ("positions", "bring_in_position")):
            summed = graphs.from_store(store, kind, hero)
            assert isinstance(summed, graphs.Buckets) and summed.unknown == 0
            offset = 3 if kind == "streets" else 0
            for key, group in _grouped(store.hands_of(hero, [column, "net_bb"]), lambda r: r[0]).items():
                assert summed.hands[key - offset] == len(group)
                assert summed.net_bb[key - offset] == pytest.approx(sum(r[1] for r in group))


def _grouped(rows: Any, key: Any) -> dict[Any, list[Any]]:
    """The rows by ``key(row)``: the sums the database's groups must equal, worked out one row at a time."""
    out: dict[Any, list[Any]] = {}
    for row in rows:
        out.setdefault(key(row), []).append(row)
    return out
