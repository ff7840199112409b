"""Importing hand histories into the hand database: every hand replayed and checked as ``stud replay`` checks it,
a hand that fails stored as refused with its reason (never dropped), a hand imported twice stored once.

Files are read on every core, one file a process (a folder's files side by side; one big file on one core), and
written by this process alone, in batches of one transaction each. :func:`entries_of` is one file's work,
:func:`import_paths` the whole import, :func:`watch` a folder's new and growing files.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import multiprocessing
import os
import queue
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..history import sites
from ..history.audit import verify
from ..history.files import SOURCES, HistoryFileError, format_of, iter_each
from ..history.model import HandRecord
from .store import Added, HandEntry, Store
from .tally import count_rows

__all__ = ["ImportReport", "entries_of", "hand_files", "import_paths", "watch"]

#: The suffixes a folder's files are read for (others are passed by: a tracker's folder holds notes, screenshots).
SUFFIXES = (".txt", ".phh", ".phhs", ".xml", ".log", ".hh")
BATCH = 2_000  # hands a transaction
_GAMES = {"STUD7": "Seven-card stud", "STUD7_HL8": "Stud hi/lo", "STUD5": "Five-card stud", "RAZZ": "Razz"}


@dataclass
class ImportReport:
    """What an import did: hands stored, refused (stored with the reason), already there, skipped by game (a
    Hold'em hand of a mixed file), and the files that could not be read at all with why."""

    files: int = 0
    added: Added = field(default_factory=Added)
    skipped: Counter[str] = field(default_factory=Counter)
    unreadable: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def hands(self) -> int:
        """Every hand read: stored, refused or already there."""
        return self.added.imported + self.added.refused + self.added.duplicates

    def as_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "imported": self.added.imported,
            "refused": self.added.refused,
            "duplicates": self.added.duplicates,
            "skipped": dict(self.skipped),
            "unreadable": [{"file": f, "error": e} for f, e in self.unreadable],
            "seconds": round(self.seconds, 3),
        }


def hand_files(paths: Iterable[Path]) -> Iterator[Path]:
    """The files named, and the hand-history files under the folders named (recursively, by suffix, in name
    order); a missing path is :class:`FileNotFoundError`."""
    for path in paths:
        if path.is_dir():
            for found in sorted(path.rglob("*")):
                if found.is_file() and found.suffix.lower() in SUFFIXES:
                    yield found
        elif path.is_file():
            yield path
        else:
            raise FileNotFoundError(f"{path}: no such file or folder")


def _room(record: HandRecord) -> str:
    info = record.info
    if "room" in info:
        return str(info["room"])
    if "pokerstars" in info:
        return "PokerStars"
    return str(info.get("venue") or "PHH")


def _hand_id(record: HandRecord, room: str) -> str:
    """The room's hand number; a PHH hand (a number in one session, or none) also gets a digest of what it is, so
    two sessions' hand 1 are two hands and the same hand imported twice one."""
    info = record.info
    if room not in ("PHH",) and "hand" in info and ("room" in info or "pokerstars" in info):
        return str(info["hand"])
    digest = hashlib.blake2b(
        repr(
            (
                record.players, record.starting_stacks, record.actions, record.rules.small_bet,
                info.get("table"), info.get("hand"), info.get("year"), info.get("month"), info.get("day"),
                str(info.get("time")),
            )
        ).encode(),
        digest_size=10,
    ).hexdigest()  # fmt: skip
    return f"{info['hand']}-{digest}" if "hand" in info else digest


def _played_at(info: dict[str, Any]) -> str | None:
    try:
        day = dt.date(int(info["year"]), int(info["month"]), int(info["day"]))
    except (KeyError, TypeError, ValueError):
        return None
    when = info.get("time")
    clock = when.strftime("%H:%M:%S") if isinstance(when, dt.time) else str(when or "00:00:00")[:8]
    return f"{day.isoformat()} {clock}"


def _stakes(record: HandRecord) -> str:
    rules, value = record.rules, record.chip_value
    if value == 1.0 or not record.currency:
        return f"{rules.small_bet:,}/{rules.big_bet:,}"
    sign = {"USD": "$", "EUR": "€", "GBP": "£"}.get(record.currency, record.currency + " ")
    return f"{sign}{rules.small_bet * value:g}/{sign}{rules.big_bet * value:g}"


def entry_of(record: HandRecord, source: str, line: int) -> HandEntry:
    """One read hand as the store takes it: replayed and checked; refused with the reason if that fails."""
    room = _room(record)
    entry = HandEntry(
        room,
        _hand_id(record, room),
        source,
        line,
        game=_GAMES.get(record.rules.variant.value, record.rules.variant.value),
        stakes=_stakes(record),
        big_bet=record.rules.big_bet,
        currency=record.currency,
        chip_value=record.chip_value,
        played_at=_played_at(record.info),
        table_name=str(record.info["table"]) if record.info.get("table") is not None else None,
        table_size=record.n,
    )
    try:
        result = verify(record)
        entry.rows = count_rows(record, result)
    except ValueError as error:  # ReplayError, MismatchError, an engine error: the rules or the file disagree
        entry.reason = str(error)
        entry.rows = []
    return entry


def entries_of(path: Path, fmt: str | None = None) -> Iterator[HandEntry | tuple[str, str]]:
    """Every hand of one file as a :class:`HandEntry` (refused ones too), and ``("skipped", game)`` for a hand of
    another game; :class:`HistoryFileError` when the file cannot be read at all."""
    source = os.fspath(path)
    name = format_of(path, fmt)
    room = "PHH" if name == "phh" else "PokerStars" if name == "pokerstars" else sites.title(name)
    for hand in iter_each(path, name):
        if hand.skipped is not None:
            yield ("skipped", hand.skipped)
        elif hand.record is not None:
            yield entry_of(hand.record, source, hand.line)
        else:
            reason = hand.error or "unreadable"
            yield HandEntry(room, f"{source}:{hand.line}", source, hand.line, reason=reason)


# -- on every core --------------------------------------------------------------------------------------------


def _batches(path: Path, fmt: str | None, skipped: Counter[str]) -> Iterator[list[HandEntry] | str]:
    """One file's hands in batches of :data:`BATCH` (the last one shorter), the hands of other games counted in
    ``skipped``; if the file cannot be read to its end, why, after the hands read before."""
    batch: list[HandEntry] = []
    try:
        for item in entries_of(path, fmt):
            if isinstance(item, HandEntry):
                batch.append(item)
                if len(batch) >= BATCH:
                    yield batch
                    batch = []
            else:
                skipped[item[1]] += 1
    except (HistoryFileError, OSError, ValueError) as error:
        yield batch
        yield str(error)
        return
    yield batch


def _worker(tasks: Any, results: Any, fmt: str | None) -> None:
    """A reading process: files from ``tasks`` (``None`` stops it), batches of entries to ``results``."""
    while (path := tasks.get()) is not None:
        skipped: Counter[str] = Counter()
        error = None
        for batch in _batches(Path(path), fmt, skipped):
            if isinstance(batch, str):
                error = batch
            else:
                results.put(("hands", batch))
        results.put(("done", path, dict(skipped)) if error is None else ("unreadable", path, error))


def workers_for(files: int, workers: int | None) -> int:
    """Processes to read ``files`` files with: ``workers`` if given, else every core (no more than files)."""
    if workers is not None:
        return max(1, workers)
    return max(1, min(files, os.cpu_count() or 1))


def import_paths(
    store: Store,
    paths: Sequence[Path],
    *,
    fmt: str | None = None,
    workers: int | None = None,
    progress: Callable[[ImportReport, int, int], None] | None = None,
) -> ImportReport:
    """Import every hand of ``paths`` (files, folders) into ``store``; ``progress(report, files done, files)``
    after each batch. ``fmt`` names the format or room when it cannot be detected (one of :data:`SOURCES`)."""
    if fmt is not None and fmt not in SOURCES:
        raise HistoryFileError(f"unknown format {fmt!r}: use {', '.join(SOURCES)}")
    start = time.perf_counter()
    files = list(hand_files(paths))
    report = ImportReport(files=len(files))
    count = workers_for(len(files), workers)
    if count == 1:
        for done, path in enumerate(files):
            _import_here(store, path, fmt, report, progress, (done, len(files)))
        report.seconds = time.perf_counter() - start
        return report
    context: Any = multiprocessing.get_context("spawn" if os.name == "nt" else "forkserver")
    tasks: Any = context.Queue()
    results: Any = context.Queue(maxsize=4 * count)  # a bound on the batches in flight: memory stays flat
    for path in files:
        tasks.put(os.fspath(path))
    for _ in range(count):
        tasks.put(None)
    processes = [context.Process(target=_worker, args=(tasks, results, fmt), daemon=True) for _ in range(count)]
    for process in processes:
        process.start()
    done = 0
    try:
        while done < len(files):
            try:
                message = results.get(timeout=1.0)
            except queue.Empty:
                if not any(process.is_alive() for process in processes):
                    raise RuntimeError("the reading processes stopped before every file was read") from None
                continue
            if message[0] == "hands":
                report.added += store.add(message[1])
            elif message[0] == "done":
                done += 1
                report.skipped.update(message[2])
            else:
                done += 1
                report.unreadable.append((message[1], message[2]))
            if progress is not None:
                progress(report, done, len(files))
    finally:
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
    report.seconds = time.perf_counter() - start
    return report


def _import_here(
    store: Store,
    path: Path,
    fmt: str | None,
    report: ImportReport,
    progress: Callable[[ImportReport, int, int], None] | None,
    where: tuple[int, int],
) -> None:
    """One file read and written by this process (one worker, or a watched folder's files)."""

    for batch in _batches(path, fmt, report.skipped):
        if isinstance(batch, str):
            report.unreadable.append((os.fspath(path), batch))
            continue
        report.added += store.add(batch)
        if progress is not None:
            progress(report, *where)


def watch(
    store: Store,
    folders: Sequence[Path],
    *,
    fmt: str | None = None,
    interval: float = 2.0,
    stop: Callable[[], bool] = lambda: False,
    on_import: Callable[[ImportReport], None] | None = None,
) -> None:
    """Import the files under ``folders`` as they appear and grow, until ``stop()``: a file is read once it has
    not changed for one ``interval`` (a room writes a hand at a time), and again whenever it grows; the hands read
    before are found already stored. ``on_import`` gets each round's report."""
    seen: dict[Path, tuple[int, int]] = {}
    pending: dict[Path, tuple[int, int]] = {}
    while not stop():
        ready = []
        for path in hand_files(folders):
            try:
                stat = path.stat()
            except OSError:
                continue
            mark = (stat.st_size, stat.st_mtime_ns)
            if seen.get(path) == mark:
                continue
            if pending.get(path) == mark:
                ready.append(path)
                seen[path] = mark
                del pending[path]
            else:
                pending[path] = mark
        if ready:
            report = import_paths(store, ready, fmt=fmt, workers=1)
            if on_import is not None:
                on_import(report)
        deadline = time.monotonic() + interval
        while not stop() and time.monotonic() < deadline:
            time.sleep(min(0.1, interval))
