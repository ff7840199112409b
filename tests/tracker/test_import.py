"""``stud import`` and the hand database: real files imported with every hand checked, refused hands kept with their
reason, a hand imported twice stored once, the daily sums equal to the hands' rows, a watched folder's new files.
The same tests run on PostgreSQL when ``STUDPOKER_TEST_POSTGRES`` names one (``make test-postgres``)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from studpoker.cli import main
from studpoker.tracker.counts import COUNT_FIELDS
from studpoker.tracker.importer import import_paths, watch
from studpoker.tracker.store import Filters, Store, StoreError

POSTGRES = os.environ.get("STUDPOKER_TEST_POSTGRES", "")
STARS = Path("pokerstars")
#: A real razz file of 9 hands, and one whose second hand breaks off (the file was cut short).
RAZZ = STARS / "Razz-USD-0.04-0.08-200911.txt"
CUT = Path("sites/Winning/cash/7-Stud-HL-8max-USD-1.00-2.00-201608.HH00000000 G0.txt")


@pytest.fixture(params=["postgresql"] if POSTGRES else ["sqlite"])  # make test: SQLite; make test-postgres: PostgreSQL
def where(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new hand database: a SQLite file, or a PostgreSQL database made for the test and dropped after it."""
    if request.param == "sqlite":
        yield str(tmp_path / "hands.db")
        return
    import psycopg

    admin = POSTGRES.replace("postgresql+psycopg://", "postgresql://", 1)
    name = "studpoker_tracker_" + hashlib.sha1(str(tmp_path).encode()).hexdigest()[:12]
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    yield admin.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def hands_in(path: Path) -> int:
    return len(re.findall(r"^PokerStars (?:Hand|Game) #", path.read_text(encoding="utf-8-sig"), re.MULTILINE))


def test_a_real_file_is_imported_once(where: str, shared_data: Path) -> None:
    razz = shared_data / RAZZ
    with Store(where) as store:
        first = import_paths(store, [razz], workers=1)
        assert (first.added.imported, first.added.refused, first.added.duplicates) == (hands_in(razz), 0, 0)
        again = import_paths(store, [razz], workers=1)
        assert (again.added.imported, again.added.duplicates) == (0, hands_in(razz))
        assert store.counts() == {"imported": hands_in(razz), "refused": 0}
        [game] = store.choices()["game"]
        assert game == "Razz" and store.choices()["stakes"] == ["$0.04/$0.08"]
        # the daily sums and the hands' rows count the same seats dealt
        seats = sum(row["hands"] for row in store.totals())
        assert seats == len(list(store.hands_of(Filters(), ("hands",)))) > hands_in(razz)
        assert store.totals(Filters(games=("Seven-card stud",))) == []


def test_the_daily_sums_are_the_sums_of_the_hands(where: str, shared_data: Path) -> None:
    """player_days is kept as hands are added: it must equal player_hands summed, for every count."""
    with Store(where) as store:
        import_paths(store, [shared_data / "pokerstars", shared_data / "sites" / "FTP"], workers=1)
        for total in store.totals(by=("player", "room")):  # a name is a player of one room
            mine = Filters(players=(total["player"],), rooms=(total["room"],))
            rows = list(store.hands_of(mine, COUNT_FIELDS))
            for i, name in enumerate(COUNT_FIELDS):
                assert sum(row[i] for row in rows) == pytest.approx(total[name]), (total["player"], name)


def test_refused_hands_are_stored_with_their_reason(where: str, shared_data: Path, tmp_path: Path) -> None:
    cut = shared_data / CUT
    with Store(where) as store:
        report = import_paths(store, [cut], workers=1)
        assert report.added.refused == 1 and report.added.imported >= 1
        [refused] = store.refused()
        assert refused["room"] == "Winning Poker Network" and refused["source"] == str(cut)
        assert "breaks off" in refused["reason"] and refused["line"] == 95


def test_a_hand_refused_while_its_file_was_written_is_replaced_when_it_reads(
    where: str, shared_data: Path, tmp_path: Path
) -> None:
    text = (shared_data / RAZZ).read_text(encoding="utf-8-sig")
    last = max(m.start() for m in re.finditer(r"^PokerStars (?:Hand|Game) #", text, re.MULTILINE))
    half = text[: text.index("*** SUMMARY ***", last)]
    growing = tmp_path / "growing.txt"
    growing.write_text(half, encoding="utf-8")
    with Store(where) as store:
        first = import_paths(store, [growing], workers=1)
        assert first.added.refused == 1
        growing.write_text(text, encoding="utf-8")
        second = import_paths(store, [growing], workers=1)
        assert second.added.imported == 1 and store.counts() == {"imported": hands_in(growing), "refused": 0}


def test_a_folder_on_every_core(where: str, shared_data: Path, tmp_path: Path) -> None:
    """Two reading processes give what one gives."""
    folder = shared_data / "pokerstars"
    with Store(where) as store:
        many = import_paths(store, [folder], workers=2)
    with Store(tmp_path / "one.db") as one:
        single = import_paths(one, [folder], workers=1)
        assert many.as_dict() | {"seconds": 0} == single.as_dict() | {"seconds": 0}
        assert sorted(map(str, one.totals())) == sorted(map(str, Store(where).totals()))


def test_a_watched_folder_takes_new_files(where: str, shared_data: Path, tmp_path: Path) -> None:
    folder = tmp_path / "watched"
    folder.mkdir()
    stop = threading.Event()
    rounds: list[int] = []
    with Store(where) as store:
        thread = threading.Thread(
            target=watch,
            args=(store, [folder]),
            kwargs={"interval": 0.1, "stop": stop.is_set, "on_import": lambda r: rounds.append(r.added.imported)},
        )
        thread.start()
        try:
            shutil.copy(shared_data / RAZZ, folder / "razz.txt")
            deadline = time.monotonic() + 60
            while sum(rounds) < hands_in(folder / "razz.txt"):
                assert time.monotonic() < deadline, rounds
                time.sleep(0.05)
        finally:
            stop.set()
            thread.join(timeout=60)
        assert not thread.is_alive()


def test_a_database_of_other_counts_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "hands.db"
    Store(path).close()
    import sqlite3

    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE tracker_meta SET value = 'hands:int' WHERE key = 'counts'")
    with pytest.raises(StoreError, match="import the hands again"):
        Store(path)
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE tracker_meta SET value = '99' WHERE key = 'version'")
    with pytest.raises(StoreError, match="newer studpoker"):
        Store(path)


# -- the command line -------------------------------------------------------------------------------------------


def test_stud_import(capsys: pytest.CaptureFixture[str], shared_data: Path, tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    assert main(["import", str(shared_data / RAZZ), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"1 file: {hands_in(shared_data / RAZZ)} hands imported, 0 refused, 0 already there")
    assert main(["import", str(shared_data / CUT), "--db", str(db), "--json"]) == 1  # a refused hand: exit 1
    summary = json.loads(capsys.readouterr().out)
    assert summary["refused"] == 1 and summary["db"] == str(db)


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["import", "/no/such/file"], "/no/such/file: no such file or folder"),
        (["import", "{data}", "--db", "http://example.com/db"], "a file path or a postgresql:// URL"),
        (["import", "{data}", "--workers", "0"], "a number of processes, 1 to 256, got 0"),
        (["import", "{data}", "--interval", "soon"], "seconds, 0.1 to 3600, got 'soon'"),
        (["import", "{razz}", "--watch"], "--watch watches folders"),
        (["import", "{data}", "--db", "{folder}"], "cannot open the hand database"),
    ],
)
def test_stud_import_mistakes(
    capsys: pytest.CaptureFixture[str], shared_data: Path, tmp_path: Path, words: list[str], message: str
) -> None:
    names = {"data": str(shared_data / STARS), "razz": str(shared_data / RAZZ), "folder": str(tmp_path)}
    argv = [w.format(**names) for w in words]
    if "--db" not in argv:
        argv += ["--db", str(tmp_path / "h.db")]
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and message in err and "Traceback" not in err


def test_the_migrations_make_a_column_for_each_count(tmp_path: Path) -> None:
    """The migrations write their columns out: after the last one they must be the count fields, in order."""
    import sqlite3

    Store(tmp_path / "h.db").close()
    with sqlite3.connect(tmp_path / "h.db") as connection:
        for table in ("player_hands", "player_days"):
            columns = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
            assert tuple(c for c in columns if c in COUNT_FIELDS) == COUNT_FIELDS
            assert len(columns) == len(COUNT_FIELDS) + 5 + (table == "player_days")


def test_stud_import_watch_takes_a_new_file_and_stops_on_sigterm(shared_data: Path, tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    folder, db = tmp_path / "hands", tmp_path / "h.db"
    folder.mkdir()
    command = [
        sys.executable,
        "-m",
        "studpoker",
        "import",
        str(folder),
        "--watch",
        "--interval",
        "0.2",
        "--db",
        str(db),
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not db.exists():  # the first (empty) import made the database: the watch has begun
            assert time.monotonic() < deadline and process.poll() is None, (
                process.stderr.read() if process.stderr else ""
            )
            time.sleep(0.05)
        shutil.copy(shared_data / RAZZ, folder / "razz.txt")
        while True:
            with Store(db) as store:
                if store.counts()["imported"] == hands_in(folder / "razz.txt"):
                    break
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.1)
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert f"{hands_in(folder / 'razz.txt')} hands imported" in out and "watching" in err


def test_the_graphs_are_summed_by_either_database(where: str, shared_data: Path) -> None:
    from studpoker.tracker import graphs

    with Store(where) as store:
        import_paths(store, [shared_data / "pokerstars"], workers=1)
        name = max(store.totals(), key=lambda row: row["hands"])["player"]
        mine = Filters(players=(name,))
        rows = list(store.hands_of(mine, ["net_bb"]))
        for kind in graphs.KINDS:
            assert graphs.hands_in(graphs.from_store(store, kind, mine)) == len(rows) > 0, kind
        line = graphs.from_store(store, "winnings", mine)
        assert isinstance(line, graphs.Winnings) and line.total[-1] == pytest.approx(sum(r[0] for r in rows))
