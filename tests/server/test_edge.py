"""Slow and greedy clients (issue 26, item 10): the room served as ``stud serve`` serves it
(:func:`studpoker.server.edge.uvicorn_options`) cuts off a request head or body that does not arrive in time, and
refuses connections past the cap of an address; normal requests and WebSockets are untouched.

The attacks are made with raw sockets, on both of uvicorn's HTTP implementations. Other client addresses are
127.0.0.2 and 127.0.0.3 (Linux routes all of 127/8 to the loopback). Every wait is on an event (the server
closing, an answer) with a generous bound, never a guess of how long something takes.
"""

from __future__ import annotations

import contextlib
import json
import select
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import PASSWORD, make_settings
from .live import serve

websockets_sync = pytest.importorskip("websockets.sync.client")

#: How long a test waits for something the server must do at once or within a second (a busy machine).
PATIENCE = 30.0
IMPLEMENTATIONS = ["httptools", "h11"]


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def connect(url: str, source: str = "127.0.0.1") -> socket.socket:
    """A raw TCP connection to the room from ``source``."""
    sock = socket.create_connection(("127.0.0.1", port_of(url)), timeout=PATIENCE, source_address=(source, 0))
    sock.settimeout(PATIENCE)
    return sock


def until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (AssertionError if it is still open after
    :data:`PATIENCE` seconds)."""
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except TimeoutError:
        raise AssertionError(f"the server kept the connection open for {PATIENCE:g} s: {received[:200]!r}") from None
    except ConnectionResetError:
        pass
    return received


def get(sock: socket.socket, path: str = "/api/tables") -> bytes:
    """Send a whole GET on a kept-alive connection and read its whole answer (a JSON body with a length)."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise AssertionError(f"the server closed the connection: {data[:200]!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-len"))
    while len(body) < length:
        body += sock.recv(65536)
    return head


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {PATIENCE:g} s: {what}")
        time.sleep(0.05)


def admitted(url: str, source: str) -> bool:
    """Whether a new connection from ``source`` is let in (a whole request answered 200)."""
    with contextlib.closing(connect(url, source)) as sock:
        try:
            return get(sock).startswith(b"HTTP/1.1 200")
        except (AssertionError, ConnectionResetError):
            return False


@contextlib.contextmanager
def held(url: str, source: str, count: int) -> Iterator[list[socket.socket]]:
    """``count`` idle connections from ``source``, each known to be admitted (a request answered on it)."""
    socks = []
    try:
        for _ in range(count):
            sock = connect(url, source)
            socks.append(sock)
            assert get(sock).startswith(b"HTTP/1.1 200")
        yield socks
    finally:
        for sock in socks:
            sock.close()


@pytest.mark.parametrize("http", IMPLEMENTATIONS)
def test_issue26_10_half_sent_requests_are_cut_off(tmp_path: Path, http: str) -> None:
    settings = make_settings(tmp_path, request_seconds=1.0)
    with serve(settings, http=http) as url:
        slow = [connect(url) for _ in range(40)]
        for n, sock in enumerate(slow):  # a head that never ends, or nothing at all
            if n % 4:
                sock.sendall(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        try:
            for sock in slow:
                until_closed(sock)
        finally:
            for sock in slow:
                sock.close()
        with httpx.Client(base_url=url, timeout=PATIENCE) as client:  # the room is as it was
            assert client.get("/api/tables").status_code == 200


@pytest.mark.parametrize("http", IMPLEMENTATIONS)
def test_issue26_10_a_head_sent_a_byte_at_a_time_is_cut_off(tmp_path: Path, http: str) -> None:
    settings = make_settings(tmp_path, request_seconds=1.0)
    with serve(settings, http=http) as url, contextlib.closing(connect(url)) as sock:
        # the time is for the whole head: bytes that keep coming do not buy more
        sock.sendall(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        deadline = time.monotonic() + PATIENCE
        while True:
            assert time.monotonic() < deadline, f"the server kept the connection open for {PATIENCE:g} s"
            try:
                sock.sendall(b"x")
                readable, _, _ = select.select([sock], [], [], 0.05)
                if readable and sock.recv(65536) == b"":
                    break
            except (BrokenPipeError, ConnectionResetError):
                break


@pytest.mark.parametrize("http", IMPLEMENTATIONS)
def test_issue26_10_a_kept_alive_connection_has_the_same_time_for_its_next_head(tmp_path: Path, http: str) -> None:
    settings = make_settings(tmp_path, request_seconds=1.0)
    with serve(settings, http=http) as url, contextlib.closing(connect(url)) as sock:
        for _ in range(3):  # whole requests on one connection are answered
            assert get(sock).startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # then half of one: before, held forever
        until_closed(sock)


@pytest.mark.parametrize("http", IMPLEMENTATIONS)
def test_issue26_10_a_body_that_does_not_arrive_is_answered_408(tmp_path: Path, http: str) -> None:
    settings = make_settings(tmp_path, request_seconds=1.0)
    with serve(settings, http=http) as url, contextlib.closing(connect(url)) as sock:
        head = (
            "POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Origin: {url}\r\nContent-Length: 100\r\n\r\n"
        )
        sock.sendall(head.encode() + b'{"username": ')
        answer = until_closed(sock)
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert json.loads(answer.partition(b"\r\n\r\n")[2])["error"]["code"] == "request_timeout"


def slow_app(seconds: float) -> Any:
    """An ASGI app whose every answer takes ``seconds`` (the head has long arrived meanwhile)."""
    import asyncio

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        await asyncio.sleep(seconds)
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})

    return app


@pytest.mark.parametrize("http", IMPLEMENTATIONS)
def test_issue26_10_an_answer_that_takes_long_is_not_cut_off(tmp_path: Path, http: str) -> None:
    settings = make_settings(tmp_path, request_seconds=0.2)
    with serve(settings, app=slow_app(1.5), http=http) as url, contextlib.closing(connect(url)) as sock:
        for _ in range(2):
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            data = b""
            while not data.endswith(b"ok"):
                chunk = sock.recv(65536)
                assert chunk, f"closed while the answer was being made: {data!r}"
                data += chunk
            assert data.startswith(b"HTTP/1.1 200")


def open_table(url: str) -> int:
    with httpx.Client(base_url=url, headers={"origin": url}, timeout=PATIENCE) as client:
        assert client.post("/api/signup", json={"username": "opener", "password": PASSWORD}).status_code == 201
        body = {"variant": "STUD7", "small_bet": 10, "big_bet": 20, "ante": 1, "bring_in": 3}
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 201, answer.text
        return int(answer.json()["id"])


def watch_table(url: str, table_id: int, source: str) -> Any:
    """A spectator's table socket from ``source``."""
    sock = connect(url, source)
    ws_url = url.replace("http://", "ws://") + f"/ws/table/{table_id}"
    return websockets_sync.connect(ws_url, sock=sock, open_timeout=PATIENCE)


@pytest.mark.parametrize("http", IMPLEMENTATIONS)
def test_issue26_10_connections_past_the_cap_of_an_address_are_refused(tmp_path: Path, http: str) -> None:
    settings = make_settings(tmp_path, request_seconds=120.0, max_connections_per_address=5)
    with serve(settings, http=http) as url:
        table_id = open_table(url)
        with held(url, "127.0.0.2", 5):
            with contextlib.closing(connect(url, "127.0.0.2")) as extra:
                answer = until_closed(extra)  # answered at once, before it sends anything, and closed
            assert answer.startswith(b"HTTP/1.1 429"), answer[:200]
            assert json.loads(answer.partition(b"\r\n\r\n")[2])["error"]["code"] == "too_many_connections"
            assert admitted(url, "127.0.0.3")  # another address is not affected
            # WebSockets are connections too: four of them and one idle connection fill 127.0.0.3's five
            with contextlib.ExitStack() as stack:
                sockets = [stack.enter_context(watch_table(url, table_id, "127.0.0.3")) for _ in range(4)]
                for ws in sockets:
                    assert json.loads(ws.recv(timeout=PATIENCE))["type"] == "snapshot"
                with held(url, "127.0.0.3", 1):
                    assert not admitted(url, "127.0.0.3")
                    for ws in sockets:  # the ones let in work
                        ws.send(json.dumps({"type": "ping"}))
                        assert json.loads(ws.recv(timeout=PATIENCE))["type"] == "pong"
            # the WebSockets closed: their places are given back
            wait_for(lambda: admitted(url, "127.0.0.3"), "127.0.0.3 may connect again")
        wait_for(lambda: admitted(url, "127.0.0.2"), "127.0.0.2 may connect again once its connections closed")


def test_issue26_10_a_trusted_proxys_connections_are_not_counted(tmp_path: Path) -> None:
    settings = make_settings(
        tmp_path, request_seconds=120.0, max_connections_per_address=2, trusted_proxies=("127.0.0.1",)
    )
    with serve(settings) as url:
        with held(url, "127.0.0.1", 6):  # the proxy holds its clients' connections
            pass
        with held(url, "127.0.0.2", 2):
            assert not admitted(url, "127.0.0.2")
