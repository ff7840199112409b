"""``stud serve``: run the card room (the ``server`` extra) on a host and port, with a database URL.

The database URL and the Redis URL may hold passwords, and a command line is readable by every user of the host
(``ps``, ``/proc/PID/cmdline``): each is taken from ``--db``/``--redis``, a file (``--db-file``, ``--redis-file``:
a Docker or Kubernetes secret) or the environment (:data:`DB_URL_ENV`, :data:`REDIS_URL_ENV`), and one with a
password on the command line is refused (:func:`secret_url`; docs/server.md).
"""

from __future__ import annotations

import argparse
import errno
import importlib.util
import socket
import sys
from typing import Any

from .._extras import install_hint
from .options import UsageError

__all__ = [
    "DB_URL_ENV",
    "REDIS_URL_ENV",
    "add_commands",
    "add_database_options",
    "database_url",
    "has_password",
    "secret_url",
]

#: Set in the environment of the workers ``--workers N`` starts: the supervisor's pid.
SUPERVISOR = "STUDPOKER_SUPERVISOR_PID"
#: The environment variables that give the database URL and the Redis URL when no option does.
DB_URL_ENV = "STUDPOKER_DB_URL"
REDIS_URL_ENV = "STUDPOKER_REDIS_URL"
#: The longest file of :func:`secret_url` (a URL, with room to spare).
URL_FILE_LIMIT = 64 * 1024
_SERVER_MODULES = ("fastapi", "uvicorn", "sqlalchemy", "alembic", "argon2", "zxcvbn")


def missing_server_extra(command: str) -> bool:
    """Whether the ``server`` extra is missing; if so, says so for ``stud COMMAND`` on stderr (one line)."""
    if all(importlib.util.find_spec(name) is not None for name in _SERVER_MODULES):
        return False
    print(f"stud {command} needs the card room's packages, {install_hint('server')}", file=sys.stderr)
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
    add_database_options(serve)
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
    serve.add_argument(
        "--tournament-time-scale",
        type=float,
        default=1.0,
        metavar="FACTOR",
        help="run the tournaments' clocks this much faster (1 to 100000; 600: a 10-minute level a second, for demos)",
    )
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
        help="believe X-Forwarded-For/-Proto from these reverse proxies only (addresses or networks,"
        " comma-separated, e.g. 127.0.0.1 or 10.0.0.0/8): the limits per address then count the client's address"
        " the proxy forwards, and the scheme is the one it was reached by (default: nobody's)",
    )
    serve.add_argument(
        "--request-seconds",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="a request's head must arrive within this long of the connection's start (or of the last answer on"
        " it), and its body as long again; slower clients are cut off (default 10)",
    )
    serve.add_argument(
        "--connections-per-address",
        type=int,
        default=64,
        metavar="N",
        help="connections (HTTP and WebSocket) one client address may hold; more are answered 429 (default 64;"
        " a --proxy-headers proxy's are not counted)",
    )
    serve.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="the least severe log records written to standard error, the room's and uvicorn's (default info)",
    )
    cluster = serve.add_argument_group(
        "the room on several processes (docs/server.md): PostgreSQL for --db, Redis between the processes"
    )
    bus = cluster.add_mutually_exclusive_group()
    bus.add_argument(
        "--redis",
        metavar="URL",
        default=None,
        help=f"the Redis the processes talk over (default ${REDIS_URL_ENV}); a URL with a password,"
        f" redis://user:password@10.0.0.5:6379/0, is refused here (ps shows it): give it in ${REDIS_URL_ENV}"
        " or --redis-file",
    )
    bus.add_argument(
        "--redis-file", metavar="PATH", help="read the Redis URL from this file (a Docker or Kubernetes secret)"
    )
    cluster.add_argument(
        "--redis-allow-unauthenticated",
        action="store_true",
        help="use a Redis that lets in clients without a password (refused unless given: whoever reaches it could"
        " act for any player and read every card)",
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
    serve.set_defaults(run=_serve_with_urls)


def add_database_options(parser: argparse.ArgumentParser) -> None:
    """``--db URL`` or ``--db-file PATH`` (one of them; without either, ``$STUDPOKER_DB_URL``): see
    :func:`database_url`."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help=f"SQLAlchemy database URL, or a SQLite file path (default ${DB_URL_ENV}, else sqlite:///./studpoker.db);"
        f" a URL with a password, postgresql+psycopg://user:password@host/name, is refused here (ps shows it):"
        f" give it in ${DB_URL_ENV} or --db-file",
    )
    group.add_argument(
        "--db-file", metavar="PATH", help="read the database URL from this file (a Docker or Kubernetes secret)"
    )


def database_url(args: argparse.Namespace) -> str:
    """The database URL of ``--db``, ``--db-file`` or ``$STUDPOKER_DB_URL`` (the default SQLite file without
    any); raises :class:`UsageError` as :func:`secret_url` does."""
    return _db_url(secret_url("--db", args.db, args.db_file, DB_URL_ENV))


def secret_url(option: str, value: str | None, path: str | None, variable: str) -> str | None:
    """The URL of ``OPTION URL``, else of the file of ``OPTION-file PATH``, else of ``$VARIABLE``; ``None``
    without any. Raises :class:`UsageError` (one line, never the URL) for a URL with a password on the command
    line (refused rather than warned of: by the time it is read, ``ps`` and the shell's history have shown it),
    for a file that cannot be read or that does not hold one line, and for an empty ``$VARIABLE``."""
    import os

    if value is not None:
        if has_password(value):
            raise UsageError(
                f"{option} holds a password, which the command line shows to every user of this host (ps):"
                f" give the URL in ${variable} or in a file ({option}-file PATH)"
            )
        return value
    if path is not None:
        try:
            with open(path, encoding="utf-8") as file:
                text = file.read(URL_FILE_LIMIT + 1)
        except OSError as error:
            raise UsageError(f"cannot read {option}-file {path}: {error.strerror or error}") from None
        except UnicodeDecodeError:
            raise UsageError(f"{option}-file {path} is not UTF-8 text") from None
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if len(text) > URL_FILE_LIMIT or len(lines) != 1:
            raise UsageError(f"{option}-file {path} must hold one line: the URL")
        return lines[0]
    found = os.environ.get(variable)
    if found is not None and not found.strip():
        raise UsageError(f"${variable} is set but empty: give the URL, or unset it")
    return None if found is None else found.strip()


def has_password(url: str) -> bool:
    """Whether a URL holds a password: after its user name (``scheme://user:password@host``) or as a
    ``password`` parameter. A plain path (a SQLite file) holds none.

    >>> has_password("postgresql+psycopg://stud:pw@db/room"), has_password("redis://:pw@10.0.0.5:6379/0")
    (True, True)
    >>> has_password("postgresql+psycopg:///room?host=/run/postgresql&password=pw")
    True
    >>> has_password("postgresql+psycopg://stud@db/room"), has_password("redis://10.0.0.5/0")
    (False, False)
    >>> has_password("room.db"), has_password("sqlite:///./studpoker.db"), has_password("sqlite:////srv/a:b@c.db")
    (False, False, False)
    """
    from urllib.parse import parse_qsl

    _, sep, rest = url.partition("://")
    if not sep:
        return False
    before_query, _, query = rest.partition("?")
    user = before_query.rpartition("@")[0] if not before_query.startswith("/") else ""
    if ":" in user:
        return True
    return any(key.lower() == "password" for key, _ in parse_qsl(query.partition("#")[0], keep_blank_values=True))


def _serve_with_urls(args: argparse.Namespace) -> int:
    """``stud serve`` with ``args.db`` and ``args.redis`` taken from where they may come from (:func:`secret_url`)."""
    args.db = secret_url("--db", args.db, args.db_file, DB_URL_ENV)
    args.redis = secret_url("--redis", args.redis, args.redis_file, REDIS_URL_ENV)
    return _serve(args)


def _proxies(value: str | None) -> tuple[str, ...]:
    """``--proxy-headers``' comma-separated addresses (``Settings`` says which one is not an address)."""
    return () if value is None else tuple(part.strip() for part in value.split(","))


def _db_url(value: str | None) -> str:
    from ..server.config import DEFAULT_DB_URL

    if value is None:
        return DEFAULT_DB_URL
    return value if "://" in value else f"sqlite:///{value}"


def _serve(args: argparse.Namespace) -> int:
    if missing_server_extra("serve"):
        return 2
    import uvicorn

    from ..server.app import create_app
    from ..server.config import Settings
    from ..server.db import check_database, safe_url
    from ..server.edge import uvicorn_options
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
            tournament_time_scale=args.tournament_time_scale,
            default_table=not args.no_default_table,
            training_tables=not args.no_training_tables,
            secure_cookies=args.secure_cookies,
            allowed_origins=tuple(args.origin),
            trusted_proxies=_proxies(args.proxy_headers),
            request_seconds=args.request_seconds,
            max_connections_per_address=args.connections_per_address,
        )
    except ValueError as error:
        print(f"stud serve: error: {_in_option_words(str(error))}", file=sys.stderr)
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
    listens = args.role != "worker"
    problem = _check_port(args.host, args.port) if listens else None  # before the banner and the migrations
    problem = problem or (None if args.redis is None else _check_cluster(args, settings.db_url))
    problem = problem or check_database(settings.db_url)
    if problem is not None:
        print(f"stud serve: error: {problem}", file=sys.stderr)
        return 2
    if args.redis is not None:
        return _serve_distributed(args, settings)
    shown = safe_url(settings.db_url)
    print(f"studpoker card room on http://{args.host}:{args.port} (database {shown})", file=sys.stderr)
    try:
        uvicorn.run(
            create_app(settings), host=args.host, port=args.port, log_level=args.log_level, **uvicorn_options(settings)
        )
    except OSError as error:
        print(f"stud serve: error: {error}", file=sys.stderr)
        return 1
    return 0


#: The settings ``stud serve`` sets from an option, by the option's name: a refusal names what the user typed.
_OPTION_OF = {
    "action_seconds": "--clock",
    "time_bank": "--time-bank",
    "between_hands": "--between-hands",
    "showdown_seconds": "--showdown-seconds",
    "bot_delay": "--bot-delay",
    "starting_balance": "--starting-balance",
    "tournament_time_scale": "--tournament-time-scale",
    "trusted_proxies": "--proxy-headers",
    "request_seconds": "--request-seconds",
    "max_connections_per_address": "--connections-per-address",
    "lease_seconds": "--lease-seconds",
}


def _in_option_words(message: str) -> str:
    """``Settings``' refusal with the setting's name replaced by the option that set it (``--clock must be ...``)."""
    name, space, rest = message.partition(" ")
    return f"{_OPTION_OF[name]}{space}{rest}" if name in _OPTION_OF else message


def _check_port(host: str, port: int) -> str | None:
    """Why the room could not listen on ``host:port`` (taken, not an address of this machine, not allowed), or None:
    a test bind as uvicorn's (with ``SO_REUSEADDR``), closed again at once."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        return f"cannot listen on {host}:{port}: {host!r} is not a name or address of this machine ({error})"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            where = f"cannot listen on {host}:{port}"
            if error.errno == errno.EADDRINUSE:
                return f"{where}: the port is in use (another stud serve?): choose one with --port"
            if error.errno == errno.EACCES:
                return f"{where}: not allowed (ports below 1024 need privileges): choose one with --port"
            return f"{where}: {error.strerror or error}"
    return None


def _serve_distributed(args: argparse.Namespace, settings: Any) -> int:
    """``stud serve --redis URL``: a gateway, table workers, or both (``--role all``)."""
    import dataclasses

    from ..server.db import safe_url

    try:
        settings = dataclasses.replace(
            settings,
            redis_url=args.redis,
            redis_allow_unauthenticated=args.redis_allow_unauthenticated,
            lease_seconds=args.lease_seconds,
        )
    except ValueError as error:
        print(f"stud serve: error: {_in_option_words(str(error))}", file=sys.stderr)
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
        return f"--redis needs the redis package, {install_hint('cluster')}"
    try:
        client = redis.Redis.from_url(args.redis, socket_connect_timeout=3)
        client.ping()
        client.close()
    except (ValueError, redis.RedisError) as error:
        return f"cannot use Redis at {_safe_redis(args.redis)}: {_first_line(error)}"
    return _check_redis_asks_for_a_password(args)


def _check_redis_asks_for_a_password(args: argparse.Namespace) -> str | None:
    """Refuse (one line) a Redis that lets in clients without a password, unless ``--redis-allow-unauthenticated``
    (then a warning): whoever reaches it could act for any player. The bus checks again on every connection."""
    import asyncio

    from ..server.bus import answers_without_password

    shown = _safe_redis(args.redis)
    try:
        answer = asyncio.run(answers_without_password(args.redis))
    except Exception as error:  # redis-py's errors, a timeout, a URL it cannot use
        return f"cannot ask Redis at {shown} whether it lets in clients without a password: {_first_line(error)}"
    if answer is None:
        return None
    if not args.redis_allow_unauthenticated:
        return (
            f"Redis at {shown} lets in clients without a password (it answered {answer}), so anyone who reaches it"
            " could act for any player: give it a password (requirepass or an ACL user, docs/server.md) and the"
            f" URL with it in ${REDIS_URL_ENV} or --redis-file, or run with --redis-allow-unauthenticated"
        )
    print(
        f"stud serve: warning: Redis at {shown} lets in clients without a password (it answered {answer}):"
        " anyone who reaches it could act for any player (--redis-allow-unauthenticated)",
        file=sys.stderr,
    )
    return None


def _first_line(error: BaseException) -> str:
    return (str(error).splitlines() or [type(error).__name__])[0][:200]


def _safe_redis(url: str) -> str:
    """A Redis URL fit to print: its password replaced by ``***``."""
    from ..server.bus import safe_url

    return safe_url(url)


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

    from ..server.app import create_app
    from ..server.edge import uvicorn_options

    try:
        uvicorn.run(
            create_app(settings), host=args.host, port=args.port, log_level=args.log_level, **uvicorn_options(settings)
        )
    except OSError as error:
        print(f"stud serve: error: {error}", file=sys.stderr)
        return 1
    return 0


def _worker_command(args: argparse.Namespace) -> tuple[list[str], dict[str, str]]:
    """The command line of one table worker with this one's options, and what its environment adds: the URLs,
    which may hold passwords, go there (readable by this user only), never on the command line (readable by all)."""
    command = [sys.executable, "-m", "studpoker", "serve", "--role", "worker", "--workers", "1"]
    command += ["--lease-seconds", str(args.lease_seconds)]
    command += ["--drain-seconds", str(args.drain_seconds), "--log-level", args.log_level]
    command += ["--clock", str(args.clock), "--time-bank", str(args.time_bank)]
    command += ["--between-hands", str(args.between_hands), "--showdown-seconds", str(args.showdown_seconds)]
    command += ["--bot-delay", str(args.bot_delay), "--starting-balance", str(args.starting_balance)]
    command += ["--tournament-time-scale", str(args.tournament_time_scale)]
    if args.no_training_tables:
        command.append("--no-training-tables")
    if args.redis_allow_unauthenticated:
        command.append("--redis-allow-unauthenticated")
    return command, {DB_URL_ENV: _db_url(args.db), REDIS_URL_ENV: args.redis}


def _supervise(worker: tuple[list[str], dict[str, str]], count: int, main: Any) -> int:
    """Run ``count`` processes of ``worker`` (a command, and what its environment adds; started again, after a
    second, when one dies) beside ``main()`` (or until SIGTERM/SIGINT when there is none); then stop them with
    SIGTERM (they drain) and wait."""
    import os
    import signal
    import subprocess
    import threading
    import time

    stopping = threading.Event()

    command, added = worker
    environment = {**os.environ, **added, SUPERVISOR: str(os.getpid())}

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
