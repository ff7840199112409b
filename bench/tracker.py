"""The tracker's speed: ``stud import`` of a million hands of PokerStars text, then reports over them.

    python bench/tracker.py                      # a million hands (generated once, about 10 minutes, then cached)
    python bench/tracker.py --hands 100000       # a smaller run
    python bench/tracker.py --cache DIR          # where the generated files are kept (default bench/.cache/tracker)

What is measured:

* The hands are played by ``stud simulate --save-histories`` (seven bots, seven-card stud, a fixed seed) and written
  as PokerStars text by studpoker's writer, 10,000 hands a file (as a room writes a table's session), the players
  renamed as PokerStars names (no colon). Generating them is not timed; they are kept in ``--cache``.
* **Import**: ``import_paths`` on every core into a new SQLite database (what ``stud import FOLDER`` does): every
  hand read, replayed and checked, its players' counts computed and written with the daily sums. Timed from the
  call to its return; the database must then hold every hand (checked).
* **Reports**: every player's statistics over every hand (``Store.totals``, what ``stud stats`` reads), one player's
  with filters, and one player's per-hand winnings line over all his hands (``Store.hands_of`` + a NumPy cumulative
  sum, what the winnings graph draws). Each is the best of three runs.

Targets (from the issue): import >= 2,000 hands/s on the 2-core reference machine with every core, a million hands
in under 10 minutes; any report over the million hands in under 2 s. fpdb-3's importer, the one open tracker that
reads stud: see docs/tracker.md for why it is not run side by side here.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from studpoker.history import files, pokerstars
from studpoker.tracker.importer import import_paths
from studpoker.tracker.store import Filters, Store

BOTS = "tag,calling-station,random,tag,random,calling-station,tag"
PER_FILE = 10_000
SEED = 20261207


def generate(cache: Path, hands: int) -> list[Path]:
    """The PokerStars files of ``hands`` hands in ``cache`` (made once: a manifest says they are complete)."""
    manifest = cache / "manifest.json"
    if manifest.exists() and json.loads(manifest.read_text())["hands"] == hands:
        return sorted(cache.glob("*.txt"))
    cache.mkdir(parents=True, exist_ok=True)
    for old in cache.glob("*.txt"):
        old.unlink()
    phhs = cache / "simulated.phhs"
    print(f"generating {hands:,} hands with stud simulate (once; kept in {cache})", flush=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "studpoker",
            "simulate",
            "--bots",
            BOTS,
            "--hands",
            str(hands),
            "--seed",
            str(SEED),
            "--workers",
            "auto",
            "--save-histories",
            str(phhs),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    written: list[Path] = []
    batch: list[str] = []
    start = dt.datetime(2026, 1, 1, 12, 0, 0)
    for number, hand in enumerate(files.iter_each(phhs), 1):
        if hand.record is None:
            raise SystemExit(f"stud simulate wrote a hand that does not read back: {hand.error}")
        record = hand.record
        when = start + dt.timedelta(seconds=30 * number)
        info = {**record.info, "hand": 100_000_000 + number, "table": f"Bench {number // PER_FILE + 1}"}
        info.update(year=when.year, month=when.month, day=when.day, time=when.time())
        names = tuple(name.replace(":", "_").replace(" ", "_") for name in record.players)
        batch.append(pokerstars.dumps(dataclasses.replace(record, players=names, info=info), number))
        if len(batch) == PER_FILE:
            written.append(_write(cache, len(written) + 1, batch))
            batch = []
    if batch:
        written.append(_write(cache, len(written) + 1, batch))
    phhs.unlink()
    manifest.write_text(json.dumps({"hands": hands, "files": len(written)}))
    return written


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--cache", type=Path, default=Path(__file__).parent / ".cache" / "tracker")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    paths = generate(args.cache / str(args.hands), args.hands)
    print(f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores, {args.workers} "
          f"reading processes; {args.hands:,} hands in {len(paths)} files")  # fmt: skip
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "hands.db") as store:
        start = time.perf_counter()
        report = import_paths(store, paths, workers=args.workers)
        seconds = time.perf_counter() - start
        stored = store.counts()
        assert stored["imported"] == args.hands and not report.unreadable, (stored, report.as_dict())
        rate = args.hands / seconds
        print(f"import: {seconds:,.1f} s, {rate:,.0f} hands/s (target >= 2,000 hands/s; a million in < 600 s),"
              f" {stored['refused']} refused")  # fmt: skip
        everyone = Filters()
        took, rows = best(3, lambda: store.totals(everyone))
        assert isinstance(rows, list)
        print(f"report, every player over every hand: {took:.3f} s ({len(rows)} players; target < 2 s)")
        name = max(rows, key=lambda row: row["hands"])["player"]
        one = Filters(players=(name,), games=("Seven-card stud",), since="2026-01-01")
        took, _ = best(3, lambda: store.totals(one, by=("player", "stakes")))
        print(f"report, one player, filtered by game and date: {took:.3f} s (target < 2 s)")

        def line() -> int:
            net = np.fromiter((row[0] for row in store.hands_of(Filters(players=(name,)), ("net",))), dtype=np.int64)
            return int(np.cumsum(net)[-1]) if len(net) else 0

        took, total = best(3, line)
        print(f"winnings line of {name} over all his hands: {took:.3f} s (ends at {total:,} chips; target < 2 s)")


if __name__ == "__main__":
    main()
