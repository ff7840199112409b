"""A gateway of the distributed room: HTTP and the browsers' WebSockets, with no game state of its own.

The routes and the table socket are the embedded room's; what they ask of a table goes to a
:class:`~studpoker.server.remote.RemoteTable` instead of an actor. A socket is *attached* to its table: the gateway
tells the table's channel (whichever worker holds the lease listens there) who the socket speaks for, and the worker
answers with a snapshot and then every frame that viewer may see, numbered. The gateway passes on the frames in
order. If one is missing, it starts a new attachment (a new number, so late frames of the old one are dropped) that
resumes where it lost track: the worker sends the frames missed again from its short history of the socket
(:data:`~studpoker.server.relay.HISTORY`), or a snapshot when the gap is longer. If the table changed hands, it
attaches the socket again, which brings a fresh snapshot, as a browser that reconnects gets one. Every two seconds
it also checks each table's lease in PostgreSQL, so even a lost announcement costs at most that long.

HTTP operations on a table (sit, leave, top up, bots, close) are calls to its worker, answered on the
gateway's channel; a call no worker hears is refused at once (503, the table is changing hands), one not answered
in :data:`CALL_SECONDS` gets 504. The lobby is the database's list of open tables with each table's entry from
the workers' cache (at most a few seconds old); a table between owners shows what the database knows.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from . import bus as channels
from .auth import Who
from .bus import Bus, dropped, process_name, table_channel, unpack_frames
from .config import Settings
from .connection import Connection
from .db import Database, TableRow
from .errors import ApiError
from .front import Front
from .handle import TableHandle
from .lease import lease_of
from .lifecycle import Lifecycle, Loop, Step, Tasks, freeze_startup_objects
from .messages import (
    TO_GATEWAY,
    TO_ROOM,
    Answer,
    Attach,
    BadMessage,
    Call,
    Claim,
    Detach,
    Gone,
    JsonObject,
    Operation,
    Owner,
    Resync,
    SessionEnded,
    decode,
    encode,
)
from .protocol import TableSummary
from .remote import RemoteTable, SocketMessage
from .remotedirectory import CLAIM_SECONDS, LOBBY_SECONDS, RemoteDirectory
from .schemas import CreateTable
from .sockets import Sockets
from .tablemaker import DEFAULT_TABLE, TableMaker, seat_bots
from .tournamentrunner import TournamentRunner
from .tournaments import Tournaments

# RemoteTable (from .remote), CLAIM_SECONDS and LOBBY_SECONDS (from .remotedirectory): kept importable here
__all__ = ["CALL_SECONDS", "CLAIM_SECONDS", "LOBBY_SECONDS", "GatewayRoom", "RemoteTable"]

log = logging.getLogger("studpoker.server")

#: How long an HTTP operation waits for the table's worker to answer.
CALL_SECONDS = 10.0
#: Seconds between two checks of the leases of the tables this gateway has sockets at.
CHECK_SECONDS = 2.0
#: How often a gateway asks again for the default table's bots while no worker holds the table, and for how long.
DEFAULT_TABLE_RETRY = 2.0
DEFAULT_TABLE_PATIENCE = 300.0


@dataclass(eq=False)
class Attached:
    """One of this gateway's sockets at a table: which attachment it is in, and the next frame number."""

    connection: Connection
    table_id: int
    number: int
    attachment: int = 0
    expected: int = 1
    generation: int | None = None  # the owner's lease generation, from the frames taken
    since: float = field(default_factory=time.monotonic)


def _detach(gateway: str, socket: int, attachment: int) -> Detach:
    return Detach(gateway=gateway, socket=socket, attachment=attachment)


def _resync(since: tuple[int, int]) -> SocketMessage:
    """A :class:`Resync` that asks for the frames from ``since`` (attachment, number) on, or a snapshot."""
    return lambda gateway, socket, attachment: Resync(
        gateway=gateway, socket=socket, attachment=attachment, resume=since
    )


class GatewayRoom:
    """The room as a gateway sees it (see the module's docstring): :class:`~studpoker.server.front.Front`,
    :class:`~studpoker.server.sockets.Sockets` that end a session on every gateway, a
    :class:`~studpoker.server.remotedirectory.RemoteDirectory` and a
    :class:`~studpoker.server.tablemaker.TableMaker` over it, the bus, and this class's own attachments of sockets and
    calls to workers."""

    def __init__(self, settings: Settings) -> None:
        if settings.redis_url is None:
            raise ValueError("a gateway needs a Redis URL")
        self.settings = settings
        self.db = Database(settings.db_url, settings.db_threads)
        self.front = Front(settings)
        self.gateway_id = process_name()
        self.bus = Bus(
            settings.redis_url,
            self._on_message,
            self._on_reconnect,
            allow_unauthenticated=settings.redis_allow_unauthenticated,
            linger=settings.bus_linger_seconds,
        )
        self.sockets = Sockets(settings, self.db, tell_others=self._tell_gateways)
        self.directory = RemoteDirectory(settings, self.db, self.bus, self, self.gateway_id)
        self.maker = TableMaker(settings, self.db, self.directory, self.front.table_openings)
        self.tournaments = Tournaments(settings, self.db)
        # every gateway looks at the tournaments; each runs those it claims (one at a time, taken over if it dies)
        self.runner = TournamentRunner(settings, self.db, self.directory, self.gateway_id)
        self.attached: dict[int, Attached] = {}
        self.by_table: dict[int, set[int]] = {}
        self.calls: dict[str, asyncio.Future[Answer]] = {}
        #: The newest lease generation known of each table (from frames, owner announcements, lease checks): the
        #: frames of an older one come from a worker that lost the table and are dropped (see :meth:`_frames`).
        self.owners: dict[int, int] = {}
        self._numbers = itertools.count(1)
        self.tasks = Tasks()
        self._tasks = self.tasks.running
        self.lifecycle = Lifecycle(
            f"gateway {self.gateway_id}",
            [
                Step("database", lambda: self.db.run_plain(self.db.migrate), self._close_database),
                self.front,
                Step("bus", self._start_bus, self._stop_bus),
                Step("sockets away", None, self._let_go),
                Loop("gateway-check", self._check),
                self.sockets,
                self.tasks,
                Step("tournaments", self.runner.start, self.runner.stop),
                Step("default table", self._seed),
                Step("freeze", self._freeze),
            ],
        )

    def spawn(self, job: Any) -> None:
        self.tasks.spawn(job)

    async def open(self) -> None:
        await self.lifecycle.start()
        log.info("gateway %s started", self.gateway_id)

    async def close(self) -> None:
        await self.lifecycle.stop()

    async def _close_database(self) -> None:
        self.db.close()

    async def _start_bus(self) -> None:
        self.bus.subscribe(channels.gateway_channel(self.gateway_id))
        self.bus.start()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.bus.connected.wait(), 5.0)

    async def _stop_bus(self) -> None:
        with contextlib.suppress(Exception):
            await self.bus.redis.zrem(channels.GATEWAYS, self.gateway_id)
        await self.bus.close()

    async def _seed(self) -> None:
        if self.settings.default_table and not await self.db.run(_any_table):
            self.spawn(self._default_table())

    async def _let_go(self) -> None:
        """Every socket is told to go away (the browser reconnects, to another gateway); its worker forgets it."""
        for attached in list(self.attached.values()):
            self._send(attached, _detach)
            attached.connection.close(1001)

    @staticmethod
    async def _freeze() -> None:
        freeze_startup_objects()

    async def _default_table(self) -> None:
        """Make the default table; its bots sit down once a worker holds it. A gateway may come up before any
        worker (``--role all`` starts them after it, a cluster boots in any order), so seating them is asked
        again every :data:`DEFAULT_TABLE_RETRY` seconds while the table is between owners (503, 504), for up
        to :data:`DEFAULT_TABLE_PATIENCE` seconds."""
        try:
            table = await self.create_table(None, DEFAULT_TABLE)
        except ApiError as error:  # another gateway made it first
            log.info("gateway %s: the default table: %s", self.gateway_id, error.message)
            return
        if not self.settings.default_bots:
            return
        try:
            await seat_bots(
                table,
                self.settings.default_bots,
                patience=DEFAULT_TABLE_PATIENCE,
                pause=DEFAULT_TABLE_RETRY,
                between_owners=(503, 504),  # no worker may hold it yet: nobody hears (503) or answers (504)
            )
        except ApiError as error:
            log.warning("gateway %s: the default table's bots: %s", self.gateway_id, error.message)

    # -- calls to workers -------------------------------------------------------------------------------

    async def call(self, table_id: int, operation: Operation) -> JsonObject:
        """Ask the table's worker to do ``operation`` (an HTTP operation) and wait for its answer."""
        ident = secrets.token_hex(8)
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self.calls[ident] = future
        message = Call(id=ident, gateway=self.gateway_id, operation=operation)
        try:
            heard = await self.bus.publish(table_channel(table_id), encode(message))
            if not heard:
                raise ApiError(
                    503,
                    "unavailable",
                    f"table {table_id} is changing hands between servers: try again in a few seconds",
                    {"Retry-After": "3"},
                )
            try:
                answer = await asyncio.wait_for(future, CALL_SECONDS)
            except TimeoutError:
                raise ApiError(
                    504, "timeout", f"table {table_id} did not answer in time: look at the table before trying again"
                ) from None
        finally:
            self.calls.pop(ident, None)
        if answer.error is not None:
            error = answer.error
            raise ApiError(error.status, error.code, error.message, answer.headers)
        return answer.ok if answer.ok is not None else {}

    # -- sockets ------------------------------------------------------------------------------------------

    def attach(self, connection: Connection, table_id: int) -> None:
        number = next(self._numbers)
        attached = Attached(connection, table_id, number)
        connection.bus_number = number
        self.attached[number] = attached
        self.by_table.setdefault(table_id, set()).add(number)
        self._attach_again(attached)

    def _attach_again(self, attached: Attached) -> None:
        """A new attachment of the socket, telling the worker who it speaks for (a new owner may not know it)."""
        connection = attached.connection

        def attach(gateway: str, socket: int, attachment: int) -> Attach:
            return Attach(
                gateway=gateway,
                socket=socket,
                attachment=attachment,
                account_id=connection.account_id,
                username=connection.username,
                session=connection.session,
                batch=connection.batch,
            )

        self._restart(attached, attach)

    def _restart(self, attached: Attached, message: SocketMessage) -> None:
        """Start a new attachment of the socket with ``message`` (:class:`Attach`, or :class:`Resync` to a worker
        that knows the socket): the worker answers with a snapshot, numbered 1; frames of older attachments are
        dropped."""
        attached.attachment += 1
        attached.expected = 1
        attached.since = time.monotonic()
        self._send(attached, message)

    def _send(self, attached: Attached, message: SocketMessage) -> None:
        """Queue a message about the socket for its table's worker (the bus sends in order)."""
        text = encode(message(self.gateway_id, attached.number, attached.attachment))
        self.bus.send(table_channel(attached.table_id), text)

    def detach(self, connection: Connection) -> None:
        attached = self.attached.pop(connection.bus_number, None)
        if attached is None:
            return
        group = self.by_table.get(attached.table_id)
        if group is not None:
            group.discard(attached.number)
            if not group:
                del self.by_table[attached.table_id]
                self.owners.pop(attached.table_id, None)
        self._send(attached, _detach)

    def to_table(self, connection: Connection, message: SocketMessage) -> None:
        """A socket's message to its table's worker (queued: the bus sends in order)."""
        attached = self.attached.get(connection.bus_number)
        if attached is not None:
            self._send(attached, message)

    def _on_message(self, channel: str, data: str) -> None:
        """A batch of frames, or a message on this gateway's channel or the room's: decoded (one that does not is
        dropped, and logged), then done."""
        if data.startswith('{"t"'):
            self._frames(channel, data)
            return
        try:
            message = decode(data, TO_ROOM) if channel == channels.ROOM else decode(data, TO_GATEWAY)
        except BadMessage as error:
            dropped(channel, error)
            return
        match message:
            case Answer(id=ident):
                future = self.calls.get(ident)
                if future is not None and not future.done():
                    future.set_result(message)
            case Owner(table=table_id, generation=generation):
                self._newest(table_id, generation)
                for number in list(self.by_table.get(table_id, ())):
                    attached = self.attached[number]
                    if attached.generation != generation:
                        self._attach_again(attached)
            case Gone(sockets=sockets):
                for number in sockets:
                    again = self.attached.get(number)
                    if again is not None:
                        self._attach_again(again)
            case SessionEnded(session=session, reason=reason):
                self.sockets.end_here(session, reason)
            case Claim():
                pass  # the workers'

    def _newest(self, table_id: int, generation: int) -> bool:
        """Whether ``generation`` is the newest known of the table's leases (then remembered as such)."""
        if generation < self.owners.get(table_id, 0):
            return False
        self.owners[table_id] = generation
        return True

    def _frames(self, channel: str, data: str) -> None:
        try:
            table_id, generation, entries = unpack_frames(data)
        except BadMessage as error:
            dropped(channel, error)
            return
        if not self._newest(table_id, generation):
            # a worker that lost the table (paused past its lease, or cut off from PostgreSQL) may still hear the
            # table's channel and answer an attachment meant for the new owner with its own stale snapshot, under
            # the same attachment and numbers: never pass on what it says
            return
        for number, attachment, position, frame in entries:
            attached = self.attached.get(number)
            if attached is None or attached.table_id != table_id or attachment != attached.attachment:
                continue  # a socket gone, or a frame of an attachment before the current one
            if position != attached.expected:
                # a gap: a new attachment, which the worker starts with the frames missed (from its short
                # history) or, if it no longer has them all, with a snapshot
                self._restart(attached, _resync((attachment, attached.expected)))
                continue
            attached.expected += 1
            attached.generation = generation
            if isinstance(frame, int):
                attached.connection.close(frame)
            else:
                attached.connection.deliver(frame)  # as the worker built it (a batch, for a batching client)

    async def _on_reconnect(self) -> None:
        """Redis came back: frames may have been lost, so every socket starts again from a snapshot."""
        for attached in list(self.attached.values()):
            self._attach_again(attached)

    async def _check(self) -> None:
        """Heartbeat, and every :data:`CHECK_SECONDS` each table's lease against the owner the frames came
        from: a socket whose table changed hands unnoticed, or that has waited that long for its snapshot, is
        attached again."""
        last = time.monotonic()
        while True:
            await asyncio.sleep(1.0)
            await self.bus.heartbeat(channels.GATEWAYS, self.gateway_id)
            if time.monotonic() - last < CHECK_SECONDS or not self.by_table:
                continue
            last = time.monotonic()
            try:
                leases = await self.db.run(lambda s: lease_of(s, list(self.by_table)))
            except Exception as error:
                log.warning("gateway %s: could not read the leases (%s)", self.gateway_id, error)
                continue
            now = time.monotonic()
            for table_id, numbers in list(self.by_table.items()):
                owner = leases.get(table_id)
                if owner is not None:
                    self._newest(table_id, owner[1])
                for number in list(numbers):
                    attached = self.attached.get(number)
                    if attached is None or now - attached.since < CHECK_SECONDS:
                        continue
                    if owner is not None and (attached.generation != owner[1] or attached.expected <= 1):
                        self._attach_again(attached)

    # -- the parts' ----------------------------------------------------------------------------------------

    def _tell_gateways(self, session: str, reason: str) -> None:
        """A session ended here: every other gateway closes its sockets too."""
        self.bus.send(channels.ROOM, encode(SessionEnded(session=session, reason=reason)))

    async def create_table(self, owner: Who | None, request: CreateTable) -> TableHandle:
        """A new table (:meth:`~studpoker.server.tablemaker.TableMaker.create`), taken by a worker."""
        return await self.maker.create(owner, request)

    async def find_table(self, table_id: int) -> TableHandle:
        return await self.directory.find_table(table_id)

    async def table_infos(self) -> list[TableSummary]:
        return await self.directory.table_infos()

    async def seats_of(self, account_id: int) -> list[dict[str, Any]]:
        return await self.directory.seats_of(account_id)


def _any_table(session: Session) -> bool:
    return bool(session.scalar(select(func.count(TableRow.id))))
