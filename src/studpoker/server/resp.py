"""The bus's hot path to Redis: a connection that publishes and one that listens, speaking RESP on the socket.

redis-py builds, sends and reads back a pipeline for every flush of frames, about 80 µs of CPU for one ``PUBLISH``
where writing the command's bytes costs a few, and its pub/sub reader spends about 30 µs a message. Both
connections here are opened by redis-py (:func:`take_over`: so its handshake, ``AUTH`` and ``SELECT``, TLS or a Unix
socket, and the bus's check that Redis asks for a password are redis-py's and the bus's as for every other
connection), then their socket is read and written here:

* :class:`Publisher` writes each ``PUBLISH`` at once and counts the answers as they come back, without waiting for
  them: an answer only says how many subscribers heard, and pub/sub is at most once anyway (the frames' numbers
  find what was lost);
* :class:`Subscriber` sends ``SUBSCRIBE``/``UNSUBSCRIBE`` and hands each message to the bus as it is parsed.

Commands that need their answer stay on redis-py.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

__all__ = ["Publisher", "Subscriber", "encode_command", "encode_publish", "take_over"]

log = logging.getLogger("studpoker.server")

#: Bytes written and not yet sent past which :meth:`Publisher.drained` waits (Redis reads slower than we write).
HIGH_WATER = 4 * 1024 * 1024
#: The longest string a :class:`Subscriber` takes from Redis (the bus's messages are far shorter).
MAX_BULK = 64 * 1024 * 1024


def encode_command(*parts: str) -> bytes:
    """A command in RESP.

    >>> encode_command("SUBSCRIBE", "a")
    b'*2\\r\\n$9\\r\\nSUBSCRIBE\\r\\n$1\\r\\na\\r\\n'
    """
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        data = part.encode()
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


def encode_publish(channel: str, message: str) -> bytes:
    """``PUBLISH channel message`` in RESP.

    >>> encode_publish("c", "hé")
    b'*3\\r\\n$7\\r\\nPUBLISH\\r\\n$1\\r\\nc\\r\\n$3\\r\\nh\\xc3\\xa9\\r\\n'
    """
    name, data = channel.encode(), message.encode()
    return b"*3\r\n$7\r\nPUBLISH\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (len(name), name, len(data), data)


class Publisher(asyncio.Protocol):
    """A connection that only publishes. ``unanswered``: commands written whose answer has not come (if the
    connection closes, they may or may not have been published); ``refused``: answers that were errors."""

    def __init__(self) -> None:
        self.transport: asyncio.WriteTransport | None = None
        self.closed = False
        self.unanswered = 0
        self.refused = 0
        self._tail = b""
        self.streams: tuple[Any, Any] | None = None  # redis-py's streams of the socket, see :func:`take_over`
        self._writable = asyncio.Event()
        self._writable.set()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.WriteTransport, transport)  # uvloop's are not asyncio's subclasses
        self.transport.set_write_buffer_limits(high=HIGH_WATER)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._writable.set()  # nobody waits on a closed connection

    def pause_writing(self) -> None:
        self._writable.clear()

    def resume_writing(self) -> None:
        self._writable.set()

    def data_received(self, data: bytes) -> None:
        # every answer this connection gets is one line: ":<subscribers>" or "-<error>"
        lines = (self._tail + data).split(b"\r\n")
        self._tail = lines.pop()
        self.unanswered -= len(lines)
        for line in lines:
            if line.startswith(b"-"):
                self.refused += 1
                log.warning("bus: Redis refused a message: %s", line[1:200].decode(errors="replace"))

    def publish(self, messages: Iterable[tuple[str, str]]) -> int:
        """Write ``PUBLISH`` for each ``(channel, message)``; how many were written."""
        return self.write([encode_publish(channel, message) for channel, message in messages])

    def write(self, commands: list[bytes]) -> int:
        """Write ``commands`` (in RESP, each answered by one line: ``PUBLISH``, ``SET``) in one go; how many."""
        if self.closed or self.transport is None or self.transport.is_closing():
            raise ConnectionError("the connection to Redis is closed")
        self.transport.write(b"".join(commands))
        self.unanswered += len(commands)
        return len(commands)

    async def drained(self) -> None:
        """Return once the bytes waiting to be sent are below :data:`HIGH_WATER` (or the connection closed)."""
        await self._writable.wait()

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()


class Subscriber(asyncio.Protocol):
    """A connection in subscribe mode: each message goes to ``handler(channel, data)`` as soon as it is parsed.

    ``subscribed``: the channels Redis confirmed; :meth:`confirmed` waits for some. A connection lost (or a reply
    that cannot be parsed, which closes it) sets ``closed`` and calls ``on_lost``."""

    def __init__(self, handler: Callable[[str, str], None], on_lost: Callable[[], None]) -> None:
        self.handler = handler
        self.on_lost = on_lost
        self.transport: asyncio.WriteTransport | None = None
        self.closed = False
        self.subscribed: set[str] = set()
        self.heard = 0.0  # the loop's time of the last bytes received
        self.streams: tuple[Any, Any] | None = None
        self._buffer = bytearray()
        self._waiters: list[tuple[frozenset[str], asyncio.Future[None]]] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.WriteTransport, transport)
        self.heard = asyncio.get_running_loop().time()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.closed:
            return
        self.closed = True
        for _, waiter in self._waiters:
            if not waiter.done():
                waiter.set_exception(ConnectionError("the connection to Redis closed"))
        self._waiters.clear()
        self.on_lost()

    def send(self, *parts: str) -> None:
        """Send a command (``SUBSCRIBE``, ``UNSUBSCRIBE``, ``PING``): its answer comes as a message of its own."""
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(encode_command(*parts))

    async def confirmed(self, channels: Iterable[str]) -> None:
        """Wait until Redis confirmed the subscription to every channel of ``channels``."""
        wanted = frozenset(channels)
        if wanted <= self.subscribed:
            return
        if self.closed:
            raise ConnectionError("the connection to Redis closed")
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((wanted, waiter))
        await waiter

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        self.heard = asyncio.get_running_loop().time()
        buffer = self._buffer
        buffer += data
        at = 0
        try:
            while True:
                parsed = _array(buffer, at)
                if parsed is None:
                    break
                items, at = parsed
                self._received(items)
        except ValueError as error:
            log.warning("bus: Redis sent what the bus cannot read (%s); reconnecting", error)
            del buffer[:]
            self.close()
            return
        del buffer[:at]

    def _received(self, items: list[bytes | int]) -> None:
        kind = items[0] if items else b""
        if kind == b"message" and len(items) == 3:
            channel, data = items[1], items[2]
            if isinstance(channel, bytes) and isinstance(data, bytes):
                try:
                    self.handler(channel.decode(errors="replace"), data.decode(errors="replace"))
                except Exception:
                    log.exception("bus: a message on %s could not be handled", channel[:100])
        elif kind == b"subscribe" and len(items) >= 2 and isinstance(items[1], bytes):
            self.subscribed.add(items[1].decode(errors="replace"))
            ready = [(w, f) for w, f in self._waiters if w <= self.subscribed]
            self._waiters = [(w, f) for w, f in self._waiters if not w <= self.subscribed]
            for _, waiter in ready:
                if not waiter.done():
                    waiter.set_result(None)
        elif kind == b"unsubscribe" and len(items) >= 2 and isinstance(items[1], bytes):
            self.subscribed.discard(items[1].decode(errors="replace"))


_P = TypeVar("_P", Publisher, Subscriber)


def _line(buffer: bytearray, at: int) -> tuple[bytes, int] | None:
    end = buffer.find(b"\r\n", at)
    if end < 0:
        if len(buffer) - at > 64:
            raise ValueError("a header line longer than 64 bytes")
        return None
    return bytes(buffer[at:end]), end + 2


def _array(buffer: bytearray, at: int) -> tuple[list[bytes | int], int] | None:
    """The reply (an array of strings and integers: what subscribe mode sends) that starts at ``at``, and where the
    next starts; ``None`` while it is incomplete. An error reply is logged and read as an empty array, a simple
    string as an array of it.

    >>> _array(bytearray(b"*3\\r\\n$7\\r\\nmessage\\r\\n$1\\r\\nc\\r\\n$2\\r\\nhi\\r\\n"), 0)
    ([b'message', b'c', b'hi'], 32)
    >>> _array(bytearray(b"*3\\r\\n$7\\r\\nmessage\\r\\n$1\\r\\nc\\r\\n$2\\r\\nh"), 0) is None
    True
    """
    header = _line(buffer, at)
    if header is None:
        return None
    line, at = header
    if line[:1] == b"-":
        log.warning("bus: Redis refused a command: %s", line[1:200].decode(errors="replace"))
        return [], at
    if line[:1] == b"+":  # a simple answer (``+PONG``, as some servers answer a PING in subscribe mode)
        return [line[1:]], at
    if line[:1] not in (b"*", b">"):  # RESP2 arrays, RESP3 pushes
        raise ValueError(f"a reply that is no array: {line[:40]!r}")
    count = int(line[1:])
    if not 0 <= count <= 16:
        raise ValueError(f"an array of {count} items")
    items: list[bytes | int] = []
    for _ in range(count):
        header = _line(buffer, at)
        if header is None:
            return None
        line, at = header
        if line[:1] == b":":
            items.append(int(line[1:]))
        elif line[:1] == b"$":
            size = int(line[1:])
            if not 0 <= size <= MAX_BULK:
                raise ValueError(f"a string of {size} bytes")
            if len(buffer) < at + size + 2:
                return None
            items.append(bytes(buffer[at : at + size]))
            at += size + 2
        else:
            raise ValueError(f"an item of a kind the bus never asks for: {line[:40]!r}")
    return items, at


async def take_over(connection: Any, protocol: _P) -> _P:
    """Connect redis-py's ``connection`` (a new one, from its pool's ``make_connection``: the pool's handshake),
    then make its socket ``protocol``'s. redis-py's object lets go of the socket (it would close it when
    collected), and the protocol keeps its streams (so would they)."""
    await connection.connect()
    streams = connection._reader, connection._writer
    transport = streams[1].transport
    connection._writer = connection._reader = None
    protocol.streams = streams
    transport.set_protocol(protocol)
    protocol.connection_made(transport)
    return protocol
