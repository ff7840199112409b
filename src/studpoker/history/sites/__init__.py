"""Hand histories of the poker rooms that dealt stud: one reader per room, found by looking at the file.

>>> from studpoker.history import sites
>>> sites.ROOMS[:4]
('absolute', 'bovada', 'everleaf', 'fulltilt')

:func:`detect` names the room of a text; :func:`loads_each` reads every hand of it (the room detected, or
forced with ``room=``) into :class:`SiteHand` entries: a :class:`~studpoker.history.HandRecord`, or the
:class:`SiteError` that kept it from being read, or the game of a hand outside the four (skipped).
:func:`verify` replays a record through the engine under the room's rules and checks every amount the
file states (:mod:`~studpoker.history.sites.check`). :func:`decode` reads a file's bytes, its encoding
detected (BOMs, UTF-16, UTF-8, Windows-1252).

Each room module (``studpoker.history.sites.<room>``) has ``TITLE``, ``OPTIONS`` (the room's table rules,
with the evidence from its files), ``detect(text)`` and ``loads_each(text)``; a room whose hands begin at a line
of their own also ``starts_hand(line)`` and ``read_hand(lines, first)``, and the XML rooms (iPoker, Merge)
``read_pieces(pieces, limit, too_long)``, so that :func:`~studpoker.history.files.iter_each` reads their files a
hand at a time.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from ..model import HandRecord
from ..replay import ReplayResult
from .base import HandBuilder, NotStudGameError, SiteError, Stated, StatedAction, StatedAmount, decode
from .check import check as check_stated
from .check import verify as verify_stated

__all__ = [
    "ROOMS",
    "HandBuilder",
    "NotStudGameError",
    "SiteError",
    "SiteHand",
    "Stated",
    "StatedAction",
    "StatedAmount",
    "check",
    "decode",
    "detect",
    "dump",
    "dumps",
    "load",
    "load_each",
    "loads",
    "loads_each",
    "options",
    "room",
    "title",
    "verify",
]

#: The rooms, by the name ``--from`` takes (and their module's name).
ROOMS: tuple[str, ...] = (
    "absolute",
    "bovada",
    "everleaf",
    "fulltilt",
    "ipoker",
    "kingsclub",
    "merge",
    "ongame",
    "partypoker",
    "pokerstars",
    "winamax",
    "winning",
)

#: How much of a text :func:`detect` looks at.
HEAD = 4096


def room(name: str) -> ModuleType:
    """The reader module of room ``name`` (one of :data:`ROOMS`)."""
    if name not in ROOMS:
        raise SiteError(f"unknown room {name!r}: use one of {', '.join(ROOMS)}")
    return importlib.import_module(f"{__name__}.{name}")


def title(name: str) -> str:
    """The room's name as players know it (``"Full Tilt Poker"``)."""
    return str(room(name).TITLE)


def options(name: str) -> Mapping[str, Any]:
    """The room's table rules on top of the ``casino`` preset (SPEC section 2 names)."""
    found: Mapping[str, Any] = room(name).OPTIONS
    return found


def detect(text: str) -> str | None:
    """The room whose reader recognises ``text`` (its first :data:`HEAD` characters), or None."""
    head = text.lstrip("\ufeff \t\n")[:HEAD]
    for name in ROOMS:
        if room(name).detect(head):
            return name
    return None


@dataclass(frozen=True, slots=True)
class SiteHand:
    """One hand of a room's file: ``number`` (its place, from 1), ``line`` (where it starts), then its
    ``record``, or the ``error`` that kept it from being read, or ``skipped``: the game of a hand outside
    the four."""

    number: int
    line: int
    record: HandRecord | None = None
    error: SiteError | None = None
    skipped: str | None = None


def loads_each(text: str, room_name: str | None = None) -> tuple[str, list[SiteHand]]:
    """The room (``room_name``, else detected) and every hand of ``text``, each read on its own."""
    name = room_name or detect(text)
    if name is None:
        raise SiteError("not a hand history of any room we read (" + ", ".join(ROOMS) + ")")
    hands: list[SiteHand] = []
    for number, (line, found) in enumerate(room(name).loads_each(text), 1):
        if isinstance(found, NotStudGameError):
            hands.append(SiteHand(number, line, skipped=found.game))
        elif isinstance(found, SiteError):
            hands.append(SiteHand(number, line, error=found))
        else:
            hands.append(SiteHand(number, line, record=found))
    return name, hands


def loads(text: str, room_name: str | None = None) -> list[HandRecord]:
    """Every stud hand of ``text`` (the room ``room_name``, else detected), in order; hands of other games are left
    out, and the first hand that cannot be read raises its :class:`SiteError`."""
    records: list[HandRecord] = []
    for hand in loads_each(text, room_name)[1]:
        if hand.error is not None:
            raise hand.error
        if hand.record is not None:
            records.append(hand.record)
    return records


def load(path: str | Path, room_name: str | None = None) -> list[HandRecord]:
    """:func:`loads` of the file at ``path`` (its encoding detected)."""
    return loads(_read(path), room_name)


def dumps(records: HandRecord | Iterable[HandRecord], room_name: str) -> str:
    """Rooms' files are read, not written: a :class:`SiteError` that says so and what to write instead (the verb
    is here so that every format answers the same four)."""
    raise SiteError(
        f"studpoker reads {title(room_name)} hand histories but does not write them: write PHH (phh.dumps) or"
        " PokerStars text (pokerstars.dumps)"
    )


def dump(records: HandRecord | Iterable[HandRecord], path: str | Path, room_name: str) -> None:
    """As :func:`dumps`: a :class:`SiteError`, nothing written."""
    dumps(records, room_name)


def _read(path: str | Path) -> str:
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise SiteError(f"{path}: {error.strerror or error}") from None
    return decode(data)


def load_each(path: str | Path, room_name: str | None = None) -> tuple[str, list[SiteHand]]:
    """:func:`loads_each` of the file at ``path`` (its encoding detected)."""
    return loads_each(_read(path), room_name)


def check(record: HandRecord, result: ReplayResult) -> list[tuple[int | None, str]]:
    """What the record's file states that its replay contradicts: (line, sentence) each."""
    return [(line, text) for line, text in check_stated(record, result)]


def verify(record: HandRecord) -> ReplayResult:
    """Replay and check a record of any room; :class:`SiteError` names the room, hand and line at fault."""
    if not isinstance(record.info.get("stated"), Stated):
        raise SiteError("this record was not read from a room's file: nothing to check")
    return verify_stated(record)
