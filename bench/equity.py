"""Equity speed: seconds to answer, studpoker.equity against pokenum (poker-eval's C tool) run side by side.

The same spots, in the same run, for both, and for a straightforward NumPy baseline in this file.

    python bench/equity.py                   # about two minutes, a third of it pokenum on (a)
    python bench/equity.py --quick           # a smoke run: fewer trials, one round, the baseline on part of (a)
    python bench/equity.py --skip-baseline --part a --part c

pokenum is found or built by ``$STUDPOKER_PEERS/build-pokenum`` (default ``../shared/peers/build-pokenum`` beside
the repository; see ``bench/_pokenum.py``); without gcc, make or the script it is skipped, saying why, and the rest
still runs.

How it is timed. Every tool answers the same spot ``--repeat`` times (default 3; ``--quick`` 1), the tools taking
turns run by run (A B C A B C ...), and min, median and max seconds are printed; a ratio is the median of pokenum
over the median of ours, printed only once the answers are checked to agree. The clock (``time.perf_counter``):

* pokenum, and ``stud equity ... --json`` (our command line, the ``stud`` script beside this interpreter): the
  wall time of one new process, start to exit ("cold": it loads its code and builds its tables every time). The
  ``stud`` children run with bytecode (``.pyc``) files, as an installed package has them: without
  ``PYTHONDONTWRITEBYTECODE`` and with ``PYTHONPYCACHEPREFIX`` in a temporary directory, filled by one untimed
  run of each command (otherwise, where that variable is set, every run would compile studpoker from source).
  The CPU time (user + system) of each child is kept too: a busy machine inflates it less than the wall time.
* ``studpoker.equity.equity()`` in this process ("warm"): one call, after one warm-up call (on the same spot; in
  (e), on another spot of the same game) that builds the evaluation tables and the caches; it includes parsing
  the spot and, with 2 workers, starting the processes.

How answers are checked. Exact against exact: pokenum's counts (win and tie, or scoop in hi/lo) equal ours
times the outcomes, and its EV, printed to three decimals, equals our equity to within 0.0005. Monte Carlo:
within 5 standard errors of our exact answer where there is one, else of each other (for pokenum, whose output
has none, the binomial standard error of its win rate, and sqrt(EV (1 - EV) / N), a bound, for its EV). A
disagreement is printed instead of the ratio, and the run exits with status 1.

The parts (``--part``, repeatable):

* (a) exact, 3 players with 5 known cards each, 3 dead (121,041,360 outcomes), seven-card stud and stud hi/lo:
  pokenum cold against ``stud equity --exact`` cold, and against ``equity(method="exact")`` warm with 1 and 2
  workers. Target: ours at least 15x faster than pokenum. Then the NumPy baseline (below), once.
* (b) exact, heads-up third street (3 known cards each, 4 dead: 8,262,112,950 outcomes), stud, razz and hi/lo:
  ours warm, 1 and 2 workers. Target: under 10 s. pokenum cannot: more than 2^32 outcomes (said, not run). A
  spot the exact method refuses (``EquityError``) is reported as refused.
* (c) Monte Carlo on (b)'s spot in stud, N trials (``--trials``, default 10,000,000; ``--quick`` 1,000,000):
  ``pokenum -mc N`` cold against ``equity(trials=N, workers=1)`` warm and ``stud equity --trials N --seed 1``
  cold, with ``--workers 1`` and with the default (auto) workers; every answer checked against the exact one.
  Target: at least 10x pokenum. Then a line for issue 27's case, CLI to CLI: pokenum's median wall and CPU time
  over ``stud equity --workers 1``'s, against the 10x target. Then the baseline, on a tenth of the trials (at
  least 100,000), its time scaled to N.
* (d) Monte Carlo, 7 players on third street with 3 known cards each, no dead cards, N trials for every tool
  (``--trials7``, default 3,000,000: pokenum takes a few seconds; ``--quick`` 500,000), the tools as in (c),
  checked against each other. Target: at least 5x pokenum.
* (e) spots pokenum cannot take (it needs 3 known cards per player, counts at most 2^32 outcomes and has no
  community card), ours only, warm, 1 worker: heads-up 4th street exact with the opponent's two up cards only
  (target under 10 s); heads-up 3rd street with the opponent's up card only, exact (target under 10 s) and Monte
  Carlo with as many trials as a 20,000-trial pilot says give a standard error of equity of at most 0.1
  percentage point (target under 1 s; the pilot is not timed); 8 players on 3rd street, the hero's three
  cards and the others' up cards, Monte Carlo to a standard error of 0.2 point (target under 2 s). A spot our
  code refuses (``EquityError``: too large to count, or more cards needed than the deck has while the community
  card is not modelled) is reported as refused.

* (f) ranges, ours only, warm, against the straightforward loop (every assignment of the ranges' down cards, one
  exact ``equity()`` each, weighted) timed in the same run: a hand against a 946-combination range on 5th street,
  exact (target under 1 s), the answers checked equal; range against range on 3rd street (about a hundred
  combinations each), Monte Carlo to a standard error of 0.1 point (target under 2 s), the loop timed on
  ``F_LOOP_SAMPLE`` assignments and scaled.

The baseline, in this file: a deliberately straightforward NumPy implementation with no counting tricks. Exact:
every outcome of (a) is dealt explicitly (for each completion of the first player, every disjoint completion of
the others, in one array) and all three 7-card hands of every outcome are evaluated with the batch evaluators
(``high_batch``, and ``low8_batch`` for hi/lo), then the pot is shared out; its answer must equal ours. Monte
Carlo: each trial shuffles the unseen cards with an ``argsort`` of random numbers, deals both players' missing
cards and evaluates both hands; within 5 standard errors of the exact answer. ``--quick`` times the exact baseline
on the first ``QUICK_BASELINE_CHUNKS`` chunks only, scales the time to every outcome and does not check it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import reduce
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import _pokenum
from studpoker.engine import Variant
from studpoker.equity import EquityError, EquityResult, Spot, equity, exact
from studpoker.evaluation import high_batch, low8_batch, razz_batch

#: (a): three players with five known cards each, three dead cards.
SPOT_A = (("As Ad 7c 7h 2s", "Kh Kd Qs Jc 9c", "8s 8d 4c 4h Th"), "3c 5d 6s")
#: (b) and (c): heads-up third street, four dead cards.
SPOT_B = (("As 2d 5c", "Kh Ks 4d"), "7c 9h Js Ts")
#: (d): seven players on third street, three known cards each, no dead cards.
SPOT_D = (("As 2d 5c", "Kh Ks 4d", "Qd Jd 9d", "8c 8s 2h", "Ac 3c 6h", "Th Td 4s", "7s 7h 3d"), "")
#: (e): (label, hands and dead cards, method, target standard error of equity or None, target seconds).
SPOTS_E = (
    ("heads-up 4th street, opponent's up cards only", (("As Ad 7c 2s", "Kh 9c"), ""), "exact", None, 10.0),
    ("heads-up 3rd street, opponent's up card only", (("As Ad 7c", "Kh"), ""), "exact", None, 10.0),
    ("heads-up 3rd street, opponent's up card only", (("As Ad 7c", "Kh"), ""), "montecarlo", 0.001, 1.0),
    (
        "8 players on 3rd street, hero's 3 cards, the others' up cards",
        (("As Ad 7c", "Kh", "Qd", "9s", "8c", "5h", "Th", "4d"), ""),
        "montecarlo",
        0.002,
        2.0,
    ),
)

TARGET_A_RATIO = 15.0
TARGET_B_SECONDS = 10.0
TARGET_C_RATIO = 10.0
TARGET_D_RATIO = 5.0
E_PILOT_TRIALS = 20_000
E_MAX_TRIALS = 200_000_000
SIGMAS = 5.0  # how many standard errors two Monte Carlo answers may differ by
QUICK_BASELINE_CHUNKS = 40
BASELINE_MC_BATCH = 100_000
STUD = Path(sys.executable).parent / "stud"

Cards = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float64]


def spot(game: str, which: tuple[tuple[str, ...], str]) -> Spot:
    hands, dead = which
    return Spot.parse(game, list(hands), dead)


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


# -- answers, from any tool, and whether they agree ---------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """One tool's answer as fractions per player: ``win`` is the whole pot alone (a scoop in hi/lo), ``tie``
    (high-only games) a split of the best hand; ``*_se`` standard errors (None: exact); ``step`` how far a
    printed equity may be from the true one by rounding alone (pokenum prints three decimals)."""

    outcomes: int
    exact: bool
    equity: Floats
    win: Floats
    tie: Floats | None = None
    equity_se: Floats | None = None
    win_se: Floats | None = None
    step: float = 0.0

    @classmethod
    def of_result(cls, result: EquityResult) -> Answer:
        monte = not result.exact
        players = result.players
        tie = None if players[0].tie is None else np.array([p.tie for p in players])
        return cls(
            outcomes=result.outcomes,
            exact=result.exact,
            equity=np.array([p.equity for p in players]),
            win=np.array([p.win for p in players]),
            tie=tie,
            equity_se=np.array([p.equity_se or 0.0 for p in players]) if monte else None,
            win_se=np.array([p.win_se or 0.0 for p in players]) if monte else None,
        )

    @classmethod
    def of_json(cls, data: dict[str, Any]) -> Answer:
        """``stud equity --json``'s document."""
        players = data["players"]
        monte = data["method"] == "montecarlo"
        hilo = "scoop" in players[0]
        return cls(
            outcomes=int(data["trials"] if monte else data["outcomes"]),
            exact=not monte,
            equity=np.array([p["equity"] for p in players]),
            win=np.array([p["scoop" if hilo else "win"] for p in players]),
            tie=None if hilo else np.array([p["tie"] for p in players]),
            equity_se=np.array([p.get("equity_se", 0.0) for p in players]) if monte else None,
            win_se=np.array([p.get("win_se", 0.0) for p in players]) if monte else None,
        )

    @classmethod
    def of_pokenum(cls, result: _pokenum.PokenumResult) -> Answer:
        n = result.outcomes
        players = result.players
        win = np.array([(p.scoop if result.hilo else p.win) or 0 for p in players]) / n
        tie = None if result.hilo else np.array([p.tie or 0 for p in players]) / n
        ev = np.array([p.ev for p in players])
        bound = np.sqrt(np.clip(ev * (1 - ev), 0, None) / max(n - 1, 1))  # a share in [0, 1] varies at most so
        return cls(
            outcomes=n,
            exact=not result.sampled,
            equity=ev,
            win=win,
            tie=tie,
            equity_se=bound if result.sampled else None,
            win_se=np.sqrt(win * (1 - win) / max(n - 1, 1)) if result.sampled else None,
            step=0.0005,
        )


def disagreement(a: Answer, b: Answer) -> str | None:
    """None if ``a`` and ``b`` agree (see the module docstring), else what differs."""
    step = a.step + b.step + 1e-9
    if a.exact and b.exact:
        if a.outcomes != b.outcomes:
            return f"{a.outcomes:,} outcomes against {b.outcomes:,}"
        counts = [("win", a.win, b.win)] + ([("tie", a.tie, b.tie)] if a.tie is not None and b.tie is not None else [])
        for name, x, y in counts:
            cx, cy = np.rint(x * a.outcomes).astype(np.int64), np.rint(y * b.outcomes).astype(np.int64)
            if np.any(cx != cy):
                return f"{name} counts {cx.tolist()} against {cy.tolist()}"
        if np.any(np.abs(a.equity - b.equity) > step):
            return f"equity {np.round(a.equity, 6).tolist()} against {np.round(b.equity, 6).tolist()}"
        return None
    for name, x, y, sx, sy in (
        ("equity", a.equity, b.equity, a.equity_se, b.equity_se),
        ("win", a.win, b.win, a.win_se, b.win_se),
    ):
        se = np.sqrt((0 if sx is None else sx) ** 2 + (0 if sy is None else sy) ** 2)
        far = np.abs(x - y) > SIGMAS * se + (step if name == "equity" else 1e-9)
        if np.any(far):
            return (
                f"{name} {np.round(x, 5).tolist()} against {np.round(y, 5).tolist()}:"
                f" more than {SIGMAS:g} standard errors ({np.round(se, 5).tolist()}) apart"
            )
    return None


# -- timing, the tools taking turns ----------------------------------------------------------------------

#: A run: one answer and the seconds it took (measured by the run itself, around the process or the call).
Run = Callable[[], tuple[float, Answer]]


@dataclass
class Timing:
    name: str
    run: Run
    short: str = ""
    seconds: list[float] = field(default_factory=list)
    #: per run, the CPU seconds (user + system) of the processes it started and waited for (0 in process)
    cpu: list[float] = field(default_factory=list)
    answer: Answer | None = None
    error: str | None = None

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)


def alternate(timings: list[Timing], repeat: int) -> None:
    """``repeat`` rounds, each tool once per round in turn; a tool that fails keeps its error and drops out."""
    for _ in range(repeat):
        for timing in timings:
            if timing.error is not None:
                continue
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            try:
                seconds, timing.answer = timing.run()
            except (EquityError, _pokenum.PokenumError, CliError) as error:
                timing.error = str(error)
                continue
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            timing.seconds.append(seconds)
            timing.cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


def in_process(call: Callable[[], EquityResult]) -> Run:
    def run() -> tuple[float, Answer]:
        start = time.perf_counter()
        result = call()
        return time.perf_counter() - start, Answer.of_result(result)

    return run


class CliError(RuntimeError):
    """``stud equity`` failed."""


def cli_argv(game: str, which: tuple[tuple[str, ...], str], *options: str) -> list[str]:
    """``stud equity`` on a spot: each hand as one word, the dead cards as one word."""
    hands, dead = which
    argv = [str(STUD), "equity", *(hand.replace(" ", "") for hand in hands)]
    if dead:
        argv += ["--dead", dead.replace(" ", "")]
    argv += [*options, "--json"]
    return argv + (["--variant", game] if game != "7stud" else [])


def child_env(pycache: str) -> dict[str, str]:
    """The environment of the ``stud`` children: bytecode files written to, and read from, ``pycache``."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = pycache
    return env


def cli(argv: list[str], env: dict[str, str] | None) -> Run:
    def run() -> tuple[float, Answer]:
        start = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, check=False, env=env)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            raise CliError(f"stud equity failed (exit status {done.returncode}): {done.stderr.strip()}")
        return seconds, Answer.of_json(json.loads(done.stdout))

    return run


def pokenum_run(path: Path, game: str, which: tuple[tuple[str, ...], str], trials: int | None) -> Run:
    hands, dead = which

    def run() -> tuple[float, Answer]:
        result = _pokenum.run(path, game, hands, dead, trials)
        return result.seconds, Answer.of_pokenum(result)

    return run


def shown(argv: Sequence[str]) -> str:
    """A command line as printed: the program by its name only."""
    return " ".join([Path(argv[0]).name, *argv[1:]])


def compare(
    args: argparse.Namespace,
    game: str,
    which: tuple[tuple[str, ...], str],
    trials: int | None,
    ours: list[Timing],
    reference: Answer | None = None,
) -> tuple[Timing | None, list[Timing]]:
    """pokenum (when it can) and ``ours`` on one spot, taking turns; the table of seconds, the check, the ratios.
    Returns (pokenum's timing or None, ours) with only the timings whose answers were checked and agree."""
    hands, dead = which
    pokenum: Timing | None = None
    if args.pokenum is None:
        print(f"  pokenum: skipped ({args.pokenum_why})")
    elif why := _pokenum.cannot(game, hands, dead, trials):
        print(f"  pokenum: cannot ({why})")
    else:
        label = f"pokenum {_pokenum.GAME_FLAGS[game]}" + (f" -mc {trials:,}" if trials else "") + " (CLI, cold)"
        pokenum = Timing(label, pokenum_run(args.pokenum, game, which, trials))
        print(f"  pokenum: {shown(_pokenum.command(args.pokenum, game, hands, dead, trials))}")
    timings = ([pokenum] if pokenum else []) + ours
    alternate(timings, args.repeat)
    # the check: against the reference if there is one, else against pokenum, else against our first answer
    judge = reference
    if judge is None and pokenum is not None and pokenum.answer is not None:
        judge = pokenum.answer
    if judge is None:
        judge = next((t.answer for t in ours if t.answer is not None), None)
    agreed: list[Timing] = []
    ratio_title = "  pokenum/this" if pokenum is not None else ""
    print(f"  {'tool':<56} {'min s':>8} {'median s':>9} {'max s':>8}{ratio_title}")
    for timing in timings:
        if timing.answer is None:
            print(f"  {timing.name:<56} failed: {timing.error}")
            continue
        problem = None if judge is None or timing.answer is judge else disagreement(timing.answer, judge)
        if problem:
            args.disagreements.append(f"{game} {timing.name}: {problem}")
        else:
            agreed.append(timing)
        ratio = ""
        if not problem and pokenum in agreed:
            assert pokenum is not None
            ratio = "(reference)" if timing is pokenum else f"{pokenum.median / timing.median:.1f}x"
        s = timing.seconds
        line = f"  {timing.name:<56} {min(s):>8.3f} {timing.median:>9.3f} {max(s):>8.3f}"
        line += f"  {ratio:>12}" if pokenum is not None else ""
        print(line + (f"  DISAGREES: {problem}" if problem else ""), flush=True)
    if reference is not None:
        what = "our exact answer"
    elif pokenum is not None and pokenum.answer is not None:
        what = "pokenum's answer"
    else:
        what = "each other"
    if not all(t.answer is not None and t.answer.exact for t in timings if t.answer is not None):
        kind = f"Monte Carlo: within {SIGMAS:g} standard errors"
    elif pokenum is not None:
        kind = "exact: equal win and tie counts (hi/lo: scoops), equity equal to pokenum's 3 decimals"
    else:
        kind = "exact: equal win and tie counts, equal equity"
    print(f"  checked against {what} ({kind}): {len(agreed)} of {len(timings)} agree")
    return (pokenum if pokenum in agreed else None), [t for t in ours if t in agreed]


def ratio_line(prefix: str, pokenum: Timing | None, ours: list[Timing], target: float) -> None:
    if pokenum is None or not ours:
        print(f"  {prefix}: no ratio (pokenum did not run, or the answers were not checked to agree)")
        return
    ratios = [(t.short or t.name, pokenum.median / t.median) for t in ours]
    parts = [f"{name} {ratio:.1f}x ({verdict(ratio >= target)})" for name, ratio in ratios]
    print(f"  {prefix}: pokenum's median over ours, target >= {target:g}x: " + "; ".join(parts))


def issue_line(pokenum: Timing | None, ours: Timing | None, trials: int) -> None:
    """Issue 27, item 13: cold ``stud equity --workers 1`` against cold pokenum on (c)'s spot, CLI to CLI, by
    median wall time and by median CPU time of the child, against the 10x target."""
    if pokenum is None or ours is None:
        print("  issue 27 (13), CLI to CLI: no ratio (pokenum or stud equity did not run, or did not agree)")
        return
    wall = pokenum.median / ours.median
    cpu = statistics.median(pokenum.cpu) / statistics.median(ours.cpu)
    print(
        f"  issue 27 (13), cold CLI to cold CLI, {trials:,} trials, 1 worker: pokenum {pokenum.median:.3f} s"
        f" (CPU {statistics.median(pokenum.cpu):.3f} s), stud equity {ours.median:.3f} s (CPU"
        f" {statistics.median(ours.cpu):.3f} s): {wall:.1f}x by wall time, {cpu:.1f}x by CPU time;"
        f" target >= {TARGET_C_RATIO:g}x: {verdict(wall >= TARGET_C_RATIO)} (wall), {verdict(cpu >= TARGET_C_RATIO)}"
        f" (CPU); load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )


# -- the straightforward NumPy baseline --------------------------------------------------------------


def _values(variant: Variant, hands: Cards) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32] | None]:
    """(deciding value, eight-or-better low or None) of each row; larger is better in every game."""
    if variant is Variant.RAZZ:
        return razz_batch(hands, check=False), None
    high = high_batch(hands, check=False)
    return high, (low8_batch(hands, check=False) if variant is Variant.STUD7_HL8 else None)


def _shares(values: list[npt.NDArray[np.int32]], lows: list[npt.NDArray[np.int32]] | None) -> list[Floats]:
    """Each player's pot share in each row: the best high hands split the pot, or half of it when a low
    qualifies, and the best qualifying lows split the other half."""
    best = reduce(np.maximum, values)
    high = [v == best for v in values]
    high_count = sum(w.astype(np.int32) for w in high)
    if lows is None:
        return [w / high_count for w in high]
    best_low = reduce(np.maximum, lows)
    has_low = best_low > 0
    low = [(v == best_low) & has_low for v in lows]
    low_count = np.maximum(sum(w.astype(np.int32) for w in low), 1)
    high_part = np.where(has_low, 0.5, 1.0) / high_count
    return [h * high_part + w * (0.5 / low_count) for h, w in zip(high, low, strict=True)]


def _combinations(m: int, k: int) -> Cards:
    return np.array(list(combinations(range(m), k)), dtype=np.uint8).reshape(-1, k)


def _masks(rows: Cards) -> npt.NDArray[np.uint64]:
    out = np.zeros(len(rows), dtype=np.uint64)
    for column in range(rows.shape[1]):
        out |= np.uint64(1) << rows[:, column].astype(np.uint64)
    return out


def baseline_exact(s: Spot, max_chunks: int | None = None) -> tuple[Floats, int]:
    """Every outcome dealt and every hand evaluated: (each player's equity, outcomes visited). One chunk is one
    completion of the first player with every disjoint completion of the others (the full spot, or the first
    ``max_chunks`` chunks)."""
    pool = np.asarray(s.pool, dtype=np.uint8)
    needs, n, size = s.needs, s.n, s.variant.cards
    known = [np.array([c.index for c in hand], dtype=np.uint8) for hand in s.hands]
    firsts = _combinations(len(pool), needs[0])[:max_chunks]
    shares, outcomes = np.zeros(n), 0
    for first in firsts:
        rest = np.delete(pool, first)
        dealt = np.zeros((1, 0), dtype=np.uint8)  # positions in ``rest`` of players 1..n-1's cards
        used = np.zeros(1, dtype=np.uint64)
        for p in range(1, n):
            rows = _combinations(len(rest), needs[p])
            masks = _masks(rows)
            a, b = np.nonzero((used[:, None] & masks[None, :]) == 0)
            dealt, used = np.concatenate([dealt[a], rows[b]], axis=1), used[a] | masks[b]
        cards = rest[dealt]
        rows_n = len(cards)
        values, lows = [], []
        column = 0
        for p in range(n):
            hands = np.empty((rows_n, size), dtype=np.uint8)
            hands[:, : len(known[p])] = known[p]
            if p == 0:
                hands[:, len(known[p]) :] = pool[first]
            else:
                hands[:, len(known[p]) :] = cards[:, column : column + needs[p]]
                column += needs[p]
            high, low = _values(s.variant, hands)
            values.append(high)
            if low is not None:
                lows.append(low)
        shares += [share.sum() for share in _shares(values, lows or None)]
        outcomes += rows_n
    return shares / outcomes, outcomes


def baseline_montecarlo(s: Spot, trials: int, seed: int) -> tuple[Floats, Floats]:
    """Each trial shuffles the unseen cards (``argsort`` of random numbers) and deals from the top: (each
    player's equity, its standard error)."""
    rng = np.random.default_rng(seed)
    pool = np.asarray(s.pool, dtype=np.uint8)
    needs, n, size = s.needs, s.n, s.variant.cards
    known = [np.array([c.index for c in hand], dtype=np.uint8) for hand in s.hands]
    total = sum(needs)
    sums, squares = np.zeros(n), np.zeros(n)
    for start in range(0, trials, BASELINE_MC_BATCH):
        rows = min(BASELINE_MC_BATCH, trials - start)
        deck = pool[np.argsort(rng.random((rows, len(pool))), axis=1)[:, :total]]
        values, lows, column = [], [], 0
        for p in range(n):
            hands = np.empty((rows, size), dtype=np.uint8)
            hands[:, : len(known[p])] = known[p]
            hands[:, len(known[p]) :] = deck[:, column : column + needs[p]]
            column += needs[p]
            high, low = _values(s.variant, hands)
            values.append(high)
            if low is not None:
                lows.append(low)
        shares = _shares(values, lows or None)
        sums += [share.sum() for share in shares]
        squares += [(share * share).sum() for share in shares]
    mean = sums / trials
    return mean, np.sqrt(np.maximum(squares / trials - mean * mean, 0.0) / (trials - 1))


# -- the parts ------------------------------------------------------------------------------------


def warm(s: Spot, method: str, workers: int, trials: int | None = None) -> Timing:
    label = "equity() " + ("exact" if method == "exact" else f"Monte Carlo {trials:,}") + f", {workers} worker(s), warm"
    run = in_process(lambda: equity(s, method=method, workers=workers, trials=trials, seed=1))
    return Timing(label, run, short=f"in process, {workers} worker(s)")


def cold(args: argparse.Namespace, label: str, game: str, which: tuple[tuple[str, ...], str], *options: str) -> Timing:
    """``stud equity`` in a new process per run; one untimed run first writes its bytecode files."""
    argv = cli_argv(game, which, *options)
    print(f"  ours:    {shown(argv)}")
    subprocess.run(argv, capture_output=True, check=False, env=args.child_env)
    short = "CLI cold" + (", default workers" if "--workers" not in options else "")
    return Timing(f"stud equity {label} (CLI, cold)", cli(argv, args.child_env), short=short)


def part_a(args: argparse.Namespace) -> None:
    s0 = spot("7stud", SPOT_A)
    print(f"(a) exact, 3 players with 5 known cards each: {' | '.join(SPOT_A[0])}, dead {SPOT_A[1]}")
    print(f"    {s0.outcomes:,} outcomes; target: ours >= {TARGET_A_RATIO:g}x faster than pokenum")
    for game in ("7stud", "7stud8"):
        s = spot(game, SPOT_A)
        print(f"  -- {game}")
        equity(s, method="exact")  # warm-up
        ours = [cold(args, "--exact", game, SPOT_A, "--exact"), warm(s, "exact", 1), warm(s, "exact", 2)]
        pokenum, checked = compare(args, game, SPOT_A, None, ours)
        ratio_line(game, pokenum, checked, TARGET_A_RATIO)
        if args.skip_baseline:
            continue
        chunks = QUICK_BASELINE_CHUNKS if args.quick else None
        start = time.perf_counter()
        base, visited = baseline_exact(s, chunks)
        seconds = time.perf_counter() - start
        full = seconds * s.outcomes / visited
        mine = next((t for t in ours if t.answer is not None and "1 worker" in t.name), None)
        if (
            chunks is None
            and mine is not None
            and mine.answer is not None
            and (visited != s.outcomes or not np.allclose(base, mine.answer.equity, rtol=0, atol=1e-9))
        ):
            args.disagreements.append(f"{game} NumPy baseline: {base} against {mine.answer.equity}")
            print(f"  NumPy baseline DISAGREES: {base} against {mine.answer.equity}")
            continue
        how = f"first {chunks} chunks ({visited:,} outcomes) in {seconds:.2f} s, scaled" if chunks else "agrees"
        against = f"; equity() warm, 1 worker, is {full / mine.median:,.0f}x faster" if mine and mine.seconds else ""
        print(f"  NumPy baseline, every outcome dealt: {full:.2f} s ({how}){against}", flush=True)
    print()


def part_b(args: argparse.Namespace) -> None:
    print(f"(b) exact, heads-up third street: {' | '.join(SPOT_B[0])}, dead {SPOT_B[1]}")
    print(f"    {spot('7stud', SPOT_B).outcomes:,} outcomes; target: under {TARGET_B_SECONDS:g} s")
    for game in ("7stud", "razz", "7stud8"):
        s = spot(game, SPOT_B)
        print(f"  -- {game}")
        try:
            equity(s, method="exact")  # warm-up
        except EquityError as error:
            print(f"  refused: {error}")
            continue
        ours = [warm(s, "exact", 1), warm(s, "exact", 2)]
        _, checked = compare(args, game, SPOT_B, None, ours)
        for timing in checked:
            print(f"  {timing.name}: median {timing.median:.2f} s ({verdict(timing.median < TARGET_B_SECONDS)})")
    print()


def part_c(args: argparse.Namespace) -> None:
    trials = args.trials
    print(f"(c) Monte Carlo, heads-up third street (7stud): {' | '.join(SPOT_B[0])}, dead {SPOT_B[1]}")
    print(f"    {trials:,} trials for every tool")
    print(f"    target: ours >= {TARGET_C_RATIO:g}x faster than pokenum")
    s = spot("7stud", SPOT_B)
    equity(s, method="montecarlo", trials=10_000, seed=0)  # warm-up
    reference = Answer.of_result(equity(s, method="exact"))
    options = ("--trials", str(trials), "--seed", "1")
    ours = [
        warm(s, "montecarlo", 1, trials),
        cold(args, f"--trials {trials:,} --workers 1", "7stud", SPOT_B, *options, "--workers", "1"),
        cold(args, f"--trials {trials:,}", "7stud", SPOT_B, *options),
    ]
    pokenum, checked = compare(args, "7stud", SPOT_B, trials, ours, reference)
    ratio_line("7stud", pokenum, checked, TARGET_C_RATIO)
    issue_line(pokenum, ours[1] if ours[1] in checked else None, trials)
    if not args.skip_baseline:
        base_trials = max(trials // 10, 100_000)
        start = time.perf_counter()
        mean, se = baseline_montecarlo(s, base_trials, seed=1)
        seconds = time.perf_counter() - start
        scaled = seconds * trials / base_trials
        if np.any(np.abs(mean - reference.equity) > SIGMAS * se):
            args.disagreements.append(f"(c) NumPy baseline {mean} is far from exact {reference.equity}")
            print(f"  NumPy baseline DISAGREES: {mean} against exact {reference.equity}")
        else:
            mine = ours[0]
            against = f"; equity() warm is {scaled / mine.median:,.1f}x faster" if mine.seconds else ""
            print(
                f"  NumPy baseline (argsort shuffle): {scaled:.2f} s for {trials:,} trials ({base_trials:,} in"
                f" {seconds:.2f} s, scaled; within 5 SE of exact){against}"
            )
    print()


def part_d(args: argparse.Namespace) -> None:
    trials = args.trials7
    print(f"(d) Monte Carlo, 7 players on third street (7stud): {' | '.join(SPOT_D[0])}; {trials:,} trials")
    print(f"    target: ours >= {TARGET_D_RATIO:g}x faster than pokenum")
    s = spot("7stud", SPOT_D)
    equity(s, method="montecarlo", trials=10_000, seed=0)  # warm-up
    options = ("--trials", str(trials), "--seed", "1", "--workers", "1")
    ours = [warm(s, "montecarlo", 1, trials), cold(args, f"--trials {trials:,}", "7stud", SPOT_D, *options)]
    pokenum, checked = compare(args, "7stud", SPOT_D, trials, ours)
    ratio_line("7stud", pokenum, checked, TARGET_D_RATIO)
    print()


def part_e(args: argparse.Namespace) -> None:
    print("(e) spots pokenum cannot take, ours only (7stud, warm, 1 worker)")
    warm_up = spot("7stud", SPOT_B)
    equity(warm_up, method="exact")
    equity(warm_up, method="montecarlo", trials=10_000, seed=0)
    for label, which, asked, target_se, target_seconds in SPOTS_E:
        hands, dead = which
        print(f"  -- {label}: {' | '.join(hands)}" + (f", dead {dead}" if dead else ""))
        why = _pokenum.cannot("7stud", hands, dead, None if asked == "exact" else 1)
        print(f"  pokenum: cannot ({why})" if why else "  pokenum: could (not measured here)")
        try:
            s = spot("7stud", which)
            method = asked
            if asked == "auto":
                method = "exact" if exact.feasible(s) else "montecarlo"
            trials = None
            if method == "montecarlo":
                assert target_se is not None
                pilot = equity(s, method="montecarlo", trials=E_PILOT_TRIALS, seed=2, workers=1)
                se = max(p.equity_se or 0.0 for p in pilot.players)
                trials = min(max(math.ceil(E_PILOT_TRIALS * (se / target_se) ** 2), 1000), E_MAX_TRIALS)
                print(
                    f"  pilot: {E_PILOT_TRIALS:,} trials, standard error {100 * se:.3f} points:"
                    f" {trials:,} trials for {100 * target_se:.1f}"
                )
            timing = warm(s, method, 1, trials)
            alternate([timing], args.repeat)
            if timing.error is not None:
                raise EquityError(timing.error)
        except EquityError as error:
            print(f"  refused: {error}")
            continue
        answer = timing.answer
        assert answer is not None
        size = f"{answer.outcomes:,} outcomes" if answer.exact else f"{answer.outcomes:,} trials"
        if answer.equity_se is not None:
            size += f", standard error {100 * float(answer.equity_se.max()):.3f} points"
        s_ = timing.seconds
        print(
            f"  {timing.name}: {size}; min {min(s_):.3f} s, median {timing.median:.3f} s, max {max(s_):.3f} s"
            f" (target < {target_seconds:g} s: {verdict(timing.median < target_seconds)})",
            flush=True,
        )
    print()


#: (f): a hand against a wide range on 5th street (exact), and range against range on 3rd street (Monte Carlo).
SPOT_F_HAND = ("As Ad 7c 7h 2s", "(XX) Kh 9c Qd")
SPOT_F_RANGES = ("(66+),(AK),(AQ),(AJ),(KQ) Kd", "(55+),(KQ),(QJ),(AQ),(JTs) Qh")
TARGET_F_EXACT = 1.0
TARGET_F_MC = 2.0
F_LOOP_SAMPLE = 150  # assignments the straightforward loop times on the range-against-range spot (then scaled)


def _straightforward(hands: Sequence[str], limit: int | None = None) -> tuple[float, float, int]:
    """What a caller without range support writes: every assignment of the ranges' down cards, one exact
    ``equity()`` each, averaged with the weights. Returns (seconds, the first player's equity, assignments
    timed); with ``limit``, only the first ``limit`` assignments (no answer: NaN)."""
    from itertools import product

    from studpoker.cards import parse_cards
    from studpoker.equity.ranges import Range, is_range

    parsed = [Range.parse(h, "7stud") if is_range(h) else parse_cards(h) for h in hands]
    visible = [c for h in parsed for c in (h.up if isinstance(h, Range) else h)]
    options = [h.combos(visible) if isinstance(h, Range) else [((), 1.0)] for h in parsed]
    start = time.perf_counter()
    total = weighted = 0.0
    done = 0
    for assignment in product(*options):
        cards = [c for down, _ in assignment for c in down]
        if len(set(cards)) < len(cards):
            continue
        if limit is not None and done == limit:
            break
        weight = math.prod(w for _, w in assignment)
        spot_hands = [
            list(h.up) + list(down) if isinstance(h, Range) else list(h)
            for h, (down, _) in zip(parsed, assignment, strict=True)
        ]
        answer = equity(spot_hands, method="exact")
        total += weight
        weighted += weight * answer.players[0].equity
        done += 1
    seconds = time.perf_counter() - start
    return seconds, (weighted / total if limit is None else float("nan")), done


def part_f(args: argparse.Namespace) -> None:
    from studpoker.cards import parse_cards
    from studpoker.equity.ranges import Range

    print("(f) ranges (7stud, warm, 1 worker), against the straightforward loop over equity() in the same run")
    hand, wide = SPOT_F_HAND
    combos = len(Range.parse(wide, "7stud").combos(parse_cards(hand)))
    print(f"  -- hand against a {combos:,}-combination range on 5th street, exact: {hand} | {wide}")
    equity([hand, wide], method="exact")  # warm-up
    ours: list[float] = []
    loop: list[float] = []
    answer = truth = float("nan")
    for _ in range(args.repeat):
        start = time.perf_counter()
        answer = equity([hand, wide], method="exact").players[0].equity
        ours.append(time.perf_counter() - start)
        if len(loop) < 2:
            seconds, truth, _ = _straightforward([hand, wide])
            loop.append(seconds)
    agree = abs(answer - truth) < 1e-9
    print(
        f"  ours: min {min(ours):.3f} s, median {statistics.median(ours):.3f} s, max {max(ours):.3f} s"
        f" (target < {TARGET_F_EXACT:g} s: {verdict(statistics.median(ours) < TARGET_F_EXACT)})"
    )
    print(
        f"  straightforward loop: median {statistics.median(loop):.3f} s over {len(loop)} run(s);"
        f" answers {'agree' if agree else 'DISAGREE'} ({answer:.6f} and {truth:.6f});"
        f" ours {statistics.median(loop) / statistics.median(ours):.1f}x faster"
    )
    a, b = SPOT_F_RANGES
    sizes = [
        len(Range.parse(a, "7stud").combos(parse_cards(b.split()[-1]))),
        len(Range.parse(b, "7stud").combos(parse_cards(a.split()[-1]))),
    ]
    print(
        f"  -- range against range on 3rd street ({sizes[0]} and {sizes[1]} combinations),"
        f" Monte Carlo to a standard error of 0.1 point: {a} | {b}"
    )
    pilot = equity([a, b], trials=E_PILOT_TRIALS, seed=2)
    se = max(p.equity_se or 0.0 for p in pilot.players)
    trials = min(max(math.ceil(E_PILOT_TRIALS * (se / 0.001) ** 2), 1000), E_MAX_TRIALS)
    runs: list[float] = []
    result = pilot
    for _ in range(args.repeat):
        start = time.perf_counter()
        result = equity([a, b], trials=trials, seed=3)
        runs.append(time.perf_counter() - start)
    reached = max(p.equity_se or 0.0 for p in result.players)
    print(
        f"  ours: {trials:,} trials, standard error {100 * reached:.3f} points; min {min(runs):.3f} s,"
        f" median {statistics.median(runs):.3f} s, max {max(runs):.3f} s"
        f" (target < {TARGET_F_MC:g} s: {verdict(statistics.median(runs) < TARGET_F_MC)})"
    )
    seconds, _, timed = _straightforward([a, b], limit=F_LOOP_SAMPLE)
    pairs = sum(
        1
        for x, _ in Range.parse(a, "7stud").combos(parse_cards(b.split()[-1]))
        for y, _ in Range.parse(b, "7stud").combos(parse_cards(a.split()[-1]))
        if not set(x) & set(y)
    )
    scaled = seconds / timed * pairs
    print(
        f"  straightforward loop (exact per assignment): {timed} of {pairs:,} assignments in {seconds:.2f} s,"
        f" scaled {scaled:.0f} s; ours {scaled / statistics.median(runs):.0f}x faster (to an exact answer,"
        " not to a standard error)"
    )
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: fewer trials, a partial baseline")
    parser.add_argument("--skip-baseline", action="store_true", help="do not run the NumPy baseline")
    parser.add_argument("--repeat", type=int, help="rounds, each tool once per round (default 3; --quick 1)")
    parser.add_argument("--trials", type=int, help="(c): Monte Carlo trials (default 10,000,000; --quick 1,000,000)")
    parser.add_argument("--trials7", type=int, help="(d): Monte Carlo trials (default 3,000,000; --quick 500,000)")
    parts = {"a": part_a, "b": part_b, "c": part_c, "d": part_d, "e": part_e, "f": part_f}
    parser.add_argument("--part", choices=list(parts), action="append", help="run only this part (repeatable)")
    args = parser.parse_args()
    args.repeat = args.repeat or (1 if args.quick else 3)
    args.trials = args.trials or (1_000_000 if args.quick else 10_000_000)
    args.trials7 = args.trials7 or (500_000 if args.quick else 3_000_000)
    args.disagreements = []
    print(__doc__.split("\n")[0])
    print(
        f"Python {platform.python_version()} on {platform.machine()} ({platform.processor() or platform.system()}),"
        f" NumPy {np.__version__}, {os.cpu_count()} CPUs; {args.repeat} round(s), the tools taking turns"
    )
    args.pokenum, args.pokenum_why = _pokenum.find()
    print(f"pokenum: {args.pokenum} ({args.pokenum_why})" if args.pokenum else f"pokenum: skipped ({args.pokenum_why})")
    if not STUD.is_file():
        print(f"stud: not found at {STUD}: the command-line (cold) rows will fail")
    print(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    pycache = tempfile.mkdtemp(prefix="studpoker-pycache-")
    args.child_env = child_env(pycache)
    try:
        for name in args.part or list(parts):
            parts[name](args)
    finally:
        shutil.rmtree(pycache, ignore_errors=True)
    if args.disagreements:
        print("answers that disagree:", *args.disagreements, sep="\n  ")
        raise SystemExit(1)


if __name__ == "__main__":
    main()
