"""The dealer's journal: every entry the dealer makes, as a small JSON-ready dict, and the journal file.

A session is a pure function of its sign and its journal (``DealerSession.from_journal``), so the file is all a
tablet needs to pick up where it was switched off. The file is JSON lines: the sign first, then one line an entry,
each appended and fsync'd as it is made (:func:`append`), so an entry the console accepted is on disk.

>>> check_entry({"entry": "buy-in", "seat": 3, "name": "Ann", "chips": 200})
{'entry': 'buy-in', 'seat': 3, 'name': 'Ann', 'chips': 200}
>>> check_entry({"entry": "card", "seat": 3})
Traceback (most recent call last):
    ...
studpoker.console.journal.JournalError: a card entry needs 'card' (text such as 'Ah', or '??' for an unknown down card)
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .sign import ConsoleError, Sign

__all__ = ["ENTRY_KINDS", "Entry", "JournalError", "append", "check_entry", "load", "save"]

#: One dealer entry, JSON-ready: ``{"entry": kind, ...}``.
Entry = dict[str, Any]


class JournalError(ConsoleError):
    """A journal entry or file that cannot be read back (the message names the line)."""


def _seat(value: object) -> bool:
    return type(value) is int and value >= 1


def _chips(value: object) -> bool:
    return type(value) is int and value > 0


def _card(value: object) -> bool:
    return isinstance(value, str) and 2 <= len(value) <= 3


#: Each kind of entry, its fields and a check of each (``None`` allowed where the field may be absent).
ENTRY_KINDS: dict[str, dict[str, tuple[Any, str]]] = {
    "buy-in": {
        "seat": (_seat, "a seat number from 1"),
        "name": (lambda v: isinstance(v, str) and v.strip() != "", "the player's name"),
        "chips": (_chips, "a whole number of chips"),
    },
    "top-up": {"seat": (_seat, "a seat number from 1"), "chips": (_chips, "a whole number of chips")},
    "leave": {"seat": (_seat, "a seat number from 1")},
    "start": {"hand": (lambda v: type(v) is int and v >= 1, "the hand's number")},
    "card": {
        "seat": (lambda v: v is None or _seat(v), "the seat dealt to (null for the community card)"),
        "card": (_card, "text such as 'Ah', or '??' for an unknown down card"),
    },
    "action": {
        "seat": (_seat, "the seat that acts"),
        "action": (lambda v: isinstance(v, str) and v != "", "the action's kind, such as 'raise'"),
        "amount": (lambda v: type(v) is int and v >= 0, "the round total in chips (0 for fold or check)"),
    },
    "reveal": {
        "seat": (_seat, "the seat that shows"),
        "cards": (lambda v: isinstance(v, list) and v != [] and all(_card(c) for c in v), "the cards shown"),
    },
    "irregularity": {
        "case": (lambda v: isinstance(v, str) and v != "", "the irregularity, such as 'misdeal'"),
        "seat": (lambda v: v is None or _seat(v), "the seat it concerns (null for none)"),
        "card": (lambda v: v is None or _card(v), "the card it concerns (null for none)"),
    },
}


def check_entry(obj: object) -> Entry:
    """``obj`` if it is a well-formed entry (every field of its kind, of the right type, and no other); else
    :class:`JournalError` saying what is wrong. Whether the entry is allowed at that point is the session's
    business."""
    if not isinstance(obj, dict):
        raise JournalError(f"an entry is a JSON object, got {obj!r}")
    kind = obj.get("entry")
    fields = ENTRY_KINDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise JournalError(f"unknown entry {kind!r}: entries are {', '.join(ENTRY_KINDS)}")
    for name, (check, what) in fields.items():
        if name not in obj:
            raise JournalError(f"a {kind} entry needs {name!r} ({what})")
        if not check(obj[name]):
            raise JournalError(f"a {kind} entry's {name!r} must be {what}, got {obj[name]!r}")
    extra = sorted(set(obj) - set(fields) - {"entry"})
    if extra:
        raise JournalError(f"a {kind} entry has no field {extra[0]!r}")
    return obj


def _line(data: object) -> bytes:
    return (json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def _fsync_folder(path: Path) -> None:
    """Make a file's new name in its folder durable too (where the system allows opening a folder)."""
    try:
        folder = os.open(path.parent, os.O_RDONLY)
    except OSError:  # pragma: no cover - not on every system
        return
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def save(path: str | os.PathLike[str], sign: Sign, entries: Iterable[Entry]) -> None:
    """Write a whole journal file (the sign, then each entry), replacing any file there, and fsync it. The file is
    written beside and then renamed over the old one, so a tablet switched off meanwhile keeps one or the other."""
    target = Path(os.path.realpath(path))  # a link to the journal stays a link: its file is rewritten
    data = [_line({"sign": sign.to_json()}), *(_line(check_entry(e)) for e in entries)]
    temporary = target.with_name(target.name + ".tmp")
    with open(temporary, "wb") as out:
        out.writelines(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, target)
    _fsync_folder(target)


def append(path: str | os.PathLike[str], entry: Entry) -> None:
    """Append one entry to a journal file :func:`save` began, and fsync it before returning: a tablet switched off
    a moment later loses nothing it accepted. :class:`JournalError` if there is no such file (``save`` first)."""
    data = _line(check_entry(entry))
    try:
        out = open(path, "r+b")  # noqa: SIM115 - closed below; "r+" refuses a file that does not exist
    except FileNotFoundError:
        raise JournalError(f"no journal at {Path(path).name} (moved or deleted?)") from None
    with out:
        out.seek(0, os.SEEK_END)
        out.write(data)
        out.flush()
        os.fsync(out.fileno())


def load(path: str | os.PathLike[str]) -> tuple[Sign, list[Entry]]:
    """The sign and the entries of a journal file. A file that is not one (a line that is not JSON, such as a last
    line cut short, an entry that is not well formed, no sign first) is refused with a :class:`JournalError`
    naming the line; nothing is guessed."""
    name = Path(path).name
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise JournalError(f"{name} is not a journal: not UTF-8 text ({error.reason})") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise JournalError(f"{name} is empty: a journal begins with the table's sign")
    sign: Sign | None = None
    entries: list[Entry] = []
    for number, line in enumerate(lines, 1):
        try:
            item = json.loads(line)
        except json.JSONDecodeError as error:
            cut = " (cut short?)" if number == len(lines) and not text.endswith("\n") else ""
            raise JournalError(f"{name} line {number} is not JSON{cut}: {error.msg}") from None
        except (ValueError, RecursionError) as error:  # a number of thousands of digits, nesting past the stack
            what = "nested too deep" if isinstance(error, RecursionError) else str(error)
            raise JournalError(f"{name} line {number} cannot be read: {what}") from None
        try:
            if sign is None:
                if not isinstance(item, dict) or set(item) != {"sign"}:
                    raise JournalError('it must be the table\'s sign, {"sign": {...}}')
                sign = Sign.from_json(item["sign"])
            else:
                entries.append(check_entry(item))
        except ConsoleError as error:
            raise JournalError(f"{name} line {number}: {error}") from None
    assert sign is not None
    return sign, entries
