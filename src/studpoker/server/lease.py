"""Table leases in PostgreSQL: which worker drives a table, and the fence that stops one that lost it.

A table worker claims tables whose lease has expired (``claim``), renews its own every second or so (``renew``)
and gives them back when it stops (``release``). Each change of owner adds one to the lease's ``generation``.
Every transaction of a table's actor on a worker runs through :class:`FencedDatabase`, which first locks the
lease row (``SELECT ... FOR UPDATE``) and checks that its generation is still the one the worker claimed: a worker
that was paused or cut off past its lease, and whose tables another worker has taken since, can never write again
(its transaction raises :class:`LeaseLostError` and rolls back). The lock also orders a takeover after a write in
progress: the new owner voids the hand only once the old owner's last write has committed or rolled back.

Expiry times are the database's clock (``clock_timestamp()``), so the hosts need not agree on the time. The
distributed room needs PostgreSQL (``FOR UPDATE ... SKIP LOCKED``); the embedded room (SQLite, one process) has no
leases.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy import text
from sqlalchemy.orm import Session

from .db import Database
from .driversql import DriverStatement, DriverTransaction

__all__ = ["FencedDatabase", "LeaseLostError", "claim", "lease_of", "release", "renew"]

T = TypeVar("T")
W = TypeVar("W", Session, DriverTransaction)  # where fenced work runs: a session, or the driver's own transaction

_NOW = "extract(epoch from clock_timestamp())"
#: the lease row locked before each of a table's transactions (on the driver's cursor: it runs with every one)
_FENCE = DriverStatement("SELECT generation FROM table_leases WHERE table_id = :table FOR UPDATE")


class LeaseLostError(RuntimeError):
    """This worker's lease on a table has passed to another worker: nothing of the transaction was written."""


def claim(session: Session, worker: str, seconds: float, limit: int) -> list[tuple[int, int]]:
    """Take at most ``limit`` tables that are not closed and whose lease has expired (or that have none yet):
    ``[(table id, generation)]``, each generation one more than the last owner's. Rows another worker is taking
    at the same moment are skipped, not waited for."""
    session.execute(
        text(
            "INSERT INTO table_leases (table_id, worker, generation, expires_at) "
            "SELECT t.id, NULL, 0, 0 FROM tables t WHERE t.status != 'closed' "
            "AND NOT EXISTS (SELECT 1 FROM table_leases l WHERE l.table_id = t.id) ON CONFLICT DO NOTHING"
        )
    )
    if limit <= 0:
        return []
    rows = session.execute(
        text(
            f"UPDATE table_leases SET worker = :worker, generation = generation + 1, expires_at = {_NOW} + :seconds "
            "WHERE table_id IN (SELECT l.table_id FROM table_leases l JOIN tables t ON t.id = l.table_id "
            f"WHERE t.status != 'closed' AND l.expires_at < {_NOW} ORDER BY l.table_id LIMIT :limit "
            "FOR UPDATE OF l SKIP LOCKED) RETURNING table_id, generation"
        ),
        {"worker": worker, "seconds": seconds, "limit": limit},
    ).all()
    return sorted((int(t), int(g)) for t, g in rows)


def renew(session: Session, worker: str, seconds: float) -> dict[int, int]:
    """Extend every lease ``worker`` holds by ``seconds`` from now: ``{table id: generation}`` of those it still
    holds (a table missing from the answer, or with another generation, has been taken by another worker)."""
    rows = session.execute(
        text(
            f"UPDATE table_leases SET expires_at = {_NOW} + :seconds WHERE worker = :worker "
            "RETURNING table_id, generation"
        ),
        {"worker": worker, "seconds": seconds},
    ).all()
    return {int(t): int(g) for t, g in rows}


def release(session: Session, worker: str, tables: list[int] | None = None) -> int:
    """Give back ``worker``'s leases (all of them, or those of ``tables``) so another worker may claim them at
    once; the generations stay, so the next owner's is still one more. Returns how many were given back."""
    where = "worker = :worker" + (" AND table_id = ANY(:tables)" if tables is not None else "")
    done = session.execute(
        text(f"UPDATE table_leases SET worker = NULL, expires_at = 0 WHERE {where}"),
        {"worker": worker, "tables": tables},
    )
    return int(done.rowcount)  # type: ignore[attr-defined]


def lease_of(session: Session, tables: list[int]) -> dict[int, tuple[str | None, int]]:
    """``{table id: (worker, generation)}`` of the leases of ``tables`` that are live (not expired)."""
    if not tables:
        return {}
    rows = session.execute(
        text(
            "SELECT table_id, worker, generation FROM table_leases "
            f"WHERE table_id = ANY(:tables) AND expires_at >= {_NOW} AND worker IS NOT NULL"
        ),
        {"tables": tables},
    ).all()
    return {int(t): (w, int(g)) for t, w, g in rows}


class FencedDatabase:
    """The database as one table's actor on a worker sees it: every unit of work runs only while the lease's
    generation is still ``generation`` (checked under the lease row's lock, in the same transaction).

    ``on_lost`` is called (on the event loop) the first time a transaction finds the lease gone.
    """

    def __init__(self, db: Database, table_id: int, generation: int, on_lost: Callable[[], None]) -> None:
        self.db = db
        self.table_id = table_id
        self.generation = generation
        self.on_lost = on_lost

    def _fenced(self, work: Callable[[W], T]) -> Callable[[W], T]:
        def fenced(where: W) -> T:
            row = _FENCE.first(where, {"table": self.table_id})
            now = None if row is None else row[0]
            if now is None or int(now) != self.generation:
                raise LeaseLostError(
                    f"table {self.table_id}: lease generation {self.generation} has passed (now {now}): not written"
                )
            return work(where)

        return fenced

    async def run(self, work: Callable[[Session], T]) -> T:
        return await self._told(self.db.run(self._fenced(work)))

    async def run_driver(self, work: Callable[[DriverTransaction], T]) -> T:
        return await self._told(self.db.run_driver(self._fenced(work)))

    async def _told(self, fenced: Awaitable[T]) -> T:
        """``fenced``'s result; a lease found gone is told (``on_lost``) before its error is raised."""
        try:
            return await fenced
        except LeaseLostError:
            self.on_lost()
            raise
