"""The HUD's counts: what each account did in the room's hands, summed per game (docs/server.md "HUD").

When a hand finishes, the books (:meth:`studpoker.server.books.Books.close_hand`) replay its full PHH
(:func:`studpoker.history.phh.loads_hand`, :func:`studpoker.history.audit.verify`), take each player's counts
(:func:`studpoker.tracker.counts.player_hands`) and add those of the seated accounts to their row of ``hud_counts``
(one per account and game, one column per count field of :data:`~studpoker.tracker.counts.COUNT_FIELDS`), in the
same transaction as the hand's row. Bots count nothing (a bot's seat is no account, and its tag is reused by other
bots); a voided hand never reaches the books and counts nothing. Only the sums leave the server: never a card,
never the hand itself.

The columns are the count fields of revision 0012 (``migrations/versions/0012_hud_counts.py``); a change of
:data:`COUNT_FIELDS` comes with a revision that adds the new columns, then :func:`rebuild_counts` sums every stored
hand again (tests/server/test_hud.py checks that the migrated table has every field).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import BigInteger, Column, Float, ForeignKey, Integer, String, Table, delete, select
from sqlalchemy.orm import Session

from ..history import phh
from ..history.audit import verify
from ..tracker.counts import COUNT_FIELDS, PlayerHand, player_hands
from .db import Base, HandRow
from .driversql import DriverStatement, DriverTransaction

__all__ = ["COUNT_TYPES", "add_counts", "hand_counts", "hud_counts", "rebuild_counts", "totals_of"]

log = logging.getLogger(__name__)

#: Each count field's Python type (``int`` or ``float``), as :class:`PlayerHand` declares it.
COUNT_TYPES: dict[str, type] = {
    f.name: (float if f.type in (float, "float") else int)
    for f in dataclasses.fields(PlayerHand)
    if f.name in COUNT_FIELDS
}

#: One row per account and game: the sums of its counts over the room's finished hands.
hud_counts = Table(
    "hud_counts",
    Base.metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("variant", String(12), primary_key=True),
    *(Column(name, Float if COUNT_TYPES[name] is float else BigInteger, nullable=False) for name in COUNT_FIELDS),
)

_NAMES = ", ".join(f'"{name}"' for name in COUNT_FIELDS)
_VALUES = ", ".join(f":{name}" for name in COUNT_FIELDS)
_SUMS = ", ".join(f'"{name}" = hud_counts."{name}" + excluded."{name}"' for name in COUNT_FIELDS)
#: Add one account's counts of one hand to its row (made if it has none): SQLite and PostgreSQL alike.
_ADD = DriverStatement(
    f"INSERT INTO hud_counts (account_id, variant, {_NAMES}) VALUES (:account_id, :variant, {_VALUES}) "
    f"ON CONFLICT (account_id, variant) DO UPDATE SET {_SUMS}"
)


def hand_counts(text: str, players: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The rows to add for one finished hand: its full PHH ``text`` replayed and checked, the counts of each
    player of ``players`` (the hand row's: ``seat`` and ``account_id``) who is an account, with its game. A hand
    that does not replay, or counts that fail, count nothing (logged: the table deals on)."""
    accounts = {p.get("seat"): p.get("account_id") for p in players}
    try:
        record = phh.loads_hand(text)
        rows = player_hands(record, verify(record))
    except Exception:
        log.warning("a finished hand's counts could not be taken; it counts nothing in the HUD", exc_info=True)
        return []
    variant = record.rules.variant.value
    out = []
    for row in rows:
        account = accounts.get(row.seat)
        if isinstance(account, int):  # a bot's seat has none
            out.append({"account_id": account, "variant": variant, **{f: getattr(row, f) for f in COUNT_FIELDS}})
    return out


def add_counts(where: Session | DriverTransaction, rows: Sequence[Mapping[str, Any]]) -> None:
    """Add :func:`hand_counts`'s rows to ``hud_counts``, in the transaction of ``where``."""
    if rows:
        started = time.perf_counter()
        _ADD.run_many(where, rows)
        log.debug("hud counts: %d rows in %.2f ms", len(rows), (time.perf_counter() - started) * 1000)


def rebuild_counts(session: Session, batch: int = 500) -> int:
    """Sum every finished hand of the room again (``hud_counts`` emptied first): after a revision added count
    fields, or to count the hands finished before revision 0012. Returns the hands read."""
    session.execute(delete(hud_counts))
    done, last = 0, 0
    while True:
        query = select(HandRow.id, HandRow.phh, HandRow.players).where(HandRow.status == "finished", HandRow.id > last)
        page = session.execute(query.order_by(HandRow.id).limit(batch)).all()
        if not page:
            return done
        for hand_id, text, players in page:
            last = hand_id
            if text:
                add_counts(session, hand_counts(text, players or []))
                done += 1


def totals_of(session: Session, accounts: Sequence[int], variant: str) -> dict[int, dict[str, float]]:
    """The summed counts of ``accounts`` in the game ``variant`` (an account without a row: none)."""
    if not accounts:
        return {}
    fields = [hud_counts.c[name] for name in COUNT_FIELDS]
    query = select(hud_counts.c.account_id, *fields).where(
        hud_counts.c.account_id.in_(accounts), hud_counts.c.variant == variant
    )
    return {row[0]: dict(zip(COUNT_FIELDS, row[1:], strict=True)) for row in session.execute(query)}
