"""``stud play``: the terminal stud game (Textual), the human in seat 1 against bots.

Textual is imported only when the game starts, so ``stud eval`` and ``import studpoker`` do not need it.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from .._extras import install_hint
from . import options
from .options import UsageError
from .progress import check_writable

__all__ = ["add_commands", "check_save_path"]

_NEEDS_TEXTUAL = f"stud play needs Textual, the terminal extra: {install_hint('tui')}"
_NEEDS_TERMINAL = (
    "stud play: error: the game needs a terminal, and standard input or output is not one (a pipe, a file, a "
    "service): run it in a terminal window, or play bots against each other with stud simulate"
)


def has_terminal() -> bool:
    """Whether standard input and output are a terminal, as the full-screen game needs (else it would write raw
    escape codes into a pipe or a file)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def add_commands(sub: Any) -> None:
    """Register ``play`` on the ``stud`` sub-parser collection."""
    pl = sub.add_parser(
        "play",
        help="play stud against bots in the terminal",
        description=(
            "Open a full-screen stud table: you sit in seat 1, bots in the other seats. Keys: n deal, a auto-deal "
            "on/off, f fold, c check/call, b bet/complete/bring-in, r raise, 1-6 the buttons, t top up, o sit out/in, "
            "q leave. "
            "On leaving, the session is saved as a PHH file (.phhs)."
        ),
        epilog="example: stud play --variant razz --players 4 --bots tight-aggressive,random --seed 7",
    )
    pl.add_argument("--variant", type=options.variant, default="7stud", metavar="GAME", help=options.VARIANT_HELP)
    pl.add_argument("--preset", choices=["casino", "tournament"], default="casino", help="the rules preset")
    pl.add_argument("--players", type=int, default=6, metavar="N", help="players including you (default: 6)")
    pl.add_argument("--stakes", default="10/20", metavar="SMALL/BIG", help="small and big bet (default: 10/20)")
    pl.add_argument("--ante", type=int, default=1, metavar="A", help="the ante (default: 1)")
    pl.add_argument("--bring-in", type=int, default=3, metavar="B", help="the bring-in (default: 3)")
    pl.add_argument(
        "--seed", type=options.seed, metavar="S", help="shuffle reproducibly, 0 to 2**63-1 (the bots are seeded too)"
    )
    pl.add_argument(
        "--bots",
        metavar="TAG,TAG,...",
        help="bot tags for seats 2..N, repeated in turn: random, calling-station, tight-aggressive, "
        "external:COMMAND (a program speaking the bot protocol; docs/bot-protocol.md) "
        "(default: tight-aggressive where installed, else calling-station)",
    )
    pl.add_argument("--name", default="You", help="your name at the table (default: You)")
    pl.add_argument("--buy-in", type=int, metavar="N", help="your buy-in (default: the minimum buy-in)")
    pl.add_argument("--delay", type=float, default=0.6, metavar="SECONDS", help="pause before a bot acts")
    pl.add_argument(
        "--auto-deal",
        type=float,
        default=None,
        metavar="SECONDS",
        help="deal each hand by itself, SECONDS (0 to 60) after the last one ends (default: you press n; the a key"
        " turns it on and off during the game)",
    )
    pl.add_argument(
        "--save",
        type=Path,
        metavar="PATH",
        help="where to save the session: a file in a writable directory, checked before the game starts "
        "(default: ./studpoker-session-YYYYmmdd-HHMMSS.phhs)",
    )
    pl.set_defaults(run=_play)
    options.one_line_errors(pl)


def check_save_path(path: Path) -> None:
    """Refuse (:class:`UsageError`) a session file that could not be written when the player leaves (checked
    before the game starts; :func:`studpoker.cli.progress.check_writable`)."""
    check_writable(path, f"cannot save the session to {path}", example="session.phhs")


def _options(args: argparse.Namespace) -> Any:
    from ..tui.game import PlayOptions

    tags = tuple(t.strip() for t in args.bots.split(",")) if args.bots is not None else ()
    if any(not t for t in tags):
        raise UsageError(f"--bots takes bot tags separated by commas, got {args.bots!r}")
    if args.delay < 0 or args.delay != args.delay:
        raise UsageError(f"--delay must be zero or more seconds, got {args.delay}")
    if args.auto_deal is not None and not 0 <= args.auto_deal <= 60:
        raise UsageError(f"--auto-deal must be 0 to 60 seconds, got {args.auto_deal}")
    return PlayOptions(
        variant=args.variant,
        preset=args.preset,
        players=args.players,
        stakes=args.stakes,
        ante=args.ante,
        bring_in=args.bring_in,
        seed=args.seed,
        bots=tags,
        name=args.name,
        buy_in=args.buy_in,
    )


def _play(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("textual") is None:  # before the game's modules, which use rich (Textual's)
        print(_NEEDS_TEXTUAL, file=sys.stderr)
        return 2
    from ..tui.game import Game, SetupError

    path: Path = args.save or Path(f"studpoker-session-{datetime.now():%Y%m%d-%H%M%S}.phhs")
    check_save_path(path)  # now, not when leaving: a session that cannot be saved is not started
    try:
        game = Game.create(_options(args))
    except SetupError as error:
        raise UsageError(str(error)) from None
    if not has_terminal():  # the command line was right: only now is the missing terminal the one thing wrong
        game.close()
        print(_NEEDS_TERMINAL, file=sys.stderr)
        return 2
    from ..tui.app import StudApp

    app = StudApp(game, delay=args.delay, save_path=path, auto_deal=args.auto_deal)
    try:
        app.run()
    finally:
        game.finish_hand()  # the app ended without leaving (an interrupt): play the hand out, then save
        app.save()
        game.close()
    if app.save_error is not None:
        print(f"stud play: error: {app.save_error}", file=sys.stderr)
        return 1
    if app.saved_path is None:
        print("No hand was played: no session file written")
    else:
        print(f"Session saved to {app.saved_path}")
    return 0
