"""A table worker of the distributed room: it claims tables' leases in PostgreSQL and runs their actors.

The actors are the embedded room's (:class:`~studpoker.server.actor.TableActor`), unchanged but for two things:
their database is :class:`~studpoker.server.lease.FencedDatabase` (no write once the lease is gone), and their
connections are :class:`~studpoker.server.relay.RemoteConnection`\\ s, stand-ins for sockets held by gateways:
a frame pushed to one is numbered and sent to its gateway over Redis (:mod:`studpoker.server.bus`), and kept a
while in case the gateway misses it. What each viewer may see is still decided here, where the state is; a
gateway only forwards.

Every ``lease_seconds / 5`` the worker renews its leases (a table it no longer holds is dropped at once, without a
write), claims tables without a live owner up to its fair share (open tables / live workers, plus one), hands those
beyond its share to the others at the end of their hands (:mod:`~studpoker.server.balance`), and drops the sockets
of gateways it has not heard from for a while. A table it takes has its hand in play voided first, exactly as a
restart voids it (:func:`~studpoker.server.tablehost.void_unfinished`). On SIGTERM the worker drains: no new hand is
dealt, the hands in play are finished (up to ``drain_seconds``), and the leases are given back so that other workers
take the tables with nothing voided.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Hashable
from typing import Any, assert_never

import orjson
from pydantic import BaseModel

from . import bus as channels
from .actor import TableActor
from .bus import Bus, dropped, info_key, pack_frames, process_name
from .config import Settings
from .db import Database
from .errors import ApiError
from .lease import LeaseLostError
from .leasekeeper import LeaseKeeper
from .lifecycle import Lifecycle, Loop, Step, Tasks, freeze_startup_objects, warm_up
from .messages import (
    TO_ROOM,
    TO_WORKER,
    Act,
    AddBots,
    Answer,
    Attach,
    BadMessage,
    Call,
    Chat,
    Claim,
    CloseTable,
    Detach,
    ErrorBody,
    Gone,
    HoldSeat,
    JoinWaitingList,
    Leave,
    LeaveWaitingList,
    MoveIn,
    MoveOut,
    Operation,
    RemoveBots,
    Resync,
    SetSittingOut,
    Show,
    Sit,
    Snapshot,
    ToGateway,
    TopUp,
    decode,
    encode,
)
from .relay import RemoteConnection
from .tablehost import TableHost

__all__ = ["RemoteConnection", "WorkerRoom", "run_operation", "run_worker"]

log = logging.getLogger("studpoker.server")

#: Seconds after which a gateway without a heartbeat is taken for gone (its sockets leave the tables).
GATEWAY_TIMEOUT = 6.0


class WorkerRoom:
    """The tables one worker process drives (see the module's docstring): a
    :class:`~studpoker.server.tablehost.TableHost`, a :class:`~studpoker.server.leasekeeper.LeaseKeeper`, the bus,
    and this class's own remote connections, messages from gateways, frames to them and lobby entries. No sockets,
    throttles or password hashing: a worker answers no browser."""

    def __init__(self, settings: Settings) -> None:
        if settings.redis_url is None:
            raise ValueError("a table worker needs a Redis URL")
        self.settings = settings
        self.db = Database(settings.db_url, settings.db_threads)
        self.worker_id = process_name()
        self.bus = Bus(
            settings.redis_url,
            self._on_message,
            self._on_reconnect,
            allow_unauthenticated=settings.redis_allow_unauthenticated,
            linger=settings.bus_linger_seconds,
        )
        self.tasks = Tasks()
        self._spawned = self.tasks.running
        self.host = TableHost(settings, self.db, on_forget=self._forgotten)
        self.keeper = LeaseKeeper(settings, self.db, self.bus, self.host, self.worker_id, self.tasks, self._lost)
        self.remote: dict[tuple[str, int], RemoteConnection] = {}
        self.gateway_seen: dict[str, float] = {}
        self._outbox: dict[tuple[str, int, int], list[tuple[int, int, int, str | int]]] = {}
        self._flush_due = False
        self.lifecycle = Lifecycle(
            f"table worker {self.worker_id}",
            [
                Step("evaluator", lambda: asyncio.to_thread(warm_up)),
                Step("database", lambda: self.db.run_plain(self.db.migrate), self._close_database),
                Step("bus", self._start_bus, self._stop_bus),
                Step("tables", None, self._give_back),
                self.tasks,
                self.keeper,
                Loop("lobby-infos", self._infos),
                Loop("gateways", self._gateways),
                Step("freeze", self._freeze),
            ],
        )

    # -- life ----------------------------------------------------------------------------------------------

    async def open(self) -> None:
        await self.lifecycle.start()
        log.info("table worker %s started", self.worker_id)

    async def close(self) -> None:
        """Stop at once: the tables' actors stop where they are and the leases are given back (the next owner
        voids the hands in play). :meth:`drain` first for a stop that voids nothing."""
        await self.lifecycle.stop()

    async def drain(self, seconds: float) -> None:
        """Deal no new hand; wait (at most ``seconds``) until no table has a hand in play."""
        await self.keeper.drain(seconds)

    async def _close_database(self) -> None:
        self.db.close()

    async def _start_bus(self) -> None:
        self.bus.start()

    async def _stop_bus(self) -> None:
        with contextlib.suppress(Exception):
            await self.bus.redis.zrem(channels.WORKERS, self.worker_id)
            await self.bus.publish(channels.ROOM, encode(Claim()))
        await self.bus.close()

    async def _give_back(self) -> None:
        tables = await self.keeper.give_back()
        with contextlib.suppress(Exception):
            if tables:
                await self.bus.redis.delete(*(info_key(t) for t in tables))

    @staticmethod
    async def _freeze() -> None:
        freeze_startup_objects()

    # -- the parts' ----------------------------------------------------------------------------------------

    @property
    def actors(self) -> dict[int, TableActor]:
        return self.host.actors

    @property
    def generations(self) -> dict[int, int]:
        return self.keeper.generations

    @property
    def draining(self) -> bool:
        return self.keeper.draining

    @property
    def _claim_now(self) -> asyncio.Event:
        return self.keeper.claim_now

    def _spawn(self, job: Any) -> None:
        """Run ``job`` as a task the worker keeps a reference to until it ends."""
        self.tasks.spawn(job)

    def _forgotten(self, table_id: int) -> None:
        self.keeper.forgotten(table_id)

    def _lost(self, table_id: int) -> None:
        """A table dropped: the gateways' sockets at it are forgotten (nothing more is sent to them)."""
        for key, connection in list(self.remote.items()):
            if connection.table_id == table_id:
                connection.worker = None
                del self.remote[key]

    async def _gateways(self) -> None:
        """Every 2 s, the sockets of gateways not heard from for :data:`GATEWAY_TIMEOUT` leave their tables."""
        while True:
            await asyncio.sleep(2.0)
            with contextlib.suppress(Exception):
                await self._purge_gateways()

    async def _purge_gateways(self) -> None:
        now = time.monotonic()
        for gateway in await self.bus.alive(channels.GATEWAYS, GATEWAY_TIMEOUT):
            self.gateway_seen[gateway] = now
        for key, connection in list(self.remote.items()):
            seen = self.gateway_seen.setdefault(connection.gateway, now)
            if now - seen > GATEWAY_TIMEOUT:
                self._detach(key)
        for gateway, seen in list(self.gateway_seen.items()):
            if now - seen > 10 * GATEWAY_TIMEOUT:
                del self.gateway_seen[gateway]

    async def _on_reconnect(self) -> None:
        """Redis came back: what gateways sent meanwhile is lost; they attach their sockets again."""
        self._claim_now.set()

    # -- the lobby ---------------------------------------------------------------------------------------

    async def _infos(self) -> None:
        """Every second, each table's lobby entry into Redis, expiring after ``5`` s (so a table whose worker
        died leaves the cached lobby within seconds, and the gateways fall back on the database)."""
        written: dict[int, str] = {}
        marks: dict[int, Hashable] = {}  # each table's lobby_mark when its entry was last made
        last_full = 0.0
        while True:
            await asyncio.sleep(1.0)
            # what changed, every second; everything (the expiry renewed) every 2 s
            full = time.monotonic() - last_full >= 2.0
            if full:
                last_full = time.monotonic()
            entries = {}
            for table_id, actor in list(self.actors.items()):
                if actor.status == "closed":
                    continue
                mark = lobby_mark(actor)
                if table_id in written and marks.get(table_id) == mark:  # the entry as last made
                    if full:
                        entries[info_key(table_id)] = written[table_id]
                    continue
                marks[table_id], entry = mark, table_entry(actor)
                if full or written.get(table_id) != entry:
                    entries[info_key(table_id)] = written[table_id] = entry
            for table_id in [t for t in written if t not in self.actors]:
                del written[table_id]
                marks.pop(table_id, None)
            for key, value in entries.items():  # with the frames, answers counted and not waited for
                self.bus.store(key, value, 5)

    # -- frames to gateways ------------------------------------------------------------------------------

    def queue_frame(self, connection: RemoteConnection, frame: str | int) -> None:
        generation = self.generations.get(connection.table_id, 0)
        key = (connection.gateway, connection.table_id, generation)
        self._outbox.setdefault(key, []).append((connection.socket, connection.attachment, connection.number, frame))
        if not self._flush_due:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        outbox, self._outbox = self._outbox, {}
        for (gateway, table_id, generation), entries in outbox.items():
            self.bus.send(channels.gateway_channel(gateway), pack_frames(table_id, generation, entries))

    def _answer(self, gateway: str, message: ToGateway) -> None:
        self.bus.send(channels.gateway_channel(gateway), encode(message))

    # -- messages from gateways --------------------------------------------------------------------------

    def _on_message(self, channel: str, data: str) -> None:
        """A message on the room's channel or a table's: decoded (one that does not is dropped, and logged),
        then done."""
        if channel == channels.ROOM:
            try:
                announced = decode(data, TO_ROOM)
            except BadMessage as error:
                dropped(channel, error)
                return
            if isinstance(announced, Claim):
                self._claim_now.set()
            return
        table_id = int(channel.rsplit(":", 1)[1])
        actor = self.actors.get(table_id)
        try:
            message = decode(data, TO_WORKER)
        except BadMessage as error:
            dropped(channel, error)
            return
        if actor is None:
            # the worker listens to a table it has no actor for only while it loads the table (it listens first,
            # so that attachments are heard) or while Redis has not yet heard it stop listening to a table that
            # left: a call is refused now (nothing was done, the gateway's callers ask again) rather than left to
            # time out; an attachment comes again on the table's announcement
            if isinstance(message, Call):
                self._answer(message.gateway, _changing_hands(message, table_id))
            return
        if isinstance(message, Call):
            self._call(actor, message)
            return
        key = (message.gateway, message.socket)
        if isinstance(message, Attach):
            self._attach(actor, key, message)
            return
        connection = self.remote.get(key)
        if connection is None or connection.table_id != table_id:
            if not isinstance(message, Detach):
                self._answer(message.gateway, Gone(table=table_id, sockets=(message.socket,)))
            return
        self.gateway_seen[message.gateway] = time.monotonic()
        match message:
            case Detach():
                self._detach(key)
            case Snapshot():
                actor.resend_snapshot(connection)
            case Resync(attachment=attachment, resume=resume):
                # the frames the gateway missed, from the socket's history; a snapshot if they are not all there
                if resume is None or not connection.resume(attachment, *resume):
                    actor.run_soon(lambda: self._resync(actor, connection, attachment))
            case Act(hand=hand, seq=seq, action=action, amount=amount):
                actor.act(connection, hand, seq, action, amount)
            case Show(hand=hand):
                actor.show(connection, hand)
            case Chat(text=text):
                actor.chat(connection, text)
            case _:
                assert_never(message)

    async def _resync(self, actor: TableActor, connection: RemoteConnection, attachment: int) -> None:
        """Start the socket's numbering again from a snapshot (on the actor, between two of its steps)."""
        connection.renumber(attachment)
        actor.resend_now(connection)

    def _attach(self, actor: TableActor, key: tuple[str, int], message: Attach) -> None:
        old = self.remote.pop(key, None)
        if old is not None:
            old.worker = None
            actor.disconnect(old)
        connection = RemoteConnection(
            message.account_id,
            message.username,
            message.session,
            gateway=key[0],
            socket=key[1],
            table_id=actor.id,
            attachment=message.attachment,
            worker=self,
            batch=message.batch,
        )
        self.remote[key] = connection
        self.gateway_seen[key[0]] = time.monotonic()

        async def connect() -> None:
            # a detach (or a newer attach) handled before this task ran has already posted its disconnect to
            # the actor: connecting now would leave a connection on the table that nothing ever removes (seen
            # as connected, built snapshots and frames for). Checked and posted in one step, so a detach after
            # this point is queued behind the connect.
            if self.remote.get(key) is not connection:
                return
            with contextlib.suppress(ApiError):
                await actor.connect(connection)

        self._spawn(connect())

    def _detach(self, key: tuple[str, int]) -> None:
        connection = self.remote.pop(key, None)
        if connection is None:
            return
        connection.worker = None
        actor = self.actors.get(connection.table_id)
        if actor is not None:
            actor.disconnect(connection)

    def _call(self, actor: TableActor, call: Call) -> None:
        async def run() -> None:
            try:
                result = await run_operation(actor, call.operation)
                answer = Answer(id=call.id, ok=result.model_dump(mode="json"))
            except ApiError as error:
                if error.status == 404 and self._left(actor):  # its actor stopped under the call: not done here
                    answer = _changing_hands(call, actor.id)
                else:
                    body = ErrorBody(status=error.status, code=error.code, message=error.message)
                    answer = Answer(id=call.id, error=body, headers=error.headers)
            except LeaseLostError:  # nothing was written (the fence rolled it back): the table changes hands
                answer = _changing_hands(call, actor.id)
            except Exception:
                # the details (SQL, hosts, lease generations) are for the log, never for the client: the same
                # answer as the embedded room's for a request that failed
                log.exception("table %s: %s from a gateway failed", actor.id, call.operation.name)
                body = ErrorBody(status=500, code="internal", message="the table could not do it (it is logged)")
                answer = Answer(id=call.id, error=body)
            self._answer(call.gateway, answer)

        self._spawn(run())

    def _left(self, actor: TableActor) -> bool:
        """Whether the table of ``actor`` left this worker (handed over at the end of a hand, or its lease lost)
        without being closed: a call its stopped actor refused is the next owner's to do."""
        return actor.status != "closed" and (actor.stopped or self.actors.get(actor.id) is not actor)


def _changing_hands(call: Call, table_id: int) -> Answer:
    """The answer to a call that reached a table while it moved between workers: nothing was done, ask again."""
    message = f"table {table_id} is changing hands between servers: try again in a few seconds"
    body = ErrorBody(status=503, code="unavailable", message=message)
    return Answer(id=call.id, error=body, headers={"Retry-After": "3"})


async def run_operation(actor: TableActor, operation: Operation) -> BaseModel:
    """Do a gateway's operation on the table's actor: what it returns, or its :class:`ApiError`."""
    match operation:
        case Sit(account_id=account, username=username, buy_in=buy_in, seat=seat):
            return await actor.sit(account, username, buy_in, seat)
        case Leave(account_id=account):
            return await actor.leave(account)
        case TopUp(account_id=account, amount=amount):
            return await actor.top_up(account, amount)
        case SetSittingOut(account_id=account, out=out):
            return await actor.set_sitting_out(account, out)
        case JoinWaitingList(account_id=account, username=username):
            return await actor.join_waiting_list(account, username)
        case LeaveWaitingList(account_id=account):
            return await actor.leave_waiting_list(account)
        case AddBots(count=count, tag=tag):
            return await actor.add_bots(count, tag)
        case RemoveBots():
            return await actor.remove_bots()
        case CloseTable():
            return await actor.close()
        case HoldSeat(account_id=account, username=username, seat=seat):
            return await actor.hold_seat(account, username, seat)
        case MoveOut(account_id=account, to_table=to_table, to_name=to_name, to_seat=to_seat):
            return await actor.move_out(account, to_table, to_name, to_seat)
        case MoveIn(account_id=account, seat=seat):
            return await actor.move_in(account, seat)
        case _:
            assert_never(operation)


def lobby_mark(actor: TableActor) -> Hashable:
    """What a table's lobby entry (:func:`table_entry`) is made of that can change, in a few µs where the entry
    takes tens: the worker makes an entry again only when its mark changed (a table's changes about once a hand)."""
    table = actor.table
    seats = tuple(
        (s.number, s.name, s.stack, s.queued, s.sitting_out, s.leaving, actor.seats[s.number].bot_tag)
        for s in table.occupied
    )
    connected = frozenset(c.account_id for c in actor.connections)
    return actor.status, actor.hands_played, table.hand is None, len(actor.waiting), seats, connected


def table_entry(actor: TableActor) -> str:
    """A table's lobby entry as the worker caches it in Redis: its info, and its seats (a gateway reads it back
    with :func:`~studpoker.server.messages.decode_entry`)."""
    return orjson.dumps({"info": actor.info(), "seats": actor.seats_info()}).decode()


async def run_worker(settings: Settings, drain_seconds: float = 60.0) -> None:
    """Run one table worker until SIGTERM or SIGINT (then drain for up to ``drain_seconds`` and stop)."""
    import signal

    room = WorkerRoom(settings)
    await room.open()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    log.info("table worker %s: stopping (draining for up to %.0f s)", room.worker_id, drain_seconds)
    await room.drain(drain_seconds)
    await room.close()
