"""Load test of the card room: N tables of 6 bot clients over WebSockets against one local server.

The server runs in a subprocess on 127.0.0.1 and a free port, with a fresh SQLite database in a temporary
folder; nothing leaves the loopback interface. It is the app of ``stud serve`` (``create_app``) under uvicorn with
the same options ``stud serve`` uses (uvloop, httptools and the websockets implementation when installed), plus a
probe of its event loop's lag (a task that asks to wake every 5 ms and records how late it wakes).

The bench seeds 6 accounts per table (with a cheap argon2 setting, only here), sits them down over HTTP, and
runs the clients in ``--procs`` processes (so the clients are not the bottleneck on a machine with one server
process). Each client is one WebSocket of a seated account; it answers its ``your_turn`` after ``--think``
seconds (0.5 to 1.5 times it) with a simple policy (check or call, sometimes fold, sometimes raise). The clients
are minimal: a raw RFC 6455 client on an asyncio protocol that decodes only the frames it needs (``your_turn``,
its own ``action``, ``error``), by the ``type`` the server puts first in every message. ``--websockets-client``
uses the ``websockets`` library instead (and decodes every message), which costs about three times the CPU.

It reports, over ``--seconds`` of steady state: hands per minute, actions per second, messages received per
second, the action-to-broadcast latency (from a client writing its ``act`` to the socket, to the same client
reading the ``action`` message of that turn from its socket: p50, p99, max), the CPU used by the server process
(and by its threads) and by the client processes, and the server's event-loop lag.

    python bench/load.py --tables 10 --seconds 20
    python bench/load.py                       # 100 tables of 6, 30 seconds, 2 client processes
    python bench/load.py --profile server.prof # and cProfile the server (python -m pstats server.prof)
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import concurrent.futures
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

SEATS = 6
LAG_PERIOD = 0.005


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def seed_accounts(db_url: str, count: int) -> list[str]:
    """Create ``count`` accounts with sessions straight in the database; returns their cookie tokens."""
    from studpoker.server.auth import Passwords, create_account, new_session
    from studpoker.server.db import Database

    db = Database(db_url)
    db.migrate()
    hasher = Passwords(time_cost=1, memory_kib=1024)
    hashed = hasher.hash("bench-password")

    def work(session: Any) -> list[str]:
        tokens = []
        for i in range(count):
            account = create_account(session, f"bench{i}", hashed, 10_000)
            tokens.append(new_session(session, account.id))
        return tokens

    tokens = db.transaction(work)
    db.close()
    return tokens


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
    """User + system CPU seconds of a process so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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


# -- the server process ------------------------------------------------------------------------------------


def serve(args: argparse.Namespace) -> None:
    """The server subprocess: ``stud serve``'s app and uvicorn options, plus the loop-lag probe (and cProfile)."""
    import uvicorn

    from studpoker.server.app import create_app
    from studpoker.server.config import Settings

    settings = Settings(
        db_url=args.db,
        action_seconds=30.0,
        between_hands=args.between_hands,
        showdown_seconds=args.between_hands,  # the bench measures the server, not the players' pause to look
        default_table=False,
        max_sockets_per_address=100_000,  # every client is on 127.0.0.1
    )
    config = uvicorn.Config(
        create_app(settings), host="127.0.0.1", port=args.port, ws_max_size=65536, log_level="warning"
    )
    server = uvicorn.Server(config)
    lags: list[tuple[float, float]] = []
    pauses: list[tuple[float, str, float]] = []  # garbage collections: when, generation, seconds
    collecting: list[float] = [0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collecting[0] = time.perf_counter()
        else:
            where = "" if threading.current_thread() is threading.main_thread() else " (other thread)"
            pauses.append((time.time(), f"gen{info['generation']}{where}", time.perf_counter() - collecting[0]))

    gc.callbacks.append(on_gc)

    async def probe() -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(LAG_PERIOD)
            lags.append((time.time(), loop.time() - before - LAG_PERIOD))

    async def main() -> None:
        # uvicorn raises the stop signal again once it has shut down: let it return here instead
        signal.signal(signal.SIGTERM, lambda *_: None)
        task = asyncio.create_task(probe())
        await server.serve()
        task.cancel()

    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    from uvicorn._compat import asyncio_run

    asyncio_run(main(), loop_factory=config.get_loop_factory())
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    Path(args.lag_file).write_text(json.dumps({"lags": lags, "gc": pauses}))


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
    return dict(next(kinds[k] for k in ("check", "call", "bring-in", "complete", "bet", "raise") if k in kinds))


_ACTION = b'{"type":"action",'
_YOUR_TURN = b'{"type":"your_turn",'
_HAND_OVER = b'{"type":"hand_over",'
_ERROR = b'{"type":"error",'


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
            self.loop.call_later(self.think * (0.5 + self.rng.random()), self.answer, turn)
        elif payload.startswith(_HAND_OVER):
            if self.counts_hands:
                counters.hands += 1
        elif payload.startswith(_ERROR):
            code = json.loads(payload)["code"]
            counters.errors[code] = counters.errors.get(code, 0) + 1

    def answer(self, turn: dict[str, Any]) -> None:
        message = json.dumps({"type": "act", "hand": turn["hand"], "seq": turn["seq"], **choose(turn, self.rng)})
        self.pending[(turn["hand"], turn["seq"])] = time.perf_counter()
        self.send_frame(1, message.encode())

    def stop(self) -> None:
        self.send_frame(0x8, (1000).to_bytes(2, "big"))


async def websockets_player(
    uri: str, token: str, counts_hands: bool, counters: Counters, stop: asyncio.Event, think: float
) -> None:
    """The same seat with the ``websockets`` library, decoding every message (``--websockets-client``)."""
    import websockets

    rng = random.Random(token)
    pending: dict[tuple[int, int], float] = {}
    async with websockets.connect(uri, additional_headers={"Cookie": f"studpoker_session={token}"}) as ws:

        async def answer(turn: dict[str, Any]) -> None:
            await asyncio.sleep(think * (0.5 + rng.random()))
            pending[(turn["hand"], turn["seq"])] = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "hand": turn["hand"], "seq": turn["seq"], **choose(turn, rng)}))

        tasks: set[asyncio.Task[None]] = set()
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            now = time.perf_counter()
            counters.messages += 1
            message = json.loads(raw)
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
    port, think = job["port"], job["think"]
    raw: list[RawClient] = []
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    for table_id, token, counts in job["seats"]:
        path = f"/ws/table/{table_id}"
        if job["websockets"]:
            uri = f"ws://127.0.0.1:{port}{path}"
            tasks.append(asyncio.create_task(websockets_player(uri, token, counts, counters, stop, think)))
        else:
            _, client = await loop.create_connection(
                lambda path=path, token=token, counts=counts: RawClient(
                    "127.0.0.1", port, path, token, counts, counters, think
                ),
                "127.0.0.1",
                port,
            )
            await client.ready
            raw.append(client)
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
    job = json.loads(sys.stdin.read())
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    result = asyncio.run(client_main(job))
    Path(job["out"]).write_text(json.dumps(result))


# -- the conductor ---------------------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="studpoker-load-"))
    db_url = f"sqlite:///{folder / 'load.db'}"
    lag_file = folder / "lag.json"
    tokens = seed_accounts(db_url, args.tables * SEATS)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, __file__, "--serve", "--port", str(port), "--db", db_url, "--lag-file", str(lag_file)]
    command += ["--between-hands", str(args.between_hands)]
    if args.profile:
        command += ["--profile", str(Path(args.profile).resolve())]
    server = subprocess.Popen(command, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    procs: list[subprocess.Popen[str]] = []
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/tables", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit("the server did not start")
        table_ids = [
            http(
                base,
                "POST",
                "/api/tables",
                tokens[t * SEATS],
                {"variant": "STUD7", "small_bet": 10, "name": f"Load {t}"},
            )["id"]
            for t in range(args.tables)
        ]
        seats = [(table_ids[i // SEATS], token, i % SEATS == 0) for i, token in enumerate(tokens)]
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            list(
                pool.map(
                    lambda s: http(base, "POST", f"/api/tables/{s[0]}/sit", s[1], {"buy_in": 2000}),
                    seats,
                )
            )
        # the clients connect, then play; measure from `start` (hands are under way by then) to `end`
        start = time.time() + args.warmup + 0.01 * len(seats) / args.procs
        end = start + args.seconds
        for p in range(args.procs):
            job = {
                "port": port,
                "think": args.think,
                "websockets": args.websockets_client,
                "start": start,
                "end": end,
                "seats": seats[p :: args.procs],
                "out": str(folder / f"clients{p}.json"),
            }
            proc = subprocess.Popen([sys.executable, __file__, "--clients"], stdin=subprocess.PIPE, text=True)
            assert proc.stdin is not None
            proc.stdin.write(json.dumps(job))
            proc.stdin.close()
            procs.append(proc)
        time.sleep(max(0.0, start - time.time()))
        server_cpu, server_threads = cpu_seconds(server.pid), thread_cpu(server.pid)
        time.sleep(max(0.0, end - time.time()))
        server_cpu = cpu_seconds(server.pid) - server_cpu
        server_threads = {k: v - server_threads.get(k, 0.0) for k, v in thread_cpu(server.pid).items()}
        played = sum(
            t["hands_played"] for t in json.loads(urllib.request.urlopen(base + "/api/tables").read())["tables"]
        )
        results = []
        for p, proc in enumerate(procs):
            if proc.wait(timeout=120):
                raise SystemExit(f"a client process failed with status {proc.returncode}")
            results.append(json.loads((folder / f"clients{p}.json").read_text()))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
        server.terminate()
        server.wait(timeout=60)
    elapsed = end - start
    lat = sorted(x for r in results for x in r["latencies"])
    if not lat:
        raise SystemExit("no action was measured")
    hands = sum(r["hands"] for r in results)
    messages = sum(r["messages"] for r in results)
    client_cpu = sum(r["cpu"] for r in results)
    errors: dict[str, int] = {}
    for r in results:
        for code, n in r["errors"].items():
            errors[code] = errors.get(code, 0) + n
    p50 = lat[len(lat) // 2] * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    client = "websockets-library" if args.websockets_client else "raw"
    print(f"server: {played} hands finished in all")
    print(
        f"{args.tables} tables x {SEATS} clients ({args.procs} {client} client processes), {elapsed:.0f} s, "
        f"think {args.think} s: {hands / elapsed * 60:.0f} hands/minute, {len(lat)} actions "
        f"({len(lat) / elapsed:.0f}/s), {messages / elapsed:.0f} messages/s received"
    )
    print(
        f"action-to-broadcast latency: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
        f"mean {statistics.fmean(lat) * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms"
    )
    threads = ", ".join(f"{k} {v / elapsed:.0%}" for k, v in sorted(server_threads.items(), key=lambda kv: -kv[1]) if v)
    each = ", ".join(f"{r['cpu'] / elapsed:.0%}" for r in results)
    print(f"CPU: server {server_cpu / elapsed:.0%} of a core ({threads}); clients {client_cpu / elapsed:.0%} ({each})")
    try:
        probe = json.loads(lag_file.read_text())
    except (OSError, ValueError):
        probe = {"lags": [], "gc": []}
    samples = sorted(lag for at, lag in probe["lags"] if start <= at <= end)
    collections = [(g, t) for at, g, t in probe["gc"] if start <= at <= end]
    if collections:
        kinds = sorted({g for g, _ in collections})
        gens = []
        for kind in kinds:
            times = [t for g, t in collections if g == kind]
            gens.append(f"{kind}: {len(times)} x {1000 * sum(times) / len(times):.1f} ms (max {1000 * max(times):.1f})")
        print(f"server garbage collections: {', '.join(gens)}")
    if samples:
        print(
            f"server event-loop lag ({LAG_PERIOD * 1000:.0f} ms probe): "
            f"p50 {samples[len(samples) // 2] * 1000:.1f} ms, p99 {samples[int(len(samples) * 0.99)] * 1000:.1f} ms, "
            f"max {samples[-1] * 1000:.1f} ms"
        )
    if errors:
        print(f"errors: {errors}")
    if args.profile:
        print(f"server profile: {args.profile} (python -m pstats {args.profile})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to measure (after the warm-up)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of play before measuring")
    parser.add_argument("--think", type=float, default=0.2, help="seconds a client waits before acting (mean)")
    parser.add_argument("--between-hands", type=float, default=1.0, help="the server's pause after a hand")
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument("--websockets-client", action="store_true", help="use the websockets library's client")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile, write its stats to FILE")
    # the subprocesses
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--clients", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--lag-file", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args)
    elif args.clients:
        clients(args)
    else:
        if args.tables < 1 or args.seconds <= 0 or args.procs < 1:
            parser.error("--tables and --procs must be at least 1, --seconds more than 0")
        run(args)


if __name__ == "__main__":
    main()
