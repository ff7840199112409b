"""``stud import``: hand histories into the tracker's hand database (``stud stats`` reads it back)."""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

from ..history.files import SOURCES, HistoryFileError
from .options import UsageError
from .progress import Progress, is_terminal

__all__ = ["add_commands"]

DB_HELP = (
    "the hand database: a file (SQLite) or a postgresql:// URL (default: $STUDPOKER_TRACKER_DB, else hands.db in "
    "the user's data folder)"
)


def add_commands(sub: Any) -> None:
    """Register ``import`` on the ``stud`` sub-parser collection."""
    im = sub.add_parser(
        "import",
        help="import hand histories into the tracker's hand database",
        description=(
            "Read every hand of the files and folders named (folders recursively: .txt, .phh, .phhs, .xml, .log, "
            ".hh files) on every core, replay and check each as `stud replay` does, and store it in the hand "
            "database with each player's counts. A hand that fails is stored as refused with its reason; a hand "
            "stored before (same room and hand number) is not stored again. Exits 1 if a file could not be read or "
            "a hand was refused, 0 otherwise."
        ),
        epilog="example: stud import ~/PokerStars/HandHistory --watch",
    )
    im.add_argument("paths", nargs="+", metavar="PATH", type=Path, help="hand-history files and folders")
    im.add_argument("--db", metavar="DB", help=DB_HELP)
    im.add_argument(
        "--from", dest="source_format", choices=SOURCES, metavar="FORMAT", help="format or room of the files"
    )
    im.add_argument("--workers", type=_workers, metavar="N", help="reading processes (default: every core)")
    im.add_argument("--watch", action="store_true", help="then keep importing new and growing files until Ctrl-C")
    im.add_argument("--interval", type=_interval, default=2.0, metavar="S", help="seconds between looks (--watch)")
    im.add_argument("--json", action="store_true", help="print the summary as one JSON document")
    im.set_defaults(run=_import)


def _bounded(what: str, low: float, high: float, kind: type[int] | type[float]) -> Any:
    """An argparse type: a number of ``kind`` from ``low`` to ``high``, else the message saying so."""

    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what}, {low:g} to {high:g}, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what}, {low:g} to {high:g}, got {value:g}")
        return value

    return parse


_workers = _bounded("a number of processes", 1, 256, int)
_interval = _bounded("seconds", 0.1, 3600, float)


def open_store(db: str | None) -> Any:
    """The hand database named (or the default one), or :class:`UsageError` saying why it cannot be opened."""
    from ..tracker.store import Store, StoreError

    try:
        return Store(db)
    except StoreError as error:
        raise UsageError(str(error)) from None


def _import(args: argparse.Namespace) -> int:
    from ..tracker.importer import ImportReport, import_paths, watch

    for path in args.paths:
        if not path.exists():
            raise UsageError(f"{path}: no such file or folder")
        if args.watch and not path.is_dir():
            raise UsageError(f"{path}: --watch watches folders; name a folder")
    with open_store(args.db) as store:
        bar = Progress(sys.stderr, "stud import", delay=0.5) if is_terminal(sys.stderr) else None

        start = time.perf_counter()

        def show(report: ImportReport, done: int, files: int) -> None:
            if bar is not None and bar.due(done, files):
                rate = report.hands / max(time.perf_counter() - start, 1e-9)
                bar.show(done, files, f"{report.hands:,} hands, {rate:,.0f} hands/s")

        try:
            report = import_paths(store, args.paths, fmt=args.source_format, workers=args.workers, progress=show)
        except HistoryFileError as error:
            raise UsageError(str(error)) from None
        finally:
            if bar is not None:
                bar.close()
        _print(report, store.where, args.json)
        status = 1 if report.unreadable or report.added.refused else 0
        if args.watch:
            stopping = False

            def stop_now(*_: object) -> None:
                nonlocal stopping
                stopping = True

            signal.signal(signal.SIGTERM, stop_now)
            print(f"watching {', '.join(map(str, args.paths))} (Ctrl-C to stop)", file=sys.stderr)
            with contextlib.suppress(KeyboardInterrupt):
                watch(
                    store,
                    args.paths,
                    fmt=args.source_format,
                    interval=args.interval,
                    stop=lambda: stopping,
                    on_import=lambda r: _print(r, store.where, args.json),
                )
    return status


def _print(report: Any, where: str, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"db": where, **report.as_dict()}))
        return
    rate = report.hands / report.seconds if report.seconds else 0.0
    added = report.added
    print(
        f"{report.files:,} file{'s' * (report.files != 1)}: {added.imported:,} hands imported, {added.refused:,} "
        f"refused, {added.duplicates:,} already there ({report.seconds:.1f} s, {rate:,.0f} hands/s) into {where}"
    )
    if report.skipped:
        print("skipped (other games): " + ", ".join(f"{game} {n:,}" for game, n in sorted(report.skipped.items())))
    for path, error in report.unreadable:
        print(f"not read: {path}: {error}", file=sys.stderr)
