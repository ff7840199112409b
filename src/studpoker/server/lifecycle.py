"""One start-up and shut-down sequence for every form of the room: its parts, started in order, stopped in reverse.

A part is anything with ``start`` and ``stop`` coroutines (:class:`Part`). A :class:`Lifecycle` starts its parts
one after the other; if one fails, those already started are stopped (in reverse) and the error goes on. Stopping
goes in reverse order, and a part that fails to stop is logged and does not keep the others running. The small
parts here are the ones every form needs: a :class:`Step` (two callables), a :class:`Loop` (a background task from
start to stop) and :class:`Tasks` (tasks spawned along the way, cancelled at the stop). :func:`prepare_process` and
:func:`freeze_startup_objects` are the steps that surround a process's start.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, Protocol

__all__ = ["GC_THRESHOLDS", "Lifecycle", "Loop", "Part", "Step", "Tasks", "freeze_startup_objects", "warm_up"]

log = logging.getLogger("studpoker.server")


class Part(Protocol):
    """Something a process starts and stops."""

    async def start(self) -> None: ...
    async def stop(self) -> None: ...


class Step:
    """A part made of a start and a stop callable (either may be ``None``: nothing to do)."""

    def __init__(
        self,
        name: str,
        start: Callable[[], Awaitable[None]] | None = None,
        stop: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.name = name
        self._start, self._stop = start, stop

    async def start(self) -> None:
        if self._start is not None:
            await self._start()

    async def stop(self) -> None:
        if self._stop is not None:
            await self._stop()

    def __repr__(self) -> str:
        return f"Step({self.name!r})"


class Loop:
    """A background task: ``job`` runs from the start to the stop (cancelled then)."""

    def __init__(self, name: str, job: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self.name = name
        self.job = job
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.task = asyncio.create_task(self.job(), name=self.name)

    async def stop(self) -> None:
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


class Tasks:
    """Tasks started along the way (a call, a connect), kept referenced until they end; the stop cancels them."""

    def __init__(self) -> None:
        self.running: set[asyncio.Task[Any]] = set()

    def spawn(self, job: Coroutine[Any, Any, Any], name: str | None = None) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(job, name=name)
        self.running.add(task)
        task.add_done_callback(self.running.discard)
        return task

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        tasks = list(self.running)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


class Lifecycle:
    """The parts of one process, started in order and stopped in reverse."""

    def __init__(self, name: str, parts: Sequence[Part] = ()) -> None:
        self.name = name
        self.parts: list[Part] = list(parts)
        self._started: list[Part] = []

    async def start(self) -> None:
        for part in self.parts:
            try:
                await part.start()
            except BaseException:
                await self.stop()
                raise
            self._started.append(part)

    async def stop(self) -> None:
        while self._started:
            part = self._started.pop()
            try:
                await part.stop()
            except Exception:
                log.exception("%s: %r did not stop cleanly", self.name, part)


_frozen = False


#: The collector's thresholds once the room runs (Python's are ``(700, 10, 10)``), see :func:`freeze_startup_objects`.
GC_THRESHOLDS = (5000, 10, 100)


def freeze_startup_objects() -> None:
    """Move everything alive after startup (the imported modules, FastAPI's and SQLAlchemy's objects, the tables)
    out of the garbage collector's reach, once per process. A full collection then walks only what the running
    room allocated since: on a 2-core machine it took 150 to 200 ms with 100 tables (the whole event loop, every
    table, stops meanwhile), and a few milliseconds after the freeze.

    Then collect less often (:data:`GC_THRESHOLDS`): a playing room keeps a few thousand new container objects a
    second alive (hand state, frames, database rows), so with Python's thresholds it collected the young
    generation ten times a second and a full collection (hundreds of ms at 400 tables) every few seconds. Measured
    with bench/load.py, 400 tables single process, alternated runs: 104 ms of collection per second, longest pause
    348 ms, before; 24 ms/s, longest 117 ms, after (docs/server.md; memory held by garbage in cycles grows by at
    most a few thousand objects)."""
    global _frozen
    if not _frozen:
        _frozen = True
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)


def warm_up() -> None:
    """Build the evaluator's lookup tables now: built on first use, they would stall the first showdown (and
    every table waiting behind it) for most of a second."""
    from ..evaluation import evaluate_high, evaluate_low8, evaluate_razz

    cards = "As Kd 7c 7h 2s 3d 4c"
    evaluate_high(cards), evaluate_low8(cards), evaluate_razz(cards)
