"""The table WebSocket, ``/ws/table/{id}`` (docs/server-protocol.md): who it speaks for, what it may send.

A handshake that carries the session cookie and an ``Origin`` is accepted only from the room's own pages (no
same-origin policy protects WebSockets, and SameSite=Lax does not cover other origins of the same site); the
socket is registered under its session, so a logout or an expired session closes it. Every client frame is
bounded (size, rate, nesting, field types and sizes) before the table's actor sees it.
"""

from __future__ import annotations

import asyncio
import re
import time

from fastapi import APIRouter, WebSocket
from starlette.types import Message
from starlette.websockets import WebSocketDisconnect, WebSocketState

from . import clientmessages, wire
from .auth import COOKIE, who_for_token
from .chat import ChatRefusedError, clean_text
from .connection import Connection, merge_batches
from .edge import DIRECT_FRAMES, DirectFrames
from .errors import ApiError
from .front import CardRoom
from .handle import TableHandle
from .security import origin_key, same_origin

__all__ = ["router"]

router = APIRouter()
#: Seconds between two snapshots a socket asks for (more asks in between are answered once, at the end).
SNAPSHOT_INTERVAL = 1.0
#: A batch (``?batch=1``) takes the frames waiting behind the first up to this many characters.
BATCH_CHARACTERS = 64 * 1024
_TABLE_ID = re.compile(r"[0-9]{1,10}")


def _batched(websocket: WebSocket) -> bool:
    """Whether the client asked for its messages in batches, JSON arrays (``/ws/table/{id}?batch=1``)."""
    return websocket.query_params.get("batch") == "1"


def _framed(websocket: WebSocket, text: str) -> str:
    """One encoded message as the client asked for it: alone, or as a batch of one."""
    return f"[{text}]" if _batched(websocket) else text


def _refuse(connection: Connection, code: str, message: str, close_code: int) -> None:
    connection.push(wire.encode(wire.error(code, message)))
    connection.close(close_code)


class _Reader:
    """What a table socket does with each text its client sends: bounded in size and rate, decoded, and passed to
    the table (or refused, which may close the socket). ``take`` is called for each text in order, from the
    socket's task or straight from the read that brought it (:meth:`DirectFrames.take_texts`)."""

    def __init__(self, connection: Connection, actor: TableHandle, max_bytes: int, per_second: int) -> None:
        self.connection = connection
        self.actor = actor
        self.max_bytes = max_bytes
        self.per_second = per_second
        self.window_start, self.count = time.monotonic(), 0
        self.last_snapshot, self.snapshot_due = -SNAPSHOT_INTERVAL, False
        self.closing: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def next_event(self, websocket: WebSocket) -> Message | None:
        """The next ASGI event of the socket, or ``None`` once a text taken straight from a read has closed it."""
        if self.closing.done():
            return None
        receiving = asyncio.ensure_future(websocket.receive())
        await asyncio.wait((receiving, self.closing), return_when=asyncio.FIRST_COMPLETED)
        if not receiving.done():
            receiving.cancel()
            return None
        return receiving.result()

    def _close(self, code: str, message: str, close_code: int) -> None:
        _refuse(self.connection, code, message, close_code)
        if not self.closing.done():
            self.closing.set_result(None)

    def take(self, text: str) -> None:
        connection, actor = self.connection, self.actor
        if connection.closed:
            return
        if len(text) > self.max_bytes or len(text.encode()) > self.max_bytes:
            self._close("too_big", f"a message is at most {self.max_bytes} bytes", 1009)
            return
        now = time.monotonic()
        if now - self.window_start >= 1.0:
            self.window_start, self.count = now, 0
        self.count += 1
        if self.count > self.per_second:
            connection.push(wire.encode(wire.error("rate_limited", "too many messages: slow down")))
            return
        message = clientmessages.decode(text)  # what it asks, or why not (docs/server-protocol.md)
        if isinstance(message, clientmessages.Refused):
            if message.close is not None:
                self._close(message.code, message.message, message.close)
                return
            connection.push(wire.encode(wire.error(message.code, message.message)))
        elif isinstance(message, clientmessages.Act):
            actor.act(connection, message.hand, message.seq, message.action, message.amount)
        elif isinstance(message, clientmessages.Ping):
            connection.push(wire.encode({"type": "pong"}))
        elif isinstance(message, clientmessages.AskSnapshot):
            # at most one snapshot a second per socket (a snapshot is the largest frame and the costliest to
            # build); asks in between are answered once, when the second is over
            if not self.snapshot_due:
                wait = max(0.0, self.last_snapshot + SNAPSHOT_INTERVAL - now)
                self.snapshot_due = True
                asyncio.get_running_loop().call_later(wait, self._resend)
        elif isinstance(message, clientmessages.Show):
            actor.show(connection, message.hand)
        elif connection.account_id is None:  # a chat line
            connection.push(wire.encode(wire.error("not_logged_in", "sign in to chat")))
        else:
            try:
                line = clean_text(message.text)
            except ChatRefusedError as refused:
                connection.push(wire.encode(wire.error(refused.code, str(refused))))
                return
            actor.chat(connection, line)

    def _resend(self) -> None:
        self.snapshot_due, self.last_snapshot = False, time.monotonic()
        if not self.connection.closed:
            self.actor.resend_snapshot(self.connection)


@router.websocket("/ws/table/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    room: CardRoom = websocket.app.state.room
    settings = room.settings
    origin = websocket.headers.get("origin")
    allowed = frozenset(origin_key(o) for o in settings.allowed_origins)
    if (
        origin is not None
        and COOKIE in websocket.cookies
        and not same_origin(origin, websocket.headers.get("host"), str(websocket.scope.get("scheme", "ws")), allowed)
    ):
        await websocket.close(1008)  # before accepting: the handshake is answered 403
        return
    await websocket.accept()
    address = websocket.client.host if websocket.client is not None else "unknown"
    too_many = room.sockets.open(address)
    if too_many is not None:
        await websocket.send_text(_framed(websocket, wire.encode(wire.error("too_many_connections", too_many))))
        await websocket.close(1013)  # try again later
        return
    try:
        await _serve_socket(websocket, room, table_id)
    finally:
        room.sockets.close(address)


async def _serve_socket(websocket: WebSocket, room: CardRoom, table_id: str) -> None:
    settings = room.settings
    try:
        number = int(table_id) if _TABLE_ID.fullmatch(table_id) else 0  # ASCII digits only: int() takes "²"
        actor = await room.find_table(number)
    except ApiError:
        problem = wire.encode(wire.error("not_found", f"there is no open table {table_id[:20]}"))
        await websocket.send_text(_framed(websocket, problem))
        await websocket.close(4404)
        return
    token = websocket.cookies.get(COOKIE)
    who = None
    if token:
        who = await room.db.run(
            lambda s: who_for_token(s, token, settings.session_idle_seconds, settings.session_max_seconds)
        )
    connection = Connection(who.id if who else None, who.username if who else None, who.session if who else None)
    connection.batch = _batched(websocket)
    direct = websocket.scope.get("extensions", {}).get(DIRECT_FRAMES)
    if isinstance(direct, DirectFrames):
        connection.direct = direct.send_text
    writer = asyncio.create_task(write_frames(websocket, connection))
    room.sockets.add(connection)
    try:
        await actor.connect(connection)
    except ApiError:  # the table closed meanwhile
        connection.close(4410)
    reader = _Reader(connection, actor, settings.max_message_bytes, settings.max_messages_per_second)
    try:
        if isinstance(direct, DirectFrames):  # each text goes to the reader in the read that brought it
            direct.take_texts(reader.take)
        while not connection.closed:
            frame = await (reader.next_event(websocket) if isinstance(direct, DirectFrames) else websocket.receive())
            if frame is None or frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                _refuse(connection, "bad_json", "frames must be JSON text", 1008)
                break
            reader.take(text)
    except WebSocketDisconnect:
        pass
    finally:
        room.sockets.drop(connection)
        actor.disconnect(connection)
        if websocket.client_state != WebSocketState.CONNECTED:  # the client closed: nothing more goes to it
            connection.frames.clear()
            connection.step.clear()
            connection.queued = 0
        connection.close(1000)
        try:
            await asyncio.wait_for(writer, timeout=5)
        except (TimeoutError, asyncio.CancelledError):
            writer.cancel()


async def write_frames(websocket: WebSocket, connection: Connection) -> None:
    """Send a connection's queued frames in order; an ``int`` in the queue closes the socket with that code (unless
    the client closed it first: its close was answered when it came, and nothing may follow). To a client that
    asked for batches every frame queued is one (:mod:`~studpoker.server.connection`): those waiting go as one."""
    try:
        while True:
            item = await connection.next()
            if isinstance(item, int):
                if websocket.application_state == websocket.client_state == WebSocketState.CONNECTED:
                    await websocket.close(item)
                return
            if connection.batch:  # every frame queued is a batch: those waiting go together
                item = merge_batches([item, *connection.more(BATCH_CHARACTERS)])
            await websocket.send_text(item)
            connection.sending = False
    except Exception:  # the client went away: the reader notices and cleans up
        connection.closed = True
