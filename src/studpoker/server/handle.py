"""What the HTTP routes and the table socket need of a table: :class:`TableHandle`.

In the embedded room it is the table's actor itself (:class:`~studpoker.server.actor.TableActor`); on a gateway of
the distributed room it is :class:`~studpoker.server.gateway.RemoteTable`, which reads the table from the lobby
cache and sends everything else to the worker that owns the table.
"""

from __future__ import annotations

from typing import Any, Protocol

from .connection import Connection

__all__ = ["TableHandle"]


class TableHandle(Protocol):
    """One open table, seen from the routes and the socket."""

    id: int
    name: str
    created_by: int | None

    def info(self) -> dict[str, Any]: ...

    def seats_info(self, *, bank: bool = False) -> list[dict[str, Any]]: ...

    async def connect(self, connection: Connection) -> None: ...

    def disconnect(self, connection: Connection) -> None: ...

    async def act(self, connection: Connection, hand: int, seq: int, action: str, amount: int | None) -> None: ...

    def chat(self, connection: Connection, text: str) -> None: ...

    def resend_snapshot(self, connection: Connection) -> None: ...

    async def sit(self, account_id: int, username: str, buy_in: int, seat: int | None) -> dict[str, Any]: ...

    async def leave(self, account_id: int) -> dict[str, Any]: ...

    async def top_up(self, account_id: int, amount: int) -> dict[str, Any]: ...

    async def set_sitting_out(self, account_id: int, out: bool) -> dict[str, Any]: ...

    async def add_bots(self, count: int | None, tag: str | None) -> dict[str, Any]: ...

    async def remove_bots(self) -> dict[str, Any]: ...

    async def close(self) -> dict[str, Any]: ...
