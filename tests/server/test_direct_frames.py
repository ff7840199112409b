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


def _opened(base: str, table: tuple[int, str] | None = None) -> tuple[RawClient, list[Any]]:
    """A raw client on ``table``'s socket (``(table id, cookie)``; default: a new table's), once the snapshot came
    (the socket's reader is in place)."""
    from websockets.frames import Opcode

    table_id, cookie = table or _table_and_cookie(base)
    client = RawClient(base, f"/ws/table/{table_id}", cookie)
    seen: list[Any] = []
    while not any(f.opcode == Opcode.TEXT for f in seen):
        seen += client.frames()
    return client, seen


def _until_closed(client: RawClient) -> tuple[list[str], int | None]:
    """The types of the messages the client gets until the server closes, and the close's code."""
    from websockets.frames import Close, Opcode

    types: list[str] = []
    code = None
    while not client.ended and code is None:
        for frame in client.frames():
            if frame.opcode == Opcode.TEXT:
                message = json.loads(frame.data)
                types.append(message["type"] if message["type"] != "error" else message["code"])
            elif frame.opcode == Opcode.CLOSE:
                code = Close.parse(frame.data).code
    return types, code


def test_a_live_socket_reads_each_text_in_the_read_that_brought_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under ``stud serve``'s uvicorn options the table socket takes its client's texts straight from the read
    (:meth:`DirectFrames.take_texts`), in order, and answers each."""
    from websockets.frames import Opcode

    taken: list[str] = []
    real = DirectFrames.take_texts

    def counted(self: DirectFrames, take: Any) -> None:
        real(self, lambda text: (taken.append(text), take(text)))

    monkeypatch.setattr(edge.DirectFrames, "take_texts", counted)
    with serve(make_settings(tmp_path)) as base:
        client, _ = _opened(base)
        try:
            for n in range(5):
                client.protocol.send_text(b'{"type":"ping","n":%d}' % n)
            client.flush()
            answers: list[str] = []
            while len(answers) < 5:
                answers += [json.loads(f.data)["type"] for f in client.frames() if f.opcode == Opcode.TEXT]
        finally:
            client.close()
    assert answers == ["pong"] * 5
    assert taken == [f'{{"type":"ping","n":{n}}}' for n in range(5)]


@pytest.mark.parametrize(
    ("send", "expected"),
    [
        (lambda p: p.send_text(b'{"type":"chat","text":"' + b"x" * 5000 + b'"}'), (["too_big"], 1009)),
        (lambda p: p.send_binary(b'{"type":"ping"}'), (["bad_json"], 1008)),
        (lambda p: p.send_text(b'{"type":"ping","x":"\xff\xfe"}'), ([], 1007)),
        (lambda p: p.send_text(b'{"type":"ping","x":' + b"[" * 40 + b"]" * 40 + b"}"), (["bad_json"], 1008)),
    ],
    ids=["too big", "binary", "not UTF-8", "nested"],
)
def test_a_hostile_frame_read_directly_closes_only_its_socket(tmp_path: Path, send: Any, expected: Any) -> None:
    """What the socket refuses when its texts are taken straight from the read, it refuses as through ASGI: the
    error, then the close with its code; the room goes on serving another socket."""
    from websockets.frames import Opcode

    with serve(make_settings(tmp_path)) as base:
        table = _table_and_cookie(base)
        client, _ = _opened(base, table)
        try:
            send(client.protocol)
            client.flush()
            assert _until_closed(client) == expected
        finally:
            client.close()
        other, seen = _opened(base, table)
        try:
            assert json.loads(next(f for f in seen if f.opcode == Opcode.TEXT).data)["type"] == "snapshot"
        finally:
            other.close()


def test_what_asgi_must_carry_still_goes_through_its_queue() -> None:
    """``take_texts`` hands on a text at once, and leaves to uvicorn's own path: a binary message, a text that is
    not UTF-8, anything after the server closed, and a text behind a message still in ASGI's queue (in order)."""
    from websockets.protocol import State

    async def main() -> None:
        queued: list[list[bytes]] = []
        protocol = _protocol()
        protocol.queue = asyncio.Queue()
        protocol.frames, protocol.curr_msg_data_type = [], "text"
        protocol.send_receive_event_to_app = lambda: queued.append(protocol.frames)
        taken: list[str] = []
        DirectFrames(protocol, State.OPEN).take_texts(taken.append)

        def message(kind: str, *parts: bytes) -> None:
            protocol.curr_msg_data_type, protocol.frames = kind, list(parts)
            protocol.send_receive_event_to_app()

        message("text", b'{"type":', b'"ping"}')  # in two frames
        message("bytes", b"\x00")
        message("text", b"\xff")
        assert taken == ['{"type":"ping"}'] and queued == [[b"\x00"], [b"\xff"]]
        protocol.queue.put_nowait({"type": "websocket.receive", "bytes": b"\x00"})  # not yet taken by the app
        message("text", b"behind")
        protocol.queue.get_nowait()
        protocol.close_sent = True
        message("text", b"after the close")
        assert taken == ['{"type":"ping"}'] and queued[2:] == [[b"behind"], [b"after the close"]]

    asyncio.run(main())
