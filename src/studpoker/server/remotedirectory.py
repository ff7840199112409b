"""Where each table lives, as a gateway knows it: :class:`RemoteDirectory`, the gateway's
:class:`~studpoker.server.directory.Directory`.

A table is found in the workers' lobby cache in Redis (each worker writes its tables' entries every second), or, for
a table between owners, from the database; what is asked of it goes to its worker over the gateway's
:class:`~studpoker.server.remote.TableLink`. The lobby is the database's list of open tables with each table's entry
from that cache, built at most once every :data:`LOBBY_SECONDS`. A new table gets its lease row, the workers are told
to claim it, and the answer waits (up to :data:`CLAIM_SECONDS`) until one of them has it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from . import bus as channels
from .actor import table_info
from .bus import Bus, dropped, info_key
from .config import Settings
from .db import Database, LeaseRow, SeatRow, TableRow
from .errors import ApiError
from .handle import TableHandle
from .messages import BadMessage, Claim, TableEntry, decode_entry, encode
from .names import look_key, name_key
from .protocol import SeatState, TableSummary
from .remote import RemoteTable, TableLink
from .tablehost import hands_played, rules_of, turn_of

__all__ = ["CLAIM_SECONDS", "LOBBY_SECONDS", "RemoteDirectory"]

log = logging.getLogger("studpoker.server")

#: How long a new table waits for a worker to take it before the request is answered anyway.
CLAIM_SECONDS = 10.0
#: How long the gateway's lobby is used again before it is built anew.
LOBBY_SECONDS = 1.0


class RemoteDirectory:
    """The tables as a gateway finds them (see the module's docstring)."""

    def __init__(self, settings: Settings, db: Database, bus: Bus, link: TableLink, gateway_id: str) -> None:
        self.settings = settings
        self.gateway_id = gateway_id
        self.db = db
        self.bus = bus
        self.link = link  # the gateway: what a RemoteTable asks of its worker goes through it
        self._lobby: tuple[float, list[TableSummary]] = (-LOBBY_SECONDS, [])
        self._lobby_lock = asyncio.Lock()
        self._lobby_entries: dict[int, TableEntry] = {}  # the lobby's entries read from the database

    async def find_table(self, table_id: int) -> TableHandle:
        entry = await self._cached(table_id)
        if entry is None:
            # not in the workers' cache: before asking PostgreSQL, the lobby (built at most once a second however
            # many ask) says whether the table is open at all, and holds the entries it read from the database. A
            # client asking for made-up or closed tables (HTTP or socket, no login needed) costs the database
            # nothing more, as in the embedded room, where this is a lookup in memory.
            if table_id not in {info["id"] for info in await self.table_infos()}:
                raise ApiError(404, "not_found", f"there is no open table {table_id}")
            entry = self._lobby_entries.get(table_id)
        if entry is None:
            entries = await self._from_database([table_id])
            if not entries:
                raise ApiError(404, "not_found", f"there is no open table {table_id}")
            entry = entries[0]
        return RemoteTable(self.link, entry)

    async def _cached(self, table_id: int) -> TableEntry | None:
        try:
            raw = await self.bus.redis.get(info_key(table_id))
        except Exception:
            return None
        return self._entry(table_id, raw) if raw else None

    @staticmethod
    def _entry(table_id: int, raw: str) -> TableEntry | None:
        """A lobby entry from the workers' cache (``None``, and logged, if it is none: the database is asked)."""
        try:
            return decode_entry(str(raw))
        except BadMessage as error:
            dropped(info_key(table_id), error)
            return None

    async def _from_database(self, tables: list[int]) -> list[TableEntry]:
        """Lobby entries of those of ``tables`` that are open, from the database alone: the seats as last saved,
        the average pot of the last 100 hands."""
        settings = self.settings

        def work(session: Session) -> list[TableEntry]:
            query = select(TableRow).where(TableRow.status != "closed", TableRow.id.in_(tables)).order_by(TableRow.id)
            entries = []
            for row in session.scalars(query).all():
                seats = list(
                    session.scalars(select(SeatRow).where(SeatRow.table_id == row.id).order_by(SeatRow.seat)).all()
                )
                count, pots = hands_played(session, row.id)
                rules = rules_of(row)
                info = table_info(
                    row,
                    rules,
                    settings,
                    seats_taken=len(seats),
                    hands_played=count,
                    pots=pots,
                    playing=False,
                    turn=turn_of(row),
                )
                seat_list: list[SeatState] = [
                    {
                        "seat": s.seat,
                        "name": s.name,
                        "stack": s.stack,
                        "bot": s.bot_tag is not None,
                        "sitting_out": s.sitting_out,
                        "leaving": s.leaving,
                        "queued": s.queued,
                        "connected": s.bot_tag is not None,
                    }
                    for s in seats
                ]
                entries.append(TableEntry(info=info, seats=seat_list))
            return entries

        return await self.db.run(work)

    async def table_infos(self) -> list[TableSummary]:
        """The lobby, built at most once every :data:`LOBBY_SECONDS` however many ask (one request builds it, the
        others wait for it): a client hammering ``GET /api/tables`` costs the database nothing more."""
        async with self._lobby_lock:
            made, tables = self._lobby
            if time.monotonic() - made >= LOBBY_SECONDS:
                tables = await self._build_lobby()
                self._lobby = (time.monotonic(), tables)
        return tables

    async def _build_lobby(self) -> list[TableSummary]:
        ids = await self.db.run(
            lambda s: list(
                s.scalars(select(TableRow.id).where(TableRow.status != "closed").order_by(TableRow.id)).all()
            )
        )
        if not ids:
            self._lobby_entries = {}
            return []
        try:
            raws = await self.bus.redis.mget([info_key(i) for i in ids])
        except Exception:
            raws = [None] * len(ids)
        cached = {i: self._entry(i, raw) for i, raw in zip(ids, raws, strict=True) if raw}
        found = {i: entry.info for i, entry in cached.items() if entry is not None}
        missing = [i for i in ids if i not in found]
        entries = await self._from_database(missing) if missing else []
        for entry in entries:
            found[entry.id] = entry.info
        self._lobby_entries = {entry.id: entry for entry in entries}
        return [found[i] for i in ids if i in found]

    async def seats_of(self, account_id: int) -> list[dict[str, Any]]:
        def work(session: Session) -> list[dict[str, Any]]:
            rows = session.execute(
                select(SeatRow, TableRow.name)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.account_id == account_id, TableRow.status != "closed")
                .order_by(SeatRow.table_id)
            ).all()
            return [
                {
                    "table_id": seat.table_id,
                    "table": name,
                    "seat": seat.seat,
                    "stack": seat.stack,
                    "queued": seat.queued,
                    "sitting_out": seat.sitting_out,
                }
                for seat, name in rows
            ]

        return await self.db.run(work)

    async def open_tables(self, owner: int | None, name: str) -> tuple[int, int, str | None]:
        key, look = name_key(name), look_key(name)

        def work(session: Session) -> tuple[int, int, str | None]:
            open_ = TableRow.status != "closed"
            total = int(session.scalar(select(func.count(TableRow.id)).where(open_)) or 0)
            mine = 0
            if owner is not None:
                mine = int(
                    session.scalar(select(func.count(TableRow.id)).where(open_, TableRow.created_by == owner)) or 0
                )
            # another gateway may open a twin between this look and the insert: the unique indexes refuse it then
            twin = session.scalar(
                select(TableRow.name).where(open_, (TableRow.name_key == key) | (TableRow.name_look == look)).limit(1)
            )
            return total, mine, twin

        return await self.db.run(work)

    async def opened(self, row: TableRow) -> TableHandle:
        """A new table: its lease row, a word to the workers, and its lobby entry once one of them has it."""

        def work(session: Session) -> None:
            if session.get(LeaseRow, row.id) is None:
                session.add(LeaseRow(table_id=row.id, worker=None, generation=0, expires_at=0.0))

        with contextlib.suppress(IntegrityError):
            await self.db.run(work)
        await self.bus.publish(channels.ROOM, encode(Claim()))
        self._lobby = (-LOBBY_SECONDS, [])  # the creator's next look at the lobby shows the table
        deadline = time.monotonic() + CLAIM_SECONDS
        while time.monotonic() < deadline:
            entry = await self._cached(row.id)
            if entry is not None:
                return RemoteTable(self.link, entry)
            await asyncio.sleep(0.05)
        log.warning(
            "gateway %s: no table worker took the new table %s within %.0f s", self.gateway_id, row.id, CLAIM_SECONDS
        )
        return await self.find_table(row.id)
