"""The pool's liveness check of a PostgreSQL connection (``db.server_closed``, ``db.alive_or_replaced``): a
connection the server closed is replaced before it is used, without a round trip for one used recently."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text

from studpoker.server import db
from studpoker.server.db import Database, server_closed

from .conftest import POSTGRES, _admin_url, database_url


class _Peer:
    """Stands for a driver's connection: its socket's descriptor, and the flags psycopg has."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.closed = False
        self.broken = False

    def fileno(self) -> int:
        return self.sock.fileno()


def test_server_closed_reads_the_socket_without_a_round_trip() -> None:
    ours, theirs = socket.socketpair()
    try:
        peer = _Peer(ours)
        assert not server_closed(peer)  # nothing to read: alive
        theirs.sendall(b"E")  # the server said something unasked (its goodbye)
        assert server_closed(peer)
        ours.recv(1)
        assert not server_closed(peer)
        theirs.close()  # the end of the stream
        assert server_closed(peer)
    finally:
        ours.close()
        theirs.close()


def test_server_closed_trusts_the_drivers_flags_and_a_closed_socket() -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        peer = _Peer(ours)
        peer.broken = True
        assert server_closed(peer)
        peer.broken, peer.closed = False, True
        assert server_closed(peer)

    class NoSocket:
        def fileno(self) -> int:
            raise OSError("the connection is closed")

    assert server_closed(NoSocket())


class Counted:
    """A PostgreSQL test database, and the pings its pool sent (each the driver's connection it pinged)."""

    def __init__(self, database: Database, pings: list[Any]) -> None:
        self.database = database
        self.pings = pings

    def backend(self) -> int:
        """The server process of the connection a transaction gets."""
        query = text("SELECT pg_backend_pid()")
        return int(self.database.transaction(lambda session: session.execute(query).scalar_one()))


@pytest.fixture
def counted(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Counted]:
    if not POSTGRES:
        pytest.skip("needs PostgreSQL: set STUDPOKER_TEST_POSTGRES")
    database = Database(database_url(tmp_path))
    pings: list[Any] = []
    real = database.engine.dialect.do_ping

    def ping(connection: Any) -> bool:
        pings.append(connection)
        return bool(real(connection))

    monkeypatch.setattr(database.engine.dialect, "do_ping", ping)
    try:
        yield Counted(database, pings)
    finally:
        database.close()


def test_a_connection_the_server_ended_is_replaced_before_use(counted: Counted) -> None:
    import psycopg

    first = counted.backend()
    with psycopg.connect(_admin_url(), autocommit=True) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", (first,)).fetchone() == (True,)
        deadline = time.monotonic() + 60
        while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (first,)).fetchone():
            assert time.monotonic() < deadline, "the backend did not end"
            time.sleep(0.05)
    second = counted.backend()  # no error: the pool saw the goodbye and connected again
    assert second != first
    assert counted.pings == []  # seen on the socket, not by a round trip


def test_a_recently_used_connection_is_reused_without_a_ping(counted: Counted) -> None:
    backends = {counted.backend() for _ in range(5)}
    assert len(backends) == 1
    assert counted.pings == []


def test_a_long_idle_connection_is_pinged(counted: Counted, monkeypatch: pytest.MonkeyPatch) -> None:
    first = counted.backend()
    monkeypatch.setattr(db, "PING_AFTER_IDLE", 0.0)
    assert counted.backend() == first  # pinged, answered, kept
    assert len(counted.pings) == 1
