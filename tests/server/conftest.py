"""Fixtures of the card-room tests: a fresh SQLite database per test, the app in a TestClient, users, sockets.

Every test gets its own database file in ``tmp_path``; passwords are hashed with a cheap argon2 setting and the
pause between hands is zero, so a hand between two test clients takes milliseconds. WebSocket reads go through
:func:`recv`, which gives up after a timeout instead of hanging the suite. The test client sends the room's own
``Origin`` (``http://testserver``), as the room's pages do: state changes without it are refused (CSRF), which
tests/server/test_security.py checks with clients that do not send it.

Two fixtures apply to every test here: an ERROR record of the ``studpoker.server`` logger fails the test (a request
that failed with a 500, a table job or a bot that raised...) unless the test is marked ``allow_server_errors``;
and on PostgreSQL each database a test made is dropped when it ends.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import time
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")
pytest.importorskip("argon2")
pytest.importorskip("httpx")

import anyio
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session
from starlette.websockets import WebSocketDisconnect

from studpoker.server.app import create_app
from studpoker.server.config import Settings
from studpoker.server.db import Database, TableRow
from studpoker.server.ledger import Invariants, check_invariants
from studpoker.server.protocol import TO_BROWSER

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


#: ``$STUDPOKER_TEST_POSTGRES``: a PostgreSQL URL of a role that may create databases. When it is set, each test
#: gets a fresh PostgreSQL database instead of a SQLite file (``make test-postgres``, which CI runs).
POSTGRES = os.environ.get("STUDPOKER_TEST_POSTGRES", "")
_DATABASES: dict[Path, str] = {}
#: Every SQLAlchemy engine that has connected during the run (weakly: a closed room's engines go away).
_ENGINES: weakref.WeakSet[Any] = weakref.WeakSet()


def _admin_url() -> str:
    """``$STUDPOKER_TEST_POSTGRES`` as a libpq URL, for psycopg (without SQLAlchemy's ``+psycopg``)."""
    from sqlalchemy.engine import make_url

    return make_url(POSTGRES).set(drivername="postgresql").render_as_string(hide_password=False)


def _track_engines() -> None:
    """Remember each engine that connects, so that a test's database can be let go of before it is dropped."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    if not event.contains(Engine, "engine_connect", _remember_engine):
        event.listen(Engine, "engine_connect", _remember_engine)


def _remember_engine(connection: Any) -> None:
    _ENGINES.add(connection.engine)


def database_url(path: Path) -> str:
    """The test's database: a SQLite file in ``path``, or a fresh PostgreSQL database made for ``path`` once
    (dropped when the test that made it ends: :func:`_drop_test_databases`)."""
    if not POSTGRES:
        return f"sqlite:///{path / 'room.db'}"
    if path not in _DATABASES:
        import psycopg
        from sqlalchemy.engine import make_url

        _track_engines()
        name = "studpoker_test_" + hashlib.sha1(str(path).encode()).hexdigest()[:16]
        with psycopg.connect(_admin_url(), autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
            connection.execute(f'CREATE DATABASE "{name}"')
        _DATABASES[path] = make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
    return _DATABASES[path]


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    """The test's database (:func:`database_url`), migrated, and closed at the end."""
    database = Database(database_url(tmp_path))
    database.migrate()
    yield database
    database.close()


def table_rows(db: Database, count: int, status: str = "open") -> list[int]:
    """``count`` stud tables made straight in the database (no actor runs them): their ids."""

    def work(session: Session) -> list[int]:
        rows = [
            TableRow(
                name=f"T{status}{i}",
                name_key=f"t{status}{i}",
                variant="STUD7",
                preset="casino",
                ante=1,
                bring_in=3,
                small_bet=10,
                big_bet=20,
                status=status,
            )
            for i in range(count)
        ]
        session.add_all(rows)
        session.flush()
        return [r.id for r in rows]

    return db.transaction(work)


def drop_database(url: str) -> None:
    """Drop a test database: dispose of every engine still pooling connections to it (a room closes its own when
    it stops; a test may have left one), then ``DROP DATABASE ... WITH (FORCE)`` (PostgreSQL 13+), which ends any
    session still open on it; before 13, those sessions are terminated first."""
    import psycopg
    from sqlalchemy.engine import make_url

    name = make_url(url).database
    for engine in list(_ENGINES):
        if engine.url.database == name:
            engine.dispose()
    with psycopg.connect(_admin_url(), autocommit=True) as connection:
        if connection.info.server_version >= 130000:
            # FORCE ends the sessions on it; an autovacuum worker's only with pg_signal_backend (.ci/run grants
            # it): without, wait for the worker to finish
            for attempt in range(40):
                try:
                    connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                    break
                except psycopg.errors.InsufficientPrivilege:
                    if attempt == 39:
                        raise
                    time.sleep(0.25)
        else:
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                (name,),
            )
            connection.execute(f'DROP DATABASE IF EXISTS "{name}"')


@pytest.fixture(autouse=True)
def _drop_test_databases() -> Iterator[None]:
    """On PostgreSQL: drop, when the test ends, every database made for it (autouse, so this runs after the
    teardown of the test's other fixtures, the room's included)."""
    before = set(_DATABASES)
    yield
    for path in [path for path in _DATABASES if path not in before]:
        drop_database(_DATABASES.pop(path))


@pytest.fixture(autouse=True, scope="session")
def _drop_left_databases() -> Iterator[None]:
    """On PostgreSQL: at the end of the run, drop any test database still there (one made outside a test)."""
    yield
    while _DATABASES:
        drop_database(_DATABASES.popitem()[1])


class ServerErrors(logging.Handler):
    """Keeps the ERROR (and CRITICAL) records of the ``studpoker.server`` logger."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def _fail_on_server_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail the test on an ERROR record of the ``studpoker.server`` logger, logged during it or its teardown (the
    room's shutdown included), with the record's traceback. A test that provokes one on purpose says so:
    ``@pytest.mark.allow_server_errors`` allows any, ``@pytest.mark.allow_server_errors(r"regex", ...)`` only the
    records whose message matches one of the patterns (``re.search``)."""
    marker = request.node.get_closest_marker("allow_server_errors")
    if marker is not None and not marker.args:
        yield
        return
    allowed = [re.compile(pattern) for pattern in marker.args] if marker is not None else []
    handler = ServerErrors()
    logger = logging.getLogger("studpoker.server")
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)
    unexpected = [r for r in handler.records if not any(p.search(r.getMessage()) for p in allowed)]
    if unexpected:
        report = "\n\n".join(handler.format(record) for record in unexpected)
        pytest.fail(f"the server logged {len(unexpected)} unexpected error(s):\n{report}", pytrace=False)


def make_settings(path: Path, **overrides: Any) -> Settings:
    base = Settings(
        db_url=database_url(path),
        action_seconds=30.0,
        time_bank=0.0,
        bot_delay=0.0,
        between_hands=0.0,
        showdown_seconds=0.0,
        default_table=False,
        password_time_cost=1,
        password_memory_kib=1024,
        seed=7,
        signups_per_address=10_000,  # one address signs every test user up
        max_tables_per_account=20,
        tables_per_account_per_hour=1000,
    )
    return replace(base, **overrides)


#: What the room's own pages send with every request (the TestClient's host is "testserver").
ORIGIN = {"origin": "http://testserver"}
PASSWORD = "correct horse battery"


def room_client(settings: Settings, **kwargs: Any) -> TestClient:
    """A TestClient of a fresh app that sends the room's own Origin (enter it with ``with``)."""
    return TestClient(create_app(settings), headers=ORIGIN, **kwargs)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with room_client(settings) as test_client:
        yield test_client


@dataclass
class User:
    """A signed-up account: sends its own cookie with each request (one TestClient serves every user)."""

    client: TestClient
    name: str
    token: str
    id: int

    @property
    def headers(self) -> dict[str, str]:
        return {"cookie": f"studpoker_session={self.token}"}

    def get(self, url: str) -> Any:
        return self.client.get(url, headers=self.headers)

    def post(self, url: str, body: dict[str, Any] | None = None) -> Any:
        return self.client.post(url, json=body or {}, headers=self.headers)

    def delete(self, url: str) -> Any:
        return self.client.request("DELETE", url, json={}, headers=self.headers)

    def socket(self, table_id: int) -> Any:
        return self.client.websocket_connect(f"/ws/table/{table_id}", headers=self.headers)


def signup(client: TestClient, name: str, password: str = PASSWORD) -> User:
    response = client.post("/api/signup", json={"username": name, "password": password})
    assert response.status_code == 201, response.text
    token = response.cookies["studpoker_session"]
    client.cookies.clear()
    return User(client, name, token, response.json()["id"])


def create_table(user: User, **body: Any) -> int:
    data = {"variant": "STUD7", "small_bet": 10, "big_bet": 20, "ante": 1, "bring_in": 3, **body}
    response = user.post("/api/tables", data)
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def in_protocol(message: Any) -> None:
    """Fail unless ``message`` is one of the protocol's (studpoker.server.protocol.ToBrowser), field for field:
    every message a test socket receives is checked, so the room cannot send one the protocol does not name."""
    TO_BROWSER.validate_python(message)


def recv_frame(ws: Any, timeout: float = 5.0) -> Any:
    """The next frame of a test WebSocket, decoded (a message, or a batch: a list), each message checked against
    the protocol (:func:`in_protocol`); :class:`TimeoutError` after ``timeout`` seconds, and
    :class:`WebSocketDisconnect` (with the close code) when the server closed it."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(code=message.get("code", 1000))
    data = json.loads(message["text"])
    for each in data if isinstance(data, list) else [data]:
        in_protocol(each)
    return data


def recv(ws: Any, timeout: float = 5.0) -> dict[str, Any]:
    """The next message of a test WebSocket that takes one message a frame (see :func:`recv_frame`)."""
    result: dict[str, Any] = recv_frame(ws, timeout)
    return result


def drain(ws: Any, timeout: float = 0.05) -> list[dict[str, Any]]:
    """Every message that arrives until none has come for ``timeout`` seconds."""
    out = []
    while True:
        try:
            out.append(recv(ws, timeout))
        except TimeoutError:
            return out


def until(ws: Any, kind: str, timeout: float = 5.0, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Read until a message of type ``kind`` (the ones before it go to ``log``)."""
    while True:
        message = recv(ws, timeout)
        if log is not None:
            log.append(message)
        if message["type"] == kind:
            return message


def first_turn(sockets: list[Any], timeout: float = 60.0) -> tuple[Any, dict[str, Any]]:
    """The socket that gets a ``your_turn`` first, and that message: waits on the messages (up to ``timeout``
    seconds), not on a guess of how long the deal takes; the messages before it are dropped."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for ws in sockets:
            try:
                message = recv(ws, 0.02)
            except TimeoutError:
                continue
            if message["type"] == "your_turn":
                return ws, message
    raise TimeoutError(f"no your_turn in {timeout} s")


def cards_in(message: Any) -> set[str]:
    """Every card string anywhere in a message."""
    found: set[str] = set()
    if isinstance(message, dict):
        for value in message.values():
            found |= cards_in(value)
    elif isinstance(message, list):
        for value in message:
            found |= cards_in(value)
    elif isinstance(message, str) and CARD.match(message):
        found.add(message)
    return found


def invariants(client: TestClient) -> Invariants:
    """The books checked on the server's database thread, between two of its writes (a consistent moment)."""
    room = client.app.state.room  # type: ignore[attr-defined]
    assert client.portal is not None
    result: Invariants = client.portal.call(room.db.run, check_invariants)
    return result


def stored_phh(client: TestClient, table_id: int, number: int) -> str:
    """The full PHH the room stored for a hand (every card: what only an admin is shown)."""
    from sqlalchemy import select

    from studpoker.server.db import HandRow

    room = client.app.state.room  # type: ignore[attr-defined]
    assert client.portal is not None
    text: str = client.portal.call(
        room.db.run,
        lambda s: s.scalar(select(HandRow.phh).where(HandRow.table_id == table_id, HandRow.number == number)),
    )
    return text
