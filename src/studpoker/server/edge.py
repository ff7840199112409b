"""The room's face to the network: how ``stud serve`` configures uvicorn for a :class:`Settings`, and what it adds
against slow and greedy clients.

:func:`uvicorn_options` is the one place that says it (``stud serve``, its gateways, bench/load.py and the tests'
live servers all use it), so that what is tested is what runs:

* **Forwarded headers**: uvicorn's own handling is off. By default it believes ``X-Forwarded-For`` from 127.0.0.1,
  which behind a proxy on the same host lets every client pick its address; the room believes those headers only
  from ``Settings.trusted_proxies`` (:mod:`studpoker.server.forwarded`).
* **Slow requests**: uvicorn waits for a request's head as long as the client takes (a client that sends a byte
  now and then holds its connection, and a few hundred such hold the server). Here a connection whose request
  head is not complete ``Settings.request_seconds`` after it opened, or after the last answer on it, is closed
  (the body has as long again: :class:`~studpoker.server.security.GuardMiddleware`).
* **Connections per address**: a client address may hold ``Settings.max_connections_per_address`` connections
  (HTTP and WebSocket alike); one more is answered ``429 too_many_connections`` and closed at once. The address
  is the peer's: the forwarded one is not known before a request has arrived, so connections from a trusted proxy
  are not counted (the proxy counts its clients itself: ``limit_conn`` in the recommended nginx configuration).

* **One write per burst of frames**: uvicorn writes each WebSocket frame to the socket at once (one system call per
  frame), and a step of a hand is four or five frames to every socket of the table. A WebSocket's writes are
  gathered (:class:`GatheredWrites`) and written together at the end of the event loop's turn, one call for all the
  frames a socket's writer sent in that turn, in their order.
* **Frames written where they are made**: a frame sent through ASGI wakes the socket's writer task and passes
  through Starlette's and uvicorn's ``send`` coroutines, several times the cost of building the frame. The upgrade
  puts a :class:`DirectFrames` in the connection's ASGI scope (``scope["extensions"]["studpoker.frames"]``); the
  socket (:class:`~studpoker.server.connection.Connection`) writes through it at once while the connection is open,
  writable and has nothing queued, and falls back to its writer task (which waits for the client) otherwise.

The connection classes subclass uvicorn's own (httptools, or h11 when httptools is missing). They add a count and
a timer per connection and a clock read per answer (about 0.2 µs; the timer is set again only when it fires
early), nothing per byte or per WebSocket frame.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any, ClassVar

from uvicorn.protocols.http.h11_impl import H11Protocol

from .config import Settings
from .errors import error_body
from .forwarded import TrustedProxies

__all__ = [
    "DIRECT_FRAMES",
    "WEBSOCKETS",
    "WS_MAX_SIZE",
    "DirectFrames",
    "Edge",
    "GatheredWrites",
    "GuardedH11Protocol",
    "Watch",
    "text_frame",
    "uvicorn_options",
]

log = logging.getLogger("studpoker.server")

#: The largest WebSocket message uvicorn takes before the room sees it (the room's own limit is 4 KiB).
WS_MAX_SIZE = 65536
#: The table sockets' implementation: uvicorn's sans-I/O ``websockets``, named rather than left to ``auto`` (which
#: picked the legacy one before uvicorn 0.50). It answers a client's close frame in the read that brings it and
#: closes the connection, while the legacy one reads a close only after the application has taken every frame
#: before it, then waits up to 10 s for the client to drop the connection: a client that had stopped reading waited
#: those 10 s for the server's close (issue 26, item 12; docs/server.md, "Table sockets").
WEBSOCKETS = "websockets-sansio"
#: The ASGI scope extension under which a table socket finds its :class:`DirectFrames`.
DIRECT_FRAMES = "studpoker.frames"


class Edge:
    """One server's watch over its connections: how many each address holds, and the time a request head has."""

    def __init__(self, settings: Settings) -> None:
        self.request_seconds = settings.request_seconds
        self.limit = settings.max_connections_per_address
        self.uncounted = TrustedProxies(settings.trusted_proxies)
        self.open: dict[str, int] = {}  # connections held, by peer address
        message = f"at most {self.limit} connections from one address: close some and try again"
        body = json.dumps(error_body("too_many_connections", message)).encode()
        self.refusal = (
            b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nretry-after: 1\r\n"
            b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        )

    def watch(self, transport: asyncio.Transport, peer: str | None, busy: Callable[[], bool]) -> Watch:
        """A new connection from ``peer``: counted and timed, or answered 429 and closed (its watch then does
        nothing). ``busy`` says whether a request whose head has arrived is being answered."""
        if peer is not None and peer in self.uncounted:
            peer = None  # a trusted proxy carries many clients: it limits them itself
        if peer is not None:
            held = self.open.get(peer, 0)
            if held >= self.limit:
                transport.write(self.refusal)
                transport.close()
                return Watch(self, transport, None, busy, refused=True)
            self.open[peer] = held + 1
        watch = Watch(self, transport, peer, busy)
        watch.arm()
        return watch

    def release(self, peer: str) -> None:
        """A connection of ``peer`` ended."""
        left = self.open.get(peer, 0) - 1
        if left > 0:
            self.open[peer] = left
        else:
            self.open.pop(peer, None)


class Watch:
    """One connection's place in its address's count and its request-head deadline.

    The deadline moves with each answer, but its timer is not replaced each time (a request costs one clock
    read): when the timer fires before a deadline that has moved, it is set again for the new one."""

    __slots__ = ("_busy", "_deadline", "_edge", "_loop", "_peer", "_timer", "_transport", "refused")

    def __init__(
        self,
        edge: Edge,
        transport: asyncio.Transport,
        peer: str | None,
        busy: Callable[[], bool],
        *,
        refused: bool = False,
    ) -> None:
        self._edge = edge
        self._transport = transport
        self._peer = peer
        self._busy = busy
        self._loop = asyncio.get_running_loop()
        self._deadline = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self.refused = refused

    def arm(self) -> None:
        """Start the time the next request head has (at the connection's start and after each answer)."""
        self._deadline = self._loop.time() + self._edge.request_seconds
        if self._timer is None and not self.refused:
            self._timer = self._loop.call_at(self._deadline, self._expire)

    def _expire(self) -> None:
        self._timer = None
        if self._transport.is_closing():
            return
        if self._loop.time() < self._deadline:  # an answer since: the next head has until the new deadline
            self._timer = self._loop.call_at(self._deadline, self._expire)
        elif not self._busy():
            self._transport.close()  # no request head in time (a request being answered re-arms when it is done)

    def upgraded(self, protocol: asyncio.BaseProtocol) -> None:
        """The connection became a WebSocket (``protocol``): no more heads to wait for, and it is released when
        the WebSocket's connection ends."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        lost = protocol.connection_lost

        def connection_lost(exc: Exception | None) -> None:
            try:
                lost(exc)
            finally:
                self.lost()

        protocol.connection_lost = connection_lost  # type: ignore[method-assign]

    def lost(self) -> None:
        """The connection ended: stop its timer and give its place back (once)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._peer is not None:
            self._edge.release(self._peer)
            self._peer = None


# by event loop, the transports written to in this turn: one callback flushes them all, in the order they were
# first written to (a step of a hand writes to every socket of the table)
_flushing: dict[asyncio.AbstractEventLoop, list[GatheredWrites]] = {}


def _flush_all(loop: asyncio.AbstractEventLoop) -> None:
    for transport in _flushing.pop(loop, ()):
        try:
            transport._flush()
        except Exception:  # one connection's failure does not hold back the others' bytes
            log.exception("a connection's gathered writes could not be written")


class GatheredWrites(asyncio.Transport):
    """A WebSocket connection's transport whose writes wait for the end of the event loop's turn and go out
    together: ``n`` frames sent in one turn cost one system call, not ``n``. Bytes keep their order; closing
    writes what is gathered first, aborting drops it. Everything else is the wrapped transport's."""

    def __init__(self, transport: asyncio.Transport) -> None:
        super().__init__()
        self._transport = transport
        self._gathered: list[bytes] = []
        self._loop = asyncio.get_running_loop()

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not data:
            return
        if not self._gathered:
            waiting = _flushing.get(self._loop)
            if waiting is None:
                waiting = _flushing[self._loop] = []
                self._loop.call_soon(_flush_all, self._loop)
            waiting.append(self)
        self._gathered.append(bytes(data))

    def _flush(self) -> None:
        gathered, self._gathered = self._gathered, []
        if gathered and not self._transport.is_closing():
            self._transport.write(gathered[0] if len(gathered) == 1 else b"".join(gathered))

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def abort(self) -> None:
        self._gathered = []
        self._transport.abort()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._transport.get_extra_info(name, default)

    def pause_reading(self) -> None:
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        self._transport.resume_reading()

    def is_reading(self) -> bool:
        return self._transport.is_reading()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._transport.get_protocol()

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + sum(len(b) for b in self._gathered)

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._transport.set_write_buffer_limits(high, low)

    def can_write_eof(self) -> bool:
        return self._transport.can_write_eof()

    def write_eof(self) -> None:
        self._flush()
        self._transport.write_eof()


class DirectFrames:
    """Text frames written to a WebSocket at once, past ASGI, through uvicorn's sans-I/O protocol: what its
    ``send`` does for a ``websocket.send``, without the coroutines around it. :meth:`send_text` writes only when
    that ``send`` would write at once; otherwise it returns ``False`` and the caller sends through ASGI.

    The other way, :meth:`take_texts` hands each text message the client sends to a function as soon as the
    websockets library has parsed it, in the read that brought it: not queued for the application's ``receive``,
    whose hop cost a message a queue, a wake-up of the socket's task and two system calls (uvicorn stops reading
    the socket until the application takes the message, then reads again)."""

    __slots__ = ("_open", "_protocol")

    def __init__(self, protocol: Any, open_state: Any) -> None:
        self._protocol = protocol
        self._open = open_state

    def take_texts(self, take: Callable[[str], None]) -> None:
        """From now on, ``take(text)`` each text message the client sends, in order. What ASGI carries still goes
        that way: a binary message, a text that is not UTF-8 (uvicorn closes with 1007), anything after the server
        closed, and a text that arrives while an earlier message waits in ASGI's queue (it follows that one)."""
        protocol = self._protocol
        queued = protocol.send_receive_event_to_app

        def deliver() -> None:
            frames = protocol.frames
            if protocol.curr_msg_data_type != "text" or protocol.close_sent or not protocol.queue.empty():
                queued()
                return
            try:
                text = (frames[0] if len(frames) == 1 else b"".join(frames)).decode()
            except UnicodeDecodeError:
                queued()
                return
            protocol.frames = []
            take(text)

        protocol.send_receive_event_to_app = deliver

    def send_text(self, text: str) -> bool:
        """Write ``text`` as one frame now, if the connection is open, accepted and not paused by a full buffer."""
        protocol = self._protocol
        if (
            not protocol.handshake_complete
            or protocol.close_sent
            or protocol.disconnected
            or protocol.initial_response is not None
            or not protocol.writable.is_set()
            or protocol.conn.state is not self._open
            or protocol.transport.is_closing()
        ):
            return False
        conn = protocol.conn
        if conn.extensions:  # permessage-deflate: the frame is compressed by the websockets protocol
            conn.send_text(text.encode())
            data = b"".join(conn.data_to_send())
        else:
            data = text_frame(text)
        protocol.transport.write(data)
        return True


def text_frame(text: str) -> bytes:
    """A server's unfragmented, unmasked text frame of ``text`` (RFC 6455, 5.2): what the websockets protocol
    builds without extensions, written here without its frame objects.

    >>> text_frame("hi")
    b'\\x81\\x02hi'
    >>> text_frame("x" * 200)[:4], text_frame("x" * 70000)[:10]
    (b'\\x81~\\x00\\xc8', b'\\x81\\x7f\\x00\\x00\\x00\\x00\\x00\\x01\\x11p')
    """
    data = text.encode()
    size = len(data)
    if size < 126:
        return bytes((0x81, size)) + data
    if size < 65536:
        return b"\x81\x7e" + size.to_bytes(2, "big") + data
    return b"\x81\x7f" + size.to_bytes(8, "big") + data


def _direct_frames(protocol: asyncio.BaseProtocol) -> DirectFrames | None:
    """A :class:`DirectFrames` for uvicorn's sans-I/O WebSocket ``protocol``, if it is one with the members that
    :class:`DirectFrames` reads (``None`` for another implementation: its sockets send through ASGI)."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
        from websockets.protocol import State
    except ImportError:  # pragma: no cover (uvicorn[standard] brings websockets)
        return None
    if not isinstance(protocol, WebSocketsSansIOProtocol):
        return None
    members = ("handshake_complete", "close_sent", "disconnected", "initial_response", "writable", "conn", "scope")
    members_read = ("frames", "curr_msg_data_type", "queue", "send_receive_event_to_app")  # by take_texts
    if not all(hasattr(protocol, name) for name in members + members_read):  # pragma: no cover (another uvicorn)
        return None
    return DirectFrames(protocol, State.OPEN)


def _gather_writes(protocol: asyncio.BaseProtocol) -> None:
    """The WebSocket protocol ``protocol`` (just made by an upgrade, its application not started yet) writes
    through a :class:`GatheredWrites`, and its socket finds a :class:`DirectFrames` in its scope."""
    transport = getattr(protocol, "transport", None)  # uvloop's transports are no asyncio.Transport subclass
    if transport is not None and not isinstance(transport, GatheredWrites):
        protocol.transport = GatheredWrites(transport)  # type: ignore[attr-defined]
    direct = _direct_frames(protocol)
    if direct is not None:
        scope: dict[str, Any] = protocol.scope  # type: ignore[attr-defined]
        scope.setdefault("extensions", {})[DIRECT_FRAMES] = direct


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 connection, watched by an :class:`Edge` (set on the subclass :func:`uvicorn_options` makes)."""

    edge: ClassVar[Edge]
    watch: Watch | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.watch = self.edge.watch(transport, self.client[0] if self.client else None, self.busy)

    def busy(self) -> bool:
        """Whether a request whose head has arrived is being answered (its head's time is not running)."""
        return self.cycle is not None and not self.cycle.response_complete

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if self.watch is not None:
            self.watch.lost()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.watch is not None:
            self.watch.arm()

    def handle_websocket_upgrade(self, event: Any) -> None:
        super().handle_websocket_upgrade(event)
        _gather_writes(self.transport.get_protocol())
        if self.watch is not None:
            self.watch.upgraded(self.transport.get_protocol())


_PROTOCOLS: dict[str, type[asyncio.Protocol]] = {"h11": GuardedH11Protocol}

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover (uvicorn[standard] brings httptools)
    pass
else:

    class GuardedHttpToolsProtocol(HttpToolsProtocol):
        """uvicorn's httptools connection, watched by an :class:`Edge` (as :class:`GuardedH11Protocol`)."""

        edge: ClassVar[Edge]
        watch: Watch | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.watch = self.edge.watch(transport, self.client[0] if self.client else None, self.busy)

        def busy(self) -> bool:
            """Whether a request whose head has arrived is being answered (its head's time is not running)."""
            return self.cycle is not None and not self.cycle.response_complete

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            if self.watch is not None:
                self.watch.lost()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.watch is not None:
                self.watch.arm()

        def handle_websocket_upgrade(self) -> None:
            super().handle_websocket_upgrade()
            _gather_writes(self.transport.get_protocol())
            if self.watch is not None:
                self.watch.upgraded(self.transport.get_protocol())

    _PROTOCOLS["httptools"] = GuardedHttpToolsProtocol


def uvicorn_options(settings: Settings, http: str = "auto") -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run``/``uvicorn.Config`` (besides the app, host, port and logging) that
    serve the room of ``settings`` as ``stud serve`` does. ``http``: ``"httptools"``, ``"h11"`` or ``"auto"``
    (httptools when it is installed). Each call makes a new :class:`Edge`: one per server."""
    if http == "auto":
        http = "httptools" if "httptools" in _PROTOCOLS else "h11"
    base = _PROTOCOLS[http]
    protocol = type(base.__name__, (base,), {"edge": Edge(settings), "__doc__": base.__doc__})
    return {"proxy_headers": False, "ws": WEBSOCKETS, "ws_max_size": WS_MAX_SIZE, "http": protocol}
