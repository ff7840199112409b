"""Reading and writing hand-history files by format: PHH (``.phh``, ``.phhs``), PokerStars text, and the exports
of every room :mod:`~studpoker.history.sites` reads.

The format is the one named (``fmt``: ``phh``, ``pokerstars`` or a room of :data:`~studpoker.history.sites.ROOMS`),
else PHH by extension (``.phh``, ``.phhs``), else the room whose reader recognises the file's first lines (its
encoding detected: :func:`~studpoker.history.sites.decode`). :func:`read` gives every hand or fails at the first
one it cannot read; :func:`read_each` reads each hand on its own (:class:`FileHand`: the record, or why it could
not be read, or that it is a game outside the four, to skip), so one bad hand costs only itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from . import phh, sites
from .model import HandRecord

__all__ = ["FORMATS", "SOURCES", "FileHand", "HistoryFileError", "format_of", "read", "read_each", "read_text", "write"]

#: Format names and the file extensions that select them (any other file: the room is detected).
FORMATS = {"phh": (".phh", ".phhs"), "pokerstars": (".txt",)}
#: What ``--from`` takes: the formats and every room.
SOURCES = ("phh", *sites.ROOMS)


class HistoryFileError(ValueError):
    """A file that cannot be read or written as a hand history; the message names the file."""


@dataclass(frozen=True, slots=True)
class FileHand:
    """One hand of a file as :func:`read_each` found it: ``number`` (its place in the file, from 1) and ``line``
    (where its text starts), then its ``record``, or the ``error`` that kept it from being read, or ``skipped``:
    the name of a game outside the four (a Hold'em hand of an 8-Game file)."""

    number: int
    line: int
    record: HandRecord | None = None
    error: str | None = None
    skipped: str | None = None


def format_of(path: Path, explicit: str | None = None, option: str = "--from") -> str:
    """The format of ``path``: ``explicit`` if given (a format or a room), else PHH by extension, else the room
    detected from the file's first lines; ``option`` is the command's option that names it, for the message when
    nothing tells."""
    if explicit is not None:
        if explicit not in SOURCES:
            raise HistoryFileError(f"unknown format {explicit!r}: use {', '.join(SOURCES)}")
        return explicit
    if path.suffix.lower() in FORMATS["phh"]:
        return "phh"
    if option == "--to":
        if path.is_dir():
            raise HistoryFileError(f"{path} is a directory: name the file to write, e.g. {path / 'hands.phhs'}")
        for name, extensions in FORMATS.items():
            if path.suffix.lower() in extensions:
                return name
        raise HistoryFileError(
            f"{path}: cannot tell the format from the extension (.phh, .phhs or .txt); say it with --to"
        )
    text = read_text(path, HistoryFileError)
    if not text.strip():
        return "pokerstars"  # nothing to tell it by, and no hand in it either
    room = sites.detect(text)
    if room is None:
        raise HistoryFileError(
            f"{path}: neither PHH (.phh, .phhs) nor the export of a room we read ({', '.join(sites.ROOMS)});"
            f" say it with {option}"
        )
    return room


def read_text(path: str | Path, error: type[ValueError] = ValueError) -> str:
    """The text of ``path``, its encoding detected (:func:`~studpoker.history.sites.decode`: a byte-order mark,
    UTF-16, UTF-8, else Windows-1252); ``error`` names the file when it cannot be read."""
    try:
        data = Path(path).read_bytes()
    except OSError as failure:
        raise error(f"{path}: {failure.strerror or failure}") from None
    try:
        return sites.decode(data)
    except UnicodeDecodeError as failure:
        raise error(
            f"{path}: its text cannot be decoded ({failure.encoding}: {failure.reason} at byte {failure.start})"
        ) from None


def read_each(path: Path, fmt: str | None = None, option: str = "--from") -> list[FileHand]:
    """Every hand in the file at ``path``, each read on its own (see :class:`FileHand`); an empty list for a file
    with no hand. :class:`HistoryFileError` only when the file itself cannot be read (missing, not decodable, no
    format)."""
    name = format_of(path, fmt, option)
    text = read_text(path, HistoryFileError)
    found: list[tuple[int, HandRecord | ValueError]]
    if name == "pokerstars":
        from . import pokerstars

        found = list(pokerstars.loads_each(text))
        hands = []
        for number, (line, hand) in enumerate(found, 1):
            if isinstance(hand, pokerstars.NotStudError):
                hands.append(FileHand(number, line, skipped=hand.game))
            elif isinstance(hand, ValueError):
                hands.append(FileHand(number, line, error=str(hand)))
            else:
                hands.append(FileHand(number, line, record=hand))
        return hands
    if name != "phh":
        try:
            _, room_hands = sites.loads_each(text, name)
        except sites.SiteError as failure:
            raise HistoryFileError(f"{path}: {failure}") from None
        return [FileHand(h.number, h.line, h.record, _site_error(h.error), h.skipped) for h in room_hands]
    if path.suffix.lower() == ".phhs" or (fmt == "phh" and "[" in text.lstrip()[:1]):
        found = list(phh.loads_each(text))
    elif not text.strip():
        return []
    else:
        try:
            found = [(1, phh.loads(text))]
        except ValueError as error:
            found = [(1, error)]
    return [
        FileHand(n, line, error=str(hand)) if isinstance(hand, ValueError) else FileHand(n, line, record=hand)
        for n, (line, hand) in enumerate(found, 1)
    ]


def _site_error(error: sites.SiteError | None) -> str | None:
    """A room reader's error as a file's hand error: the room and its hand id, the line, what is wrong (the hand's
    place in the file is said by the caller)."""
    if error is None:
        return None
    where = " ".join(part for part in (error.room, f"#{error.hand}" if error.hand else "") if part)
    if error.line is not None:
        where += f", line {error.line}" if where else f"line {error.line}"
    return f"{where}: {error.reason}" if where else error.reason


def read(path: Path, fmt: str | None = None) -> list[HandRecord]:
    """Every hand in the file at ``path``."""
    name = format_of(path, fmt)
    text = read_text(path, HistoryFileError)
    try:
        if name == "pokerstars":
            from . import pokerstars

            return pokerstars.loads(text)
        if name != "phh":
            records = []
            for hand in sites.loads_each(text, name)[1]:
                if hand.error is not None:
                    raise hand.error
                if hand.record is not None:
                    records.append(hand.record)
            return records
        if path.suffix.lower() == ".phhs":
            return phh.loads_all(text)
        return [phh.loads(text)]
    except ValueError as error:
        raise HistoryFileError(f"{path}: {error}") from None


def write(records: Sequence[HandRecord], path: Path, fmt: str | None = None) -> None:
    """Write ``records`` to ``path`` (several hands: ``.phhs`` for PHH, one after another for PokerStars)."""
    name = format_of(path, fmt, "--to")
    if name == "pokerstars":
        from . import pokerstars

        text = pokerstars.dumps(list(records))
    elif len(records) == 1 and path.suffix.lower() != ".phhs":
        text = phh.dumps(records[0])
    else:
        text = phh.dumps_all(records)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise HistoryFileError(f"{path}: {error.strerror or error}") from None
