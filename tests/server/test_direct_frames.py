"""Issue 29: a table socket's frames are written where they are made (:class:`studpoker.server.edge.DirectFrames`),
past ASGI, while the connection can take them; otherwise they queue for the writer task, and never overtake a
frame queued before them."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from studpoker.server import edge
from studpoker.server.connection import Connection
from studpoker.server.edge import DirectFrames

from .conftest import make_settings
from .live import serve
from .test_close_handshake import BURST, RawClient, _table_and_cookie


class Transport:
    def __init__(self) -> None:
        self.data = b""
        self.closing = False

    def write(self, data: bytes) -> None:
        self.data += data

    def is_closing(self) -> bool:
        return self.closing


def _protocol() -> Any:
    """What :class:`DirectFrames` reads of uvicorn's sans-I/O protocol, with a real ``websockets`` server side."""
    from websockets.protocol import State
    from websockets.server import ServerProtocol

    writable = asyncio.Event()
    writable.set()
    return SimpleNamespace(
        handshake_complete=True,
        close_sent=False,
        disconnected=False,
        initial_response=None,
        writable=writable,
        conn=ServerProtocol(state=State.OPEN),
        transport=Transport(),
    )


def _texts(data: bytes) -> list[str]:
    from websockets.client import ClientProtocol
    from websockets.frames import Frame
    from websockets.protocol import State
    from websockets.uri import parse_uri

    client = ClientProtocol(parse_uri("ws://localhost/"), state=State.OPEN)
    client.receive_data(data)
    return [e.data.decode() for e in client.events_received() if isinstance(e, Frame)]


def test_a_frame_is_written_at_once_while_the_connection_can_take_it() -> None:
    from websockets.protocol import State

    protocol = _protocol()
    direct = DirectFrames(protocol, State.OPEN)
    assert direct.send_text('{"type":"pong"}')
    assert _texts(protocol.transport.data) == ['{"type":"pong"}']


@pytest.mark.parametrize(
    "change",
    [
        {"handshake_complete": False},  # not accepted yet
        {"close_sent": True},  # the room is closing it
        {"disconnected": True},
        {"initial_response": (403, [], b"")},  # refused with an HTTP answer
    ],
)
def test_a_connection_not_open_gets_nothing_directly(change: dict[str, Any]) -> None:
    from websockets.protocol import State

    protocol = _protocol()
    for name, value in change.items():
        setattr(protocol, name, value)
    assert not DirectFrames(protocol, State.OPEN).send_text("{}")
    assert protocol.transport.data == b""


def test_a_paused_closing_or_half_closed_connection_gets_nothing_directly() -> None:
    from websockets.protocol import State

    paused = _protocol()
    paused.writable.clear()  # its buffer is past the high-water mark: the client is not reading
    assert not DirectFrames(paused, State.OPEN).send_text("{}")
    closing = _protocol()
    closing.transport.closing = True
    assert not DirectFrames(closing, State.OPEN).send_text("{}")
    half = _protocol()
    half.conn.send_close(1000)  # the websockets state is CLOSING: sending text would raise
    half.transport.data = b""
    assert not DirectFrames(half, State.OPEN).send_text("{}")
    assert paused.transport.data == closing.transport.data == half.transport.data == b""


def test_frames_queued_behind_a_refused_one_keep_their_order() -> None:
    """The socket cannot take a frame (paused): it and every frame after it queue, even once the socket could
    take them again, until the writer task has sent the queue; then frames go directly again."""

    async def main() -> None:
        written: list[str] = []
        can = [True]

        def direct(text: str) -> bool:
            if can[0]:
                written.append(text)
            return can[0]

        connection = Connection(1, "ann")
        connection.direct = direct
        connection.deliver("a")
        can[0] = False
        connection.deliver("b")
        can[0] = True
        connection.deliver("c")  # the socket could take it, but "b" waits before it
        assert written == ["a"] and list(connection.frames) == ["b", "c"]
        taken = await connection.next()  # the writer takes "b" and is sending it...
        assert taken == "b" and connection.sending
        connection.deliver("d")
        assert list(connection.frames) == ["c", "d"]  # ...so nothing goes past it
        written.append(taken)  # sent: the writer says so and takes the rest
        connection.sending = False
        for _ in range(2):
            written.append(str(await connection.next()))
            connection.sending = False
        connection.deliver("e")  # nothing queued, nothing being sent: directly
        assert written == ["a", "b", "c", "d", "e"] and not connection.frames

    asyncio.run(main())


def test_a_live_socket_is_written_directly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under ``stud serve``'s uvicorn options the table socket finds its :class:`DirectFrames` and its answers go
    through it."""
    from websockets.frames import Opcode

    calls = []
    real = DirectFrames.send_text

    def counted(self: DirectFrames, text: str) -> bool:
        sent = real(self, text)
        calls.append(sent)
        return sent

    monkeypatch.setattr(edge.DirectFrames, "send_text", counted)
    with serve(make_settings(tmp_path)) as base:
        table_id, cookie = _table_and_cookie(base)
        client = RawClient(base, f"/ws/table/{table_id}", cookie)
        try:
            seen: list[Any] = []
            while not any(f.opcode == Opcode.TEXT for f in seen):
                seen += client.frames()
            for _ in range(BURST):
                client.protocol.send_text(b'{"type":"ping"}')
            client.flush()
            answers: list[str] = []
            while len(answers) < BURST:
                answers += [json.loads(f.data)["type"] for f in client.frames() if f.opcode == Opcode.TEXT]
        finally:
            client.close()
    # each ping answered: a pong, or past the rate limit an error (the order of frames queued behind a paused
    # socket is the unit tests' above: here the loop could pass a second's boundary between two pings)
    assert answers[0] == "pong" and set(answers) <= {"pong", "error"} and len(answers) == BURST, answers
    assert calls.count(True) >= BURST, calls


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_text_frame_is_the_one_the_websockets_protocol_builds(size: int) -> None:
    from websockets.frames import Frame, Opcode

    text = ("å" + "x" * size)[:size]  # a non-ASCII character: its length is counted in bytes
    assert edge.text_frame(text) == Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])


def test_a_compressing_connection_sends_through_its_protocol() -> None:
    """With permessage-deflate negotiated (as browsers ask for it) the frame is the websockets protocol's own,
    compressed; a client with the same extension reads the text back."""
    from websockets.client import ClientProtocol
    from websockets.extensions.permessage_deflate import PerMessageDeflate
    from websockets.frames import Frame
    from websockets.protocol import State
    from websockets.uri import parse_uri

    protocol = _protocol()
    protocol.conn.extensions = [PerMessageDeflate(False, False, 15, 15)]
    text = '{"type":"pot","hand":1}' * 20
    assert DirectFrames(protocol, State.OPEN).send_text(text)
    assert len(protocol.transport.data) < len(text)  # compressed
    client = ClientProtocol(parse_uri("ws://localhost/"), state=State.OPEN)
    client.extensions = [PerMessageDeflate(False, False, 15, 15)]
    client.receive_data(protocol.transport.data)
    assert [e.data.decode() for e in client.events_received() if isinstance(e, Frame)] == [text]
