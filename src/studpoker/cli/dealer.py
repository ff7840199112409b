"""``stud dealer``: the dealer's console for a physical stud table, a web page served on this device.

The session is kept in a journal file (by default ``dealer/session.jsonl`` in the user's data folder, beside the
tracker's database), so the console picks up where it stopped. It listens on 127.0.0.1 unless told: anything
else lets the network reach it (the Origin check and the reader's token still apply). The FastAPI app is imported
only when the command runs (``studpoker.console.app``: the ``server`` extra).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import secrets
import sys
import webbrowser
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .._extras import install_hint
from .._userdata import data_folder

__all__ = ["add_commands", "default_journal"]

_MODULES = ("fastapi", "uvicorn")


def default_journal() -> Path:
    """Where the session's journal is kept unless told: ``dealer/session.jsonl`` in the user's data folder
    (``$XDG_DATA_HOME/studpoker``, ``~/.local/share/studpoker``; ``%LOCALAPPDATA%`` on Windows, ``~/Library/
    Application Support`` on macOS), the folder the tracker keeps its hand database in."""
    return data_folder() / "dealer" / "session.jsonl"


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    dealer = sub.add_parser(
        "dealer",
        help="run the dealer's console for a physical stud table (a web page)",
        description="Run the dealer's console on http://HOST:PORT: the tablet page a house dealer enters the"
        " buy-ins, cards and actions on, with its session kept in a journal file.",
        epilog="example: stud dealer --reader --no-browser",
    )
    dealer.add_argument(
        "--journal",
        type=Path,
        default=None,
        metavar="PATH",
        help=f"the session's journal file, read if it exists (default {default_journal()})",
    )
    dealer.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this device only)"
    )
    dealer.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    reader = dealer.add_mutually_exclusive_group()
    reader.add_argument(
        "--reader-token",
        metavar="TOKEN",
        default=None,
        help="let a card reader post cards with this bearer token (any user of this machine can read a command"
        " line: --reader is safer)",
    )
    reader.add_argument("--reader", action="store_true", help="let a card reader post cards: make a token and print it")
    dealer.add_argument("--no-browser", action="store_true", help="do not open the page in a browser")
    dealer.set_defaults(run=_dealer)


@contextlib.contextmanager
def hold_journal(path: Path) -> Iterator[None]:
    """Hold ``path``'s lock file (``<journal>.lock``) while the console runs: two consoles appending to one journal
    would leave a file neither can start from, so a second one is refused (a ``ConsoleError``). Where the system has
    no ``fcntl`` (Windows), nothing is held."""
    from ..console import ConsoleError

    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ConsoleError(f"the journal {path} is in use by another stud dealer") from None
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def _error(message: str) -> int:
    print(f"stud dealer: error: {message}", file=sys.stderr)
    return 2


def _loopback(host: str) -> bool:
    from ..console.guard import is_loopback

    return is_loopback(host)


def _dealer(args: argparse.Namespace) -> int:
    if any(importlib.util.find_spec(name) is None for name in _MODULES):
        print(f"stud dealer needs the web server's packages, {install_hint('server')}", file=sys.stderr)
        return 2
    from ..console import ConsoleError
    from ..console.app import create_app

    if not 0 < args.port < 65536:
        return _error(f"no port {args.port}")
    token: str | None = args.reader_token
    if token is not None and (len(token) < 16 or not token.isascii() or not token.isprintable() or " " in token):
        return _error("--reader-token must be at least 16 printable ASCII characters without spaces")
    if args.reader:
        token = secrets.token_urlsafe(24)
    path: Path = args.journal if args.journal is not None else default_journal()
    if path.exists() and not path.is_file():
        return _error(f"the journal {path} is not a file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return _error(f"cannot make the journal's folder {path.parent}: {error.strerror or error}")
    with contextlib.ExitStack() as held:
        try:
            held.enter_context(hold_journal(path))
            app = create_app(path, token=token, host=args.host, port=args.port)
        except ConsoleError as error:
            return _error(str(error))
        except OSError as error:
            return _error(f"cannot read the journal {path}: {error.strerror or error}")
        return _serve(app, args, path, token)


def _serve(app: Any, args: argparse.Namespace, path: Path, token: str | None) -> int:
    """Run the console (the journal held) until it is stopped."""
    import uvicorn

    from .serve import _check_port

    problem = _check_port(args.host, args.port)
    if problem is not None:
        return _error(problem)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{'127.0.0.1' if shown in ('0.0.0.0', '[::]') else shown}:{args.port}/"
    print(f"stud dealer: the console is on {url} (journal {path})", file=sys.stderr)
    if not _loopback(args.host):
        print(
            f"stud dealer: warning: listening on {args.host}: anyone on the network can reach the console (the"
            " Origin check and the reader's token still apply)",
            file=sys.stderr,
        )
    if token is not None:
        print(f"stud dealer: card reader: POST {url}api/reader with 'Authorization: Bearer {token}'", file=sys.stderr)
    if not args.no_browser:
        with contextlib.suppress(webbrowser.Error):  # no browser here: the URL is printed
            webbrowser.open(url)
    try:
        # no proxy in front: X-Forwarded-* are nobody's to believe
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning", proxy_headers=False, server_header=False)
    except OSError as error:
        return _error(str(error))
    return 0
