"""``stud solve``: the equilibrium of a heads-up stud river between two ranges, as a table or as JSON.

A thin layer over :func:`studpoker.solve.solve`: it reads the two ranges and the betting from the command line,
prints each class of hands' frequencies at every decision (or the whole answer as JSON), and turns every mistake
in the question (a bad range, a card in two places, a pot of nothing) into one ``stud solve: error: ...`` line
with exit status 2. NumPy and the solver load only when the command runs.
"""

from __future__ import annotations

import argparse
import math
import sys
from decimal import Decimal, InvalidOperation
from typing import Any

from . import options, progress
from .options import UsageError

__all__ = ["add_commands"]

USAGE = (
    "stud solve [--variant GAME] [--street river|sixth] RANGE RANGE --pot N --bet N [--raises N|none] [--stacks N N]"
    " [--first 1|2]"
    " [--dead CARDS] [--target PCT] [--method dcfr|cfr+] [--iterations N] [--seconds S] [--limit N]"
    " [--min-reach PCT] [--json]"
)


def _chips(option: str, least: int) -> options.WholeNumber:
    return options.WholeNumber(option, least, 10**12, "10**12")


def add_commands(sub: Any) -> None:
    """Register ``solve`` on the ``stud`` sub-parser collection."""
    sv = sub.add_parser(
        "solve",
        usage=USAGE,
        help="the equilibrium of a heads-up river between two ranges",
        description=(
            "Solve the last betting round of a heads-up stud hand (or, with --street sixth, sixth street and the "
            "river): "
            "each player's range of down cards under his up cards (three down and four up on the river of the "
            "seven-card games, two down on sixth street, one down in five-card stud), the pot, the bet, "
            "the raises allowed and the stacks. Prints how often each class of hands checks, bets, folds, calls "
            "and raises at every decision, each range's value, and how far the answer is from an equilibrium (its "
            "exploitability, measured by a best response)."
        ),
        epilog=(
            "example: stud solve '(AKX),(AAX),(KKX),(88X) Ah Kd 8c 3s' '(QXX),(99X),(44X) Qs Qd 9h 4c' "
            "--pot 60 --bet 20 --dead '2c 7h'"
        ),
    )
    options.one_line_errors(sv)
    sv.add_argument(
        "ranges", nargs=2, metavar="RANGE", help="a range with the up cards, e.g. '(AAX),(KKX) Ah Kd 8c 3s'"
    )
    sv.add_argument("--variant", type=options.variant, default="7stud", metavar="GAME", help=options.VARIANT_HELP)
    sv.add_argument(
        "--street",
        choices=("river", "sixth"),
        default="river",
        help="river (default), or sixth: sixth street and the river, the last card dealt between (two down cards a "
        "range)",
    )
    sv.add_argument(
        "--pot", type=_chips("--pot", 1), required=True, metavar="N", help="chips in the pot before the round"
    )
    sv.add_argument(
        "--bet", type=_chips("--bet", 1), required=True, metavar="N", help="the size of a bet (the big bet)"
    )
    sv.add_argument(
        "--raises",
        default="3",
        metavar="N|none",
        help="raises allowed after the opening bet (default 3); none: no cap, the heads-up rule, bounded by --stacks",
    )
    sv.add_argument(
        "--stacks",
        nargs=2,
        type=_chips("--stacks", 0),
        metavar="N",
        help="chips each player has behind (default: deep)",
    )
    sv.add_argument("--first", type=int, choices=(1, 2), help="the player who acts first (default: by the boards)")
    sv.add_argument("--dead", action="append", default=[], metavar="CARDS", help="cards out of play, e.g. '2c 7h'")
    sv.add_argument(
        "--target", default="0.1", metavar="PCT", help="stop at this exploitability, in %% of the pot (default 0.1)"
    )
    sv.add_argument("--method", choices=("dcfr", "cfr+"), default="dcfr", help="discounted CFR (default) or CFR+")
    sv.add_argument(
        "--iterations",
        type=options.WholeNumber("--iterations", 1, 1_000_000),
        default=10_000,
        metavar="N",
        help="the most iterations (default 10,000)",
    )
    sv.add_argument("--seconds", default=None, metavar="S", help="stop after about this many seconds")
    sv.add_argument(
        "--limit",
        type=options.WholeNumber("--limit", 1, 10_000),
        default=40,
        metavar="N",
        help="classes shown at each decision (default 40; the JSON has them all)",
    )
    sv.add_argument(
        "--min-reach",
        default="0.1",
        metavar="PCT",
        help="leave out of the table the decisions reached less often than this, in %% of the deals (default 0.1)",
    )
    sv.add_argument("--json", action="store_true", help="print the whole answer as JSON, every hand's strategy")
    sv.set_defaults(run=_solve)


def _number(option: str, text: str, low: float, high: float) -> float:
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        value = Decimal("NaN")
    if not value.is_finite() or not low <= value <= high:
        raise UsageError(f"{option} takes a number from {low:g} to {high:g}, got {text!r}")
    return float(value)


class _Shown:
    """The progress of a solve on a terminal: the bar fills as the exploitability falls toward the target (on a
    log scale, from the first measure), beside the iteration and the exploitability."""

    def __init__(self, target: float, pot: int) -> None:
        self.target, self.pot = target, pot
        self.first: float | None = None
        self.bar = progress.Progress(sys.stderr, "stud solve", delay=1.0)

    def update(self, iteration: int, seconds: float, chips: float) -> None:
        gap = chips / self.pot
        if self.first is None:
            self.first = gap
        done = 1000
        if self.target > 0 and self.first > self.target and gap > self.target:
            done = round(1000 * math.log(self.first / max(gap, 1e-300)) / math.log(self.first / self.target))
        self.bar.show(max(0, min(done, 1000)), 1000, f"iteration {iteration:,}, {100 * gap:.3f}% of the pot")


def _raises(text: str) -> int | None:
    if text.strip().lower() in ("none", "no", "unlimited"):
        return None
    try:
        return options.WholeNumber("--raises", 0, 63)(text)
    except argparse.ArgumentTypeError as error:
        raise UsageError(f"{error} (or none, for no cap)") from None


def _solve(args: argparse.Namespace) -> int:
    from ..solve import RiverSpot, SixthSpot, SolveError, solve

    target = _number("--target", args.target, 0, 99.999) / 100
    min_reach = _number("--min-reach", args.min_reach, 0, 100) / 100
    seconds = None if args.seconds is None else _number("--seconds", args.seconds, 0.001, 86_400)
    try:
        kind = SixthSpot if args.street == "sixth" else RiverSpot
        spot = kind.parse(
            args.variant,
            args.ranges,
            pot=args.pot,
            bet=args.bet,
            raises=_raises(args.raises),
            stacks=args.stacks,
            first=None if args.first is None else args.first - 1,
            dead=" ".join(args.dead),
        )
        shown = None if args.json or not progress.is_terminal(sys.stderr) else _Shown(target, args.pot)
        try:
            answer = solve(
                spot,
                target=target,
                method=args.method,
                iterations=args.iterations,
                seconds=seconds,
                progress=None if shown is None else shown.update,
            )
        finally:
            if shown is not None:
                shown.bar.close()  # off the screen before the answer or the message
    except SolveError as error:
        raise UsageError(str(error)) from None
    except KeyboardInterrupt:
        print("stud solve: interrupted", file=sys.stderr)
        return 130
    print(answer.to_json(indent=1) if args.json else answer.table(limit=args.limit, min_reach=min_reach))
    return 0
