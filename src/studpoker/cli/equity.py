"""``stud equity``: each hand's chances of winning from here, exactly or by Monte Carlo.

The command is a thin layer over :func:`studpoker.equity.equity`: it parses the hands, prints the answer as an
aligned table (or the result's JSON), and shows a progress bar on a terminal while a long calculation runs. Every
mistake in the question (a bad card, a card in two places, too many cards or players) becomes a one-line
``stud equity: error: ...`` with exit status 2. NumPy and the equity methods are imported only when the command
runs, so the rest of ``stud`` starts as fast as before. ``--categories`` adds each hand's distribution of final
hand categories (:func:`studpoker.equity.categories.final_categories`), whose module loads only then.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TextIO

from . import options, progress
from .options import UsageError

if TYPE_CHECKING:
    from ..equity import EquityResult

__all__ = ["add_commands", "format_result"]


#: The game's name in the header line, by :class:`~studpoker.engine.Variant` name.
GAME_NAMES = {
    "STUD7": "Seven-card stud",
    "STUD7_HL8": "Seven-card stud hi/lo eight-or-better",
    "RAZZ": "Razz",
    "STUD5": "Five-card stud",
}

#: A calculation shorter than this never shows a progress bar (no flicker on quick answers).
PROGRESS_DELAY = 0.5

USAGE = (
    "stud equity [--variant GAME] HAND HAND [HAND ...] [--dead CARDS] [--community auto|yes|no|CARD]"
    " [--exact | --trials N] [--seed S] [--workers N] [--categories] [--json]"
)

#: ``--community`` words and what they mean to :func:`studpoker.equity.equity` (anything else is a card).
COMMUNITY_WORDS: dict[str, bool | None] = {"auto": None, "yes": True, "no": False}


def add_commands(sub: Any) -> None:
    """Register ``equity`` on the ``stud`` sub-parser collection."""
    eq = sub.add_parser(
        "equity",
        usage=USAGE,
        help="each hand's chance to win from here (exact or Monte Carlo)",
        description=(
            "Print each hand's share of the pot from here on: win, tie and equity (stud hi/lo: scoop, high share, "
            "low share, equity, and how often no low qualifies), with the folded cards out of the deck. A HAND is "
            "every card known for one player (for an opponent usually the up cards), as one word (AsAd7c) or "
            "quoted ('As Ad 7c'); '-' or '' is a player with no card known. Every outcome is counted when that is "
            "quick, otherwise deals are sampled; the header says which."
        ),
        epilog="example: stud equity 'As Ad 7c 7h 2s' 'Kh Kd Qs Jc 9c' '8s 8d 4c 4h Th' --dead '3c 5d 6s'",
    )
    eq.add_argument("hands", nargs="+", metavar="HAND", help="one player's known cards, e.g. AsAd7c or 'As Ad 7c'")
    eq.add_argument("--variant", type=options.variant, default="7stud", metavar="GAME", help=options.VARIANT_HELP)
    eq.add_argument(
        "--dead",
        action="append",
        default=[],
        metavar="CARDS",
        help="cards out of play, e.g. folded up cards: '3c 5d 6s' or 3c5d6s (repeatable)",
    )
    eq.add_argument(
        "--community",
        default="auto",
        metavar="auto|yes|no|CARD",
        help=(
            "the short deck's community card (one face-up last card shared by every hand): yes, it is to come; no,"
            " everyone gets his own last card; CARD, it is dealt (e.g. Kd); auto (the default): a community card"
            " exactly when the deck cannot give everyone his own, as with 8 players in a seven-card game (pass yes"
            " when the dealer will use one after players folded)"
        ),
    )
    eq.add_argument("--exact", action="store_true", help="count every outcome, however long it takes")
    eq.add_argument("--trials", metavar="N", help="Monte Carlo with N sampled deals (e.g. 1000000 or 1e6)")
    eq.add_argument(
        "--seed",
        type=options.seed,
        metavar="S",
        help="Monte Carlo seed, 0 to 2**63-1, for a reproducible answer (default: a random one)",
    )
    eq.add_argument(
        "--workers",
        metavar="N",
        default="auto",
        help="processes to spread the work over (default: auto, every core for a job of half a second or more)",
    )
    eq.add_argument(
        "--categories",
        action="store_true",
        help=(
            "also print how often each hand ends as each category (flush, full house, ...; the low in hi/lo and"
            " razz), exactly when that is quick, else from the same number of deals (and seed) as the equity"
        ),
    )
    eq.add_argument("--json", action="store_true", help="print the result as one JSON document")
    eq.set_defaults(run=_equity)
    options.one_line_errors(eq)


def _whole(option: str, text: str | None, smallest: int) -> int | None:
    """``text`` as a whole number of at least ``smallest`` (``1_000_000``, ``1,000,000`` and ``1e6`` too)."""
    if text is None:
        return None
    cleaned = text.strip().replace("_", "").replace(",", "")
    try:
        value = int(cleaned)
    except ValueError:
        try:
            number = float(cleaned)
        except ValueError:
            number = float("nan")
        if not number.is_integer():
            raise UsageError(f"{option} takes a whole number, got {text!r}") from None
        value = int(number)
    if value < smallest:
        raise UsageError(f"{option} must be at least {smallest}, got {text!r}")
    return value


def _community(text: str) -> bool | str | None:
    """``--community``: auto (None), yes (True), no (False), or a card's text, checked here (one card)."""
    from ..cards import CardError, parse_card

    word = text.strip()
    if word.lower() in COMMUNITY_WORDS:
        return COMMUNITY_WORDS[word.lower()]
    try:
        return str(parse_card(word))
    except CardError:
        raise UsageError(f"--community takes auto, yes, no or one card such as Kd, got {text!r}") from None


def _hand_text(text: str) -> str:
    """A HAND argument as card text: ``-`` (or an empty word) is a player none of whose cards is known."""
    return "" if text.strip() in ("", "-") else text


@contextlib.contextmanager
def _one_blas_thread() -> Iterator[None]:
    """While the command runs, ``OPENBLAS_NUM_THREADS=1`` unless the user chose a number.

    ``stud equity`` never calls BLAS, but when NumPy loads (only for spots too large for the small counter)
    OpenBLAS starts a thread per core, and those threads spin for a while: on a busy two-core machine that took a
    third of the wall time of a quick answer. OpenBLAS reads the variable once, when it loads; the environment is
    restored when the command ends.
    """
    if "OPENBLAS_NUM_THREADS" in os.environ:
        yield
        return
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        yield
    finally:
        os.environ.pop("OPENBLAS_NUM_THREADS", None)


def _equity(args: argparse.Namespace) -> int:
    with _one_blas_thread():
        return _answer(args)


def _answer(args: argparse.Namespace) -> int:
    from ..equity import EquityError, equity

    if args.exact and args.trials is not None:
        raise UsageError("--exact counts every outcome and --trials samples: use one or the other")
    trials = _whole("--trials", args.trials, 1)
    workers = None if args.workers.strip() == "auto" else _whole("--workers", args.workers, 1)
    seed: int | None = args.seed  # checked while parsing (options.seed)
    community = _community(args.community)
    if seed is None and not args.exact:
        seed = secrets.randbits(32)  # reported with the answer, so a Monte Carlo run can always be repeated
    progress = None if args.json else open_progress(sys.stderr)
    hands = [_hand_text(hand) for hand in args.hands]
    dead = " ".join(args.dead)
    categories = None
    method = "exact" if args.exact else "auto"
    question: dict[str, Any] = {"variant": args.variant, "dead": dead, "community": community, "method": method}
    question.update(trials=trials, seed=seed)  # the same question for the equity and for the final hands
    try:
        result = equity(hands, **question, workers=workers, progress=progress)
        if args.categories:
            from ..equity.categories import final_categories  # only here: a plain `stud equity` never loads it

            categories = final_categories(hands, **question)
    except EquityError as error:
        raise UsageError(str(error)) from None
    except KeyboardInterrupt:
        if progress is not None:
            progress.close()  # off the screen before the message
        print("stud equity: interrupted", file=sys.stderr)
        return 130
    finally:
        if progress is not None:
            progress.close()
    if args.json:
        data = result.as_dict()
        if categories is not None:
            data["categories"] = categories.as_dict()
        print(json.dumps(data, indent=2))
    else:
        print(format_result(result))
        if categories is not None:
            print()
            print(categories)
    return 0


# -- output ---------------------------------------------------------------------------------------


_seconds = progress.seconds_text


def _percent(value: float | None, se: float | None, monte: bool) -> str:
    """A fraction as a percentage; Monte Carlo adds ``± SE`` (also percentage points)."""
    if value is None:
        return ""
    text = f"{100 * value:.2f}"
    if monte and se is not None:
        text += f" ± {100 * se:.2f}"
    return text


def header(result: EquityResult) -> str:
    """One line: the game, the dead cards, the community card if one is modelled, the method, its size and time
    (and seed for Monte Carlo)."""
    from ..cards import format_cards

    game = GAME_NAMES.get(result.spot.variant.name, result.spot.variant.name)
    if result.spot.dead:
        game += f", dead {format_cards(result.spot.dead)}"
    if result.spot.community_to_come:
        game += ", community card to come"
    elif result.spot.community_card is not None:
        game += f", community card {result.spot.community_card}"
    if result.exact:
        return f"{game}; exact: {result.outcomes:,} outcomes in {_seconds(result.seconds)}"
    seed = f", seed {result.seed}" if result.seed is not None else ""
    return (
        f"{game}; Monte Carlo: {result.outcomes:,} trials{seed}, in {_seconds(result.seconds)}; ± is one standard error"
    )


def format_result(result: EquityResult) -> str:
    """The human output of ``stud equity``: the header line, then an aligned table with one row per hand (percent
    of the pot; ``± SE`` for Monte Carlo), and for stud hi/lo how often no low qualifies."""
    from ..cards import format_cards

    monte = not result.exact
    hilo = result.no_low is not None
    titles = ["hand", "scoop %", "high %", "low %", "equity %"] if hilo else ["hand", "win %", "tie %", "equity %"]
    rows = [titles]
    for player in result.players:
        hand = player.range or format_cards(player.hand) or "-"
        if hilo:
            cells = [
                _percent(player.win, player.win_se, monte),
                _percent(player.high, player.high_se, monte),
                _percent(player.low, player.low_se, monte),
            ]
        else:
            cells = [_percent(player.win, player.win_se, monte), _percent(player.tie, player.tie_se, monte)]
        rows.append([hand, *cells, _percent(player.equity, player.equity_se, monte)])
    widths = [max(len(row[c]) for row in rows) for c in range(len(titles))]
    lines = [header(result)]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  " + "   ".join(cells).rstrip())
    if result.no_low is not None:
        se = f" ± {100 * result.no_low_se:.2f}" if monte and result.no_low_se is not None else ""
        lines.append(f"no low qualifies: {100 * result.no_low:.2f}%{se}")
    for player in result.players:  # card removal made visible: what each term has left beside the cards in view
        if player.range_counts:
            terms = ", ".join(f"{term} {n:,}" for term, n in player.range_counts)
            lines.append(f"{player.range}: combinations left after card removal: {terms}")
    return "\n".join(lines)


# -- progress -------------------------------------------------------------------------------------


class Progress(progress.Progress):
    """A progress display for ``equity(progress=...)`` (:class:`studpoker.cli.progress.Progress`, labelled
    ``stud equity``): nothing for :data:`PROGRESS_DELAY` seconds, then a bar with the time left."""

    def __init__(self, stream: TextIO, *, delay: float = PROGRESS_DELAY, use_rich: bool = True) -> None:
        super().__init__(stream, "stud equity", delay=delay, use_rich=use_rich)

    def __call__(self, done: int, total: int) -> None:
        self.show(done, total)


def open_progress(stream: TextIO) -> Progress | None:
    """A :class:`Progress` on ``stream`` if it is a terminal; ``None`` (no progress output at all) otherwise."""
    return Progress(stream) if progress.is_terminal(stream) else None
