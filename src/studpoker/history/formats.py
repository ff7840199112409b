"""One set of verbs for every hand-history format: :func:`load` / :func:`loads` read a list of hands,
:func:`dump` / :func:`dumps` write them, in PHH, PokerStars text or (reading) the export of any room.

``fmt`` names the format: ``"phh"``, ``"pokerstars"`` or a room of :data:`~studpoker.history.sites.ROOMS`. Left
out, a file's format is told from its extension (``.phh``, ``.phhs``) or its first lines, and a text's from its
first lines; writing defaults to PHH. Rooms' files are read, not written: :func:`dumps` says so.

>>> from studpoker.engine import HandState, Rules
>>> from studpoker.history import dumps, loads, record_hand
>>> state = HandState(Rules.casino("razz", 1, 3, 10, 20), [200, 200], seed=2)
>>> while not state.is_over:
...     _ = state.apply(state.legal_actions()[0])
>>> record = record_hand(state, players=["Ann", "Bob"])
>>> loads(dumps(record)) == [record], loads(dumps([record, record], "pokerstars"))[1].players
(True, ('Ann', 'Bob'))
>>> dumps(record, "fulltilt")  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
studpoker.history.sites.base.SiteError: studpoker reads Full Tilt Poker hand histories but does not write them: ...
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from . import phh, sites
from .files import SOURCES, FileHand, HistoryFileError, iter_each, read, write
from .model import HandRecord

__all__ = ["FORMATS", "dump", "dumps", "load", "load_each", "loads"]

#: Every format the verbs take: PHH, PokerStars text and the rooms.
FORMATS = ("phh", "pokerstars", *(room for room in SOURCES[1:] if room != "pokerstars"))


def load(path: str | Path, fmt: str | None = None) -> list[HandRecord]:
    """Every stud hand of the file at ``path`` (hands of other games left out); :class:`HistoryFileError` naming
    the file and the hand for the first that cannot be read (:func:`load_each` reads each on its own)."""
    return read(Path(path), fmt)


def loads(text: str, fmt: str | None = None) -> list[HandRecord]:
    """Every stud hand of ``text`` in format ``fmt`` (else told from the text: PHH, PokerStars or a room)."""
    name = fmt if fmt is not None else _format_of_text(text)
    if name not in FORMATS:
        raise HistoryFileError(f"unknown format {name!r}: use {', '.join(FORMATS)}")
    if name == "phh":
        return phh.loads(text)
    if name == "pokerstars":
        from . import pokerstars

        return pokerstars.loads(text)
    return sites.loads(text, name)


def dumps(records: HandRecord | Iterable[HandRecord], fmt: str = "phh") -> str:
    """``records`` (one or several) as text: PHH (a ``.phh`` for one record, a ``.phhs`` for several) or
    PokerStars text; a room's format raises :class:`~studpoker.history.sites.SiteError` (read, not written)."""
    if fmt == "phh":
        return phh.dumps(records)
    if fmt == "pokerstars":
        from . import pokerstars

        return pokerstars.dumps(records)
    if fmt in FORMATS:
        return sites.dumps(records, fmt)
    raise HistoryFileError(f"unknown format {fmt!r}: use {', '.join(FORMATS)}")


def dump(records: HandRecord | Iterable[HandRecord], path: str | Path, fmt: str | None = None) -> None:
    """Write ``records`` to ``path`` a hand at a time (format from ``fmt``, else the extension: ``.phh``/``.phhs``
    PHH, ``.txt`` PokerStars); nothing is written if a hand cannot be."""
    if fmt is not None and fmt not in ("phh", "pokerstars"):
        dumps(records, fmt)  # raises: a room's export is read, not written, or the format is unknown
    write([records] if isinstance(records, HandRecord) else list(records), Path(path), fmt)


def load_each(path: str | Path, fmt: str | None = None) -> Iterator[FileHand]:
    """Every hand of the file at ``path`` read on its own, a hand at a time (:class:`FileHand`: its record, or the
    error that kept it from being read, or the game it was skipped as): one bad hand costs only itself."""
    return iter_each(Path(path), fmt)


def _format_of_text(text: str) -> str:
    """The format of a text: a room's (or PokerStars') when one recognises its first lines, else PHH."""
    room = sites.detect(text)
    return room if room is not None else "phh"
