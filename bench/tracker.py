"""The tracker's speed: ``stud import`` of a million hands of PokerStars text, then reports over them.

    python bench/tracker.py                      # a million hands (generated once on every core, then cached)
    python bench/tracker.py --hands 100000       # a smaller run
    python bench/tracker.py --cache DIR          # where the generated files are kept (default bench/.cache/tracker)

What is measured:

* The hands are played by ``stud simulate --save-histories`` (seven bots, seven-card stud; each file of hands from a
  fixed seed and its number, the files made on every core) and written
  as PokerStars text by studpoker's writer, 10,000 hands a file (as a room writes a table's session), the players
  renamed as PokerStars names (no colon). Generating them is not timed; they are kept in ``--cache``.
* **Import**: ``import_paths`` on every core into a new SQLite database (what ``stud import FOLDER`` does): every
  hand read, replayed and checked, its players' counts computed and written with the daily sums. Timed from the
  call to its return; the database must then hold every hand (checked).
* **Reports**: every player's statistics over every hand (``Store.totals``, what ``stud stats`` reads), one player's
  by stakes, and each of one player's graphs over all his hands (``graphs.from_store``: the database's running sums
  or groups) drawn to a PNG file. Each is the best of three runs in this process; the winnings graph is also timed
  as the command a user types, in a new process each time (Python's start and imports included).

Targets (from the issue): import >= 2,000 hands/s on the 2-core reference machine with every core, a million hands
in under 10 minutes; any report over the million hands in under 2 s.

``--fpdb`` also runs fpdb-3's importer (the one open tracker that reads stud; bench/_fpdb.py makes its venv once,
from ``--fpdb-repository`` or GitHub) on the first file (10,000 hands) and studpoker's on the same file, one process
each, taking turns (studpoker, fpdb-3, studpoker): hands stored, hands/s and the ratio, and a check that both stored
every hand and agree on each player's profit. The files are written as the hero's room would write them (his down
cards; the others' only when shown), the form fpdb-3 expects.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import _fpdb
from studpoker.history import files, pokerstars
from studpoker.history.record import seen_by
from studpoker.tracker import graphs
from studpoker.tracker.importer import import_paths
from studpoker.tracker.report import build, default_columns
from studpoker.tracker.store import Filters, Store

BOTS = "tag,calling-station,random,tag,random,calling-station,tag"
HERO_BOT = "1:"  # the first bot is the hero, the player whose files these are
PER_FILE = 10_000
SEED = 20261207


def generate(cache: Path, hands: int, workers: int) -> list[Path]:
    """The PokerStars files of ``hands`` hands in ``cache`` (made once: a manifest says they are complete), made on
    ``workers`` processes, a share of files each."""
    manifest = cache / "manifest.json"
    wanted = {"hands": hands, "seed": SEED, "bots": BOTS, "view": "hero", "per_file": PER_FILE}
    if manifest.exists() and json.loads(manifest.read_text()).get("made") == wanted:
        return sorted(cache.glob("*.txt"))
    cache.mkdir(parents=True, exist_ok=True)
    for old in cache.glob("*.txt"):
        old.unlink()
    print(f"generating {hands:,} hands with stud simulate on {workers} processes (once; kept in {cache})", flush=True)
    shares = [(cache, index, min(PER_FILE, hands - index * PER_FILE)) for index in range(-(-hands // PER_FILE))]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        written = list(pool.map(_generate_file, *zip(*shares, strict=True)))
    manifest.write_text(json.dumps({"made": wanted, "files": len(written)}))
    return written


def _generate_file(cache: Path, index: int, hands: int) -> Path:
    """File ``index`` (from 0): ``hands`` hands played by ``stud simulate`` from the seed and the file's number,
    written as the hero's PokerStars text, the hands numbered and timed after those of the files before it."""
    phhs = cache / f"simulated-{index}.phhs"
    subprocess.run(
        [
            sys.executable, "-m", "studpoker", "simulate", "--bots", BOTS, "--hands", str(hands),
            "--seed", str(SEED + index), "--workers", "1", "--save-histories", str(phhs),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    batch: list[str] = []
    start = dt.datetime(2026, 1, 1, 12, 0, 0)
    for offset, hand in enumerate(files.iter_each(phhs), 1):
        if hand.record is None:
            raise SystemExit(f"stud simulate wrote a hand that does not read back: {hand.error}")
        record = hand.record
        number = index * PER_FILE + offset
        when = start + dt.timedelta(seconds=30 * number)
        info = {**record.info, "hand": 100_000_000 + number, "table": f"Bench {index + 1}"}
        info.update(year=when.year, month=when.month, day=when.day, time=when.time())
        hero = next(i for i, name in enumerate(record.players) if name.startswith(HERO_BOT))
        names = tuple("Hero" if i == hero else _name(name) for i, name in enumerate(record.players))
        seen = seen_by(record, hero)  # as a room writes it: the hero's down cards, the others' only if shown
        batch.append(pokerstars.dumps(dataclasses.replace(seen, players=names, info=info), number))
    phhs.unlink()
    return _write(cache, index + 1, batch)


def _name(bot: str) -> str:
    """A bot's name as PokerStars writes names (``2:calling-station`` -> ``2_calling_station``)."""
    return bot.replace(":", "_").replace("-", "_").replace(" ", "_")


def _write(cache: Path, index: int, hands: list[str]) -> Path:
    path = cache / f"HH2026 Bench {index:04d} - 7 Card Stud Limit.txt"
    path.write_text("\n\n\n".join(hands) + "\n", encoding="utf-8")
    return path


def best(runs: int, work: object) -> tuple[float, object]:
    times, answer = [], None
    for _ in range(runs):
        start = time.perf_counter()
        answer = work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times), answer


def versus_fpdb(path: Path, folder: Path, repository: Path | None) -> None:
    """One file imported by fpdb-3 and by studpoker (one process each, as fpdb reads one file in one), taking turns
    (studpoker, fpdb, studpoker): hands stored, hands/s, and each player's profit, which must agree."""
    python = _fpdb.setup(folder / "fpdb-3", repository)
    ours: list[float] = []
    profits: dict[str, int] = {}
    fpdb: dict[str, Any] = {}
    for turn in ("studpoker", "fpdb", "studpoker"):
        if turn == "fpdb":
            fpdb = _fpdb.run(python, [path], folder / "fpdb-run")
            continue
        with tempfile.TemporaryDirectory() as scratch, Store(Path(scratch) / "hands.db") as store:
            start = time.perf_counter()
            report = import_paths(store, [path], workers=1)
            ours.append(report.added.imported / (time.perf_counter() - start))
            profits = {row["player"]: row["net"] for row in store.totals()}
            stored = report.added.imported
    rate, theirs = statistics.median(ours), fpdb["stored"] / fpdb["seconds"]
    print(f"fpdb-3 {_fpdb.COMMIT[:7]} on {path.name}: {fpdb['stored']:,} hands stored, {fpdb['errors']} errors,"
          f" {theirs:,.0f} hands/s (its own timer; {fpdb['command_seconds']:.0f} s in all)")  # fmt: skip
    print(f"studpoker on the same file, one process: {stored:,} hands stored, {rate:,.0f} hands/s:"
          f" {rate / theirs:.1f}x fpdb-3's")  # fmt: skip
    agree = stored == fpdb["stored"] and profits == fpdb["profits"]
    print(f"answers agree (hands stored, each player's profit): {'yes' if agree else 'NO'}")
    if not agree:
        print(f"  studpoker {stored:,} hands, profits {profits}\n  fpdb-3 {fpdb['stored']:,} hands, {fpdb['profits']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--cache", type=Path, default=Path(__file__).parent / ".cache" / "tracker")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--fpdb", action="store_true", help="also import the first file with fpdb-3 (~4 minutes)")
    parser.add_argument("--fpdb-repository", type=Path, help="fpdb-3's git repository (a clone or a bare mirror)")
    args = parser.parse_args()
    paths = generate(args.cache / str(args.hands), args.hands, args.workers)
    print(f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores, {args.workers} "
          f"reading processes; {args.hands:,} hands in {len(paths)} files")  # fmt: skip
    if args.fpdb:
        versus_fpdb(paths[0], args.cache, args.fpdb_repository)
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "hands.db") as store:
        start = time.perf_counter()
        report = import_paths(store, paths, workers=args.workers)
        seconds = time.perf_counter() - start
        stored = store.counts()
        assert stored["imported"] == args.hands and not report.unreadable, (stored, report.as_dict())
        rate = args.hands / seconds
        print(f"import: {seconds:,.1f} s, {rate:,.0f} hands/s (target >= 2,000 hands/s; a million in < 600 s),"
              f" {stored['refused']} refused")  # fmt: skip
        took, _ = best(3, lambda: build(store.totals(), default_columns()))
        print(f"stud stats, every player over every hand: {took:.3f} s (target < 2 s)")
        hero = Filters(players=("Hero",))
        took, _ = best(3, lambda: build(store.totals(hero, by=("player", "stakes")), default_columns()))
        print(f"stud stats --player Hero --by stakes: {took:.3f} s (target < 2 s)")
        for kind in graphs.KINDS:

            def graph(kind: str = kind) -> None:
                numbers = graphs.from_store(store, kind, hero)
                graphs.draw(kind, {"Hero": numbers}, Path(folder) / f"{kind}.png")

            took, _ = best(3, graph)
            print(f"stud stats --player Hero --graph {kind}.png --kind {kind}: {took:.2f} s (target < 2 s)")
        store.close()
        command = [sys.executable, "-m", "studpoker", "stats", "--db", str(Path(folder) / "hands.db"), "--player"]
        command += ["Hero", "--graph", str(Path(folder) / "cli.png"), "--kind", "winnings"]
        took, _ = best(3, lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL))
        print(f"the same winnings graph as a command (a new Python process, its imports, the query, the drawing):"
              f" {took:.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
