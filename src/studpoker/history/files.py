"""Reading and writing hand-history files by format: PHH (``.phh``, ``.phhs``) and PokerStars text (``.txt``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from . import phh
from .model import HandRecord

__all__ = ["FORMATS", "HistoryFileError", "format_of", "read", "read_text", "write"]

#: Format names and the file extensions that select them.
FORMATS = {"phh": (".phh", ".phhs"), "pokerstars": (".txt",)}


class HistoryFileError(ValueError):
    """A file that cannot be read or written as a hand history; the message names the file."""


def format_of(path: Path, explicit: str | None = None) -> str:
    """The format of ``path``: ``explicit`` if given, else by extension."""
    if explicit is not None:
        if explicit not in FORMATS:
            raise HistoryFileError(f"unknown format {explicit!r}: use {' or '.join(FORMATS)}")
        return explicit
    for name, extensions in FORMATS.items():
        if path.suffix.lower() in extensions:
            return name
    raise HistoryFileError(f"{path}: cannot tell the format from the extension (.phh, .phhs or .txt); use --to")


def read_text(path: str | Path, error: type[ValueError] = ValueError) -> str:
    """The UTF-8 text of ``path`` (a byte-order mark skipped); ``error`` names the file and what is wrong."""
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except OSError as failure:
        raise error(f"{path}: {failure.strerror or failure}") from None
    except UnicodeDecodeError as failure:
        raise error(f"{path}: not UTF-8 text ({failure.reason} at byte {failure.start})") from None


def read(path: Path, fmt: str | None = None) -> list[HandRecord]:
    """Every hand in the file at ``path``."""
    name = format_of(path, fmt)
    text = read_text(path, HistoryFileError)
    try:
        if name == "pokerstars":
            from . import pokerstars

            return pokerstars.loads(text)
        if path.suffix.lower() == ".phhs":
            return phh.loads_all(text)
        return [phh.loads(text)]
    except ValueError as error:
        raise HistoryFileError(f"{path}: {error}") from None


def write(records: Sequence[HandRecord], path: Path, fmt: str | None = None) -> None:
    """Write ``records`` to ``path`` (several hands: ``.phhs`` for PHH, one after another for PokerStars)."""
    name = format_of(path, fmt)
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
