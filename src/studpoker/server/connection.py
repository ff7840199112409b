"""One WebSocket's outgoing side: the frames queued for it, and who it speaks for.

A table actor pushes encoded frames; the socket's writer task sends them in order
(:func:`studpoker.server.socket.write_frames`). A connection knows its account and the session it was opened
with, so logging out (or the session expiring) closes exactly the sockets of that session.

A client that asks for batches (``/ws/table/{id}?batch=1``) gets the messages pushed to it in one turn of the event
loop (a step of a hand: its events, ``dealer``, ``pot``, ``turn``, ``your_turn``) as one frame, a JSON array: a
quarter of the frames for the actor, the bus and the gateway to carry and for the client to read.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Connection", "join_batch", "merge_batches"]

log = logging.getLogger("studpoker.server")

# by event loop, the batching connections pushed to in this turn: one callback ends all their steps, in the order
# they were first pushed to (not one callback per connection: a step goes to every socket of the table)
_stepping: dict[asyncio.AbstractEventLoop, list[Connection]] = {}


def _end_steps(loop: asyncio.AbstractEventLoop) -> None:
    # a step that every viewer sees alike is joined once for all of them (and, as one object, written once into a
    # bus message of frames); the joined batches live as long as this call, so nothing outlives a stopped loop
    joined: dict[tuple[str, ...], str] = {}
    for connection in _stepping.pop(loop, ()):
        try:
            connection._end_step(joined)
        except Exception:  # one socket's failure does not hold back the other sockets' steps
            log.exception("a socket's frames could not be sent")


def join_batch(texts: list[str], joined: dict[tuple[str, ...], str] | None = None) -> str:
    """Encoded messages as one batch, a JSON array; with ``joined`` (the batches made so far in this turn of the
    loop, by their messages) the same messages give the same object.

    >>> joined = {}
    >>> batch = join_batch(['{"type":"pot"}', '{"type":"turn"}'], joined)
    >>> batch, join_batch(['{"type":"pot"}', '{"type":"turn"}'], joined) is batch
    ('[{"type":"pot"},{"type":"turn"}]', True)
    """
    if joined is None:
        return "[" + ",".join(texts) + "]"
    key = tuple(texts)
    text = joined.get(key)
    if text is None:
        text = joined[key] = "[" + ",".join(texts) + "]"
    return text


def merge_batches(batches: list[str]) -> str:
    """Several batches waiting for one socket as one.

    >>> merge_batches(['[{"a":1}]', '[{"b":2},{"c":3}]'])
    '[{"a":1},{"b":2},{"c":3}]'
    """
    if len(batches) == 1:
        return batches[0]
    return "[" + ",".join([batch[1:-1] for batch in batches]) + "]"


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
    batch: bool = False  # the client asked for batches (``?batch=1``): see the module's docstring
    step: list[str] = field(default_factory=list)  # a batching client's messages pushed in this loop turn
    #: writes a frame at once if the socket can take it now (:class:`~studpoker.server.edge.DirectFrames`), else
    #: says ``False``; ``None``: every frame goes through the writer task
    direct: Callable[[str], bool] | None = None
    sending: bool = False  # the writer task holds a frame it has not finished sending
    _waiter: asyncio.Future[None] | None = None

    def push(self, text: str) -> None:
        """Send one encoded message: at once, or, to a client that asked for batches, with the others pushed in
        this turn of the event loop."""
        if self.closed:
            return
        if self.batch:
            if not self.step:
                loop = asyncio.get_running_loop()
                stepping = _stepping.get(loop)
                if stepping is None:
                    stepping = _stepping[loop] = []
                    loop.call_soon(_end_steps, loop)
                stepping.append(self)
            self.step.append(text)
            return
        self.deliver(text)

    def _end_step(self, joined: dict[tuple[str, ...], str] | None = None) -> None:
        step, self.step = self.step, []
        if step and not self.closed:
            self.deliver(join_batch(step, joined))

    def deliver(self, text: str) -> None:
        """Queue one frame as it is (a message, or a batch already joined: what a worker sends a gateway)."""
        if self.closed:
            return
        direct = self.direct
        if direct is not None and not self.frames and not self.sending and direct(text):
            return  # written at once: nothing queued before it, and the socket could take it
        if len(self.frames) >= self.limit or self.queued + len(text) > self.byte_limit:
            self.frames.clear()  # nobody reads them: let them go now, not when the socket is finally torn down
            self.queued = 0
            self.close(1008)
            return
        self.frames.append(text)
        self.queued += len(text)
        self._wake()

    def close(self, code: int) -> None:
        """Close with ``code`` once what was pushed before is sent."""
        if not self.closed:
            self._end_step()
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
        """The next frame to send (waits for one); ``sending`` is set until the writer has sent it, so that no
        frame is written past it."""
        while not self.frames:
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        self.sending = True
        item = self.frames.popleft()
        if isinstance(item, str):
            self.queued -= len(item)
        return item

    def more(self, limit: int) -> list[str]:
        """The encoded frames waiting right behind the one just taken, up to ``limit`` characters (one at least,
        if any waits) and up to a close: what a batch sends with it.

        >>> c = Connection(1, "ann")
        >>> for text in ('{"a":1}', '{"b":2}', '{"c":3}'):
        ...     c.push(text)
        >>> c.close(1000)
        >>> c.frames.popleft(), c.more(10), c.more(10), list(c.frames)
        ('{"a":1}', ['{"b":2}', '{"c":3}'], [], [1000])
        """
        taken: list[str] = []
        size = 0
        frames = self.frames
        while frames and size < limit:
            item = frames[0]
            if not isinstance(item, str):
                break
            frames.popleft()
            self.queued -= len(item)
            size += len(item)
            taken.append(item)
        return taken
