"""A table seen from a gateway of the distributed room: :class:`RemoteTable`, the routes' and the socket's
:class:`~studpoker.server.handle.TableHandle` there.

It reads the table from the lobby entry its worker keeps (:class:`~studpoker.server.messages.TableEntry`) and sends
everything else through a :class:`TableLink` (the gateway): a socket's attachment and its messages, and each HTTP
operation as a typed :data:`~studpoker.server.messages.Operation` whose answer it waits for.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from .connection import Connection
from .errors import ApiError
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

__all__ = ["RemoteTable", "SocketMessage", "TableLink"]

log = logging.getLogger("studpoker.server")

#: A message about one of a gateway's sockets, given the gateway, the socket's number and its attachment.
SocketMessage = Callable[[str, int, int], ToWorker]


class TableLink(Protocol):
    """What a :class:`RemoteTable` needs of its gateway: its sockets attached to the table, and calls to the
    table's worker."""

    def attach(self, connection: Connection, table_id: int) -> None: ...

    def detach(self, connection: Connection) -> None: ...

    def to_table(self, connection: Connection, message: SocketMessage) -> None: ...

    async def call(self, table_id: int, operation: Operation) -> JsonObject: ...


Result = TypeVar("Result", bound=BaseModel)


class RemoteTable:
    """A table on a gateway: read from the lobby cache, everything else sent to its worker."""

    def __init__(self, room: TableLink, entry: TableEntry) -> None:
        self.room = room
        self.entry = entry
        self.id: int = entry.id
        self.name: str = entry.name
        self.created_by: int | None = entry.created_by

    def info(self) -> TableSummary:
        return self.entry.info

    def seats_info(self, *, bank: bool = False) -> list[SeatState]:
        seats = [SeatState(**seat) for seat in self.entry.seats]  # copies: the entry is shared
        if not bank:
            for seat in seats:
                seat.pop("time_bank", None)
        return seats

    # -- the socket

    async def connect(self, connection: Connection) -> None:
        self.room.attach(connection, self.id)

    def disconnect(self, connection: Connection) -> None:
        self.room.detach(connection)

    def act(self, connection: Connection, hand: int, seq: int, action: str, amount: int | None) -> None:
        self.room.to_table(
            connection,
            lambda gw, s, a: Act(gateway=gw, socket=s, attachment=a, hand=hand, seq=seq, action=action, amount=amount),
        )

    def show(self, connection: Connection, hand: int) -> None:
        self.room.to_table(connection, lambda gw, s, a: Show(gateway=gw, socket=s, attachment=a, hand=hand))

    def chat(self, connection: Connection, text: str) -> None:
        self.room.to_table(connection, lambda gw, s, a: Chat(gateway=gw, socket=s, attachment=a, text=text))

    def resend_snapshot(self, connection: Connection) -> None:
        self.room.to_table(connection, lambda gw, s, a: Snapshot(gateway=gw, socket=s, attachment=a))

    # -- HTTP operations, done by the worker

    async def _ask(self, model: type[Result], operation: Operation) -> Result:
        """Have the worker do ``operation``; its answer, checked as what the operation returns (``model``). An
        answer that is not one is a bad gateway (502), logged, never a traceback for the client."""
        ok = await self.room.call(self.id, operation)
        try:
            return model.model_validate(ok, strict=True)
        except ValidationError as error:
            log.error("a worker answered %s with %s", model.__name__, str(error)[:400])
            raise ApiError(
                502, "bad_gateway", "the table's server gave an answer that makes no sense (it is logged)"
            ) from None

    async def sit(self, account_id: int, username: str, buy_in: int, seat: int | None) -> SitResult:
        return await self._ask(SitResult, Sit(account_id=account_id, username=username, buy_in=buy_in, seat=seat))

    async def leave(self, account_id: int) -> LeaveResult:
        return await self._ask(LeaveResult, Leave(account_id=account_id))

    async def top_up(self, account_id: int, amount: int) -> TopUpResult:
        return await self._ask(TopUpResult, TopUp(account_id=account_id, amount=amount))

    async def set_sitting_out(self, account_id: int, out: bool) -> SittingOut:
        return await self._ask(SittingOut, SetSittingOut(account_id=account_id, out=out))

    async def join_waiting_list(self, account_id: int, username: str) -> WaitingPlace:
        return await self._ask(WaitingPlace, JoinWaitingList(account_id=account_id, username=username))

    async def leave_waiting_list(self, account_id: int) -> WaitingLeft:
        return await self._ask(WaitingLeft, LeaveWaitingList(account_id=account_id))

    async def add_bots(self, count: int | None, tag: str | None) -> BotsAdded:
        return await self._ask(BotsAdded, AddBots(count=count, tag=tag))

    async def remove_bots(self) -> BotsRemoved:
        return await self._ask(BotsRemoved, RemoveBots())

    async def close(self) -> CloseResult:
        return await self._ask(CloseResult, CloseTable())

    async def hold_seat(self, account_id: int, username: str, seat: int | None) -> SeatHeld:
        return await self._ask(SeatHeld, HoldSeat(account_id=account_id, username=username, seat=seat))

    async def move_out(self, account_id: int, to_table: int, to_name: str, to_seat: int) -> MovedOut:
        operation = MoveOut(account_id=account_id, to_table=to_table, to_name=to_name, to_seat=to_seat)
        return await self._ask(MovedOut, operation)

    async def move_in(self, account_id: int, seat: int) -> Arrived:
        return await self._ask(Arrived, MoveIn(account_id=account_id, seat=seat))
