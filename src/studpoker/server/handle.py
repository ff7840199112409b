"""What the HTTP routes and the table socket need of a table: :class:`TableHandle`.

In the embedded room it is the table's actor itself (:class:`~studpoker.server.actor.TableActor`); on a gateway of
the distributed room it is :class:`~studpoker.server.remote.RemoteTable`, which reads the table from the lobby
cache and sends everything else to the worker that owns the table.
"""

from __future__ import annotations

from typing import Protocol

from .connection import Connection
from .protocol import SeatState, TableSummary
from .schemas import (
    Arrived,
    BotsAdded,
    BotsRemoved,
    CloseResult,
    LeaveResult,
    MovedOut,
    SeatHeld,
    SitResult,
    SittingOut,
    TopUpResult,
    WaitingLeft,
    WaitingPlace,
)

__all__ = ["TableHandle"]


class TableHandle(Protocol):
    """One open table, seen from the routes and the socket."""

    id: int
    name: str
    created_by: int | None

    def info(self) -> TableSummary: ...

    def seats_info(self, *, bank: bool = False) -> list[SeatState]: ...

    async def connect(self, connection: Connection) -> None: ...

    def disconnect(self, connection: Connection) -> None: ...

    def act(self, connection: Connection, hand: int, seq: int, action: str, amount: int | None) -> None: ...

    def show(self, connection: Connection, hand: int) -> None: ...

    def chat(self, connection: Connection, text: str) -> None: ...

    def resend_snapshot(self, connection: Connection) -> None: ...

    async def sit(self, account_id: int, username: str, buy_in: int, seat: int | None) -> SitResult: ...

    async def leave(self, account_id: int) -> LeaveResult: ...

    async def top_up(self, account_id: int, amount: int) -> TopUpResult: ...

    async def set_sitting_out(self, account_id: int, out: bool) -> SittingOut: ...

    async def join_waiting_list(self, account_id: int, username: str) -> WaitingPlace: ...

    async def leave_waiting_list(self, account_id: int) -> WaitingLeft: ...

    async def add_bots(self, count: int | None, tag: str | None) -> BotsAdded: ...

    async def remove_bots(self) -> BotsRemoved: ...

    async def close(self) -> CloseResult: ...

    async def hold_seat(self, account_id: int, username: str, seat: int | None) -> SeatHeld: ...

    async def move_out(self, account_id: int, to_table: int, to_name: str, to_seat: int) -> MovedOut: ...

    async def move_in(self, account_id: int, seat: int) -> Arrived: ...
