"""What a process that answers people needs besides its tables: password hashing, the login, sign-up and
table-opening throttles, and the training tables' equity desk; and :class:`CardRoom`, what the routes and the table
socket ask of a room (the one-process :class:`~studpoker.server.room.Room`, or a
:class:`~studpoker.server.gateway.GatewayRoom`). A table worker answers nobody and has no front.
"""

from __future__ import annotations

from typing import Any, Protocol

from .auth import Passwords, Who
from .config import Settings
from .db import Database
from .handle import TableHandle
from .protocol import TableSummary
from .schemas import CreateTable
from .sockets import Sockets
from .throttle import Throttle
from .tournaments import Tournaments
from .training import EquityDesk

__all__ = ["CardRoom", "Front"]


class Front:
    """The password hasher, the throttles and the equity desk of a process that serves HTTP."""

    def __init__(self, settings: Settings) -> None:
        self.passwords = Passwords(settings.password_time_cost, settings.password_memory_kib)
        self.login_failures_by_account = Throttle(settings.login_failures_per_account, settings.login_window_seconds)
        self.login_failures_by_address = Throttle(settings.login_failures_per_address, settings.login_window_seconds)
        self.signups = Throttle(settings.signups_per_address, settings.signup_window_seconds)
        self.signup_failures = Throttle(settings.signup_failures_per_address, settings.signup_failure_window_seconds)
        self.table_openings = Throttle(settings.tables_per_account_per_hour, 3600.0)
        self.hud_reads = Throttle(settings.hud_reads_per_minute, 60.0)
        self.equity_desk = EquityDesk()  # training tables' equities, computed off the event loop

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        self.equity_desk.close()


class CardRoom(Protocol):
    """What the routes, their dependencies and the table socket use of the room (``app.state.room``)."""

    settings: Settings
    db: Database
    front: Front  # password hashing, the throttles, the equity desk
    sockets: Sockets  # the socket registry: open, close, add, drop, end a session's sockets, the sweep
    tournaments: Tournaments  # opening, entering and reading tournaments (studpoker.server.tournaments)

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def find_table(self, table_id: int) -> TableHandle: ...
    async def table_infos(self) -> list[TableSummary]: ...
    async def seats_of(self, account_id: int) -> list[dict[str, Any]]: ...
    async def create_table(self, owner: Who | None, request: CreateTable) -> TableHandle: ...
