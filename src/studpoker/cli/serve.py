"""``stud serve``: run the card room (the ``server`` extra) on a host and port, with a database URL."""

from __future__ import annotations

import argparse
import importlib.util
import sys

__all__ = ["add_commands"]

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

    from ..server.app import create_app
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
            secure_cookies=args.secure_cookies,
            allowed_origins=tuple(args.origin),
        )
    except ValueError as error:
        print(f"stud serve: error: {error}", file=sys.stderr)
        return 2
    if not 0 < args.port < 65536:
        print(f"stud serve: error: no port {args.port}", file=sys.stderr)
        return 2
    problem = check_database(settings.db_url)
    if problem is not None:
        print(f"stud serve: error: {problem}", file=sys.stderr)
        return 2
    shown = safe_url(settings.db_url)
    print(f"studpoker card room on http://{args.host}:{args.port} (database {shown})", file=sys.stderr)
    proxy = {"proxy_headers": True, "forwarded_allow_ips": args.proxy_headers} if args.proxy_headers else {}
    try:
        uvicorn.run(
            create_app(settings),
            host=args.host,
            port=args.port,
            ws_max_size=65536,
            log_level=args.log_level,
            **proxy,
        )
    except OSError as error:
        print(f"stud serve: error: {error}", file=sys.stderr)
        return 1
    return 0
