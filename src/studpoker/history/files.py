"""Reading and writing hand-history files by format: PHH (``.phh``, ``.phhs``), PokerStars text, and the exports
of every room :mod:`~studpoker.history.sites` reads.

The format is the one named (``fmt``: ``phh``, ``pokerstars`` or a room of :data:`~studpoker.history.sites.ROOMS`),
else PHH by extension (``.phh``, ``.phhs``), else the room whose reader recognises the file's first lines (its
encoding detected: :func:`~studpoker.history.sites.decode`). :func:`read` gives every hand or fails at the first
one it cannot read; :func:`read_each` reads each hand on its own (:class:`FileHand`: the record, or why it could
not be read, or that it is a game outside the four, to skip), so one bad hand costs only itself; :func:`iter_each`
gives the same one hand at a time, reading the file as it goes, so that memory does not grow with the file (a hand
may hold :data:`MAX_HAND` characters at most), the XML sessions of iPoker and Merge too (cut before each
``<game``, each read under the header of its session).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from . import phh, sites
from .lines import lines_of, split_hands, stripped_hands, without_bom
from .model import HandRecord
from .text import Encoding, HistoryFileError, read_text, write_text
from .text import decoded as _decoded
from .text import encoding_of as _encoding

__all__ = [
    "FORMATS",
    "MAX_HAND",
    "SOURCES",
    "FileHand",
    "HandWriter",
    "HistoryFileError",
    "format_of",
    "iter_each",
    "read",
    "read_each",
    "read_text",
    "write",
    "write_text",
]

#: Format names and the file extensions that select them (any other file: the room is detected).
FORMATS = {"phh": (".phh", ".phhs"), "pokerstars": (".txt",)}
#: What ``--from`` takes: the formats and every room.
SOURCES = ("phh", *sites.ROOMS)
#: The most characters one hand may hold when a file is read a hand at a time (:func:`iter_each`): a real hand
#: holds a few thousand; past this, the hand is an error and the reader skips to the next hand.
MAX_HAND = 1_000_000


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


def format_of(
    path: Path, explicit: str | None = None, option: str = "--from", *, encoding: Encoding | None = None
) -> str:
    """The format of ``path``: ``explicit`` if given (a format or a room), else PHH by extension, else the room
    detected from the file's first lines; ``option`` is the command's option that names it, for the message when
    nothing tells (``encoding``: the file's, when the caller has found it already)."""
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
    text, first = _head(path, encoding)
    if not first:
        return "pokerstars"  # nothing to tell it by, and no hand in it either
    room = sites.detect(text)
    if room is None:
        raise HistoryFileError(
            f"{path}: neither PHH (.phh, .phhs) nor the export of a room we read ({', '.join(sites.ROOMS)});"
            f" say it with {option}"
        )
    return room


def _head(path: Path, encoding: Encoding | None = None) -> tuple[str, str]:
    """The start of the file at ``path`` (decoded; past its leading blanks, at least what
    :func:`~studpoker.history.sites.detect` looks at) and its first character that is not white space ("" for a
    blank file), read without reading the file whole."""
    head, first = "", ""
    pieces = _decoded(path, encoding)
    try:
        for piece in pieces:
            first = first or piece.lstrip()[:1]
            head = (head + piece).lstrip("\ufeff \t\n")
            if len(head) > sites.HEAD and first:
                break
    finally:
        pieces.close()  # the file, left after its first pieces
    return head, first


def read_each(path: Path, fmt: str | None = None, option: str = "--from") -> list[FileHand]:
    """Every hand in the file at ``path``, each read on its own (see :class:`FileHand`); an empty list for a file
    with no hand. :class:`HistoryFileError` only when the file itself cannot be read (missing, not decodable, no
    format)."""
    return list(iter_each(path, fmt, option))


def iter_each(path: Path, fmt: str | None = None, option: str = "--from", limit: int = MAX_HAND) -> Iterator[FileHand]:
    """:func:`read_each` one hand at a time: the file is read as the hands are asked for, and each is dropped once
    given, so memory does not grow with the file; a hand over ``limit`` characters is an error of its own. The
    format is found at once (:class:`HistoryFileError` from the call); the file is read from the first hand on."""
    # the encoding is found once (a UTF-8 file is checked whole before it is read), before detecting the room if
    # the room must be detected, after checking the format named if one is
    encoding = _encoding(path) if fmt is None and path.suffix.lower() not in FORMATS["phh"] else None
    name = format_of(path, fmt, option, encoding=encoding)
    encoding = encoding or _encoding(path)
    if name == "phh":
        tables = path.suffix.lower() == ".phhs" or (fmt == "phh" and _head(path, encoding)[1] == "[")
        return _phh_each(path, tables, limit, encoding)
    if name == "pokerstars":
        return _stars_each(path, limit, encoding)
    module = sites.room(name)
    if hasattr(module, "starts_hand"):
        return _room_each(path, module, limit, encoding)
    return _xml_each(path, module, limit, encoding)  # iPoker, Merge: read_pieces


def _stars_each(path: Path, limit: int, encoding: Encoding) -> Iterator[FileHand]:
    """The hands of a PokerStars text, read a hand at a time."""
    from . import pokerstars

    lines = without_bom(lines_of(_decoded(path, encoding), limit, universal=True))
    hands = stripped_hands(lines, pokerstars.is_header, limit, _too_long(limit))
    for number, (line, hand) in enumerate(pokerstars.read_each(hands), 1):
        if isinstance(hand, pokerstars.NotStudError):
            yield FileHand(number, line, skipped=hand.game)
        elif isinstance(hand, ValueError):
            yield FileHand(number, line, error=str(hand))
        else:
            yield FileHand(number, line, record=hand)


def _room_each(path: Path, module: ModuleType, limit: int, encoding: Encoding) -> Iterator[FileHand]:
    """The hands of a room whose hands start at a line of their own, read a hand at a time."""
    from .sites.base import read_one

    number = 0
    pieces: Iterable[str] = _decoded(path, encoding)
    if hasattr(module, "clean"):  # PartyPoker: NUL characters dropped
        pieces = map(module.clean, pieces)
    lines = lines_of(pieces, limit, universal=False)
    for start, part, hand in split_hands(lines, module.starts_hand, limit, getattr(module, "lead", None)):
        found: HandRecord | sites.SiteError | None
        line = start + 1
        if not hand:  # text before the first hand: most rooms pass it by
            if not hasattr(module, "read_head"):
                continue
            found = module.read_head(part) if part is not None else sites.SiteError(_too_long(limit), line=line)
            line = found.line if found is not None and found.line is not None else line
        elif part is None:
            found = sites.SiteError(_too_long(limit), room=module.TITLE, line=line)
        else:
            found = read_one(module.read_hand, part, line)
        if found is None:
            continue
        number += 1
        yield _room_hand(number, line, found)


def _room_hand(number: int, line: int, found: HandRecord | sites.SiteError) -> FileHand:
    """A room reader's hand as a :class:`FileHand`: its record, its error, or the game it is skipped as."""
    if isinstance(found, sites.NotStudGameError):
        return FileHand(number, line, skipped=found.game)
    if isinstance(found, sites.SiteError):
        return FileHand(number, line, error=_site_error(found))
    return FileHand(number, line, record=found)


def _xml_each(path: Path, module: ModuleType, limit: int, encoding: Encoding) -> Iterator[FileHand]:
    """The hands of an XML session file (iPoker, Merge), read a ``<game>`` at a time. The file is looked over for a
    DOCTYPE or ENTITY first, a piece at a time (:class:`HistoryFileError` from the call, as the whole-text reader
    refuses it), so that no hand of a hostile file is parsed."""
    try:
        module.refuse_hostile(without_bom(p for p in _decoded(path, encoding) if p), module.TITLE)
    except sites.SiteError as failure:
        raise HistoryFileError(f"{path}: {failure}") from None

    def each() -> Iterator[FileHand]:
        pieces = without_bom(p for p in _decoded(path, encoding) if p)
        for number, (line, found) in enumerate(module.read_pieces(pieces, limit, _too_long(limit)), 1):
            yield _room_hand(number, line, found)

    return each()


def _phh_each(path: Path, tables: bool, limit: int, encoding: Encoding) -> Iterator[FileHand]:
    """The hands of a PHH file: a ``.phhs`` (``tables``) a table at a time, else its one hand."""
    lines = lines_of(_decoded(path, encoding), limit, universal=True)
    if not tables:
        for _, whole, _ in split_hands(lines, lambda line: False, limit):
            if whole is None:
                yield FileHand(1, 1, error=_too_long(limit))
            elif (text := "".join(whole)).strip():
                try:
                    single = FileHand(1, 1, record=phh.loads_hand(text))
                except ValueError as error:
                    single = FileHand(1, 1, error=str(error))
                yield single
        return
    number = 0
    for start, chunk, _ in split_hands(without_bom(lines), phh.starts_table, limit):
        found: Iterable[tuple[int, HandRecord | ValueError]]
        if chunk is None:
            found = [(start + 1, ValueError(_too_long(limit)))]
        else:
            found = phh.read_tables([(start, "".join(chunk))])
        for line, hand in found:
            number += 1
            yield (
                FileHand(number, line, error=str(hand))
                if isinstance(hand, ValueError)
                else FileHand(number, line, record=hand)
            )


def _too_long(limit: int) -> str:
    """The error of a hand over the size cap."""
    return (
        f"the hand runs past {limit:,} characters, the most one hand may hold (a file is read a hand at a time):"
        " skipped up to the next hand"
    )


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
            return phh.loads(text)
        return [phh.loads_hand(text)]
    except ValueError as error:
        raise HistoryFileError(f"{path}: {error}") from None


def write(records: Sequence[HandRecord], path: Path, fmt: str | None = None) -> None:
    """Write ``records`` to ``path`` (several hands: ``.phhs`` for PHH, one after another for PokerStars)."""
    with HandWriter(path, fmt) as writer:
        for record in records:
            writer.add(record)
        writer.commit()


class HandWriter:
    """Writes a hand-history file a hand at a time (:meth:`add`), so that memory does not grow with it: into a
    file beside ``path`` that :meth:`commit` puts in its place; left without a commit (an error, a hand that does
    not replay), nothing is written. PHH: a ``.phhs`` of tables ``[1]``, ``[2]``..., or a ``.phh`` of one hand;
    PokerStars: the hands one after another."""

    def __init__(self, path: Path, fmt: str | None = None) -> None:
        self.path = path
        self.format = format_of(path, fmt, "--to")
        self.count = 0
        self.held: HandRecord | None = None  # PHH: the first hand, until a second tells a .phhs from a .phh
        self.part = path.with_name(f".{path.name}.part")
        try:
            self.file = self.part.open("w", encoding="utf-8", newline="")
        except OSError as error:
            raise HistoryFileError(f"{path}: {error.strerror or error}") from None

    def __enter__(self) -> HandWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self.file.closed:  # not committed: nothing is written
            self.file.close()
            self.part.unlink(missing_ok=True)

    def add(self, record: HandRecord) -> None:
        """Write one more hand."""
        self.count += 1
        if self.format == "pokerstars":
            from . import pokerstars

            self._put(("\n\n\n" if self.count > 1 else "") + pokerstars.dumps(record, self.count))
        elif self.count == 1 and self.path.suffix.lower() != ".phhs":
            self.held = record
        else:
            if self.held is not None:
                self._put(f"[1]\n{phh.dumps(self.held)}")
                self.held = None
            self._put(("\n" if self.count > 1 else "") + f"[{self.count}]\n{phh.dumps(record)}")

    def commit(self) -> None:
        """Finish the file and put it in place of ``path``."""
        if self.held is not None:
            self._put(phh.dumps(self.held))
        elif self.count == 0 and self.format != "pokerstars":
            self._put(phh.dumps([]))
        try:
            self.file.close()
            self.part.replace(self.path)
        except OSError as error:
            raise HistoryFileError(f"{self.path}: {error.strerror or error}") from None

    def _put(self, text: str) -> None:
        try:
            self.file.write(text)
        except OSError as error:
            raise HistoryFileError(f"{self.path}: {error.strerror or error}") from None
