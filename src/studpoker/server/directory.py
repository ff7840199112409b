"""Where each table lives, as the routes and the table maker ask it: :class:`Directory`.

The one-process room's is :class:`LocalDirectory`, over its :class:`~studpoker.server.tablehost.TableHost` (every
table is an actor in this process). A gateway's is :class:`~studpoker.server.remotedirectory.RemoteDirectory`, over
the workers' lobby cache, the database and calls to the table's worker.
"""

from __future__ import annotations

from typing import Any, Protocol

from .db import TableRow
from .handle import TableHandle
from .names import look_alike
from .protocol import TableSummary
from .tablehost import TableHost

__all__ = ["Directory", "LocalDirectory"]


class Directory(Protocol):
    """Finding the open tables, their lobby, an account's seats, and running a table just written."""

    async def find_table(self, table_id: int) -> TableHandle:
        """An open table, to read and to ask things of, or :class:`~studpoker.server.errors.ApiError` 404."""
        ...

    async def table_infos(self) -> list[TableSummary]:
        """The lobby: every open table's info, by id."""
        ...

    async def seats_of(self, account_id: int) -> list[dict[str, Any]]:
        """The seats an account holds, as ``/api/me`` lists them."""
        ...

    async def open_tables(self, owner: int | None, name: str) -> tuple[int, int, str | None]:
        """How many tables are open, how many of them ``owner`` opened, and the open table whose name looks like
        ``name`` (``None``: none does)."""
        ...

    async def opened(self, row: TableRow) -> TableHandle:
        """A table just written to the database, running."""
        ...


class LocalDirectory:
    """Every table is one of this process's actors."""

    def __init__(self, host: TableHost) -> None:
        self.host = host

    async def find_table(self, table_id: int) -> TableHandle:
        return self.host.actor(table_id)

    async def table_infos(self) -> list[TableSummary]:
        return [actor.info() for actor in self.host.actors.values()]

    async def seats_of(self, account_id: int) -> list[dict[str, Any]]:
        seats = []
        for actor in self.host.actors.values():
            seat = actor.seat_of(account_id)
            if seat is not None:
                info = actor.table.seat(seat)
                seats.append(
                    {
                        "table_id": actor.id,
                        "table": actor.name,
                        "seat": seat,
                        "stack": info.stack,
                        "queued": info.queued,
                        "sitting_out": info.sitting_out,
                    }
                )
        return seats

    async def open_tables(self, owner: int | None, name: str) -> tuple[int, int, str | None]:
        actors = self.host.actors.values()
        mine = sum(1 for a in actors if owner is not None and a.created_by == owner)
        return len(self.host.actors), mine, look_alike(name, (a.name for a in actors))

    async def opened(self, row: TableRow) -> TableHandle:
        return await self.host.load(row)
