"""A table worker's leases, as a part: :class:`LeaseKeeper` renews them, claims tables up to the worker's share,
takes the tables claimed (their hand in play voided, their actor loaded), hands those beyond the share over, and drops
a table whose lease is gone. The lease rows and their fence are :mod:`studpoker.server.lease`'s; the sharing out
is :mod:`studpoker.server.balance`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Callable

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from . import bus as channels
from .balance import claim_limit, loads, stop_between_hands, surplus
from .bus import Bus, info_key, table_channel
from .config import Settings
from .db import Database, TableRow
from .lease import FencedDatabase, LeaseLostError, claim, release, renew
from .lifecycle import Loop, Tasks
from .messages import Claim, Owner, encode
from .protocol import VoidedHand
from .tablehost import TableHost, void_unfinished

__all__ = ["LeaseKeeper"]

log = logging.getLogger("studpoker.server")


class LeaseKeeper:
    """The leases of worker ``worker_id``: which tables it holds (:attr:`generations`), and the loop that keeps
    them (see the module's docstring). ``on_lose`` is told of a table dropped, after its actor."""

    def __init__(
        self,
        settings: Settings,
        db: Database,
        bus: Bus,
        host: TableHost,
        worker_id: str,
        tasks: Tasks,
        on_lose: Callable[[int], None],
    ) -> None:
        self.settings = settings
        self.db = db
        self.bus = bus
        self.host = host
        self.worker_id = worker_id
        self.tasks = tasks
        self.on_lose = on_lose
        self.generations: dict[int, int] = {}
        self.draining = False
        self.claim_now = asyncio.Event()  # set: claim at once (a table announced, Redis back)
        self._taking: set[int] = set()
        self._handing: set[int] = set()  # tables being handed over to another worker (balance)
        self._handed_at = -1e9  # when this worker last handed a table over
        self._renewed_at = time.monotonic()
        self._loop = Loop("leases", self._leases)

    async def start(self) -> None:
        await self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()

    async def give_back(self) -> list[int]:
        """Stop at once: the tables' actors stop where they are and every lease is given back (the next owner voids
        the hands in play). Returns the tables given back."""
        for actor in list(self.host.actors.values()):
            actor.abandon()
        tables = list(self.host.actors)
        self.host.actors.clear()
        with contextlib.suppress(Exception):
            await self.db.run(lambda s: release(s, self.worker_id))
        return tables

    def forgotten(self, table_id: int) -> None:
        """A table that closed: its lease goes back (nobody claims a closed table) and its lobby entry goes."""
        self.generations.pop(table_id, None)
        self.bus.unsubscribe(table_channel(table_id))

        async def tidy() -> None:
            with contextlib.suppress(Exception):
                await self.release([table_id])
                await self.bus.redis.delete(info_key(table_id))

        self.tasks.spawn(tidy())

    async def drain(self, seconds: float) -> None:
        """Deal no new hand; wait (at most ``seconds``) until no table has a hand in play."""
        self.draining = True
        for actor in self.host.actors.values():
            actor.paused = True
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and any(a.table.hand is not None for a in self.host.actors.values()):
            await asyncio.sleep(0.1)
        busy = sum(1 for a in self.host.actors.values() if a.table.hand is not None)
        log.info("table worker %s drained (%d hands still in play are voided by the next owner)", self.worker_id, busy)

    async def _leases(self) -> None:
        """Renew every ``lease_seconds / 5`` (bounded by a lease, so that a partition that drops packets cannot
        hold a renewal up for minutes); between renewals, claim in a task of its own, so that taking many tables
        at once never delays a renewal."""
        period = self.settings.lease_seconds / 5
        claiming: asyncio.Task[None] | None = None
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.claim_now.wait(), period)
            self.claim_now.clear()
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
                        self.lose(table_id, f"no lease renewal for {self.settings.lease_seconds:g} s")
                continue
            if not self.draining and (claiming is None or claiming.done()):
                claiming = self.tasks.spawn(self._claim_pass(), name="claims")

    async def _renew_pass(self) -> None:
        seconds = self.settings.lease_seconds
        asked = time.monotonic()
        held = await self.db.run(lambda s: renew(s, self.worker_id, seconds))
        self._renewed_at = asked  # the leases now last until at least ``seconds`` after the renewal was asked
        for table_id, generation in list(self.generations.items()):
            if held.get(table_id) != generation and table_id not in self._taking:
                self.lose(table_id, f"its lease passed to another worker (generation {held.get(table_id)})")
        # a table whose hand could not be saved (the database was away) has stopped dealing: give it back, so
        # that its next owner (maybe this worker) voids that hand and deals again
        failed = [t for t, a in self.host.actors.items() if a.failed and t in self.generations]
        for table_id in failed:
            self.lose(table_id, "a hand could not be saved")
        if failed:
            await self.release(failed)
        await self.bus.heartbeat(channels.WORKERS, self.worker_id)

    async def _claim_pass(self) -> None:
        """Claim tables without a live owner, up to this worker's share, and take them (8 at a time); with none
        to claim, hand those beyond the share over (:mod:`~studpoker.server.balance`)."""
        seconds = self.settings.lease_seconds
        workers = max(1, len(await self.bus.alive(channels.WORKERS, seconds)))
        lately = time.monotonic() - self._handed_at < 3 * seconds

        def take(session: Session) -> tuple[int, list[tuple[int, int]]]:
            total = int(session.scalar(select(func.count(TableRow.id)).where(TableRow.status != "closed")) or 0)
            limit = claim_limit(len(self.generations), total, workers, handed_over_lately=lately)
            return total, claim(session, self.worker_id, seconds, limit)

        try:
            total, claimed = await self.db.run(take)
        except Exception as error:
            log.warning("table worker %s: claiming failed (%s)", self.worker_id, error)
            return
        if not claimed and not self._handing and not self.draining:
            for table_id in surplus(loads(self.host.actors, self.generations), total, workers):
                self._handing.add(table_id)
                self.tasks.spawn(self._hand_over(table_id, f"{total} tables on {workers} workers"))
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
                    self.lose(table_id, "taken by another worker meanwhile")
                except Exception:
                    log.exception("table worker %s: could not take table %s; giving it back", self.worker_id, table_id)
                    self.lose(table_id, "it could not be taken")
                    with contextlib.suppress(Exception):
                        await self.release([table_id])
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

        def work(session: Session) -> tuple[list[tuple[int, VoidedHand]], TableRow | None]:
            voided = void_unfinished(session, table_id)
            return voided, session.get(TableRow, table_id)

        voided, row = await fenced.run(work)
        if row is None or row.status == "closed":
            self.lose(table_id, "it is closed")
            await self.release([table_id])
            return
        self.host.remember_voided(voided, "when its worker went away")
        actor = await self.host.load(row, db=fenced)
        if self.draining:
            actor.paused = True
        log.info("table worker %s took table %s (generation %s)", self.worker_id, table_id, generation)
        await self.bus.publish(channels.ROOM, encode(Owner(table=table_id, generation=generation)))
        if row.status == "closing":
            await actor.close()

    async def release(self, tables: list[int]) -> None:
        def work(session: Session) -> int:
            return release(session, self.worker_id, tables)

        await self.db.run(work)

    async def _hand_over(self, table_id: int, why: str) -> None:
        """Give a table to another worker at the end of its hand (release it, and ask the others to claim it)."""
        try:
            # stopped, the table is dropped here: a gateway's call hears nobody and is refused at once (503)
            off = lambda: self.lose(table_id, "it is handed over", logging.DEBUG)  # noqa: E731
            if (actor := self.host.actors.get(table_id)) is None or not await stop_between_hands(actor, off):
                return
            self._handed_at = time.monotonic()
            while True:
                try:
                    await self.release([table_id])
                    break
                except Exception as error:
                    log.warning("table worker %s: releasing table %s failed (%s)", self.worker_id, table_id, error)
                    await asyncio.sleep(self.settings.lease_seconds / 5)
            log.info("table worker %s handed table %s over (%s)", self.worker_id, table_id, why)
            await self.bus.publish(channels.ROOM, encode(Claim()))
        finally:
            self._handing.discard(table_id)

    def _lose_soon(self, table_id: int, generation: int) -> None:
        if self.generations.get(table_id) == generation:
            asyncio.get_running_loop().call_soon(self.lose, table_id, "a write found its lease gone")

    def lose(self, table_id: int, why: str, level: int = logging.WARNING) -> None:
        """Drop a table this worker no longer owns: its actor stops without another write or frame."""
        self.generations.pop(table_id, None)
        actor = self.host.actors.pop(table_id, None)
        if actor is not None:
            actor.abandon()
            log.log(level, "table worker %s: dropped table %s: %s", self.worker_id, table_id, why)
        self.bus.unsubscribe(table_channel(table_id))
        self.on_lose(table_id)
