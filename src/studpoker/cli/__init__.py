"""The ``stud`` command line.

Subcommands: ``stud eval CARDS...``, ``stud replay FILE...``, ``stud convert IN OUT``, ``stud play``
(the terminal game), ``stud equity HAND HAND...`` (each hand's chance to win), ``stud simulate`` (bot against
bot, many hands, on every core or a Ray cluster), ``stud serve`` (the web
card room, with the ``server`` extra), ``stud admin`` (its accounts), ``stud dealer`` (the dealer's console for a
physical table, a web page on this device; the ``server`` extra), ``stud solve`` (the equilibrium of a heads-up
river between two ranges).
A mistake in the command line ends with a one-line ``stud ...: error: ...`` message and
exit status 2; a hand history that breaks the rules or cannot be read, with exit status 1;
never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
import warnings
from collections.abc import Iterator, Sequence

from .. import __version__
from ..cards import CardError, format_cards, parse_cards

__all__ = ["main"]


#: The module that registers each subcommand (``eval`` is registered here); see :func:`_parser`.
COMMAND_MODULES = {
    "replay": "histories",
    "convert": "histories",
    "play": "play",
    "equity": "equity",
    "simulate": "simulate",
    "serve": "serve",
    "admin": "admin",
    "dealer": "dealer",
    "import": "tracker",
    "stats": "stats",
    "solve": "solve",
}


def _command(argv: Sequence[str]) -> str | None:
    """The subcommand named in ``argv`` (its first word not starting with ``-``: ``stud`` has no option taking a
    value), or ``None``."""
    return next((word for word in argv if not word.startswith("-")), None)


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``stud`` parser. With a known ``command``, only that subcommand is registered: importing every
    command's module (the history readers, the server's settings) would cost a quick command most of its time."""
    parser = argparse.ArgumentParser(
        prog="stud",
        description="studpoker: seven-card stud, stud hi/lo, five-card stud and razz.",
    )
    parser.add_argument("--version", action="version", version=f"studpoker {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    if command == "eval":
        wanted = []
    elif command in COMMAND_MODULES:
        wanted = [COMMAND_MODULES[command]]
    else:  # no command, an unknown one, or --help: every command, for the list and the error message
        wanted = list(dict.fromkeys(COMMAND_MODULES.values()))
    if command == "eval" or command not in COMMAND_MODULES:
        ev = sub.add_parser(
            "eval",
            help="name the best hand in 5 to 7 cards",
            description="Print the best high hand in 5 to 7 cards and, if asked, the best low.",
            epilog="example: stud eval As Ad 7c 7h 2s Kd 9c --low8",
        )
        ev.add_argument("cards", nargs="+", metavar="CARD", help="cards such as As, td, 10h or A♠ (5 to 7 of them)")
        ev.add_argument("--low8", action="store_true", help="also print the eight-or-better low (stud hi/lo)")
        ev.add_argument("--razz", action="store_true", help="also print the razz low (ace-to-five, pairs count)")
        ev.add_argument("--symbols", action="store_true", help="print suits as ♣ ♦ ♥ ♠")
        ev.set_defaults(run=_eval)
    for name in wanted:
        module = importlib.import_module(f".{name}", __name__)
        module.add_commands(sub)
    return parser


def _eval(args: argparse.Namespace) -> int:
    from ..evaluation import evaluate_high, evaluate_low8, evaluate_razz

    cards = parse_cards(" ".join(args.cards))
    high = evaluate_high(cards)
    lines = [f"High: {high.description} ({format_cards(high.cards, symbols=args.symbols)})"]
    if args.low8:
        low = evaluate_low8(cards)
        if low is None:
            lines.append("Low (8 or better): none")
        else:
            lines.append(f"Low (8 or better): {low.description} ({format_cards(low.cards, symbols=args.symbols)})")
    if args.razz:
        razz = evaluate_razz(cards)
        lines.append(f"Razz: {razz.description} ({format_cards(razz.cards, symbols=args.symbols)})")
    print("\n".join(lines))
    return 0


@contextlib.contextmanager
def _warnings_once(prefix: str) -> Iterator[None]:
    """The engine's warnings (an unusual table sign) on stderr as ``stud CMD: warning: ...``, each once."""
    from ..engine.errors import RulesWarning

    seen: set[str] = set()

    def show(message: Warning | str, category: type[Warning], *_args: object, **_kwargs: object) -> None:
        text = str(message)
        if text not in seen:
            seen.add(text)
            print(f"{prefix}: warning: {text}", file=sys.stderr)

    with warnings.catch_warnings():
        warnings.simplefilter("always", RulesWarning)
        saved, warnings.showwarning = warnings.showwarning, show
        try:
            yield
        finally:
            warnings.showwarning = saved


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``stud``; returns the exit status (0 ok, 1 for a hand history at fault, 2 for a user error)."""
    from .options import UsageError

    words = sys.argv[1:] if argv is None else list(argv)
    command = _command(words)
    try:
        parser = _parser(command)
        args = parser.parse_args(words)
        with _warnings_once(f"stud {args.command}"):
            status: int = args.run(args)
    except (CardError, UsageError) as err:
        parser.exit(2, f"stud {args.command}: error: {err}\n")
    except BrokenPipeError:  # the reader went away (``stud replay ... | head``): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 1
    except KeyboardInterrupt:  # Ctrl-C, wherever it came (a command with more to say catches it itself)
        print(f"stud{f' {command}' if command else ''}: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
