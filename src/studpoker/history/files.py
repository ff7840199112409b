"""Reading and writing hand-history files by format: PHH (``.phh``, ``.phhs``) and PokerStars text (``.txt``).

:func:`read` gives every hand or fails at the first one it cannot read; :func:`read_each` reads each hand on its
own (:class:`FileHand`: the record, or why it could not be read, or that it is a game outside the four, to skip),
so one bad hand costs only itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from . import phh
from .model import HandRecord

__all__ = ["FORMATS", "FileHand", "HistoryFileError", "format_of", "read", "read_each", "read_text", "write"]

#: Format names and the file extensions that select them.
FORMATS = {"phh": (".phh", ".phhs"), "pokerstars": (".txt",)}


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
    """The format of ``path``: ``explicit`` if given, else by extension; ``option`` is the command's option that
    names it, for the message when the extension does not tell."""
    if explicit is not None:
        if explicit not in FORMATS:
            raise HistoryFileError(f"unknown format {explicit!r}: use {' or '.join(FORMATS)}")
        return explicit
    for name, extensions in FORMATS.items():
        if path.suffix.lower() in extensions:
            return name
    raise HistoryFileError(
        f"{path}: cannot tell the format from the extension (.phh, .phhs or .txt); say it with {option}"
    )


def read_text(path: str | Path, error: type[ValueError] = ValueError) -> str:
    """The UTF-8 text of ``path`` (a byte-order mark skipped); ``error`` names the file and what is wrong."""
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except OSError as failure:
        raise error(f"{path}: {failure.strerror or failure}") from None
    except UnicodeDecodeError as failure:
        raise error(f"{path}: not UTF-8 text ({failure.reason} at byte {failure.start})") from None


def read_each(path: Path, fmt: str | None = None, option: str = "--from") -> list[FileHand]:
    """Every hand in the file at ``path``, each read on its own (see :class:`FileHand`); an empty list for a file
    with no hand. :class:`HistoryFileError` only when the file itself cannot be read (missing, not UTF-8, no
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
