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
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from . import bus as channels
from .actor import table_info
from .bus import Bus, info_key, process_name, table_channel, unpack_frames
from .config import Settings
from .connection import Connection
from .db import LeaseRow, SeatRow, TableRow
from .errors import ApiError
from .handle import TableHandle
from .lease import lease_of
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
    TableEntry,
    decode,
    decode_entry,
    dropped,
    encode,
)
from .names import look_key, name_key
from .remote import RemoteTable, SocketMessage
from .room import DEFAULT_TABLE, Room, _freeze_startup_objects, hands_played, rules_of

__all__ = ["CALL_SECONDS", "GatewayRoom", "RemoteTable"]  # RemoteTable: from .remote, kept importable here

log = logging.getLogger("studpoker.server")

#: How long an HTTP operation waits for the table's worker to answer.
CALL_SECONDS = 10.0
#: How long a new table waits for a worker to take it before the request is answered anyway.
CLAIM_SECONDS = 10.0
#: How long the gateway's lobby is used again before it is built anew.
LOBBY_SECONDS = 1.0
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


class GatewayRoom(Room):
    """The room as a gateway sees it (see the module's docstring)."""

    def __init__(self, settings: Settings) -> None:
        if settings.redis_url is None:
            raise ValueError("a gateway needs a Redis URL")
        super().__init__(settings)
        self.gateway_id = process_name()
        self.bus = Bus(
            settings.redis_url,
            self._on_message,
            self._on_reconnect,
            allow_unauthenticated=settings.redis_allow_unauthenticated,
        )
        self.attached: dict[int, Attached] = {}
        self.by_table: dict[int, set[int]] = {}
        self.calls: dict[str, asyncio.Future[Answer]] = {}
        #: The newest lease generation known of each table (from frames, owner announcements, lease checks): the
        #: frames of an older one come from a worker that lost the table and are dropped (see :meth:`_frames`).
        self.owners: dict[int, int] = {}
        self._numbers = itertools.count(1)
        self._lobby: tuple[float, list[JsonObject]] = (-LOBBY_SECONDS, [])
        self._lobby_lock = asyncio.Lock()
        self._lobby_entries: dict[int, TableEntry] = {}  # the lobby's entries read from the database
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loops: list[asyncio.Task[None]] = []

    def spawn(self, job: Any) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def open(self) -> None:
        await self.db.run_plain(self.db.migrate)
        self.bus.subscribe(channels.gateway_channel(self.gateway_id))
        self.bus.start()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.bus.connected.wait(), 5.0)
        self._loops.append(asyncio.create_task(self._check(), name="gateway-check"))
        self._sweeper = asyncio.create_task(self._sweep_sessions(), name="session-sweeper")
        any_table = await self.db.run(lambda s: s.scalar(select(func.count(TableRow.id))))
        if not any_table and self.settings.default_table:
            self.spawn(self._default_table())
        _freeze_startup_objects()
        log.info("gateway %s started", self.gateway_id)

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
        deadline = asyncio.get_running_loop().time() + DEFAULT_TABLE_PATIENCE
        while True:
            try:
                await (await self.find_table(table.id)).add_bots(self.settings.default_bots, "tight-aggressive")
                return
            except ApiError as error:
                if error.status not in (503, 504) or asyncio.get_running_loop().time() > deadline:
                    log.warning("gateway %s: the default table's bots: %s", self.gateway_id, error.message)
                    return
            await asyncio.sleep(DEFAULT_TABLE_RETRY)

    async def close(self) -> None:
        for task in [*self._loops, *self._tasks]:
            task.cancel()
        if self._sweeper is not None:
            self._sweeper.cancel()
        for task in [*self._loops, *self._tasks, *([self._sweeper] if self._sweeper else [])]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for attached in list(self.attached.values()):
            self._send(attached, _detach)
            attached.connection.close(1001)  # going away: the browser reconnects, to another gateway
        with contextlib.suppress(Exception):
            await self.bus.redis.zrem(channels.GATEWAYS, self.gateway_id)
        await self.bus.close()
        self.equity_desk.close()
        self.db.close()

    # -- tables --------------------------------------------------------------------------------------

    async def find_table(self, table_id: int) -> TableHandle:
        entry = await self._cached(table_id)
        if entry is None:
            # not in the workers' cache: before asking PostgreSQL, the lobby (built at most once a second however
            # many ask) says whether the table is open at all, and holds the entries it read from the database. A
            # client asking for made-up or closed tables (HTTP or socket, no login needed) costs the database
            # nothing more, as in the embedded room, where this is a lookup in memory.
            if table_id not in {info.get("id") for info in await self.table_infos()}:
                raise ApiError(404, "not_found", f"there is no open table {table_id}")
            entry = self._lobby_entries.get(table_id)
        if entry is None:
            entries = await self._from_database([table_id])
            if not entries:
                raise ApiError(404, "not_found", f"there is no open table {table_id}")
            entry = entries[0]
        return RemoteTable(self, entry)

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
                    row, rules, settings, seats_taken=len(seats), hands_played=count, pots=pots, playing=False
                )
                seat_list: list[JsonObject] = [
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

    async def table_infos(self) -> list[JsonObject]:
        """The lobby, built at most once every :data:`LOBBY_SECONDS` however many ask (one request builds it, the
        others wait for it): a client hammering ``GET /api/tables`` costs the database nothing more."""
        async with self._lobby_lock:
            made, tables = self._lobby
            if time.monotonic() - made >= LOBBY_SECONDS:
                tables = await self._build_lobby()
                self._lobby = (time.monotonic(), tables)
        return tables

    async def _build_lobby(self) -> list[JsonObject]:
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

    async def _open_tables(self, owner: int | None, name: str) -> tuple[int, int, str | None]:
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

    async def _opened(self, row: TableRow) -> TableHandle:
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
                return RemoteTable(self, entry)
            await asyncio.sleep(0.05)
        log.warning(
            "gateway %s: no table worker took the new table %s within %.0f s", self.gateway_id, row.id, CLAIM_SECONDS
        )
        return await self.find_table(row.id)

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
                Room.end_sockets(self, session, reason)
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
                attached.connection.push(frame)

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

    # -- sessions -----------------------------------------------------------------------------------------

    def end_sockets(self, session: str, reason: str) -> int:
        """Close the session's sockets here, and tell every other gateway to close its own."""
        self.bus.send(channels.ROOM, encode(SessionEnded(session=session, reason=reason)))
        return super().end_sockets(session, reason)
