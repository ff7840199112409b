"""A table actor's inbox: the jobs waiting to run on the table, one at a time, in the order they came.

A plain deque and one wake-up future: what the actor needs of an ``asyncio.Queue`` (put, wait for the next, drain)
without its bookkeeping, at every action of every table.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, TypeAlias

__all__ = ["Inbox", "Job", "Letter"]

#: A piece of work on a table: run by its actor, between two steps of the hand.
Job: TypeAlias = Callable[[], Awaitable[Any]]
#: What the inbox holds: a job and the future its caller waits on (``None``: nobody waits), or ``None``: stop.
Letter: TypeAlias = "tuple[Job, asyncio.Future[Any] | None] | None"


class Inbox:
    """The jobs waiting for a table's actor.

    >>> async def main():
    ...     inbox = Inbox()
    ...     waiting = asyncio.ensure_future(inbox.get())
    ...     await asyncio.sleep(0)
    ...     inbox.put(None)
    ...     return await waiting, inbox.empty()
    >>> asyncio.run(main())
    (None, True)
    """

    def __init__(self) -> None:
        self._letters: deque[Letter] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put(self, letter: Letter) -> None:
        """Add ``letter`` at the end, and wake the actor if it waits."""
        self._letters.append(letter)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def get(self) -> Letter:
        """The first letter, when there is one."""
        while not self._letters:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            await waiter
        return self._letters.popleft()

    def get_nowait(self) -> Letter:
        """The first letter (:class:`IndexError` if there is none)."""
        return self._letters.popleft()

    def empty(self) -> bool:
        return not self._letters

    def __len__(self) -> int:
        return len(self._letters)
