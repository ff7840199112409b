"""One WebSocket's outgoing side: the frames queued for it, and who it speaks for.

A table actor pushes encoded frames; the socket's writer task sends them in order
(:func:`studpoker.server.socket.write_frames`). A connection knows its account and the session it was opened
with, so logging out (or the session expiring) closes exactly the sockets of that session.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field

__all__ = ["Connection"]


@dataclass(eq=False)
class Connection:
    """One WebSocket: who it speaks for (``account_id`` ``None``: a visitor) and its outgoing frames.

    ``frames`` holds encoded frames, or an ``int``: close with that code. The connection's writer task takes them
    with :meth:`next` (a plain deque and one wake-up future, cheaper than an ``asyncio.Queue`` per frame). A
    client that lets more than ``limit`` frames, or more than ``byte_limit`` characters of them, pile up is
    closed (it would only get further behind; and a client that stops reading while it asks for snapshots, up
    to 120 KB each with a full chat history, would otherwise hold hundreds of megabytes).
    """

    account_id: int | None
    username: str | None
    session: str | None = None  # the hash of the session token it was opened with
    limit: int = 5000
    byte_limit: int = 4 * 1024 * 1024
    frames: deque[str | int] = field(default_factory=deque)
    queued: int = 0  # the characters of the frames waiting in ``frames``
    closed: bool = False
    bus_number: int = 0  # on a gateway of the distributed room: the socket's number on the bus
    _waiter: asyncio.Future[None] | None = None

    def push(self, text: str) -> None:
        if self.closed:
            return
        if len(self.frames) >= self.limit or self.queued + len(text) > self.byte_limit:
            self.frames.clear()  # nobody reads them: let them go now, not when the socket is finally torn down
            self.queued = 0
            self.close(1008)
            return
        self.frames.append(text)
        self.queued += len(text)
        self._wake()

    def close(self, code: int) -> None:
        if not self.closed:
            self.closed = True
            self.frames.append(code)
            self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def next(self) -> str | int:
        """The next frame to send (waits for one)."""
        while not self.frames:
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        item = self.frames.popleft()
        if isinstance(item, str):
            self.queued -= len(item)
        return item
