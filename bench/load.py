"""Load test of the card room: N tables of 6 bot clients over WebSockets, against one server or a small cluster.

``--mode single`` (the default): the room of ``stud serve`` (``create_app``) in one subprocess under uvicorn with
the options ``stud serve`` uses (uvloop, httptools and the websockets implementation when installed), on a fresh
SQLite database in a temporary folder, or on a temporary PostgreSQL database with ``--postgres ADMIN_URL``.

``--mode distributed``: the room on several processes as ``stud serve --role worker|gateway`` runs it:
``--workers`` table workers (``run_worker``) and ``--gateways`` gateways (``create_app`` with a Redis URL, under
uvicorn), a ``redis-server`` of its own on a free loopback port with a password (:func:`private_redis`: an ACL user
as docs/server.md sets one up), and a temporary database on the PostgreSQL of ``--postgres`` (created for the
run, dropped at its end). The server processes get the URLs in their environment (``STUDPOKER_DB_URL``,
``STUDPOKER_REDIS_URL``), as ``stud serve --workers N`` gives them to its workers, not on their command lines.
The clients' sockets are spread over the gateways (seat by seat, so a table's players are on different gateways,
as a load balancer would put them).

Every server process (the single server, each worker, each gateway) probes its event loop's lag (a task that
asks to wake every 20 ms and records how late it wakes) and times its garbage collections. Nothing leaves the
loopback interface.

The bench seeds 6 accounts per table and the tables straight in the database, in a few batched statements (the
accounts with their play-money grant in the ledger and a session each, as ``create_account`` and ``new_session``
leave them); in distributed mode once the workers are up, so that each claims its share, and the bench waits
until the workers own every table and have it loaded. The players sit down over HTTP (through the gateways), then
the clients run in ``--procs`` processes (so the clients are not the bottleneck). Each client is one WebSocket of
a seated account; it answers its ``your_turn`` after ``--think`` seconds (0.5 to 1.5 times it) with a simple
policy (check or call, sometimes fold, sometimes raise), and the showdown's question to a hand that cannot win at
once, with a muck (as a page with auto-muck on does). The clients are minimal: a raw RFC 6455 client on an
asyncio protocol that decodes only the frames it needs (``your_turn``, its own ``action``, ``error``), by the
``type`` the server puts first in every message. Like the room's page, the clients ask for batches
(``/ws/table/{id}?batch=1``: a step of a hand in one frame, a JSON array); ``--unbatched`` measures the clients that
take one message per frame. ``--websockets-client`` uses the ``websockets`` library instead (and decodes every
message), which costs about three times the CPU.

It reports, over ``--seconds`` of steady state: hands per minute, actions per second, messages received per
second, the action-to-broadcast latency (from a client writing its ``act`` to the socket, to the same client
reading the ``action`` message of that turn from its socket: p50, p99, max), the CPU of every process (the
server and its threads, each worker, each gateway, redis-server, the PostgreSQL backends serving the bench's
database, the client processes), the CPU per table and per action played (with the share spent in the kernel:
system calls and the loopback TCP work they do), each server process's event-loop lag and GC pauses. After
the run (the servers stopped) it checks the ledger (``check_invariants``) and that every table finished hands.

``--compare`` runs, alternating, the single process and the cluster at each of ``--tables 100,300,1000`` (both on
PostgreSQL, so ``--postgres`` is needed) and prints one table of the results side by side.

    python bench/load.py --tables 10 --seconds 20
    python bench/load.py                       # 100 tables of 6, 30 seconds, 2 client processes, SQLite
    python bench/load.py --profile server.prof # and cProfile the server (python -m pstats server.prof)
    export STUDPOKER_TEST_POSTGRES=postgresql+psycopg://u:pw@localhost/postgres   # or --postgres ADMIN_URL
    python bench/load.py --mode distributed --tables 50
    python bench/load.py --compare --tables 100,300,1000 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import concurrent.futures
import functools
import gc
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

SEATS = 6
#: How often the event-loop probe in each server process wakes. Its own CPU is counted as the process's: at 5 ms
#: it cost about 0.8 % of a core, 5 % of a worker's CPU at 100 tables; at 20 ms a quarter of that.
LAG_PERIOD = 0.02
STARTING_BALANCE = 10_000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def private_redis(port: int, log: Any = subprocess.DEVNULL) -> tuple[subprocess.Popen[bytes], str]:
    """A ``redis-server`` of the bench's own on a loopback port, set up as docs/server.md says: the default user
    off, one ACL user with a new password and the room's rules, the configuration on standard input (so the
    password is on no command line); and the room's URL for it. Also used by bench/soak.py."""
    import shutil

    from studpoker.server.bus import ACL_RULES

    password = secrets.token_hex(16)
    config = [f"port {port}", "bind 127.0.0.1", 'save ""', "appendonly no", "user default off"]
    config += [f"user studpoker on >{password} {ACL_RULES}"]
    command = [shutil.which("redis-server") or "/usr/bin/redis-server", "-"]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT)
    assert process.stdin is not None
    process.stdin.write(("\n".join(config) + "\n").encode())
    process.stdin.close()
    return process, f"redis://studpoker:{password}@127.0.0.1:{port}/0"


# -- the database ------------------------------------------------------------------------------------------


def create_database(admin_url: str) -> tuple[str, str]:
    """A new empty PostgreSQL database next to ``admin_url``'s: ``(its URL, its name)``."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"studpoker_bench_{os.getpid()}_{secrets.token_hex(3)}"
    engine = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return make_url(admin_url).set(database=name).render_as_string(hide_password=False), name


def drop_database(admin_url: str, name: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    engine.dispose()


def backends(admin_url: str, name: str) -> list[int]:
    """The process ids of the PostgreSQL backends connected to database ``name``."""
    from sqlalchemy import create_engine, text

    engine = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        pids = [
            int(p)
            for p in connection.execute(
                text("SELECT pid FROM pg_stat_activity WHERE datname = :n"), {"n": name}
            ).scalars()
        ]
    engine.dispose()
    return pids


def seed_accounts(db_url: str, count: int) -> tuple[list[str], list[int]]:
    """``count`` accounts with their grant and a session each, straight in the database, in a few batched
    statements; returns their cookie tokens and ids."""
    from sqlalchemy import insert

    from studpoker.server.auth import Passwords, digest
    from studpoker.server.db import Account, Database, LedgerEntry, SessionRow, utcnow
    from studpoker.server.ledger import HOUSE, user_account
    from studpoker.server.names import look_key, name_key

    db = Database(db_url)
    db.migrate()
    hashed = Passwords(time_cost=1, memory_kib=1024).hash("bench-password")
    tokens = [secrets.token_urlsafe(32) for _ in range(count)]

    def work(session: Any) -> list[int]:
        now = utcnow()
        names = [f"bench{i}" for i in range(count)]
        rows = [
            {
                "username": n,
                "username_key": name_key(n),
                "username_look": look_key(n),
                "password_hash": hashed,
                "balance": STARTING_BALANCE,
                "is_admin": False,
                "created_at": now,
            }
            for n in names
        ]
        ids = list(session.scalars(insert(Account).returning(Account.id, sort_by_parameter_order=True), rows))
        session.execute(
            insert(LedgerEntry),
            [
                {
                    "at": now,
                    "source": HOUSE,
                    "target": user_account(i),
                    "amount": STARTING_BALANCE,
                    "kind": "grant",
                    "memo": "starting balance",
                }
                for i in ids
            ],
        )
        session.execute(
            insert(SessionRow),
            [
                {"token_hash": digest(t), "account_id": i, "created_at": now, "last_seen_at": now}
                for t, i in zip(tokens, ids, strict=True)
            ],
        )
        return ids

    ids = db.transaction(work)
    db.close()
    return tokens, ids


def create_tables(db_url: str, count: int, creators: list[int], showdown: float, leases: bool) -> list[int]:
    """``count`` open 7-card stud 10/20 tables (as ``POST /api/tables`` opens them), straight in the database,
    with their (unowned) lease rows when ``leases``; returns their ids."""
    from sqlalchemy import insert

    from studpoker.server.db import Database, LeaseRow, TableRow, utcnow
    from studpoker.server.names import look_key, name_key

    db = Database(db_url)

    def work(session: Any) -> list[int]:
        now = utcnow()
        rows = [
            {
                "name": f"Load {t}",
                "name_key": name_key(f"Load {t}"),
                "name_look": look_key(f"Load {t}"),
                "variant": "STUD7",
                "preset": "casino",
                "ante": 1,
                "bring_in": 3,
                "small_bet": 10,
                "big_bet": 20,
                "hand_number": 0,
                "created_by": creators[t],
                "created_at": now,
                "status": "open",
                "showdown_seconds": showdown,
            }
            for t in range(count)
        ]
        ids = list(session.scalars(insert(TableRow).returning(TableRow.id, sort_by_parameter_order=True), rows))
        if leases:
            session.execute(
                insert(LeaseRow), [{"table_id": i, "worker": None, "generation": 0, "expires_at": 0.0} for i in ids]
            )
        return ids

    ids = db.transaction(work)
    db.close()
    return ids


def check_after(db_url: str, table_ids: list[int]) -> dict[str, Any]:
    """With the servers stopped: the ledger's invariants, and the hands each table finished (and voided)."""
    from sqlalchemy import func, select

    from studpoker.server.db import Database, HandRow
    from studpoker.server.ledger import check_invariants

    db = Database(db_url)
    try:
        try:
            db.transaction(check_invariants)
            ledger = "ok"
        except AssertionError as error:
            ledger = f"BROKEN: {error}"

        def hands(session: Any) -> dict[str, dict[int, int]]:
            out: dict[str, dict[int, int]] = {}
            query = select(HandRow.status, HandRow.table_id, func.count(HandRow.id)).group_by(
                HandRow.status, HandRow.table_id
            )
            for status, table_id, n in session.execute(query):
                out.setdefault(status, {})[int(table_id)] = int(n)
            return out

        counts = db.transaction(hands)
    finally:
        db.close()
    finished = counts.get("finished", {})
    idle = [t for t in table_ids if not finished.get(t)]
    return {
        "ledger": ledger,
        "finished": sum(finished.values()),
        "voided": sum(counts.get("voided", {}).values()),
        "tables_without_hands": idle,
    }


def http(base: str, method: str, path: str, token: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body or {}).encode(),
        method=method,
        # the room refuses changes without its own Origin (CSRF, docs/server.md#security)
        headers={"content-type": "application/json", "cookie": f"studpoker_session={token}", "origin": base},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        result: dict[str, Any] = json.loads(response.read())
        return result


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux ``/proc``; 0 for a process gone)."""
    return sum(cpu_split(pid))


def cpu_split(pid: int) -> tuple[float, float]:
    """User and system (kernel: system calls, and the loopback TCP work they do) CPU seconds of a process so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds of a process's main thread (the event loop) and of its other threads (the database's...)."""
    out: dict[str, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = "event loop" if task.name == str(pid) else "other threads"
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def all_postgres() -> list[int]:
    """Every process named ``postgres`` on the machine (the server's, whoever's work they do)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


# -- the server processes ------------------------------------------------------------------------------------


class Probe:
    """The event loop's lag and the garbage collections of one server process, written to ``path`` at the end."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.lags: list[tuple[float, float]] = []
        self.pauses: list[tuple[float, str, float]] = []  # garbage collections: when, generation, seconds
        self._collecting = 0.0
        self.collected = 0  # unreachable objects the collections found (garbage in reference cycles)
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._collecting = time.perf_counter()
        else:
            where = "" if threading.current_thread() is threading.main_thread() else " (other thread)"
            self.pauses.append((time.time(), f"gen{info['generation']}{where}", time.perf_counter() - self._collecting))
            self.collected += info["collected"]

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(LAG_PERIOD)
            self.lags.append((time.time(), loop.time() - before - LAG_PERIOD))

    def dump(self) -> None:
        Path(self.path).write_text(
            json.dumps(
                {"lags": self.lags, "gc": self.pauses, "threshold": gc.get_threshold(), "collected": self.collected}
            )
        )


def server_settings(args: argparse.Namespace) -> Any:
    """A server subprocess's settings: the URLs from its environment, as ``stud serve``'s workers take them."""
    from studpoker.server.config import Settings

    return Settings(
        db_url=os.environ["STUDPOKER_DB_URL"],
        action_seconds=30.0,
        between_hands=args.between_hands,
        showdown_seconds=args.between_hands,  # the bench measures the server, not the players' pause to look
        default_table=False,
        max_sockets_per_address=100_000,  # every client is on 127.0.0.1
        max_connections_per_address=100_000,
        redis_url=os.environ.get("STUDPOKER_REDIS_URL"),
        lease_seconds=args.lease_seconds,
        **({} if args.bus_linger is None else {"bus_linger_seconds": args.bus_linger}),
    )


def profiled(args: argparse.Namespace, run: Callable[[], None]) -> None:
    profiler = None
    if args.profile:
        import cProfile

        # timed in the process's CPU time, not the wall clock: a wait (the machine's other processes running)
        # is not charged to the function that was running when the process lost its core
        profiler = cProfile.Profile(time.process_time)
        profiler.enable()
    try:
        run()
    finally:
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile)


def serve(args: argparse.Namespace) -> None:
    """A server subprocess: ``stud serve``'s app and uvicorn options (the single room, or a gateway when given a
    Redis URL), plus the probe (and cProfile)."""
    import uvicorn

    from studpoker.server.app import create_app
    from studpoker.server.edge import uvicorn_options

    initial = gc.get_threshold()
    settings = server_settings(args)
    config = uvicorn.Config(
        create_app(settings), host="127.0.0.1", port=args.port, log_level="warning", **uvicorn_options(settings)
    )
    server = uvicorn.Server(config)
    probe = Probe(args.lag_file)

    async def thresholds() -> None:
        # --gc-threshold: the collector's thresholds after startup ("default": Python's, as before the room's
        # startup changed them), in place of the room's own
        while not server.started:
            await asyncio.sleep(0.05)
        gc.set_threshold(*(initial if args.gc_threshold == "default" else map(int, args.gc_threshold.split(","))))

    async def main() -> None:
        # uvicorn raises the stop signal again once it has shut down: let it return here instead
        signal.signal(signal.SIGTERM, lambda *_: None)
        tasks = [asyncio.create_task(probe.run())]
        if args.gc_threshold:
            tasks.append(asyncio.create_task(thresholds()))
        await server.serve()
        for task in tasks:
            task.cancel()

    from uvicorn._compat import asyncio_run

    try:
        profiled(args, lambda: asyncio_run(main(), loop_factory=config.get_loop_factory()))
    finally:
        probe.dump()


def work(args: argparse.Namespace) -> None:
    """A table worker subprocess: ``stud serve --role worker`` (``run_worker``), plus the probe (and cProfile)."""
    from studpoker.server.worker import run_worker

    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    probe = Probe(args.lag_file)

    async def main() -> None:
        task = asyncio.create_task(probe.run())
        await run_worker(server_settings(args), drain_seconds=3.0)
        task.cancel()

    try:
        profiled(args, lambda: asyncio.run(main()))
    finally:
        probe.dump()


# -- the clients ---------------------------------------------------------------------------------------------


class Counters:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.hands = 0
        self.messages = 0
        self.errors: dict[str, int] = {}

    def reset(self) -> None:
        self.latencies.clear()
        self.hands = self.messages = 0
        self.errors.clear()


def choose(turn: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The bench policy: check or call, sometimes fold (facing a bet), sometimes bet or raise."""
    kinds = {a["action"]: a for a in turn["legal"]}
    roll = rng.random()
    if roll < 0.08 and "fold" in kinds and "check" not in kinds:
        return dict(kinds["fold"])
    if roll < 0.2 and ("raise" in kinds or "bet" in kinds or "complete" in kinds):
        return dict(kinds.get("raise") or kinds.get("bet") or kinds["complete"])
    return dict(next(kinds[k] for k in ("check", "call", "bring-in", "complete", "bet", "raise", "muck") if k in kinds))


_ACTION = b'{"type":"action",'
_YOUR_TURN = b'{"type":"your_turn",'
_HAND_OVER = b'{"type":"hand_over",'
_ERROR = b'{"type":"error",'
_ACTION_TEXT = _ACTION.decode()
_DECODER = json.JSONDecoder()


class RawClient(asyncio.Protocol):
    """A minimal WebSocket client (RFC 6455) for one seat: no per-message allocation beyond the payload bytes."""

    def __init__(
        self, host: str, port: int, path: str, token: str, counts_hands: bool, counters: Counters, think: float
    ):
        self.request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\nSec-WebSocket-Version: 13\r\n"
            f"Cookie: studpoker_session={token}\r\n\r\n"
        ).encode()
        self.counts_hands = counts_hands
        self.counters = counters
        self.think = think
        self.rng = random.Random(token)
        self.buffer = bytearray()
        self.upgraded = False
        self.pending: dict[tuple[int, int], float] = {}
        self.transport: asyncio.Transport | None = None
        self.loop = asyncio.get_running_loop()
        self.ready: asyncio.Future[None] = self.loop.create_future()
        self.closed: asyncio.Future[None] = self.loop.create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        transport.write(self.request)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ready.done():
            self.ready.set_exception(ConnectionError("closed during the handshake"))
        if not self.closed.done():
            self.closed.set_result(None)

    def send_frame(self, opcode: int, payload: bytes) -> None:
        # client frames must be masked; a zero mask key leaves the payload as it is
        n = len(payload)
        head = bytes((0x80 | opcode, 0x80 | min(n, 126))) + (n.to_bytes(2, "big") if n >= 126 else b"")
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(head + b"\0\0\0\0" + payload)

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        buffer = self.buffer
        buffer += data
        if not self.upgraded:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not buffer.startswith(b"HTTP/1.1 101"):
                self.ready.set_exception(ConnectionError(bytes(buffer[:end]).decode(errors="replace")))
                assert self.transport is not None
                self.transport.close()
                return
            del buffer[: end + 4]
            self.upgraded = True
            self.ready.set_result(None)
        pos, size = 0, len(buffer)
        while size - pos >= 2:
            opcode, length = buffer[pos] & 0x0F, buffer[pos + 1] & 0x7F
            start = pos + 2
            if length == 126:
                if size - pos < 4:
                    break
                length, start = int.from_bytes(buffer[pos + 2 : pos + 4], "big"), pos + 4
            elif length == 127:
                if size - pos < 10:
                    break
                length, start = int.from_bytes(buffer[pos + 2 : pos + 10], "big"), pos + 10
            if size < start + length:
                break
            payload = bytes(buffer[start : start + length])
            pos = start + length
            if opcode == 1:
                self.text(payload, now)
            elif opcode == 9:
                self.send_frame(0xA, payload)
            elif opcode == 8:
                self.send_frame(0x8, payload[:2])
                assert self.transport is not None
                self.transport.close()
        del buffer[:pos]

    def text(self, payload: bytes, now: float) -> None:
        if payload.startswith(b"["):
            self.batch(payload, now)
            return
        counters = self.counters
        counters.messages += 1
        if payload.startswith(_ACTION):
            if self.pending:
                message = json.loads(payload)
                sent = self.pending.pop((message["hand"], message["seq"]), None)
                if sent is not None:
                    counters.latencies.append(now - sent)
        elif payload.startswith(_YOUR_TURN):
            turn = json.loads(payload)
            self.loop.call_later(thinking(turn, self.think, self.rng), self.answer, turn)
        elif payload.startswith(_HAND_OVER):
            if self.counts_hands:
                counters.hands += 1
        elif payload.startswith(_ERROR):
            code = json.loads(payload)["code"]
            counters.errors[code] = counters.errors.get(code, 0) + 1

    def batch(self, payload: bytes, now: float) -> None:
        """A batch (``?batch=1``): a JSON array of messages. Only the messages this client reads are decoded,
        found by the ``{"type":...`` the server puts first in each (the messages are counted by that mark, which
        also counts the chat lines inside a snapshot: rare, and close enough for a rate)."""
        counters = self.counters
        counters.messages += payload.count(b'{"type":"')
        if _ACTION in payload and self.pending:
            text = payload.decode()
            at = text.find(_ACTION_TEXT)
            while at >= 0:
                message, end = _DECODER.raw_decode(text, at)
                sent = self.pending.pop((message["hand"], message["seq"]), None)
                if sent is not None:
                    counters.latencies.append(now - sent)
                at = text.find(_ACTION_TEXT, end)
        if self.counts_hands:
            counters.hands += payload.count(_HAND_OVER)
        if _YOUR_TURN in payload or _ERROR in payload:
            for message in json.loads(payload):
                if message["type"] == "your_turn":
                    self.loop.call_later(thinking(message, self.think, self.rng), self.answer, message)
                elif message["type"] == "error":
                    counters.errors[message["code"]] = counters.errors.get(message["code"], 0) + 1

    def answer(self, turn: dict[str, Any]) -> None:
        message = json.dumps({"type": "act", "hand": turn["hand"], "seq": turn["seq"], **choose(turn, self.rng)})
        self.pending[(turn["hand"], turn["seq"])] = time.perf_counter()
        self.send_frame(1, message.encode())

    def stop(self) -> None:
        self.send_frame(0x8, (1000).to_bytes(2, "big"))


def thinking(turn: dict[str, Any], think: float, rng: random.Random) -> float:
    """How long a client thinks before answering ``turn``: 0.5 to 1.5 times ``think``, and nothing for the
    showdown's question to a hand that cannot win (it mucks at once, as a page with auto-muck on does)."""
    if any(a["action"] == "muck" for a in turn["legal"]):
        return 0.0
    return think * (0.5 + rng.random())


async def websockets_player(
    uri: str, token: str, counts_hands: bool, counters: Counters, stop: asyncio.Event, think: float
) -> None:
    """The same seat with the ``websockets`` library, decoding every message (``--websockets-client``)."""
    import websockets

    rng = random.Random(token)
    pending: dict[tuple[int, int], float] = {}
    async with websockets.connect(uri, additional_headers={"Cookie": f"studpoker_session={token}"}) as ws:

        async def answer(turn: dict[str, Any]) -> None:
            await asyncio.sleep(thinking(turn, think, rng))
            pending[(turn["hand"], turn["seq"])] = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "hand": turn["hand"], "seq": turn["seq"], **choose(turn, rng)}))

        tasks: set[asyncio.Task[None]] = set()
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            now = time.perf_counter()
            batch = json.loads(raw)
            for message in batch if isinstance(batch, list) else [batch]:
                counters.messages += 1
                kind = message["type"]
                if kind == "your_turn":
                    task = asyncio.create_task(answer(message))
                    tasks.add(task)
                    task.add_done_callback(tasks.discard)
                elif kind == "action":
                    sent = pending.pop((message["hand"], message["seq"]), None)
                    if sent is not None:
                        counters.latencies.append(now - sent)
                elif kind == "hand_over" and counts_hands:
                    counters.hands += 1
                elif kind == "error":
                    counters.errors[message["code"]] = counters.errors.get(message["code"], 0) + 1


async def client_main(job: dict[str, Any]) -> dict[str, Any]:
    """One client process: connect its seats, play from ``start`` to ``end`` (wall clock), report."""
    loop = asyncio.get_running_loop()
    counters = Counters()
    think = job["think"]
    raw: list[RawClient] = []
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    gate = asyncio.Semaphore(32)  # connections in progress at once (one at a time takes minutes at 6,000)

    query = "?batch=1" if job["batch"] else ""

    async def connect(table_id: int, token: str, counts: bool, port: int) -> None:
        path = f"/ws/table/{table_id}{query}"
        async with gate:
            _, client = await loop.create_connection(
                lambda: RawClient("127.0.0.1", port, path, token, counts, counters, think), "127.0.0.1", port
            )
            await client.ready
        raw.append(client)

    if job["websockets"]:
        for table_id, token, counts, port in job["seats"]:  # port: the server (gateway) this seat connects to
            uri = f"ws://127.0.0.1:{port}/ws/table/{table_id}{query}"
            tasks.append(asyncio.create_task(websockets_player(uri, token, counts, counters, stop, think)))
    else:
        await asyncio.gather(*(connect(*seat) for seat in job["seats"]))
    # connected: say so, and hear when to measure (the conductor waits for every client process)
    print("ready", flush=True)
    when = json.loads(await loop.run_in_executor(None, sys.stdin.readline))
    job.update(when)
    await asyncio.sleep(max(0.0, job["start"] - time.time()))
    counters.reset()
    cpu = time.process_time()
    await asyncio.sleep(max(0.0, job["end"] - time.time()))
    cpu = time.process_time() - cpu
    result = {
        "latencies": list(counters.latencies),
        "hands": counters.hands,
        "messages": counters.messages,
        "errors": dict(counters.errors),
        "cpu": cpu,
    }
    stop.set()
    for client in raw:
        client.stop()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.sleep(0.2)
    return result


def clients(args: argparse.Namespace) -> None:
    job = json.loads(sys.stdin.readline())
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    result = asyncio.run(client_main(job))
    Path(job["out"]).write_text(json.dumps(result))


# -- the conductor ---------------------------------------------------------------------------------------------


def progress(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def wait_until(what: str, ready: Callable[[], bool], seconds: float, procs: dict[str, subprocess.Popen[bytes]]) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for name, proc in procs.items():
            if proc.poll() is not None:
                raise SystemExit(f"{name} ended ({proc.returncode}) while waiting for {what}")
        try:
            if ready():
                return
        except Exception:  # not up yet (an OSError, redis' ConnectionError...)
            pass
        time.sleep(0.1)
    raise SystemExit(f"gave up waiting for {what} after {seconds:.0f} s")


def answers(base: str) -> bool:
    urllib.request.urlopen(base + "/api/tables", timeout=5).read()
    return True


def sit(seat: tuple[int, str, bool, int]) -> None:
    table_id, token, _, port = seat
    base = f"http://127.0.0.1:{port}"
    for attempt in range(20):
        try:
            http(base, "POST", f"/api/tables/{table_id}/sit", token, {"buy_in": 2000})
            return
        except urllib.error.HTTPError as error:
            if error.code not in (503, 504) or attempt == 19:
                raise SystemExit(f"sitting at table {table_id}: {error.code} {error.read()[:200]!r}") from None
            time.sleep(0.5)


def stop(procs: dict[str, subprocess.Popen[bytes]], names: list[str]) -> None:
    for name in names:
        if procs[name].poll() is None:
            procs[name].send_signal(signal.SIGTERM)
    for name in names:
        try:
            procs[name].wait(timeout=60)
        except subprocess.TimeoutExpired:
            print(f"{name} did not stop in 60 s: killed", file=sys.stderr)
            procs[name].kill()
            procs[name].wait()


def run_once(args: argparse.Namespace, mode: str, tables: int) -> dict[str, Any]:
    """One run (``mode`` single or distributed, ``tables`` tables): set up, measure, stop, check; the results."""
    began = time.monotonic()
    folder = Path(tempfile.mkdtemp(prefix="studpoker-load-"))
    pg_name: str | None = None
    if args.postgres:
        db_url, pg_name = create_database(args.postgres)
    else:
        db_url = f"sqlite:///{folder / 'load.db'}"
    servers: dict[str, subprocess.Popen[bytes]] = {}
    lag_files: dict[str, Path] = {}
    clients_procs: list[subprocess.Popen[str]] = []
    table_ids: list[int] = []
    owners: list[int] = []
    result: dict[str, Any] = {"mode": mode, "tables": tables}
    try:
        progress(f"{mode}, {tables} tables: seeding {tables * SEATS} accounts")
        tokens, account_ids = seed_accounts(db_url, tables * SEATS)
        creators = [account_ids[t * SEATS] for t in range(tables)]
        common = [sys.executable, __file__, "--between-hands", str(args.between_hands)]
        common += ["--lease-seconds", str(args.lease_seconds)]
        if args.bus_linger is not None:
            common += ["--bus-linger", str(args.bus_linger)]

        def command(name: str, role: list[str]) -> list[str]:
            lag_files[name] = folder / f"lag-{name.replace(' ', '')}.json"
            out = common + role + ["--lag-file", str(lag_files[name])]
            if args.profile:
                out += [
                    "--profile",
                    str(Path(args.profile).resolve()) + ("" if mode == "single" else f".{name.replace(' ', '')}"),
                ]
            if args.gc_threshold:
                out += ["--gc-threshold", args.gc_threshold]
            return out

        env = {**os.environ, "PYTHONUNBUFFERED": "1", "STUDPOKER_DB_URL": db_url}
        env.pop("STUDPOKER_REDIS_URL", None)  # the single server has none
        ports: list[int] = []
        if mode == "single":
            table_ids = create_tables(db_url, tables, creators, args.between_hands, leases=False)
            ports.append(free_port())
            servers["server"] = subprocess.Popen(command("server", ["--serve", "--port", str(ports[0])]), env=env)
            wait_until("the server", lambda: answers(f"http://127.0.0.1:{ports[0]}"), 300, servers)
        else:
            import redis

            servers["redis"], redis_url = private_redis(free_port())
            env["STUDPOKER_REDIS_URL"] = redis_url
            bus = redis.Redis.from_url(redis_url)
            wait_until("redis-server", lambda: bool(bus.ping()), 30, servers)
            for w in range(args.workers):
                name = f"worker {w + 1}"
                servers[name] = subprocess.Popen(command(name, ["--worker"]), env=env)
            # the tables only once every worker is up, so that each claims its share (open tables / live workers)
            wait_until("the workers", lambda: bus.zcard("studpoker:workers") >= args.workers, 120, servers)
            table_ids = create_tables(db_url, tables, creators, args.between_hands, leases=True)
            bus.publish("studpoker:room", json.dumps({"op": "claim"}))
            keys = [f"studpoker:info:{t}" for t in table_ids]
            last_claim = [time.monotonic()]

            def loaded() -> bool:
                if time.monotonic() - last_claim[0] > 2.0:
                    last_claim[0] = time.monotonic()
                    bus.publish("studpoker:room", json.dumps({"op": "claim"}))
                return all(bus.exists(*keys[i : i + 500]) == len(keys[i : i + 500]) for i in range(0, len(keys), 500))

            progress("waiting for the workers to own and load every table")
            wait_until("the workers to own and load every table", loaded, 600, servers)
            owners = lease_owners(db_url)
            for g in range(args.gateways):
                ports.append(free_port())
                name = f"gateway {g + 1}"
                servers[name] = subprocess.Popen(command(name, ["--serve", "--port", str(ports[-1])]), env=env)
            for port in ports:
                wait_until("the gateways", functools.partial(answers, f"http://127.0.0.1:{port}"), 300, servers)
            bus.close()
        seats = [
            (table_ids[i // SEATS], token, i % SEATS == 0, ports[i % len(ports)]) for i, token in enumerate(tokens)
        ]
        progress(f"sitting {len(seats)} players down over HTTP")
        with concurrent.futures.ThreadPoolExecutor(32) as pool:
            list(pool.map(sit, seats))
        result["setup"] = time.monotonic() - began
        result["owners"] = owners
        progress(f"set up: {result['setup']:.0f} s; connecting {len(seats)} clients")
        for p in range(args.procs):
            job = {
                "think": args.think,
                "websockets": args.websockets_client,
                "batch": not args.unbatched,
                "seats": seats[p :: args.procs],
                "out": str(folder / f"clients{p}.json"),
            }
            proc = subprocess.Popen(
                [sys.executable, __file__, "--clients"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
            assert proc.stdin is not None
            proc.stdin.write(json.dumps(job) + "\n")
            proc.stdin.flush()
            clients_procs.append(proc)
        for proc in clients_procs:  # every client connected (they play meanwhile)
            assert proc.stdout is not None
            if proc.stdout.readline().strip() != "ready":
                raise SystemExit("a client process failed to connect its seats")
        # measure from `start` (hands are under way by then) to `end`
        connected = time.monotonic()
        start = time.time() + args.warmup
        end = start + args.seconds
        for proc in clients_procs:
            assert proc.stdin is not None
            proc.stdin.write(json.dumps({"start": start, "end": end}) + "\n")
            proc.stdin.close()
        progress(f"connected in {connected - began - result['setup']:.0f} s; measuring")
        time.sleep(max(0.0, start - time.time()))
        pg_pids = backends(args.postgres, pg_name) if pg_name else []
        every_pg = all_postgres() if pg_name else []
        before = {name: cpu_split(proc.pid) for name, proc in servers.items()}
        threads = thread_cpu(servers["server"].pid) if "server" in servers else {}
        pg_before = {pid: cpu_seconds(pid) for pid in {*pg_pids, *every_pg}}
        time.sleep(max(0.0, end - time.time()))
        after = {name: cpu_split(proc.pid) for name, proc in servers.items()}
        cpu = {name: sum(after[name]) - sum(before[name]) for name in servers}
        kernel = {name: after[name][1] - before[name][1] for name in servers}
        if "server" in servers:
            threads = {k: v - threads.get(k, 0.0) for k, v in thread_cpu(servers["server"].pid).items()}
        if pg_name:
            assert args.postgres is not None
            pg_now = set(backends(args.postgres, pg_name)) | set(pg_pids)
            # a process gone meanwhile counts for nothing (its CPU since `start` is lost: a slight undercount)
            cpu["postgres (bench db backends)"] = sum(max(0.0, cpu_seconds(p) - pg_before.get(p, 0.0)) for p in pg_now)
            every_now = set(all_postgres()) | set(every_pg)
            cpu["postgres (all processes)"] = sum(max(0.0, cpu_seconds(p) - pg_before.get(p, 0.0)) for p in every_now)
        results = []
        for p, proc in enumerate(clients_procs):
            if proc.wait(timeout=180):
                raise SystemExit(f"a client process failed with status {proc.returncode}")
            results.append(json.loads((folder / f"clients{p}.json").read_text()))
    finally:
        for proc in clients_procs:
            if proc.poll() is None:
                proc.kill()
        front = [n for n in servers if n == "server" or n.startswith("gateway")]
        stop(servers, front)
        stop(servers, [n for n in servers if n.startswith("worker")])
        stop(servers, [n for n in servers if n == "redis"])
        try:
            if table_ids:
                result["check"] = check_after(db_url, table_ids)
        finally:
            if pg_name:
                assert args.postgres is not None
                drop_database(args.postgres, pg_name)
    elapsed = end - start
    lat = sorted(x for r in results for x in r["latencies"])
    if not lat:
        raise SystemExit("no action was measured")
    errors: dict[str, int] = {}
    for r in results:
        for code, n in r["errors"].items():
            errors[code] = errors.get(code, 0) + n
    result.update(
        elapsed=elapsed,
        hands=sum(r["hands"] for r in results),
        messages=sum(r["messages"] for r in results),
        actions=len(lat),
        p50=lat[len(lat) // 2] * 1000,
        p99=lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000,
        mean=statistics.fmean(lat) * 1000,
        max=lat[-1] * 1000,
        cpu={name: seconds / elapsed for name, seconds in cpu.items()},
        kernel={name: seconds / elapsed for name, seconds in kernel.items()},
        threads={name: seconds / elapsed for name, seconds in threads.items()},
        clients=[r["cpu"] / elapsed for r in results],
        errors=errors,
        probes={name: probe_summary(path, start, end) for name, path in lag_files.items()},
    )
    return result


def lease_owners(db_url: str) -> list[int]:
    """How many tables each worker holds, most first."""
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url)
    with engine.connect() as connection:
        query = "SELECT count(*) FROM table_leases WHERE worker IS NOT NULL GROUP BY worker ORDER BY 1 DESC"
        counts = [int(n) for n in connection.execute(text(query)).scalars()]
    engine.dispose()
    return counts


def probe_summary(path: Path, start: float, end: float) -> dict[str, Any]:
    try:
        probe = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    lags = sorted(lag for at, lag in probe["lags"] if start <= at <= end)
    collections = [(g, t) for at, g, t in probe["gc"] if start <= at <= end]
    out: dict[str, Any] = {"threshold": probe.get("threshold"), "collected": probe.get("collected", 0)}
    if lags:
        out["lag"] = (lags[len(lags) // 2] * 1000, lags[int(len(lags) * 0.99)] * 1000, lags[-1] * 1000)
    pauses = sorted(t for _, t in collections)
    if pauses:
        out["gc_max"] = pauses[-1] * 1000
        out["gc_p99"] = pauses[min(len(pauses) - 1, int(len(pauses) * 0.99))] * 1000
        out["gc_total"] = sum(pauses) * 1000 / (end - start)  # ms of collection per second
    kinds = []
    for kind in sorted({g for g, _ in collections}):
        times = [t for g, t in collections if g == kind]
        kinds.append(f"{kind}: {len(times)} x {1000 * sum(times) / len(times):.1f} ms (max {1000 * max(times):.1f})")
    out["gc"] = ", ".join(kinds)
    return out


def cpu_share(result: dict[str, Any], prefix: str, key: str = "cpu") -> float:
    """The CPU (``key`` "kernel": its system time) of the processes named ``prefix...``, in cores."""
    return float(sum(v for k, v in result.get(key, {}).items() if k.startswith(prefix)))


def per_table(result: dict[str, Any], prefix: str) -> float:
    """CPU of the processes named ``prefix...``, in ms per table per second."""
    return cpu_share(result, prefix) * 1000 / result["tables"]


def per_action(result: dict[str, Any], prefix: str, key: str = "cpu") -> float:
    """CPU (``key`` "kernel": its system time) of the processes named ``prefix...``, in ms per action played."""
    return cpu_share(result, prefix, key) * 1000 * result["elapsed"] / max(1, result["actions"])


def label(args: argparse.Namespace, mode: str) -> str:
    return "single" if mode == "single" else f"{args.workers}w+{args.gateways}g"


def report(args: argparse.Namespace, r: dict[str, Any]) -> None:
    elapsed = r["elapsed"]
    client = "websockets-library" if args.websockets_client else "raw"
    db = "PostgreSQL" if args.postgres else "SQLite"
    print(f"== {label(args, r['mode'])}, {r['tables']} tables, {db}; set up in {r['setup']:.0f} s", end="")
    print(f" (tables per worker: {r['owners']})" if r["owners"] else "")
    print(
        f"{r['tables']} tables x {SEATS} clients ({args.procs} {client} client processes), {elapsed:.0f} s, "
        f"think {args.think} s: {r['hands'] / elapsed * 60:.0f} hands/minute, {r['actions']} actions "
        f"({r['actions'] / elapsed:.0f}/s), {r['messages'] / elapsed:.0f} messages/s received"
    )
    print(
        f"action-to-broadcast latency: p50 {r['p50']:.1f} ms, p99 {r['p99']:.1f} ms, "
        f"mean {r['mean']:.1f} ms, max {r['max']:.1f} ms"
    )
    parts = []
    for name, share in r["cpu"].items():
        extra = ""
        if name == "server" and r["threads"]:
            extra = (
                " ("
                + ", ".join(f"{k} {v:.0%}" for k, v in sorted(r["threads"].items(), key=lambda kv: -kv[1]) if v)
                + ")"
            )
        parts.append(f"{name} {share:.0%}{extra}")
    each = ", ".join(f"{c:.0%}" for c in r["clients"])
    print(f"CPU (of a core): {'; '.join(parts)}; clients {sum(r['clients']):.0%} ({each})")
    if r["mode"] == "single":
        print(f"CPU per table: server {per_table(r, 'server'):.2f} ms/s")
    else:
        print(f"CPU per table: workers {per_table(r, 'worker'):.2f} ms/s, gateways {per_table(r, 'gateway'):.2f} ms/s")
    roles = ["server"] if r["mode"] == "single" else ["worker", "gateway"]
    print(
        "CPU per action: "
        + ", ".join(
            f"{role}s {per_action(r, role):.3f} ms (in the kernel {per_action(r, role, 'kernel'):.3f})"
            for role in roles
        )
    )
    for name, probe in r["probes"].items():
        line = f"{name}: "
        if "lag" in probe:
            line += "event-loop lag ({:.0f} ms probe) p50 {:.1f} ms, p99 {:.1f} ms, max {:.1f} ms".format(
                LAG_PERIOD * 1000, *probe["lag"]
            )
        if probe.get("gc"):
            line += f"; garbage collections (thresholds {tuple(probe['threshold'])}) {probe['gc']}"
            line += f"; pause p99 {probe['gc_p99']:.1f} ms, max {probe['gc_max']:.1f} ms, {probe['gc_total']:.1f} ms/s"
            line += f"; {probe['collected']} objects collected in the whole run"
        print(line)
    if r["errors"]:
        print(f"errors: {r['errors']}")
    check = r.get("check", {})
    idle = check.get("tables_without_hands", [])
    print(
        f"after the run: ledger {check.get('ledger', '?')}; {check.get('finished', 0)} hands finished in all "
        f"({check.get('voided', 0)} voided), "
        + (f"{len(idle)} TABLES FINISHED NO HAND: {idle[:10]}" if idle else "every table finished hands")
    )
    if args.profile:
        print(f"profiles: {args.profile}* (python -m pstats FILE)")
    sys.stdout.flush()


def side_by_side(args: argparse.Namespace, runs: list[dict[str, Any]]) -> None:
    def fmt(r: dict[str, Any], key: str) -> str:
        e = r["elapsed"]
        probes = r["probes"]
        if key == "hands/minute":
            return f"{r['hands'] / e * 60:.0f}"
        if key == "actions/s":
            return f"{r['actions'] / e:.0f}"
        if key == "messages/s":
            return f"{r['messages'] / e:.0f}"
        if key in ("p50 ms", "p99 ms", "max ms"):
            return f"{r[key.split(maxsplit=1)[0]]:.1f}"
        if key == "CPU server/workers":
            return "+".join(f"{v:.0%}" for k, v in r["cpu"].items() if k == "server" or k.startswith("worker"))
        if key == "CPU gateways":
            return "+".join(f"{v:.0%}" for k, v in r["cpu"].items() if k.startswith("gateway")) or "-"
        if key == "CPU redis":
            return f"{r['cpu']['redis']:.0%}" if "redis" in r["cpu"] else "-"
        if key == "CPU pg (bench db)":
            return f"{r['cpu'].get('postgres (bench db backends)', 0):.0%}"
        if key == "CPU pg (all)":
            return f"{r['cpu'].get('postgres (all processes)', 0):.0%}"
        if key == "CPU clients":
            return f"{sum(r['clients']):.0%}"
        if key == "ms CPU/table/s: server|workers":
            return f"{per_table(r, 'server' if r['mode'] == 'single' else 'worker'):.2f}"
        if key == "ms CPU/table/s: gateways":
            return f"{per_table(r, 'gateway'):.2f}" if r["mode"] != "single" else "-"
        if key == "loop lag p99/max ms":
            return " ".join(f"{p['lag'][1]:.0f}/{p['lag'][2]:.0f}" for p in probes.values() if "lag" in p)
        if key == "GC pause max ms":
            return " ".join(f"{p.get('gc_max', 0):.0f}" for p in probes.values() if "lag" in p)
        if key == "setup s":
            return f"{r['setup']:.0f}"
        if key == "ledger / idle tables":
            check = r.get("check", {})
            return f"{check.get('ledger', '?')} / {len(check.get('tables_without_hands', []))}"
        if key == "errors":
            return str(sum(r["errors"].values()))
        raise KeyError(key)

    rows = [
        "hands/minute",
        "actions/s",
        "messages/s",
        "p50 ms",
        "p99 ms",
        "max ms",
        "CPU server/workers",
        "CPU gateways",
        "CPU redis",
        "CPU pg (bench db)",
        "CPU pg (all)",
        "CPU clients",
        "ms CPU/table/s: server|workers",
        "ms CPU/table/s: gateways",
        "loop lag p99/max ms",
        "GC pause max ms",
        "setup s",
        "ledger / idle tables",
        "errors",
    ]
    heads = [f"{label(args, r['mode'])} {r['tables']}" for r in runs]
    cells = [[fmt(r, key) for r in runs] for key in rows]
    width = max(len(k) for k in rows)
    cols = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(heads)]
    print(f"\n{'':{width}}  " + "  ".join(f"{h:>{w}}" for h, w in zip(heads, cols, strict=True)))
    for key, row in zip(rows, cells, strict=True):
        print(f"{key:{width}}  " + "  ".join(f"{c:>{w}}" for c, w in zip(row, cols, strict=True)))
    print(
        f"({args.seconds:.0f} s windows, think {args.think} s, between hands {args.between_hands} s, "
        f"{args.procs} client processes; CPU in % of one core; {os.cpu_count()} cores)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="100", help="tables; with --compare a list, e.g. 100,300,1000")
    parser.add_argument("--mode", choices=["single", "distributed"], default="single")
    parser.add_argument("--workers", type=int, default=2, help="table workers (distributed mode)")
    parser.add_argument("--gateways", type=int, default=1, help="gateways (distributed mode)")
    parser.add_argument(
        "--postgres",
        metavar="ADMIN_URL",
        help="run on a temporary database of this PostgreSQL (distributed and --compare: default"
        " $STUDPOKER_TEST_POSTGRES, which keeps its password off the command line)",
    )
    parser.add_argument("--compare", action="store_true", help="single vs distributed at each --tables, alternating")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to measure (after the warm-up)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of play before measuring")
    parser.add_argument("--think", type=float, default=0.2, help="seconds a client waits before acting (mean)")
    parser.add_argument("--between-hands", type=float, default=1.0, help="the server's pause after a hand")
    parser.add_argument("--lease-seconds", type=float, default=5.0, help="the workers' leases")
    parser.add_argument(
        "--bus-linger", type=float, default=None, help="the servers' bus_linger_seconds (default: the room's own)"
    )
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument("--websockets-client", action="store_true", help="use the websockets library's client")
    parser.add_argument(
        "--unbatched", action="store_true", help="one message per frame (clients that do not ask for ?batch=1)"
    )
    parser.add_argument("--profile", metavar="FILE", help="cProfile the server processes, write their stats to FILE*")
    parser.add_argument(
        "--gc-threshold",
        metavar="A,B,C",
        help="the single server's or gateways' collector thresholds after startup, in place of the room's"
        " (default: Python's own)",
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs of each (mode, tables)")
    # the subprocesses
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--clients", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--lag-file", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args)
    elif args.worker:
        work(args)
    elif args.clients:
        clients(args)
    else:
        try:
            counts = [int(t) for t in args.tables.split(",")]
        except ValueError:
            parser.error("--tables takes a number, or with --compare a list of numbers")
        if min(counts) < 1 or args.seconds <= 0 or args.procs < 1 or args.workers < 1 or args.gateways < 1:
            parser.error("--tables, --procs, --workers and --gateways must be at least 1, --seconds more than 0")
        if (args.compare or args.mode == "distributed") and not args.postgres:
            args.postgres = os.environ.get("STUDPOKER_TEST_POSTGRES")
        if (args.compare or args.mode == "distributed") and not args.postgres:
            parser.error(
                "the distributed room needs PostgreSQL: set $STUDPOKER_TEST_POSTGRES or give --postgres ADMIN_URL"
            )
        if len(counts) > 1 and not args.compare and args.repeat == 1:
            parser.error("a list of --tables is for --compare")
        modes = ["single", "distributed"] if args.compare else [args.mode]
        runs = []
        for tables in counts:
            for _ in range(args.repeat):
                for mode in modes:
                    result = run_once(args, mode, tables)
                    report(args, result)
                    runs.append(result)
        if len(runs) > 1:
            side_by_side(args, runs)


if __name__ == "__main__":
    main()
