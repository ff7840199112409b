"""``stud serve``: run the card room (the ``server`` extra) on a host and port, with a database URL."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from typing import Any

__all__ = ["add_commands"]

#: Set in the environment of the workers ``--workers N`` starts: the supervisor's pid.
SUPERVISOR = "STUDPOKER_SUPERVISOR_PID"
_SERVER_MODULES = ("fastapi", "uvicorn", "sqlalchemy", "alembic", "argon2", "zxcvbn")


def missing_server_extra(command: str) -> bool:
    """Whether the ``server`` extra is missing; if so, says so for ``stud COMMAND`` on stderr (one line)."""
    if all(importlib.util.find_spec(name) is not None for name in _SERVER_MODULES):
        return False
    print(f"stud {command} needs the server extra: pip install 'studpoker[server]'", file=sys.stderr)
    return True


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser(
        "serve",
        help="run the web card room",
        description="Run the card room: lobby, tables with bots, accounts and the chip ledger, on http://HOST:PORT.",
        epilog="example: stud serve --port 8000 --db sqlite:///./studpoker.db",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help="SQLAlchemy database URL, or a SQLite file path (default sqlite:///./studpoker.db;"
        " PostgreSQL: postgresql+psycopg://user:password@host/name)",
    )
    serve.add_argument("--clock", type=float, default=15.0, metavar="SECONDS", help="action clock (default 15)")
    serve.add_argument("--time-bank", type=float, default=30.0, metavar="SECONDS", help="time bank (default 30)")
    serve.add_argument("--between-hands", type=float, default=2.0, metavar="SECONDS", help="pause after a hand")
    serve.add_argument(
        "--showdown-seconds",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="pause after a hand shown down, 0 to 30: the default of new tables (default 5)",
    )
    serve.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS", help="how long bots think")
    serve.add_argument("--starting-balance", type=int, default=10_000, metavar="CHIPS", help="play money per account")
    serve.add_argument("--no-default-table", action="store_true", help="do not create the Stud 10/20 table with bots")
    serve.add_argument("--no-training-tables", action="store_true", help="no table may be opened as a training table")
    serve.add_argument(
        "--secure-cookies", action="store_true", help="mark the cookies Secure and send HSTS (behind HTTPS)"
    )
    serve.add_argument(
        "--origin",
        action="append",
        default=[],
        metavar="URL",
        help="a public origin of the room besides the Host it is reached at, e.g. https://cards.example.org"
        " (behind a proxy that rewrites Host; repeatable)",
    )
    serve.add_argument(
        "--proxy-headers",
        metavar="ADDRESSES",
        default=None,
        help="trust X-Forwarded-For/-Proto from these proxy addresses (comma-separated; for login and sign-up"
        " limits per client address)",
    )
    serve.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    cluster = serve.add_argument_group(
        "the room on several processes (docs/server.md): PostgreSQL for --db, Redis between the processes"
    )
    cluster.add_argument(
        "--redis", metavar="URL", default=None, help="the Redis the processes talk over, e.g. redis://127.0.0.1:6379/0"
    )
    cluster.add_argument(
        "--role",
        choices=["all", "gateway", "worker"],
        default=None,
        help="gateway: HTTP and sockets on --host/--port; worker: drive tables; all (the default with --redis):"
        " a gateway here and --workers table workers beside it",
    )
    cluster.add_argument(
        "--workers", type=int, default=1, metavar="N", help="table worker processes to run (default 1; 1 to 64)"
    )
    cluster.add_argument(
        "--lease-seconds",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="a table worker's lease: another takes its tables this long after it died (default 5; 1 to 600)",
    )
    cluster.add_argument(
        "--drain-seconds",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="on SIGTERM a worker deals no new hand and waits this long for the hands in play (default 60)",
    )
    serve.set_defaults(run=_serve)


def _db_url(value: str | None) -> str:
    from ..server.config import DEFAULT_DB_URL

    if value is None:
        return DEFAULT_DB_URL
    return value if "://" in value else f"sqlite:///{value}"


def _serve(args: argparse.Namespace) -> int:
    if missing_server_extra("serve"):
        return 2
    import uvicorn

    from ..server.app import UVICORN_OPTIONS, create_app
    from ..server.config import Settings
    from ..server.db import check_database, safe_url
    from ..server.security import origin_key

    for origin in args.origin:
        if not origin_key(origin):
            print(
                f"stud serve: error: --origin {origin!r} is not an origin such as https://cards.example.org",
                file=sys.stderr,
            )
            return 2
    try:
        settings = Settings(
            db_url=_db_url(args.db),
            action_seconds=args.clock,
            time_bank=args.time_bank,
            between_hands=args.between_hands,
            showdown_seconds=args.showdown_seconds,
            bot_delay=args.bot_delay,
            starting_balance=args.starting_balance,
            default_table=not args.no_default_table,
            training_tables=not args.no_training_tables,
            secure_cookies=args.secure_cookies,
            allowed_origins=tuple(args.origin),
        )
    except ValueError as error:
        print(f"stud serve: error: {error}", file=sys.stderr)
        return 2
    if not 0 < args.port < 65536:
        print(f"stud serve: error: no port {args.port}", file=sys.stderr)
        return 2
    if args.redis is None and (args.role is not None or args.workers != 1):
        print(
            "stud serve: error: --role and --workers run the room on several processes: give --redis URL",
            file=sys.stderr,
        )
        return 2
    problem = None if args.redis is None else _check_cluster(args, settings.db_url)
    problem = problem or check_database(settings.db_url)
    if problem is not None:
        print(f"stud serve: error: {problem}", file=sys.stderr)
        return 2
    if args.redis is not None:
        return _serve_distributed(args, settings)
    shown = safe_url(settings.db_url)
    print(f"studpoker card room on http://{args.host}:{args.port} (database {shown})", file=sys.stderr)
    proxy = {"proxy_headers": True, "forwarded_allow_ips": args.proxy_headers} if args.proxy_headers else {}
    try:
        uvicorn.run(
            create_app(settings), host=args.host, port=args.port, log_level=args.log_level, **UVICORN_OPTIONS, **proxy
        )
    except OSError as error:
        print(f"stud serve: error: {error}", file=sys.stderr)
        return 1
    return 0


def _serve_distributed(args: argparse.Namespace, settings: Any) -> int:
    """``stud serve --redis URL``: a gateway, table workers, or both (``--role all``)."""
    import dataclasses

    from ..server.db import safe_url

    try:
        settings = dataclasses.replace(settings, redis_url=args.redis, lease_seconds=args.lease_seconds)
    except ValueError as error:
        print(f"stud serve: error: {error}", file=sys.stderr)
        return 2
    role = args.role or "all"
    _log_to_stderr(args.log_level)
    if role == "worker":
        if args.workers == 1:
            return _run_worker(settings, args.drain_seconds)
        return _supervise(_worker_command(args), args.workers, None)
    shown = safe_url(settings.db_url)
    print(
        f"studpoker card room gateway on http://{args.host}:{args.port}"
        f" (database {shown}, bus {_safe_redis(args.redis)})",
        file=sys.stderr,
    )
    if role == "all":
        return _supervise(_worker_command(args), args.workers, lambda: _run_gateway(args, settings))
    return _run_gateway(args, settings)


def _check_cluster(args: argparse.Namespace, db_url: str) -> str | None:
    """What is wrong with the options of the distributed room, in one line, or ``None``."""
    if not 1 <= args.workers <= 64:
        return f"--workers must be 1 to 64, got {args.workers}"
    if not 0 <= args.drain_seconds <= 3600:
        return f"--drain-seconds must be 0 to 3600, got {args.drain_seconds:g}"
    if not db_url.startswith("postgresql"):
        return "the room on several processes keeps its leases in PostgreSQL: give --db postgresql+psycopg://..."
    try:
        import redis
    except ImportError:
        return "--redis needs the cluster extra: pip install 'studpoker[cluster]'"
    try:
        client = redis.Redis.from_url(args.redis, socket_connect_timeout=3)
        client.ping()
        client.close()
    except (ValueError, redis.RedisError) as error:
        return f"cannot use Redis at {_safe_redis(args.redis)}: {str(error).splitlines()[0][:200]}"
    return None


def _safe_redis(url: str) -> str:
    """A Redis URL fit to print: without its password."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(url)
        if parts.password:
            host = parts.hostname or ""
            user = f"{parts.username}:***@" if parts.username else ":***@"
            netloc = user + host + (f":{parts.port}" if parts.port else "")
            parts = parts._replace(netloc=netloc)
        return urlunsplit(parts)
    except ValueError:
        return "(a URL that does not parse)"


def _log_to_stderr(level: str) -> None:
    import logging

    logging.basicConfig(level=level.upper(), format="%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s")


def _run_worker(settings: Any, drain_seconds: float) -> int:
    import asyncio

    if not _die_with_parent():
        print("stud serve: error: the process that started this table worker has gone", file=sys.stderr)
        return 1
    from ..server.worker import run_worker

    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(run_worker(settings, drain_seconds))
    return 0


def _run_gateway(args: argparse.Namespace, settings: Any) -> int:
    import uvicorn

    from ..server.app import UVICORN_OPTIONS, create_app

    proxy = {"proxy_headers": True, "forwarded_allow_ips": args.proxy_headers} if args.proxy_headers else {}
    try:
        uvicorn.run(
            create_app(settings), host=args.host, port=args.port, log_level=args.log_level, **UVICORN_OPTIONS, **proxy
        )
    except OSError as error:
        print(f"stud serve: error: {error}", file=sys.stderr)
        return 1
    return 0


def _worker_command(args: argparse.Namespace) -> list[str]:
    """The command line of one table worker with this one's options."""
    command = [sys.executable, "-m", "studpoker", "serve", "--role", "worker", "--workers", "1"]
    command += ["--db", args.db, "--redis", args.redis, "--lease-seconds", str(args.lease_seconds)]
    command += ["--drain-seconds", str(args.drain_seconds), "--log-level", args.log_level]
    command += ["--clock", str(args.clock), "--time-bank", str(args.time_bank)]
    command += ["--between-hands", str(args.between_hands), "--showdown-seconds", str(args.showdown_seconds)]
    command += ["--bot-delay", str(args.bot_delay), "--starting-balance", str(args.starting_balance)]
    if args.no_training_tables:
        command.append("--no-training-tables")
    return command


def _supervise(command: list[str], count: int, main: Any) -> int:
    """Run ``count`` processes of ``command`` (started again, after a second, when one dies) beside ``main()``
    (or until SIGTERM/SIGINT when there is none); then stop them with SIGTERM (they drain) and wait."""
    import os
    import signal
    import subprocess
    import threading
    import time

    stopping = threading.Event()

    environment = {**os.environ, SUPERVISOR: str(os.getpid())}

    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(command, env=environment)

    # uvicorn raises the signal that stopped it again once it has shut down: with Python's default handler that
    # would end this process before its children are stopped
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: None)
    children: list[subprocess.Popen[bytes]] = [start() for _ in range(count)]

    def watch() -> None:
        while not stopping.wait(1.0):
            for i, child in enumerate(children):
                if child.poll() is not None and not stopping.is_set():
                    print(
                        f"stud serve: table worker {child.pid} ended ({child.returncode}); starting another",
                        file=sys.stderr,
                    )
                    children[i] = start()

    watcher = threading.Thread(target=watch, name="worker-supervisor", daemon=True)
    watcher.start()
    code = 0
    try:
        if main is not None:
            code = main()
        else:
            done = threading.Event()
            for signum in (signal.SIGTERM, signal.SIGINT):
                signal.signal(signum, lambda *_: done.set())
            while not done.wait(1.0):
                pass
    finally:
        stopping.set()
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 90
        for child in children:
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
    return code


def _die_with_parent() -> bool:
    """In a worker that ``stud serve --workers N`` started: ask Linux for SIGTERM (a drain) when the supervisor
    dies, even of SIGKILL; ``False`` if it is already gone (then the worker does not start)."""
    import ctypes
    import os
    import signal

    supervisor = os.environ.get(SUPERVISOR)
    if not supervisor:
        return True
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    return str(os.getppid()) == supervisor
