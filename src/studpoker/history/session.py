"""Saving and loading table sessions as PHH: every hand of a :class:`~studpoker.table.Table` in one ``.phhs`` file.

The file is a standard ``.phhs`` (any PHH reader replays its hands); the table itself (who sits where
with how many chips, the money counters) travels in the user field ``_session`` of the last hand, as
the table stood when the file was written.

>>> from studpoker.engine import Rules, Variant
>>> from studpoker.bots import CallingStation, play_hand
>>> from studpoker.table import Table
>>> table = Table(Rules(Variant.RAZZ, ante=1, bring_in=2, small_bet=4, big_bet=8), seed=5)
>>> table.sit("Ann", 80), table.sit("Bob", 100)
(1, 2)
>>> for _ in range(3):
...     play_hand(table, {1: CallingStation(), 2: CallingStation()})
>>> again = loads_session(dumps_session(table))
>>> [(s.name, s.stack) for s in again.occupied] == [(s.name, s.stack) for s in table.occupied]
True
>>> len(again.hands), again.hand_number, again.money_in
(3, 3, 180)
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from ..table import PlayedHand, Table, TableError
from . import phh
from .model import HandRecord
from .record import record_hand
from .replay import ReplayError, replay
from .text import HistoryFileError, read_text

__all__ = ["dumps_session", "load_session", "loads_session", "save_session", "session_records"]


def session_records(table: Table) -> list[HandRecord]:
    """Every finished hand of the table as a record (names, seat numbers, hand number and table name)."""
    return [
        record_hand(hand.state, players=hand.names, seats=hand.seats, info={"hand": hand.number, "table": table.name})
        for hand in table.hands
    ]


def dumps_session(table: Table) -> str:
    """The session as ``.phhs`` text; the table's state goes in the last hand's ``_session`` field.

    A table must have played a hand to be written (:class:`~studpoker.table.TableError` otherwise), and is
    written between hands."""
    records = session_records(table)
    if not records:
        raise TableError("no hand has been played at this table: there is nothing to save")
    snapshot = {k: v for k, v in table.snapshot().items() if v is not None}
    records[-1] = replace(records[-1], extra={**records[-1].extra, "_session": snapshot})
    return phh.dumps(records)


def save_session(table: Table, path: Path) -> None:
    """Write the session to ``path`` (a ``.phhs`` file); :class:`HistoryFileError` names the file on failure."""
    text = dumps_session(table)
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise HistoryFileError(f"{path}: {error.strerror or error}") from None


def loads_session(text: str) -> Table:
    """A table from :func:`dumps_session`'s text: its hands replayed, its seats and counters as saved."""
    records = phh.loads(text)
    if not records:
        raise HistoryFileError("a session file holds at least one hand")
    snapshot: Any = records[-1].extra.get("_session")
    if not isinstance(snapshot, dict):
        raise HistoryFileError("not a studpoker session: the last hand has no _session table")
    hands = []
    for i, record in enumerate(records):
        label = f"hand [{i + 1}]"
        try:
            state = replay(record, label).state
        except ReplayError as error:
            raise HistoryFileError(str(error)) from None
        if not state.is_over:
            raise HistoryFileError(f"{label} is not finished")
        number = record.info.get("hand", i + 1)
        hands.append(PlayedHand(number if isinstance(number, int) else i + 1, state, record.seats, record.players))
    try:
        return Table.restore(records[-1].rules, snapshot, hands)
    except TableError as error:
        raise HistoryFileError(f"_session: {error}") from None


def load_session(path: Path) -> Table:
    """A table from the session file at ``path``."""
    text = read_text(path, HistoryFileError)
    try:
        return loads_session(text)
    except (phh.PHHError, HistoryFileError) as error:
        raise HistoryFileError(f"{path}: {error}") from None
