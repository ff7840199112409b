"""The card room in one process: the parts of :mod:`studpoker.server.lifecycle` wired together.

A :class:`Room` is a :class:`~studpoker.server.front.Front` (password hashing, throttles, the equity desk), a
:class:`~studpoker.server.tablehost.TableHost` (every table's actor), a
:class:`~studpoker.server.directory.LocalDirectory` over it, a :class:`~studpoker.server.tablemaker.TableMaker`, and
:class:`~studpoker.server.sockets.Sockets` (every open socket by session, so a logout or an expired session closes
its sockets). :meth:`Room.open` starts them in order: the evaluator's tables built, the database migrated, the hands
a stop left unfinished voided (every chip goes back to the stack it came from, and the ledger gets a ``void`` memo
row per player), every table not closed started (a table that was closing is closed at once), the default table
seeded when the database has none, the session sweep started. :meth:`Room.close` stops them in reverse.

The distributed forms are made of some of the same parts: :mod:`studpoker.server.gateway` and
:mod:`studpoker.server.worker` (docs/architecture.md, "The room's parts").
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .actor import TableActor
from .auth import Who
from .config import Settings
from .db import Database, TableRow
from .directory import LocalDirectory
from .front import Front
from .handle import TableHandle
from .lifecycle import Lifecycle, Step, freeze_startup_objects, warm_up
from .protocol import TableSummary, VoidedHand
from .schemas import CreateTable
from .sockets import LOGGED_OUT, Sockets
from .tablehost import VOIDED_KEPT, TableHost, hands_played, rules_of, signed_rules, void_unfinished
from .tablemaker import DEFAULT_TABLE, TRAINING_MAX_BUY_IN, TableMaker, name_taken, numbered_name
from .tournamentrunner import TournamentRunner
from .tournaments import Tournaments

__all__ = [
    "DEFAULT_TABLE",
    "LOGGED_OUT",
    "STAKES",
    "TRAINING_MAX_BUY_IN",
    "VOIDED_KEPT",
    "Room",
    "hands_played",
    "name_taken",
    "numbered_name",
    "rules_of",
    "signed_rules",
    "void_unfinished",
]

#: The stakes the create form offers (every one is accepted for every game and preset: tested).
STAKES: tuple[dict[str, int], ...] = (
    {"small_bet": 2, "big_bet": 4, "ante": 1, "bring_in": 2},
    {"small_bet": 4, "big_bet": 8, "ante": 1, "bring_in": 2},
    {"small_bet": 10, "big_bet": 20, "ante": 1, "bring_in": 3},
    {"small_bet": 20, "big_bet": 40, "ante": 2, "bring_in": 5},
    {"small_bet": 50, "big_bet": 100, "ante": 5, "bring_in": 15},
)


class Room:
    """All tables of one server process (see the module's docstring)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.db = Database(settings.db_url, settings.db_threads)
        self.front = Front(settings)
        self.host = TableHost(settings, self.db)
        self.directory = LocalDirectory(self.host)
        self.maker = TableMaker(settings, self.db, self.directory, self.front.table_openings)
        self.sockets = Sockets(settings, self.db)
        self.tournaments = Tournaments(settings, self.db)
        self.runner = TournamentRunner(settings, self.db, self.directory)
        self.lifecycle = Lifecycle(
            "room",
            [
                Step("evaluator", lambda: asyncio.to_thread(warm_up)),
                Step("database", lambda: self.db.run_plain(self.db.migrate), self._close_database),
                self.front,
                Step("tables", self.host.recover, self.host.stop),
                Step("default table", self._default_table),
                Step("tournaments", self.runner.start, self.runner.stop),
                self.sockets,
                Step("freeze", self._freeze),
            ],
        )

    async def open(self) -> None:
        await self.lifecycle.start()

    async def close(self) -> None:
        await self.lifecycle.stop()

    async def _close_database(self) -> None:
        self.db.close()

    @staticmethod
    async def _freeze() -> None:
        freeze_startup_objects()

    async def _default_table(self) -> None:
        if self.settings.default_table and not await self.db.run(_any_table):
            await self.open_default_table()

    async def open_default_table(self) -> None:
        """The table of a room with none yet: "Stud 10/20" with ``default_bots`` tight-aggressive bots."""
        table = await self.create_table(None, DEFAULT_TABLE)
        if self.settings.default_bots:
            await table.add_bots(self.settings.default_bots, "tight-aggressive")

    # -- the tables: the host's and the directory's ----------------------------------------------------

    @property
    def actors(self) -> dict[int, TableActor]:
        return self.host.actors

    @property
    def voided(self) -> dict[int, deque[VoidedHand]]:
        return self.host.voided

    def forget(self, table_id: int) -> None:
        self.host.forget(table_id)

    def actor(self, table_id: int) -> TableActor:
        """The actor of an open table, or :class:`~studpoker.server.errors.ApiError` 404."""
        return self.host.actor(table_id)

    async def create_table(self, owner: Who | None, request: CreateTable) -> TableHandle:
        """A new table (:meth:`~studpoker.server.tablemaker.TableMaker.create`)."""
        return await self.maker.create(owner, request)

    async def find_table(self, table_id: int) -> TableHandle:
        return await self.directory.find_table(table_id)

    async def table_infos(self) -> list[TableSummary]:
        return await self.directory.table_infos()

    async def seats_of(self, account_id: int) -> list[dict[str, Any]]:
        return await self.directory.seats_of(account_id)


def _any_table(session: Session) -> bool:
    return bool(session.scalar(select(func.count(TableRow.id))))
