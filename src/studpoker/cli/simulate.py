"""``stud simulate``: millions of bot-against-bot hands on every core or a Ray cluster, with bb/100 and intervals.

A thin layer over :func:`studpoker.simulate.simulate`: it checks the options (every mistake a one-line
``stud simulate: error: ...`` with exit status 2, before any hand is played), shows a progress bar on a terminal,
and prints the tables, or one JSON document, and writes the plot and the histories. The engine, NumPy, Ray and
matplotlib are imported only when the command runs, so ``stud --help`` stays quick.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from . import options
from . import progress as progress_display
from .options import UsageError

if TYPE_CHECKING:
    from ..simulate import SimulationSpec

__all__ = ["Progress", "add_commands", "open_progress"]

#: A run shorter than this never shows a progress bar.
PROGRESS_DELAY = 0.5

USAGE = (
    "stud simulate --bots TAG,TAG[,...] [--variant GAME] [--preset casino|tournament] [--hands N] [--seed S]"
    " [--workers N|auto] [--chunk N] [--duplicate] [--ray ADDRESS] [--json] [--plot FILE.png|FILE.svg]"
    " [--save-histories FILE.phhs [--sample RATE]] [--stakes SMALL/BIG] [--ante A] [--bring-in B] [--stack BB]\n"
    "       stud simulate --bots TAG,TAG[,...] --sit-and-go N [--hands-per-level H] [--variant GAME] [--seed S]"
    " [--json]"
)

_hands = options.WholeNumber("--hands", 1, 10**10, "10**10")
_chunk = options.WholeNumber("--chunk", 1, 10**10, "10**10")
_ante = options.WholeNumber("--ante", 1, 10**9)
_bring_in = options.WholeNumber("--bring-in", 1, 10**9)
_stack = options.WholeNumber("--stack", 1, 10**6)
_workers = options.WholeNumber("--workers", 1, 4096)
_sit_and_gos = options.WholeNumber("--sit-and-go", 1, 10**6, "1,000,000")
_hands_per_level = options.WholeNumber("--hands-per-level", 1, 10**6, "1,000,000")

#: The defaults of the options that play hands (``None`` in the parser, so that a sit-and-go run can tell which
#: of them were given: none applies to it).
HAND_DEFAULTS: dict[str, object] = {
    "preset": "casino",
    "hands": 100_000,
    "workers": "auto",
    "chunk": 10_000,
    "stakes": "10/20",
    "ante": 1,
    "bring_in": 3,
    "stack": 100,
}
#: The options a sit-and-go run refuses, by their ``args`` name.
_NOT_FOR_SIT_AND_GO = (*HAND_DEFAULTS, "duplicate", "ray", "plot", "save_histories", "sample")


def _sample(text: str) -> float:
    try:
        rate = float(text)
    except ValueError:
        rate = float("nan")
    if not 0.0 <= rate <= 1.0:
        raise argparse.ArgumentTypeError(f"--sample takes a share of the hands from 0 to 1 (e.g. 0.01), got {text!r}")
    return rate


def add_commands(sub: Any) -> None:
    """Register ``simulate`` on the ``stud`` sub-parser collection."""
    sim = sub.add_parser(
        "simulate",
        usage=USAGE,
        help="play many bot-against-bot hands and measure each bot's win rate",
        description=(
            "Play bots against each other, one bot a seat, the seats rotating every hand, every hand from the same"
            " stacks (--stack big bets), and print each bot's and each seat's result in big bets per 100 hands with"
            " its standard error and 95% interval. The hands are cut into chunks, each played from the seed and its"
            " number alone, so the result is the same on any number of processes or on a Ray cluster."
        ),
        epilog=(
            "examples: stud simulate --variant razz --bots tag,calling-station,random --hands 1e6 --seed 7;"
            " stud simulate --bots tag,tag,calling-station,random --sit-and-go 200 --seed 7"
        ),
    )
    sim.add_argument(
        "--bots",
        required=True,
        metavar="TAG,TAG,...",
        help="one bot a seat: tight-aggressive (or tag), calling-station, random, external:COMMAND (no commas)",
    )
    sim.add_argument("--variant", type=options.variant, default="7stud", metavar="GAME", help=options.VARIANT_HELP)
    sim.add_argument("--preset", metavar="NAME", help="casino or tournament (default casino)")
    sim.add_argument("--hands", type=_hands, metavar="N", help="hands to play (default 100,000)")
    sim.add_argument("--seed", type=options.seed, metavar="S", help="0 to 2**63-1 (default: a random one, printed)")
    sim.add_argument("--workers", metavar="N|auto", help="processes (default auto: every core for 2 chunks or more)")
    sim.add_argument("--chunk", type=_chunk, metavar="N", help="hands per chunk (default 10,000)")
    sim.add_argument("--duplicate", action="store_true", help="replay every deal in every seat rotation")
    sim.add_argument("--ray", metavar="ADDRESS", help="run on a Ray cluster: auto, HOST:PORT, or local (start one)")
    sim.add_argument("--json", action="store_true", help="print the result as one JSON document")
    sim.add_argument("--plot", type=Path, metavar="FILE", help="draw the cumulative results to FILE.png or FILE.svg")
    sim.add_argument("--save-histories", type=Path, metavar="FILE", help="save hands as PHH to FILE.phhs")
    sim.add_argument("--sample", type=_sample, metavar="RATE", help="share of hands to save, 0 to 1 (default 1)")
    sim.add_argument("--stakes", metavar="SMALL/BIG", help="small and big bet (default 10/20)")
    sim.add_argument("--ante", type=_ante, metavar="A", help="the ante (default 1)")
    sim.add_argument("--bring-in", type=_bring_in, metavar="B", help="the bring-in (default 3)")
    sim.add_argument("--stack", type=_stack, metavar="BB", help="big bets each hand (default 100)")
    sim.add_argument(
        "--sit-and-go",
        type=_sit_and_gos,
        metavar="N",
        help="play N sit-and-gos of the bots instead of hands (one table, the turbo structure, standard payouts)"
        " and print each bot's finishing places and ROI",
    )
    sim.add_argument(
        "--hands-per-level", type=_hands_per_level, metavar="H", help="a sit-and-go's hands per level (default 10)"
    )
    sim.set_defaults(run=_simulate)
    _one_line_errors(sim)


def _one_line_errors(parser: argparse.ArgumentParser) -> None:
    """Every mistake argparse finds as one line, ``stud simulate: error: ...``, exit status 2, no usage text."""

    def error(message: str) -> NoReturn:
        head, sep, rest = message.partition(": ")
        option = head.removeprefix("argument ")
        if sep and head.startswith("argument ") and rest.startswith(f"{option.split('/')[0]} "):
            message = rest  # the message of a type of cli.options already names the option
        parser.exit(2, f"{parser.prog}: error: {message}\n")

    parser.error = error  # type: ignore[method-assign]


def _check_writable(path: Path, what: str) -> None:
    """Refuse (:class:`UsageError`) a file that could not be written at the end of the run, before it starts."""
    progress_display.check_writable(path, f"cannot write the {what} to {path}")


def _spec(args: argparse.Namespace) -> SimulationSpec:
    from ..simulate import SimulationSpec

    tags = [t.strip() for t in args.bots.split(",")]
    if any(not t for t in tags):
        raise UsageError(f"--bots takes bot tags separated by commas, got {args.bots!r}")
    small, sep, big = args.stakes.partition("/")
    if not sep or not small.strip().isdigit() or not big.strip().isdigit():
        raise UsageError(f"--stakes takes SMALL/BIG, e.g. 10/20, got {args.stakes!r}")
    if args.sample is not None and args.save_histories is None:
        raise UsageError("--sample is the share of hands --save-histories keeps: give --save-histories FILE too")
    return SimulationSpec(
        bots=tuple(tags),
        hands=args.hands,
        variant=args.variant,
        preset=args.preset,
        ante=args.ante,
        bring_in=args.bring_in,
        small_bet=int(small),
        big_bet=int(big),
        seed=args.seed,
        chunk=args.chunk,
        duplicate=args.duplicate,
        stack=args.stack,
        sample=(1.0 if args.sample is None else args.sample) if args.save_histories is not None else 0.0,
    )


def _simulate(args: argparse.Namespace) -> int:
    if args.sit_and_go is not None:
        return _sit_and_go(args)
    if args.hands_per_level is not None:
        raise UsageError("--hands-per-level is a sit-and-go's: give --sit-and-go N too")
    for name, default in HAND_DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    return _hands_run(args)


def _sit_and_go(args: argparse.Namespace) -> int:
    """``--sit-and-go N``: the sit-and-gos, in this process; the table of places and ROI, or JSON."""
    from ..simulate import SimulateError, simulate_sit_and_goes

    given = [name for name in _NOT_FOR_SIT_AND_GO if getattr(args, name) not in (None, False)]
    if given:
        options_given = ", ".join("--" + name.replace("_", "-") for name in given)
        verb = "does" if len(given) == 1 else "do"
        raise UsageError(f"--sit-and-go plays tournaments of the turbo structure: {options_given} {verb} not apply")
    tags = [t.strip() for t in args.bots.split(",")]
    if any(not t for t in tags):
        raise UsageError(f"--bots takes bot tags separated by commas, got {args.bots!r}")
    seed = args.seed
    if seed is None:
        import secrets

        seed = secrets.randbits(63)
    start = time.perf_counter()
    try:
        result = simulate_sit_and_goes(
            tags, args.sit_and_go, seed=seed, variant=args.variant, hands_per_level=args.hands_per_level or 10
        )
    except SimulateError as error:
        raise UsageError(str(error)) from None
    except KeyboardInterrupt:
        print("stud simulate: interrupted: no result reported", file=sys.stderr)
        return 130
    seconds = time.perf_counter() - start
    timing = f"{result.sit_and_gos:,} sit-and-gos ({result.hands:,} hands) in {_seconds(seconds)} on 1 process"
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        print(f"stud simulate: {timing}", file=sys.stderr)
        return 0
    print(result.summary())
    print()
    print(timing)
    return 0


def _hands_run(args: argparse.Namespace) -> int:
    from ..bots import BotError
    from ..simulate import SimulateError, auto_workers, save_plot, simulate
    from ..simulate.plot import check_plot_path

    try:
        spec = _spec(args)
        if spec.seed is None:
            import secrets

            spec = spec.replace(seed=secrets.randbits(63))
        if args.plot is not None:
            check_plot_path(args.plot)
            _check_writable(args.plot, "plot")
        if args.save_histories is not None:
            if args.save_histories.suffix.lower() not in (".phhs", ".phh"):
                raise UsageError(f"histories are saved as PHH: name a .phhs file, got {str(args.save_histories)!r}")
            _check_writable(args.save_histories, "histories")
    except SimulateError as error:
        raise UsageError(str(error)) from None
    workers = None if args.workers.strip() == "auto" else _whole_workers(args.workers)
    if args.ray is not None:
        backend = f"Ray at {args.ray}"
    else:
        count = auto_workers(spec) if workers is None else min(workers, spec.chunks)
        backend = "1 process" if count == 1 else f"{count} processes"
    progress = None if args.json else open_progress(sys.stderr, spec.names)
    done = [0]

    def report(hands: int, total: int, rates: tuple[float, ...]) -> None:
        done[0] = hands
        if progress is not None:
            progress(hands, total, rates)

    start = time.perf_counter()
    try:
        result = simulate(spec, workers=workers, ray=args.ray, progress=report, histories=args.save_histories)
    except SimulateError as error:
        raise UsageError(str(error)) from None
    except BotError as error:
        _close(progress)
        print(f"stud simulate: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        _close(progress)
        print(
            f"stud simulate: interrupted after {done[0]:,} of {spec.played_hands:,} hands: no result reported",
            file=sys.stderr,
        )
        return 130
    finally:
        _close(progress)
    seconds = time.perf_counter() - start
    if args.plot is not None:
        try:
            save_plot(result, args.plot)
        except SimulateError as error:
            print(f"stud simulate: error: {error}", file=sys.stderr)
            return 1
    saved = result.sampled
    if args.json:
        document = result.to_dict()
        if args.plot is not None:
            document["plot"] = str(args.plot)
        if args.save_histories is not None:
            document["histories"] = {"path": str(args.save_histories), "hands": saved}
        print(json.dumps(document, indent=2))  # the same bytes on any number of processes or on Ray
        print(f"stud simulate: {_timing(result.hands, seconds, backend)}", file=sys.stderr)  # the part that varies
        return 0
    print(result.summary())
    print()
    print(_timing(result.hands, seconds, backend))
    if args.plot is not None:
        print(f"plot written to {args.plot}")
    if args.save_histories is not None:
        print(f"{saved:,} hand histories saved to {args.save_histories}")
    return 0


def _whole_workers(text: str) -> int:
    try:
        return _workers(text)
    except argparse.ArgumentTypeError:
        raise UsageError(f"--workers takes auto or a whole number from 1 to 4096, got {text!r}") from None


def _close(progress: Progress | None) -> None:
    if progress is not None:
        progress.close()


def _timing(hands: int, seconds: float, backend: str) -> str:
    """How long the run took, and where: the one thing that is not the same from run to run."""
    return f"{hands:,} hands in {_seconds(seconds)}: {hands / max(seconds, 1e-9):,.0f} hands/s on {backend}"


def _seconds(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds < 10 else f"{seconds:,.1f} s"


# -- progress -------------------------------------------------------------------------------------------------


class Progress(progress_display.Progress):
    """A progress display for ``simulate(progress=...)`` (:class:`studpoker.cli.progress.Progress`, labelled
    ``stud simulate``): nothing for :data:`PROGRESS_DELAY` seconds, then a bar with hands/s and each bot's running
    bb/100."""

    def __init__(
        self, stream: TextIO, names: Sequence[str], *, delay: float = PROGRESS_DELAY, use_rich: bool = True
    ) -> None:
        super().__init__(stream, "stud simulate", delay=delay, use_rich=use_rich)
        self.names = tuple(names)

    def __call__(self, done: int, total: int, rates: tuple[float, ...]) -> None:
        if not self.due(done, total):
            return
        elapsed = max(time.perf_counter() - self.start, 1e-9)
        bots = "  ".join(f"{name.split(':')[0]}:{rate:+.1f}" for name, rate in zip(self.names, rates, strict=False))
        self.show(done, total, f"{done:,} hands  {done / elapsed:,.0f} hands/s  bb/100 {bots}")


def open_progress(stream: TextIO, names: Sequence[str]) -> Progress | None:
    """A :class:`Progress` on ``stream`` if it is a terminal; ``None`` (no progress output) otherwise."""
    return Progress(stream, names) if progress_display.is_terminal(stream) else None
