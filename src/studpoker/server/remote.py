"""A table seen from a gateway of the distributed room: :class:`RemoteTable`, the routes' and the socket's
:class:`~studpoker.server.handle.TableHandle` there.

It reads the table from the lobby entry its worker keeps (:class:`~studpoker.server.messages.TableEntry`) and sends
everything else through a :class:`TableLink` (the gateway): a socket's attachment and its messages, and each HTTP
operation as a typed :data:`~studpoker.server.messages.Operation` whose answer it waits for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from .connection import Connection
from .messages import (
    Act,
    AddBots,
    Chat,
    CloseTable,
    HoldSeat,
    JoinWaitingList,
    JsonObject,
    Leave,
    LeaveWaitingList,
    MoveIn,
    MoveOut,
    Operation,
    RemoveBots,
    SetSittingOut,
    Show,
    Sit,
    Snapshot,
    TableEntry,
    TopUp,
    ToWorker,
)

__all__ = ["RemoteTable", "SocketMessage", "TableLink"]

#: A message about one of a gateway's sockets, given the gateway, the socket's number and its attachment.
SocketMessage = Callable[[str, int, int], ToWorker]


class TableLink(Protocol):
    """What a :class:`RemoteTable` needs of its gateway: its sockets attached to the table, and calls to the
    table's worker."""

    def attach(self, connection: Connection, table_id: int) -> None: ...

    def detach(self, connection: Connection) -> None: ...

    def to_table(self, connection: Connection, message: SocketMessage) -> None: ...

    async def call(self, table_id: int, operation: Operation) -> JsonObject: ...


class RemoteTable:
    """A table on a gateway: read from the lobby cache, everything else sent to its worker."""

    def __init__(self, room: TableLink, entry: TableEntry) -> None:
        self.room = room
        self.entry = entry
        self.id: int = entry.id
        self.name: str = entry.name
        self.created_by: int | None = entry.created_by

    def info(self) -> JsonObject:
        return dict(self.entry.info)

    def seats_info(self, *, bank: bool = False) -> list[JsonObject]:
        return [{k: v for k, v in seat.items() if bank or k != "time_bank"} for seat in self.entry.seats]

    # -- the socket

    async def connect(self, connection: Connection) -> None:
        self.room.attach(connection, self.id)

    def disconnect(self, connection: Connection) -> None:
        self.room.detach(connection)

    async def act(self, connection: Connection, hand: int, seq: int, action: str, amount: int | None) -> None:
        self.room.to_table(
            connection,
            lambda gw, s, a: Act(gateway=gw, socket=s, attachment=a, hand=hand, seq=seq, action=action, amount=amount),
        )

    async def show(self, connection: Connection, hand: int) -> None:
        self.room.to_table(connection, lambda gw, s, a: Show(gateway=gw, socket=s, attachment=a, hand=hand))

    def chat(self, connection: Connection, text: str) -> None:
        self.room.to_table(connection, lambda gw, s, a: Chat(gateway=gw, socket=s, attachment=a, text=text))

    def resend_snapshot(self, connection: Connection) -> None:
        self.room.to_table(connection, lambda gw, s, a: Snapshot(gateway=gw, socket=s, attachment=a))

    # -- HTTP operations, done by the worker

    async def sit(self, account_id: int, username: str, buy_in: int, seat: int | None) -> JsonObject:
        return await self.room.call(self.id, Sit(account_id=account_id, username=username, buy_in=buy_in, seat=seat))

    async def leave(self, account_id: int) -> JsonObject:
        return await self.room.call(self.id, Leave(account_id=account_id))

    async def top_up(self, account_id: int, amount: int) -> JsonObject:
        return await self.room.call(self.id, TopUp(account_id=account_id, amount=amount))

    async def set_sitting_out(self, account_id: int, out: bool) -> JsonObject:
        return await self.room.call(self.id, SetSittingOut(account_id=account_id, out=out))

    async def join_waiting_list(self, account_id: int, username: str) -> JsonObject:
        return await self.room.call(self.id, JoinWaitingList(account_id=account_id, username=username))

    async def leave_waiting_list(self, account_id: int) -> JsonObject:
        return await self.room.call(self.id, LeaveWaitingList(account_id=account_id))

    async def add_bots(self, count: int | None, tag: str | None) -> JsonObject:
        return await self.room.call(self.id, AddBots(count=count, tag=tag))

    async def remove_bots(self) -> JsonObject:
        return await self.room.call(self.id, RemoveBots())

    async def close(self) -> JsonObject:
        return await self.room.call(self.id, CloseTable())

    async def hold_seat(self, account_id: int, username: str, seat: int | None) -> JsonObject:
        return await self.room.call(self.id, HoldSeat(account_id=account_id, username=username, seat=seat))

    async def move_out(self, account_id: int, to_table: int, to_name: str, to_seat: int) -> JsonObject:
        operation = MoveOut(account_id=account_id, to_table=to_table, to_name=to_name, to_seat=to_seat)
        return await self.room.call(self.id, operation)

    async def move_in(self, account_id: int, seat: int) -> JsonObject:
        return await self.room.call(self.id, MoveIn(account_id=account_id, seat=seat))
