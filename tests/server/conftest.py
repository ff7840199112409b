"""Fixtures of the card-room tests: a fresh SQLite database per test, the app in a TestClient, users, sockets.

Every test gets its own database file in ``tmp_path``; passwords are hashed with a cheap argon2 setting and the
pause between hands is zero, so a hand between two test clients takes milliseconds. WebSocket reads go through
:func:`recv`, which gives up after a timeout instead of hanging the suite. The test client sends the room's own
``Origin`` (``http://testserver``), as the room's pages do: state changes without it are refused (CSRF), which
tests/server/test_security.py checks with clients that do not send it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
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
from starlette.websockets import WebSocketDisconnect

from studpoker.server.app import create_app
from studpoker.server.config import Settings
from studpoker.server.ledger import Invariants, check_invariants

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


#: ``$STUDPOKER_TEST_POSTGRES``: a PostgreSQL URL of a role that may create databases. When it is set, each test
#: gets a fresh PostgreSQL database instead of a SQLite file (``make test-postgres``, which CI runs).
POSTGRES = os.environ.get("STUDPOKER_TEST_POSTGRES", "")
_DATABASES: dict[Path, str] = {}


def database_url(path: Path) -> str:
    """The test's database: a SQLite file in ``path``, or a fresh PostgreSQL database made for ``path`` once."""
    if not POSTGRES:
        return f"sqlite:///{path / 'room.db'}"
    if path not in _DATABASES:
        import psycopg
        from sqlalchemy.engine import make_url

        url = make_url(POSTGRES)
        name = "studpoker_test_" + hashlib.sha1(str(path).encode()).hexdigest()[:16]
        admin = url.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
            connection.execute(f'CREATE DATABASE "{name}"')
        _DATABASES[path] = url.set(database=name).render_as_string(hide_password=False)
    return _DATABASES[path]


def make_settings(path: Path, **overrides: Any) -> Settings:
    base = Settings(
        db_url=database_url(path),
        action_seconds=30.0,
        time_bank=0.0,
        bot_delay=0.0,
        between_hands=0.0,
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


def recv(ws: Any, timeout: float = 5.0) -> dict[str, Any]:
    """The next message of a test WebSocket; :class:`TimeoutError` after ``timeout`` seconds, and
    :class:`WebSocketDisconnect` (with the close code) when the server closed it."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(code=message.get("code", 1000))
    result: dict[str, Any] = json.loads(message["text"])
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
