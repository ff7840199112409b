"""The report table (tracker/report.py) and the graphs' numbers (tracker/graphs.py), on real imported hands and on
made-up rows; the names they rely on are checked against the counts and statistics, so that a change there shows
here."""

from __future__ import annotations

import csv
import io
import json
import random
import time
from dataclasses import astuple
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from studpoker.tracker import graphs
from studpoker.tracker.counts import COUNT_FIELDS, PlayerHand
from studpoker.tracker.report import (
    ALLIN_EV,
    BRING_IN_POSITION,
    DEFAULT_COLUMNS,
    NET,
    NET_BB,
    SHOWDOWN,
    STREET_REACHED,
    ReportError,
    build,
    column,
    csv_text,
    default_columns,
    json_document,
    shown,
    text_table,
)
from studpoker.tracker.stats import STATS, ratios
from studpoker.tracker.store import Filters, HandEntry, Store

from .helpers import HERO, imported


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return imported(tmp_path_factory.mktemp("report") / "hands.db")


# -- the contract -------------------------------------------------------------------------------------------------


def test_the_names_used_are_count_fields_and_statistics() -> None:
    for name in (NET, NET_BB, SHOWDOWN, ALLIN_EV, STREET_REACHED, BRING_IN_POSITION):
        assert name in COUNT_FIELDS
    for key in DEFAULT_COLUMNS:
        assert key in STATS or key in COUNT_FIELDS, key
    assert [col.key for col in default_columns()] == list(DEFAULT_COLUMNS)


def test_a_percentage_is_a_fraction_of_its_sums() -> None:
    totals = {name: 0.0 for name in COUNT_FIELDS}
    for stat in STATS.values():
        for name in (stat.numerator, stat.denominator):
            for field in () if name is None else (name,) if isinstance(name, str) else name:
                totals[field] = 3.0 if field == stat.numerator else 4.0
    values = ratios(totals)
    for key, stat in STATS.items():
        if stat.percent and stat.denominator is not None:
            above = sum(totals[n] for n in ((stat.numerator,) if isinstance(stat.numerator, str) else stat.numerator))
            below = sum(
                totals[n] for n in ((stat.denominator,) if isinstance(stat.denominator, str) else stat.denominator)
            )
            assert values[key] == pytest.approx(above / below), key


# -- columns and rows ---------------------------------------------------------------------------------------------


def test_a_column_is_named_by_key_or_label_in_any_case() -> None:
    assert column("VPIP").key == "vpip"
    assert column("bb/100").key == "bb100" and column("big bets / 100".replace("big bets / ", "bb/")).key == "bb100"
    assert column("NET").key == "net" and column("NET").stat is STATS["net"]  # a total: no denominator
    assert column("net_bb").stat is None  # a count field
    with pytest.raises(ReportError, match="no statistic 'vpipp': use one of vpip, "):
        column("vpipp")


def _row(player: str, hands: int, vpip: int, net: int, **groups: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"player": player, **groups} | {name: 0 for name in COUNT_FIELDS}
    row.update(hands=hands, vpip_chance=hands, vpip=vpip, net=net, net_bb=net / 10)
    return row


def test_rows_of_one_player_are_summed_filtered_and_sorted() -> None:
    rows = [
        _row("bob", 10, 5, 100),
        _row("amy", 30, 3, -60),
        _row("bob", 10, 1, 20),  # the same name in another room: one line
        _row("cat", 2, 2, 500),
    ]
    columns = [column("hands"), column("vpip"), column("net")]
    report = build(rows, columns, min_hands=5)
    assert [r.keys["player"] for r in report.rows] == ["amy", "bob"]
    bob = report.rows[1]
    assert bob.hands == 20 and bob.cells["vpip"].value == pytest.approx(0.3)
    assert (bob.cells["vpip"].numerator, bob.cells["vpip"].denominator) == (6, 20)
    by_net = build(rows, columns, sort=column("net"))
    assert [r.keys["player"] for r in by_net.rows] == ["cat", "bob", "amy"]
    by_af = build(rows, columns, sort=column("af"))  # no calls: no value, the names' order kept
    assert [r.keys["player"] for r in by_af.rows] == ["amy", "bob", "cat"]
    assert "af" in by_af.rows[0].cells and by_af.rows[0].cells["af"].value is None


def test_grouped_rows_keep_their_groups() -> None:
    rows = [_row("amy", 4, 1, 10, game="Razz"), _row("amy", 6, 3, -10, game="Stud hi/lo")]
    report = build(rows, [column("vpip")], by=("game",))
    assert [(r.keys["game"], r.hands) for r in report.rows] == [("Razz", 4), ("Stud hi/lo", 6)]


def test_values_are_shown_as_a_reader_expects() -> None:
    assert shown(column("vpip"), 0.2534) == "25.3%"
    assert shown(column("vpip"), None) == "-"
    assert shown(column("net"), -1234) == "-1,234"
    assert shown(column("net_bb"), 2.5) == "2.50"
    assert shown(column("af"), 2) == "2.00"


def test_the_three_forms_of_a_report() -> None:
    rows = [_row("amy", 30, 3, -60), _row("bob", 1000, 250, 12345)]
    report = build(rows, [column("hands"), column("vpip"), column("af"), column("net")])
    lines = text_table(report).splitlines()
    assert lines[0].split() == ["player", "hands", "VPIP", "AF", "Net"]
    assert lines[1].replace(" ", "").strip("-") == ""
    assert lines[3].split() == ["bob", "1,000", "25.0%", "-", "12,345"]
    assert len({len(line) for line in lines[1:]}) == 1  # numbers right-aligned under their headers
    document = json.loads(json.dumps(json_document(report, {"games": ["Razz"]})))
    assert document["filters"] == {"games": ["Razz"]}
    bob = document["rows"][1]
    assert bob["hands"] == 1000 and bob["values"]["net"]["value"] == 12345
    assert bob["values"]["vpip"] == {"value": 0.25, "numerator": 250, "denominator": 1000}
    assert bob["values"]["af"]["value"] is None
    assert document["columns"][1]["numerator"] == ["vpip"] and document["columns"][1]["percent"] is True
    table = list(csv.reader(io.StringIO(csv_text(report))))
    assert table == [
        ["player", "hands", "vpip", "af", "net"],
        ["amy", "30", "0.1", "", "-60"],
        ["bob", "1000", "0.25", "", "12345"],
    ]


# -- on real hands ------------------------------------------------------------------------------------------------


def test_totals_match_the_hands_stored(db: Path) -> None:
    with Store(db) as store:
        rows = store.totals()
        every = list(store.hands_of(Filters(), ["net"]))
        assert sum(row["hands"] for row in rows) == len(every)
        hero = list(store.hands_of(Filters(players=(HERO,)), ["net"]))
        report = build(rows, default_columns())
        line = next(r for r in report.rows if r.keys["player"] == HERO)
        assert line.hands == len(hero) > 40
        assert line.cells["net"].value == sum(net for (net,) in hero)
        assert sum(r.totals["net"] for r in report.rows) <= 0  # the rake
        games = build(store.totals(Filters(players=(HERO,)), by=("player", "game")), default_columns(), by=("game",))
        assert sum(r.hands for r in games.rows) == len(hero) and len(games.rows) >= 2


# -- the graphs' numbers ------------------------------------------------------------------------------------------


def _hero_hands(folder: Path, hands: list[dict[str, Any]]) -> Store:
    """A store of one-player hands of Hero, in this order, each with the counts given (door card ``door``)."""
    store = Store(folder / "graphs.db")
    entries = []
    for i, values in enumerate(hands):
        door = values.pop("door", "")
        row = astuple(PlayerHand(HERO, 1, door, **values))
        when = f"2025-01-01 12:{i // 60 % 60:02d}:{i % 60:02d}"
        entries.append(HandEntry("Test", str(i), "t", i, game="Razz", stakes="5/10", big_bet=10, played_at=when,
                                 table_size=8, rows=[row]))  # fmt: skip
    store.add(entries)
    return store


def test_winnings_curves(tmp_path: Path) -> None:
    # a won showdown, a lost all-in that was a favourite, a fold
    hands = [
        {"net_bb": 2.0, "showdown": 1, "allin_ev_bb": 2.0},
        {"net_bb": -5.0, "showdown": 1, "allin_ev_bb": 1.0},
        {"net_bb": -0.5, "showdown": 0, "allin_ev_bb": -0.5},
    ]
    with _hero_hands(tmp_path, hands) as store:
        w = graphs.from_store(store, "winnings", Filters(players=(HERO,)))
    assert isinstance(w, graphs.Winnings) and w.hands == 3 and list(w.x) == [0, 1, 2, 3]
    assert list(w.total) == [0.0, 2.0, -3.0, -3.5]
    assert list(w.showdown) == [0.0, 2.0, -3.0, -3.0]
    assert list(w.non_showdown) == [0.0, 0.0, 0.0, -0.5]
    assert list(w.expected) == pytest.approx([0.0, 2.0, 3.0, 2.5])  # the all-in at its equity: +1 BB


def test_a_long_curve_has_few_points(tmp_path: Path) -> None:
    n = 3 * graphs.POINTS + 7
    hands = [{"net_bb": 1.0, "showdown": i % 2, "allin_ev_bb": 1.0} for i in range(n)]
    with _hero_hands(tmp_path, hands) as store:
        w = graphs.from_store(store, "winnings", Filters(players=(HERO,)))
    assert isinstance(w, graphs.Winnings) and w.hands == n and len(w.x) <= graphs.POINTS + 2
    assert w.x[-1] == n and w.total[-1] == n and w.showdown[-1] == n // 2
    assert np.all(np.diff(w.x) > 0) and list(w.total) == [float(x) for x in w.x]


def test_a_name_in_two_rooms_is_one_player_and_the_curve_is_in_the_order_played(tmp_path: Path) -> None:
    """A name is a player per room in the store; a report of the name counts both rooms' hands, in the order
    played (the one-room case reads the index in order; two rooms are sorted)."""
    with Store(tmp_path / "rooms.db") as store:
        for i, (room, net) in enumerate((("A", 1.0), ("B", 10.0), ("A", 100.0))):
            row = astuple(PlayerHand(HERO, 1, "", net_bb=net, allin_ev_bb=net))
            store.add([HandEntry(room, str(i), "t", i, game="Razz", stakes="5/10", big_bet=10,
                                 played_at=f"2025-01-0{i + 1} 12:00:00", table_size=8, rows=[row])])  # fmt: skip
        both = graphs.from_store(store, "winnings", Filters(players=(HERO,)))
        one = graphs.from_store(store, "winnings", Filters(players=(HERO,), rooms=("A",)))
        nobody = graphs.from_store(store, "winnings", Filters(players=("nobody",)))
    assert isinstance(both, graphs.Winnings) and list(both.total) == [0.0, 1.0, 11.0, 111.0]
    assert isinstance(one, graphs.Winnings) and list(one.total) == [0.0, 1.0, 101.0]
    assert isinstance(nobody, graphs.Winnings) and nobody.hands == 0


def test_buckets_by_door_street_and_position(tmp_path: Path) -> None:
    hands: list[dict[str, Any]] = [
        {"door": "Th", "net_bb": 1.0, "allin_ev_bb": 1.0, "street_reached": 3, "bring_in_position": 0},
        {"door": "Ts", "net_bb": -1.0, "allin_ev_bb": -1.0, "street_reached": 7, "bring_in_position": 2},
        {"door": "As", "net_bb": 3.0, "allin_ev_bb": 3.0, "street_reached": 7, "bring_in_position": 2},
        {"door": "", "net_bb": 0.0, "allin_ev_bb": 2.0, "street_reached": 7, "bring_in_position": 0},
    ]
    hero = Filters(players=(HERO,))
    with _hero_hands(tmp_path, hands) as store:
        doors, streets, positions = (graphs.from_store(store, kind, hero) for kind in ("doors", "streets", "positions"))
    assert isinstance(doors, graphs.Buckets) and isinstance(streets, graphs.Buckets)
    assert isinstance(positions, graphs.Buckets)
    assert doors.labels[8] == "T" and doors.hands[8] == 2 and doors.net_bb[8] == 0.0
    assert doors.hands[12] == 1 and doors.unknown == 1 and graphs.hands_in(doors) == 4
    assert doors.per_100(doors.net_bb)[12] == 300.0 and np.isnan(doors.per_100(doors.net_bb)[0])
    assert streets.labels == ("3rd", "4th", "5th", "6th", "7th")
    assert list(streets.hands) == [1, 0, 0, 0, 3] and streets.expected_bb[4] == pytest.approx(4.0)
    assert positions.labels[:3] == ("bring-in", "+1", "+2") and list(positions.hands[:3]) == [2, 0, 2]


# -- how long a report and the graphs take on many hands (run this file: python -m tests.tracker.test_report) ---


def fill(store: Store, hands: int, seed: int = 1) -> None:
    """``hands`` made-up two-player hands of Hero against a villain, over a year of days."""
    rng = random.Random(seed)
    ranks = "23456789TJQKA"
    batch: list[HandEntry] = []
    for i in range(hands):
        rows = []
        net = rng.choice((-20, -10, -5, 0, 10, 25, 40))
        for name, sign in ((HERO, 1), ("Villain", -1)):
            values: dict[str, Any] = {"net": sign * net, "net_bb": sign * net / 10, "allin_ev": float(sign * net)}
            values["allin_ev_bb"] = sign * net / 10
            values |= {"showdown": int(rng.random() < 0.3), "street_reached": rng.randint(3, 7)}
            values |= {"bring_in_position": rng.randint(0, 6), "vpip": int(net != 0)}
            rows.append(astuple(PlayerHand(name, 1 + (sign < 0), rng.choice(ranks) + "s", **values)))
        day = f"2025-{1 + i * 12 // hands:02d}-{1 + i % 28:02d} 12:00:00"
        batch.append(
            HandEntry(
                "Bench",
                str(i),
                "bench",
                i,
                game="Razz",
                stakes="5/10",
                big_bet=10,
                played_at=day,
                table_size=8,
                rows=rows,
            )
        )
        if len(batch) == 20_000:
            store.add(batch)
            batch = []
    store.add(batch)


def bench(hands: int = 1_000_000, folder: Path = Path("/tmp")) -> dict[str, float]:
    """Seconds for a report and each graph over ``hands`` made-up hands (the database is kept for a second run)."""
    path = folder / f"studpoker-bench-{hands}.db"
    out: dict[str, float] = {}
    if not path.exists():
        start = time.perf_counter()
        with Store(path) as store:
            fill(store, hands)
        out["fill"] = time.perf_counter() - start
    with Store(path) as store:
        start = time.perf_counter()
        build(store.totals(), default_columns())
        out["report"] = time.perf_counter() - start
        for kind in graphs.KINDS:
            start = time.perf_counter()
            numbers = graphs.from_store(store, kind, Filters(players=(HERO,)))
            out[f"{kind} (numbers)"] = time.perf_counter() - start
            graphs.draw(kind, {HERO: numbers}, folder / f"studpoker-bench-{kind}.png")
            out[kind] = time.perf_counter() - start
    return out


def test_the_benchmark_runs(tmp_path: Path) -> None:
    seconds = bench(500, tmp_path)
    assert set(seconds) == {"fill", "report", *graphs.KINDS, *(f"{k} (numbers)" for k in graphs.KINDS)}


if __name__ == "__main__":  # pragma: no cover
    import sys

    for what, took in bench(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000).items():
        print(f"{what}: {took:.2f} s")
