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
restart voids it (:func:`~studpoker.server.room.void_unfinished`). On SIGTERM the worker drains: no new hand is
dealt, the hands in play are finished (up to ``drain_seconds``), and the leases are given back so that other workers
take the tables with nothing voided.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import time
from collections import deque
from typing import Any, assert_never

from sqlalchemy.orm import Session

from . import bus as channels
from .actor import TableActor
from .balance import claim_limit, loads, stop_between_hands, surplus
from .bus import Bus, info_key, pack_frames, process_name, table_channel
from .config import Settings
from .db import TableRow
from .errors import ApiError
from .lease import FencedDatabase, LeaseLostError, claim, release, renew
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
    JoinWaitingList,
    JsonObject,
    Leave,
    LeaveWaitingList,
    Operation,
    Owner,
    RemoveBots,
    Resync,
    SetSittingOut,
    Show,
    Sit,
    Snapshot,
    ToGateway,
    TopUp,
    decode,
    dropped,
    encode,
)
from .relay import RemoteConnection
from .room import VOIDED_KEPT, Room, void_unfinished

__all__ = ["RemoteConnection", "WorkerRoom", "run_operation", "run_worker"]

log = logging.getLogger("studpoker.server")

#: Seconds after which a gateway without a heartbeat is taken for gone (its sockets leave the tables).
GATEWAY_TIMEOUT = 6.0


class WorkerRoom(Room):
    """The tables one worker process drives (see the module's docstring)."""

    def __init__(self, settings: Settings) -> None:
        if settings.redis_url is None:
            raise ValueError("a table worker needs a Redis URL")
        super().__init__(settings)
        self.worker_id = process_name()
        self.bus = Bus(
            settings.redis_url,
            self._on_message,
            self._on_reconnect,
            allow_unauthenticated=settings.redis_allow_unauthenticated,
        )
        self.generations: dict[int, int] = {}
        self.remote: dict[tuple[str, int], RemoteConnection] = {}
        self.gateway_seen: dict[str, float] = {}
        self.draining = False
        self._outbox: dict[tuple[str, int, int], list[tuple[int, int, int, str | int]]] = {}
        self._flush_due = False
        self._claim_now = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._taking: set[int] = set()
        self._handing: set[int] = set()  # tables being handed over to another worker (balance)
        self._handed_at = -1e9  # when this worker last handed a table over
        self._renewed_at = time.monotonic()
        self._spawned: set[asyncio.Task[Any]] = set()

    # -- life ----------------------------------------------------------------------------------------------

    async def open(self) -> None:
        from .room import _freeze_startup_objects, _warm_up

        await asyncio.to_thread(_warm_up)
        await self.db.run_plain(self.db.migrate)
        self.bus.start()
        for job, name in ((self._leases, "leases"), (self._infos, "lobby-infos")):
            self._tasks.append(asyncio.create_task(job(), name=name))
        _freeze_startup_objects()
        log.info("table worker %s started", self.worker_id)

    async def close(self) -> None:
        """Stop at once: the tables' actors stop where they are and the leases are given back (the next owner
        voids the hands in play). :meth:`drain` first for a stop that voids nothing."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for actor in list(self.actors.values()):
            actor.abandon()
        tables = list(self.actors)
        self.actors.clear()
        with contextlib.suppress(Exception):
            await self.db.run(lambda s: release(s, self.worker_id))
        with contextlib.suppress(Exception):
            if tables:
                await self.bus.redis.delete(*(info_key(t) for t in tables))
            await self.bus.redis.zrem(channels.WORKERS, self.worker_id)
            await self.bus.publish(channels.ROOM, encode(Claim()))
        await self.bus.close()
        self.db.close()

    async def drain(self, seconds: float) -> None:
        """Deal no new hand; wait (at most ``seconds``) until no table has a hand in play."""
        self.draining = True
        for actor in self.actors.values():
            actor.paused = True
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and any(a.table.hand is not None for a in self.actors.values()):
            await asyncio.sleep(0.1)
        busy = sum(1 for a in self.actors.values() if a.table.hand is not None)
        log.info("table worker %s drained (%d hands still in play are voided by the next owner)", self.worker_id, busy)

    # -- leases ------------------------------------------------------------------------------------------

    async def _leases(self) -> None:
        """Renew every ``lease_seconds / 5`` (bounded by a lease, so that a partition that drops packets cannot
        hold a renewal up for minutes); between renewals, claim in a task of its own, so that taking many tables
        at once never delays a renewal."""
        period = self.settings.lease_seconds / 5
        last_purge = time.monotonic()
        claiming: asyncio.Task[None] | None = None
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._claim_now.wait(), period)
            self._claim_now.clear()
            try:
                await asyncio.wait_for(self._renew_pass(), self.settings.lease_seconds)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning(
                    "table worker %s: lease renewal failed (%s); again in %.1f s", self.worker_id, error, period
                )
                if time.monotonic() - self._renewed_at > self.settings.lease_seconds and self.generations:
                    # no renewal for a whole lease: another worker may own these tables by now (it cannot write
                    # while we might, the fence sees to that, but the players would hear two tables)
                    for table_id in list(self.generations):
                        self._lose(table_id, f"no lease renewal for {self.settings.lease_seconds:g} s")
                continue
            if not self.draining and (claiming is None or claiming.done()):
                claiming = asyncio.create_task(self._claim_pass(), name="claims")
                self._spawned.add(claiming)
                claiming.add_done_callback(self._spawned.discard)
            if time.monotonic() - last_purge >= 2.0:
                last_purge = time.monotonic()
                with contextlib.suppress(Exception):
                    await self._purge_gateways()

    async def _renew_pass(self) -> None:
        seconds = self.settings.lease_seconds
        asked = time.monotonic()
        held = await self.db.run(lambda s: renew(s, self.worker_id, seconds))
        self._renewed_at = asked  # the leases now last until at least ``seconds`` after the renewal was asked
        for table_id, generation in list(self.generations.items()):
            if held.get(table_id) != generation and table_id not in self._taking:
                self._lose(table_id, f"its lease passed to another worker (generation {held.get(table_id)})")
        # a table whose hand could not be saved (the database was away) has stopped dealing: give it back, so
        # that its next owner (maybe this worker) voids that hand and deals again
        failed = [t for t, a in self.actors.items() if a.failed and t in self.generations]
        for table_id in failed:
            self._lose(table_id, "a hand could not be saved")
        if failed:
            await self._release(failed)
        await self.bus.heartbeat(channels.WORKERS, self.worker_id)

    async def _claim_pass(self) -> None:
        """Claim tables without a live owner, up to this worker's share, and take them (8 at a time); with none
        to claim, hand those beyond the share over (:mod:`~studpoker.server.balance`)."""
        seconds = self.settings.lease_seconds
        workers = max(1, len(await self.bus.alive(channels.WORKERS, seconds)))
        lately = time.monotonic() - self._handed_at < 3 * seconds

        def take(session: Session) -> tuple[int, list[tuple[int, int]]]:
            from sqlalchemy import func, select

            total = int(session.scalar(select(func.count(TableRow.id)).where(TableRow.status != "closed")) or 0)
            limit = claim_limit(len(self.generations), total, workers, handed_over_lately=lately)
            return total, claim(session, self.worker_id, seconds, limit)

        try:
            total, claimed = await self.db.run(take)
        except Exception as error:
            log.warning("table worker %s: claiming failed (%s)", self.worker_id, error)
            return
        if not claimed and not self._handing and not self.draining:
            for table_id in surplus(loads(self.actors, self.generations), total, workers):
                self._handing.add(table_id)
                self._spawn(self._hand_over(table_id, f"{total} tables on {workers} workers"))
        if not claimed:
            return
        for table_id, _ in claimed:
            self._taking.add(table_id)
        # listen to the tables' channels before the gateways are told: their attachments must be heard
        self.bus.subscribe(*(table_channel(t) for t, _ in claimed))
        await self.bus.listening()
        gate = asyncio.Semaphore(8)

        async def one(table_id: int, generation: int) -> None:
            async with gate:
                try:
                    await self._take(table_id, generation)
                except LeaseLostError:
                    log.warning(
                        "table worker %s: table %s was taken by another worker meanwhile", self.worker_id, table_id
                    )
                    self._lose(table_id, "taken by another worker meanwhile")
                except Exception:
                    log.exception("table worker %s: could not take table %s; giving it back", self.worker_id, table_id)
                    self._lose(table_id, "it could not be taken")
                    with contextlib.suppress(Exception):
                        await self._release([table_id])
                finally:
                    self._taking.discard(table_id)

        await asyncio.gather(*(one(t, g) for t, g in claimed))
        if len(claimed) >= 20:
            # the tables just loaded will live as long as the worker: out of the collector's way (as at startup)
            gc.collect()
            gc.freeze()

    async def _take(self, table_id: int, generation: int) -> None:
        """Own table ``table_id`` from now on: void its hand in play, load it, listen to its channel, say so."""
        self.generations[table_id] = generation
        fenced = FencedDatabase(self.db, table_id, generation, lambda: self._lose_soon(table_id, generation))

        def work(session: Session) -> tuple[list[tuple[int, dict[str, Any]]], TableRow | None]:
            voided = void_unfinished(session, table_id)
            return voided, session.get(TableRow, table_id)

        voided, row = await fenced.run(work)
        if row is None or row.status == "closed":
            self._lose(table_id, "it is closed")
            await self._release([table_id])
            return
        for _, entry in voided:
            self.voided.setdefault(table_id, deque(maxlen=VOIDED_KEPT)).append(entry)
            log.warning(
                "table %s: hand %s was cut short when its worker went away; it is void", table_id, entry["hand"]
            )
        actor = await self._load(row, db=fenced)
        if self.draining:
            actor.paused = True
        log.info("table worker %s took table %s (generation %s)", self.worker_id, table_id, generation)
        await self.bus.publish(channels.ROOM, encode(Owner(table=table_id, generation=generation)))
        if row.status == "closing":
            await actor.close()

    async def _release(self, tables: list[int]) -> None:
        def work(session: Session) -> int:
            return release(session, self.worker_id, tables)

        await self.db.run(work)

    async def _hand_over(self, table_id: int, why: str) -> None:
        """Give a table to another worker at the end of its hand (release it, and ask the others to claim it)."""
        try:
            # stopped, the table is dropped here: a gateway's call hears nobody and is refused at once (503)
            off = lambda: self._lose(table_id, "it is handed over", logging.DEBUG)  # noqa: E731
            if (actor := self.actors.get(table_id)) is None or not await stop_between_hands(actor, off):
                return
            self._handed_at = time.monotonic()
            while True:
                try:
                    await self._release([table_id])
                    break
                except Exception as error:
                    log.warning("table worker %s: releasing table %s failed (%s)", self.worker_id, table_id, error)
                    await asyncio.sleep(self.settings.lease_seconds / 5)
            log.info("table worker %s handed table %s over (%s)", self.worker_id, table_id, why)
            await self.bus.publish(channels.ROOM, encode(Claim()))
        finally:
            self._handing.discard(table_id)

    def _spawn(self, job: Any) -> None:
        """Run ``job`` as a task the worker keeps a reference to until it ends."""
        task = asyncio.get_running_loop().create_task(job)
        self._spawned.add(task)
        task.add_done_callback(self._spawned.discard)

    def _lose_soon(self, table_id: int, generation: int) -> None:
        if self.generations.get(table_id) == generation:
            asyncio.get_running_loop().call_soon(self._lose, table_id, "a write found its lease gone")

    def _lose(self, table_id: int, why: str, level: int = logging.WARNING) -> None:
        """Drop a table this worker no longer owns: its actor stops without another write or frame."""
        self.generations.pop(table_id, None)
        actor = self.actors.pop(table_id, None)
        if actor is not None:
            actor.abandon()
            log.log(level, "table worker %s: dropped table %s: %s", self.worker_id, table_id, why)
        self.bus.unsubscribe(table_channel(table_id))
        for key, connection in list(self.remote.items()):
            if connection.table_id == table_id:
                connection.worker = None
                del self.remote[key]

    def forget(self, table_id: int) -> None:
        """A table that closed: its lease goes back (nobody claims a closed table) and its lobby entry goes."""
        super().forget(table_id)
        self.generations.pop(table_id, None)
        self.bus.unsubscribe(table_channel(table_id))

        async def tidy() -> None:
            with contextlib.suppress(Exception):
                await self._release([table_id])
                await self.bus.redis.delete(info_key(table_id))

        self._spawn(tidy())

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
                entry = table_entry(actor)
                if full or written.get(table_id) != entry:
                    entries[info_key(table_id)] = written[table_id] = entry
            for table_id in [t for t in written if t not in self.actors]:
                del written[table_id]
            if not entries:
                continue
            with contextlib.suppress(Exception):
                async with self.bus.redis.pipeline(transaction=False) as pipe:
                    for key, value in entries.items():
                        pipe.set(key, value, ex=5)
                    await pipe.execute()

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
        if actor is None:
            return
        try:
            message = decode(data, TO_WORKER)
        except BadMessage as error:
            dropped(channel, error)
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
                self._spawn(actor.act(connection, hand, seq, action, amount))
            case Show(hand=hand):
                self._spawn(actor.show(connection, hand))
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
                answer = Answer(id=call.id, ok=result)
            except ApiError as error:
                body = ErrorBody(status=error.status, code=error.code, message=error.message)
                answer = Answer(id=call.id, error=body, headers=error.headers)
            except LeaseLostError:  # nothing was written (the fence rolled it back): the table changes hands
                body = ErrorBody(
                    status=503,
                    code="unavailable",
                    message=f"table {actor.id} is changing hands between servers: try again in a few seconds",
                )
                answer = Answer(id=call.id, error=body, headers={"Retry-After": "3"})
            except Exception:
                # the details (SQL, hosts, lease generations) are for the log, never for the client: the same
                # answer as the embedded room's for a request that failed
                log.exception("table %s: %s from a gateway failed", actor.id, call.operation.name)
                body = ErrorBody(status=500, code="internal", message="the table could not do it (it is logged)")
                answer = Answer(id=call.id, error=body)
            self._answer(call.gateway, answer)

        self._spawn(run())


async def run_operation(actor: TableActor, operation: Operation) -> JsonObject:
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
        case _:
            assert_never(operation)


def table_entry(actor: TableActor) -> str:
    """A table's lobby entry as the worker caches it in Redis: its info, and its seats (a gateway reads it back
    with :func:`~studpoker.server.messages.decode_entry`)."""
    return json.dumps({"info": actor.info(), "seats": actor.seats_info()}, separators=(",", ":"))


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
