"""Fixtures of the cluster tests: real table workers and gateways, a private Redis, a fresh PostgreSQL database.

Every test gets its own ``redis-server`` on a free loopback port (no persistence, its files in ``tmp_path``; it can
be stopped and started again on the same port) with authentication as docs/server.md sets it up: the default user
off, one ACL user with a password and the room's rules (``bus.ACL_RULES``), its configuration given on standard
input (no password on a command line); its own PostgreSQL database made from ``$STUDPOKER_TEST_POSTGRES``
(dropped with ``DROP DATABASE ... WITH (FORCE)`` when the test ends), and a :class:`Cluster` that starts
``python -m studpoker serve --role worker|gateway`` processes with short timings, each logging to a file in
``tmp_path``, the database and Redis URLs (both with passwords) in their environment, never on their command lines.
Every process is killed at teardown and the logs are printed (pytest shows them when a test failed).

Accounts are made straight in the database with a cheap password hash, with a session each, whose token is the
``studpoker_session`` cookie. :class:`Player` is a WebSocket client (the ``websockets`` library's synchronous
one) that keeps every message it got; HTTP goes through ``httpx``, always with the gateway's own ``Origin``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

#: This folder: its tests are marked ``cluster`` (below).
HERE = Path(__file__).resolve().parent

POSTGRES = os.environ.get("STUDPOKER_TEST_POSTGRES", "")
REDIS_SERVER = shutil.which("redis-server") or ""


#: The timings of every process: a table changes hands ``LEASE`` seconds after its worker died.
LEASE = 2.0
TIMINGS = ["--lease-seconds", str(LEASE), "--bot-delay", "0.05", "--between-hands", "0.3"]
TIMINGS += ["--showdown-seconds", "0.3", "--clock", "30", "--time-bank", "0", "--drain-seconds", "2"]


def skip_reason() -> str | None:
    """Why the cluster tests cannot run here, or ``None``."""
    if not POSTGRES:
        return "the cluster tests need PostgreSQL: set STUDPOKER_TEST_POSTGRES (a role that may create databases)"
    if not REDIS_SERVER:
        return "the cluster tests need redis-server (apt install redis-server)"
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(condition: Callable[[], Any], timeout: float, what: str, every: float = 0.05) -> Any:
    """Poll ``condition`` until it returns something true (returned); :class:`AssertionError` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:.1f} s: {what}")
        time.sleep(every)


# -- Redis -----------------------------------------------------------------------------------------------------


class RedisServer:
    """A private ``redis-server`` on one port for the whole test; :meth:`stop` and :meth:`start` again.

    ``url`` is the room's: the ACL user ``studpoker`` and its password; ``open_url`` the same server without
    credentials (an attacker's). ``start(open_to_all=True)`` keeps the room's user but lets the default user in
    without a password too (a configuration that lost its ``user default off``): open to anyone."""

    USER = "studpoker"

    def __init__(self, folder: Path) -> None:
        import secrets

        self.folder = folder
        self.port = free_port()
        self.password = secrets.token_hex(16)
        self.url = f"redis://{self.USER}:{self.password}@127.0.0.1:{self.port}/0"
        self.open_url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def config(self, open_to_all: bool) -> str:
        """The server's configuration (read from standard input: the password is on no command line)."""
        from studpoker.server.bus import ACL_RULES

        lines = [f"port {self.port}", "bind 127.0.0.1", 'save ""', "appendonly no", f'dir "{self.folder}"']
        lines += [f"user {self.USER} on >{self.password} {ACL_RULES}"]
        lines += ["protected-mode no", "user default on nopass ~* &* +@all"] if open_to_all else ["user default off"]
        return "\n".join(lines) + "\n"

    def start(self, open_to_all: bool = False) -> None:
        self.starts += 1
        log = (self.folder / f"redis-{self.starts}.log").open("wb")
        command = [REDIS_SERVER, "-", "--daemonize", "no"]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT, cwd=self.folder
        )
        log.close()
        assert self.process.stdin is not None
        self.process.stdin.write(self.config(open_to_all).encode())
        self.process.stdin.close()
        wait_for(self.ping, 10, f"redis-server on port {self.port} answers")

    def ping(self) -> bool:
        import redis

        assert self.process is not None
        if self.process.poll() is not None:
            raise AssertionError(f"redis-server ended ({self.process.returncode}): {self.log()}")
        try:
            client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except redis.RedisError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None

    def log(self) -> str:
        return "\n".join(p.read_text(errors="replace")[-2000:] for p in sorted(self.folder.glob("redis-*.log")))


# -- PostgreSQL ---------------------------------------------------------------------------------------------------


def _admin_url() -> str:
    from sqlalchemy.engine import make_url

    return make_url(POSTGRES).set(drivername="postgresql").render_as_string(hide_password=False)


def create_database() -> str:
    import psycopg
    from sqlalchemy.engine import make_url

    name = f"studpoker_cluster_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(_admin_url(), autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)


def drop_database(url: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    name = make_url(url).database
    with psycopg.connect(_admin_url(), autocommit=True) as connection:
        for attempt in range(40):
            try:
                connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                return
            except psycopg.errors.InsufficientPrivilege:  # an autovacuum worker without pg_signal_backend
                if attempt == 39:
                    raise
                time.sleep(0.25)


class Books:
    """The test's own view of the database: queries, and the ledger invariant at one consistent moment."""

    def __init__(self, url: str) -> None:
        from studpoker.server.db import Database

        self.url = url
        self.db = Database(url)
        self.db.migrate()
        self.engine = self.db.engine.execution_options(isolation_level="REPEATABLE READ")

    def rows(self, sql: str, **params: Any) -> list[tuple[Any, ...]]:
        from sqlalchemy import text

        with self.engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(sql), params)]

    def one(self, sql: str, **params: Any) -> Any:
        rows = self.rows(sql, **params)
        return rows[0][0] if rows else None

    def invariants(self) -> Any:
        """``check_invariants`` in one REPEATABLE READ transaction (one snapshot of every table's rows)."""
        from sqlalchemy.orm import Session

        from studpoker.server.ledger import check_invariants

        with Session(bind=self.engine.connect()) as session:
            try:
                return check_invariants(session)
            finally:
                session.rollback()
                session.get_bind().close()  # type: ignore[union-attr]

    def account(self, name: str, balance: int = 10_000) -> Account:
        """A new account with a session (its password hashed cheaply: nobody logs in with it)."""
        from studpoker.server.auth import Passwords, create_account, new_session

        hashed = Passwords(time_cost=1, memory_kib=1024).hash("cluster-password")

        def work(session: Any) -> Account:
            account = create_account(session, name, hashed, balance)
            return Account(name, account.id, new_session(session, account.id))

        result: Account = self.db.transaction(work)
        return result

    def lease(self, table_id: int) -> tuple[str | None, int]:
        rows = self.rows("SELECT worker, generation FROM table_leases WHERE table_id = :t", t=table_id)
        assert rows, f"table {table_id} has no lease row"
        return rows[0][0], int(rows[0][1])

    def live_lease(self, table_id: int) -> tuple[str, int] | None:
        rows = self.rows(
            "SELECT worker, generation FROM table_leases WHERE table_id = :t AND worker IS NOT NULL "
            "AND expires_at >= extract(epoch from clock_timestamp())",
            t=table_id,
        )
        return (str(rows[0][0]), int(rows[0][1])) if rows else None

    def hands(self, table_id: int) -> list[tuple[int, str]]:
        return [
            (int(n), str(s))
            for n, s in self.rows("SELECT number, status FROM hands WHERE table_id = :t ORDER BY number", t=table_id)
        ]

    def state(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row a table's actor writes (hands, seats, ledger, tables, balances): to compare two moments."""
        return {
            "hands": self.rows("SELECT id, table_id, number, status, pot, players::text, phh FROM hands ORDER BY id"),
            "seats": self.rows("SELECT * FROM seats ORDER BY table_id, seat"),
            "ledger": self.rows(
                "SELECT id, source, target, amount, kind, table_id, hand_number FROM ledger ORDER BY id"
            ),
            "tables": self.rows("SELECT id, hand_number, status FROM tables ORDER BY id"),
            "balances": self.rows("SELECT id, balance FROM accounts ORDER BY id"),
        }

    def close(self) -> None:
        self.db.close()


@dataclass
class Account:
    name: str
    id: int
    token: str


# -- processes ----------------------------------------------------------------------------------------------------


@dataclass
class Process:
    """One worker or gateway of the test's cluster."""

    role: str
    popen: subprocess.Popen[bytes]
    log_path: Path
    port: int | None = None

    @property
    def pid(self) -> int:
        return self.popen.pid

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def alive(self) -> bool:
        return self.popen.poll() is None

    def signal(self, signum: int) -> None:
        self.popen.send_signal(signum)

    def kill(self) -> None:
        """kill -9, and reap it."""
        if self.alive():
            self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(10)

    def http(self, account: Account | None = None) -> Any:
        import httpx

        headers = {"origin": self.base}
        if account is not None:
            headers["cookie"] = f"studpoker_session={account.token}"
        return httpx.Client(base_url=self.base, headers=headers, timeout=30)


class Cluster:
    """Starts the test's workers and gateways (see the module's docstring)."""

    def __init__(self, folder: Path, redis: RedisServer, db_url: str) -> None:
        self.folder = folder
        self.redis = redis
        self.db_url = db_url
        self.processes: list[Process] = []

    def _start(
        self, role: str, extra: list[str], port: int | None = None, env: dict[str, str | None] | None = None
    ) -> Process:
        """Start ``stud serve --role ROLE``, the URLs in its environment (``env`` sets more variables there, or
        with ``None`` removes them)."""
        index = sum(1 for p in self.processes if p.role == role) + 1
        log_path = self.folder / f"{role}-{index}.log"
        command = [sys.executable, "-m", "studpoker", "serve", "--role", role]
        command += [*TIMINGS, "--log-level", "info", *extra]
        if port is not None:
            command += ["--host", "127.0.0.1", "--port", str(port)]
        with log_path.open("wb") as log:
            variables = {
                **os.environ,
                "PYTHONUNBUFFERED": "1",
                "STUDPOKER_DB_URL": self.db_url,
                "STUDPOKER_REDIS_URL": self.redis.url,
            }
            for name, value in (env or {}).items():
                if value is None:
                    variables.pop(name, None)
                else:
                    variables[name] = value
            popen = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=self.folder, env=variables)
        process = Process(role, popen, log_path, port)
        self.processes.append(process)
        return process

    def worker(self, *extra: str, wait: bool = True, env: dict[str, str | None] | None = None) -> Process:
        process = self._start("worker", list(extra), env=env)
        if wait:
            self.wait_worker(process)
        return process

    def wait_worker(self, process: Process) -> None:
        def started() -> bool:
            if not process.alive():
                raise AssertionError(f"the worker ended ({process.popen.returncode}):\n{process.log()[-3000:]}")
            return re.search(r"table worker \S+ started", process.log()) is not None

        wait_for(started, 60, f"worker {process.pid} starts", every=0.1)

    def gateway(self, *extra: str, default_table: bool = False, wait: bool = True) -> Process:
        flags = list(extra) + ([] if default_table else ["--no-default-table"])
        process = self._start("gateway", flags, port=free_port())
        if wait:
            self.wait_gateway(process)
        return process

    def wait_gateway(self, process: Process) -> None:
        import httpx

        def ready() -> bool:
            if not process.alive():
                raise AssertionError(f"the gateway ended ({process.popen.returncode}):\n{process.log()[-3000:]}")
            try:
                return httpx.get(process.base + "/api/tables", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        wait_for(ready, 60, f"gateway {process.pid} answers", every=0.1)

    def owner(self, table_id: int, books: Books) -> Process:
        """The worker process whose pid the table's live lease names (``host-PID-hex``)."""
        lease = wait_for(lambda: books.live_lease(table_id), 15, f"a worker holds table {table_id}")
        pid = int(lease[0].rsplit("-", 2)[1])
        found = [p for p in self.processes if p.role == "worker" and p.pid == pid]
        assert found, f"the lease names {lease[0]}, none of this test's workers"
        return found[0]

    def stop_all(self) -> None:
        for process in self.processes:
            if process.alive():
                with contextlib.suppress(ProcessLookupError):
                    process.popen.send_signal(signal.SIGCONT)  # a stopped process dies of SIGKILL too; be sure
                    process.popen.send_signal(signal.SIGKILL)
        for process in self.processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.popen.wait(10)

    def print_logs(self) -> None:
        for process in self.processes:
            print(f"===== {process.role} pid {process.pid} ({process.log_path.name}) =====")
            text = process.log()
            print(text[-12000:] if len(text) > 12000 else text)


# -- WebSocket players ------------------------------------------------------------------------------------------


@dataclass
class Player:
    """A browser's table socket, on one gateway: every message received is kept in ``log``."""

    account: Account | None
    gateway: Process
    table_id: int
    log: list[dict[str, Any]] = field(default_factory=list)
    ws: Any = None
    closed: bool = False
    stack: contextlib.ExitStack | None = None
    handled: int = 0  # how much of ``log`` the test's play loop has gone through
    batch: bool = False  # ask for batches (``?batch=1``): each frame a JSON array, read into ``log`` in order
    frames: int = 0  # the frames received

    def connect(self, gateway: Process | None = None) -> Player:
        from websockets.sync.client import connect

        if gateway is not None:
            self.gateway = gateway
        headers = {"Origin": self.gateway.base}
        if self.account is not None:
            headers["Cookie"] = f"studpoker_session={self.account.token}"
        url = f"ws://127.0.0.1:{self.gateway.port}/ws/table/{self.table_id}" + ("?batch=1" if self.batch else "")
        self.close()
        self.stack = contextlib.ExitStack()  # entered: websockets 17.1 deprecates connect() outside a ``with``
        self.ws = self.stack.enter_context(connect(url, additional_headers=headers, open_timeout=10, close_timeout=1))
        self.closed = False
        return self

    def close(self) -> None:
        if self.stack is not None:
            with contextlib.suppress(Exception):
                self.stack.close()
            self.stack = None

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def poll(self, timeout: float = 0.02) -> list[dict[str, Any]]:
        """The messages that arrive within ``timeout`` (more while they keep coming); ``closed`` is set when the
        server (or the gateway's death) closed the socket."""
        from websockets.exceptions import ConnectionClosed

        from studpoker.server.protocol import TO_BROWSER

        got: list[dict[str, Any]] = []
        if self.closed:
            return got
        wait = timeout
        while True:
            try:
                text = self.ws.recv(timeout=wait)
            except TimeoutError:
                return got
            except ConnectionClosed:
                self.closed = True
                return got
            self.frames += 1
            data = json.loads(text)
            if self.batch:
                assert isinstance(data, list) and data, f"{self.name}: a batching socket got {text[:200]}"
            for message in data if self.batch else [data]:
                TO_BROWSER.validate_python(message)  # every message is one the protocol names, field for field
                self.log.append(message)
                got.append(message)
            wait = 0.0

    def until(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 15, what: str = "") -> dict[str, Any]:
        """Read until a message ``predicate`` accepts (also among those already read since ``mark``)."""
        deadline = time.monotonic() + timeout
        start = len(self.log)
        while True:
            for message in self.log[start:]:
                if predicate(message):
                    return message
            start = len(self.log)
            if self.closed:
                raise AssertionError(f"{self.name}: the socket closed while waiting for {what}")
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: not within {timeout} s: {what}; last: {self.log[-5:]}")
            self.poll(0.05)

    @property
    def name(self) -> str:
        return self.account.name if self.account is not None else "visitor"


def choose(turn: dict[str, Any]) -> dict[str, Any]:
    """A passive legal answer to a ``your_turn``: check or call (never a fold), else the cheapest."""
    kinds = {a["action"]: a for a in turn["legal"]}
    preferred = ("check", "call", "bring-in", "complete", "bet", "raise", "show")
    pick = next((kinds[k] for k in preferred if k in kinds), None)
    assert pick is not None, turn
    return {"type": "act", "hand": turn["hand"], "seq": turn["seq"], "action": pick["action"], "amount": pick["amount"]}


# -- fixtures -----------------------------------------------------------------------------------------------------


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    folder = tmp_path / "redis"
    folder.mkdir()
    server = RedisServer(folder)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def books() -> Iterator[Books]:
    url = create_database()
    result = Books(url)
    try:
        yield result
    finally:
        result.close()
        drop_database(url)


@pytest.fixture
def cluster(tmp_path: Path, redis_server: RedisServer, books: Books) -> Iterator[Cluster]:
    folder = tmp_path / "processes"
    folder.mkdir()
    result = Cluster(folder, redis_server, books.url)
    try:
        yield result
    finally:
        result.stop_all()
        left = [p.pid for p in result.processes if p.alive()]
        result.print_logs()
        assert not left, f"processes still running after the test: {left}"


class Proxy:
    """A TCP proxy on a free loopback port in front of ``host:port``, for a process whose connection to PostgreSQL
    a test cuts: :meth:`cut` closes every connection through it and refuses new ones (as a network partition
    looks to the process), :meth:`mend` accepts them again."""

    def __init__(self, host: str, port: int) -> None:
        import threading

        self.target = (host, port)
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = int(self.listener.getsockname()[1])
        self.open = True
        self.sockets: set[socket.socket] = set()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._accept, name="pg-proxy", daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        import threading

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.open:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.sockets |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, target):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.open = False
        with self.lock:
            ends, self.sockets = self.sockets, set()
        for end in ends:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()

    def mend(self) -> None:
        self.open = True

    def close(self) -> None:
        self.cut()
        self.listener.close()


@pytest.fixture
def pg_proxy(books: Books) -> Iterator[tuple[Proxy, str]]:
    """A proxy in front of the test's PostgreSQL, and the database URL through it."""
    from sqlalchemy.engine import make_url

    url = make_url(books.url)
    proxy = Proxy(url.host or "localhost", url.port or 5432)
    try:
        yield proxy, url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    finally:
        proxy.close()


@pytest.hookimpl(tryfirst=True)  # before pytest's own hook deselects by ``-m``
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of this folder ``cluster`` (pyproject.toml registers it), so that ``-m "not cluster"`` leaves
    them out (``make test-fast``). The hook sees the whole session's items: only this folder's are marked."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.cluster)
