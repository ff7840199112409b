"""A table socket's closing handshake (issue 26, item 12): the room answers a client's close at once.

The review's client closed its socket after frames had flowed and waited 10 s for the server's close. That is
uvicorn's legacy ``websockets`` implementation (what ``auto`` picked before uvicorn 0.50): it reads a close frame
only once the application has taken every frame before it, so the answers to those frames go out first, then its
close, and then it waits up to 10 s for the client to drop the connection; a client that had stopped reading
never saw that close and gave up after its own 10 s. ``stud serve`` now names the sans-I/O implementation
(``studpoker.server.edge.uvicorn_options``, used by tests/server/live.py too), which answers the close in the read
that brings it. The check is on the wire, by order rather than by time: a raw client sends frames and its close
in one write, and the server's close must come before any answer to those frames, then the end of the stream.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import httpx
import pytest

from studpoker.server.edge import WEBSOCKETS

from .conftest import PASSWORD, make_settings
from .live import serve

#: More frames than the legacy implementation queues before it stops reading (its ``max_queue`` is 32).
BURST = 40


class RawClient:
    """A WebSocket client on a plain TCP socket (the ``websockets`` library's sans-I/O protocol): the test decides
    what goes out in which write, and sees every frame in the order it came."""

    def __init__(self, base: str, path: str, cookie: str) -> None:
        from websockets.client import ClientProtocol
        from websockets.uri import parse_uri

        host, port = base.removeprefix("http://").split(":")
        self.protocol = ClientProtocol(parse_uri(f"ws://{host}:{port}{path}"), max_size=None)
        request = self.protocol.connect()
        request.headers["Origin"] = base
        request.headers["Cookie"] = cookie
        self.protocol.send_request(request)
        self.sock = socket.create_connection((host, int(port)), timeout=30)  # generous: a loaded machine
        self.flush()
        self.ended = False

    def flush(self) -> None:
        """Send what the protocol has queued, in one write."""
        self.sock.sendall(b"".join(self.protocol.data_to_send()))

    def frames(self) -> list[Any]:
        """The frames of the next read (an empty list and ``ended`` once the server closed the stream)."""
        from websockets.frames import Frame

        data = self.sock.recv(65536)
        if data:
            self.protocol.receive_data(data)
        else:
            self.protocol.receive_eof()
            self.ended = True
        return [event for event in self.protocol.events_received() if isinstance(event, Frame)]

    def close(self) -> None:
        self.sock.close()


def _table_and_cookie(base: str) -> tuple[int, str]:
    with httpx.Client(base_url=base, headers={"origin": base}, timeout=30) as http:
        assert http.post("/api/signup", json={"username": "ann", "password": PASSWORD}).status_code == 201
        answer = http.post("/api/tables", json={"variant": "STUD7", "small_bet": 10, "name": "Quiet"})  # no bots
        assert answer.status_code == 201, answer.text
        return int(answer.json()["id"]), f"studpoker_session={http.cookies['studpoker_session']}"


def test_stud_serve_names_the_websockets_implementation(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn

    from studpoker.cli import main

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: calls.append(kwargs))
    assert main(["serve", "--db", f"sqlite:///{tmp_path / 'room.db'}", "--port", "8123"]) == 0
    assert calls and calls[0]["ws"] == "websockets-sansio" == WEBSOCKETS
    assert calls[0]["ws_max_size"] == 65536


def test_a_clients_close_after_frames_flowed_is_answered_at_once(tmp_path: Path) -> None:
    from websockets.frames import Close, Opcode

    with serve(make_settings(tmp_path)) as base:
        table_id, cookie = _table_and_cookie(base)
        client = RawClient(base, f"/ws/table/{table_id}", cookie)
        try:
            seen: list[Any] = []
            while not any(f.opcode == Opcode.TEXT for f in seen):  # frames flowed: the snapshot
                seen += client.frames()
            assert json.loads(seen[0].data)["type"] == "snapshot"
            for _ in range(BURST):
                client.protocol.send_text(b'{"type":"ping"}')
            client.protocol.send_close(1000, "bye")
            client.flush()  # the frames and the close in one write
            after: list[Any] = []
            while not client.ended:
                after += client.frames()
        finally:
            client.close()
    kinds = [frame.opcode for frame in after]
    assert Opcode.CLOSE in kinds, f"the server never closed: {kinds}"
    answers = [json.loads(frame.data)["type"] for frame in after if frame.opcode == Opcode.TEXT]
    # in answer to the close, before answering the frames that came with it (the legacy implementation sent
    # 40 answers, pongs and rate_limited errors, then its close)
    assert kinds.index(Opcode.CLOSE) == len(kinds) - 1 and answers == [], answers
    assert Close.parse(after[-1].data).code == 1000  # the client's code, echoed: a clean close
