"""River solver speed: seconds to an equilibrium within 0.1 % of the pot, DCFR against CFR+, checked by an LP and
timed against OpenSpiel's CFR+ on Kuhn poker.

    python bench/solve.py                    # about a minute: 3 rounds of every spot, the exact check, the peer
    python bench/solve.py --quick            # a smoke run (about 20 s): one round
    python bench/solve.py --plot docs/images/solve-convergence.svg
    python bench/solve.py --spot razz --rounds 5 --skip-exact --skip-peer

The target (the solver's issue): a 7th-street spot with about 1,000 combinations a side reaches an exploitability
under 0.1 % of the pot in under 5 s on this machine, published with the convergence curve.

What is measured, in this process:

* (a) the spots (``--spot``, repeatable; default all but ``sixth``), each with a pot of 60, a bet of 20 and a cap
  of a bet and three raises: ``main``, seven-card stud, player 1 ``(AKX),(AAX),(KKX),(88X),(AX3) Ah Kd 8c 3s``
  against ``(QQX),(99X),(44X),(Q9X),(Q4X),(94X) Qs Qd 9h 4c``, dead ``2c 7h``; ``stud8``, stud hi/lo; ``razz``;
  ``full``, seven-card stud with any three down cards a side (11,480 hands); ``sixth``, sixth street and the river
  (only when named; see ``SPOTS``; the hand counts are printed). Each method (``dcfr``, ``cfr+``) solves each spot
  to 0.1 % of the pot
  (``solve(spot, target=0.001)``, the exploitability measured every 10 iterations, as the library's default),
  the methods taking turns run by run for ``--rounds`` rounds (default 3; ``--quick`` 1), the order swapped every
  round. Printed: min, median and max wall seconds of the ``solve()`` call (building the game, the iterations,
  the best responses of the checks and the final values: what a caller waits for), the median seconds into the
  iterations at which the curve first reads 0.1 % or less, the iterations and the final exploitability. The
  two methods must agree on each range's EV within 0.2 % of the pot in every round (else CHECK FAILED, exit 1).
  The convergence curve of the first round of each method on the first spot is printed, and drawn with
  ``--plot FILE`` (svg or png, by matplotlib).
* (b) the exact check: a small stud river (54 against 57 hands) solved by each method to 0.001 % of the pot and
  by the linear program (``studpoker.solve.lp.solve_lp``, HiGHS); player 1's EV by each, and the differences,
  which must be within 0.1 % of the pot. The LP's own strategy's exploitability, measured by our best response,
  is printed too (about 0 if both are right).
* (c) the peer: OpenSpiel's ``CFRPlusSolver`` on ``kuhn_poker`` against ours (``solve(toys.kuhn(), method=...)``)
  on the same game, each run until its exploitability is at most 1e-3 chips (OpenSpiel's ``exploitability``,
  NashConv / 2; ours ``(best0 + best1 - pot) / 2``, the same quantity), measured after every iteration by both
  (``check_every=1``), the clock around the whole loop (OpenSpiel: building the solver, its iterations, its
  ``average_policy`` and ``exploitability`` calls); ``--rounds`` alternating rounds (at least 3), median seconds
  and the ratio. Checked first: both give player 1 the game value -1/18, and OpenSpiel's exploitability of
  *our* strategy (translated to its information states) equals ours. Without pyspiel (``pip install
  open_spiel``) this part is skipped, saying so.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from studpoker.solve import METHODS, Game, RiverSpot, SixthSpot, Solution, solve, toys
from studpoker.solve.cfr import Method, exploitability

#: (name, variant, player 1's range, player 2's range, dead cards): about 1,000 hands a side each.
SPOTS: tuple[tuple[str, str, str, str, str], ...] = (
    (
        "main",
        "7stud",
        "(AKX),(AAX),(KKX),(88X),(AX3) Ah Kd 8c 3s",
        "(QQX),(99X),(44X),(Q9X),(Q4X),(94X) Qs Qd 9h 4c",
        "2c 7h",
    ),
    ("stud8", "7stud8", "(A2X),(A4X),(AAX),(KKX) Ad 3c 6h Kh", "(QQX),(44X),(23X),(25X) Qs Qd 4s 8c", "7d Tc"),
    ("razz", "razz", "(A2X),(A4X) 3s 5d 7c Kh", "(A2X),(A3X) 4h 6c 8d 9s", "Qc Jd"),
    # Full ranges, any three down cards (11,480 hands a side): valued from the cards by the sorted sweep.
    ("full", "7stud", "(XXX) Ah Kd 8c 3s", "(XXX) Qs Qd 9h 4c", "2c 7h"),
    # Sixth street and the river (only with --spot sixth: about a minute a run): 57 and 96 sixth-street hands,
    # 2,280 and 3,840 river hands.
    (
        "sixth",
        "7stud",
        "(AA),(KK),(A8),(AK),(K8),(88),(33),(A3),(K3) Ah Kd 8c 3s",
        "(QQ),(99),(Q9),(44),(Q4),(94),(QX):0.3 Qs Qd 9h 4c",
        "2c 7h",
    ),
)
#: The spots run unless ``--spot`` names others.
DEFAULT_SPOTS = ("main", "stud8", "razz", "full")
#: (b): a small stud river for the linear program.
SMALL = ("7stud", "(AAK),(A88),(AK5) Ah Kd 8c 3s", "(QQ9),(Q9A),(96A) Qs Qd 9h 4c", "2c 7h")
POT = 60
BET = 20
RAISES = 3

TARGET = 0.001  # of the pot: the 0.1 %
TARGET_SECONDS = 5.0  # the bound for the main spot
AGREE = 0.002  # of the pot: how far apart the two methods' EVs may be
EXACT_TARGET = 1e-5  # of the pot, for (b)
EXACT_AGREE = 1e-3  # of the pot: CFR against the LP
EXACT_ITERATIONS = 200_000
PEER_TARGET = 1e-3  # chips, Kuhn poker
PEER_ITERATIONS = 100_000
PEER_SAME = 1e-6  # chips: how far the two measures of one strategy's exploitability may be
KUHN_VALUE = -1 / 18  # player 1's (our player 0's) value, net of his ante

FAILURES: list[str] = []


def fail(what: str) -> None:
    FAILURES.append(what)
    print(f"  CHECK FAILED: {what}", flush=True)


@dataclass
class Run:
    """One solve: its wall time, when its curve first met the target, and the answer."""

    wall: float
    reached: float | None
    solution: Solution


@dataclass
class Cell:
    """One spot and method over the rounds."""

    method: Method
    runs: list[Run] = field(default_factory=list)


def make_spot(variant: str, first: str, second: str, dead: str, name: str = "") -> RiverSpot | SixthSpot:
    kind = SixthSpot if name == "sixth" else RiverSpot
    return kind.parse(variant, [first, second], pot=POT, bet=BET, raises=RAISES, dead=dead)


def reached(solution: Solution, target: float) -> float | None:
    """Seconds into the iterations at which the curve first reads ``target`` of the pot or less."""
    return next((s for _, s, gap in solution.curve if gap <= target * solution.pot), None)


def timed_solve(spot: RiverSpot | SixthSpot | Game, method: Method, **options: Any) -> Run:
    start = time.perf_counter()
    solution = solve(spot, method=method, **options)
    wall = time.perf_counter() - start
    return Run(wall, reached(solution, options.get("target", TARGET)), solution)


def pct(fraction: float) -> str:
    return f"{100 * fraction:.4f}%"


# -- (a) the spots --------------------------------------------------------------------------------------------------
def bench_spots(names: list[str], rounds: int) -> dict[str, list[Cell]]:
    print(f"\n(a) to {100 * TARGET:g}% of the pot (pot {POT}, bet {BET}, {RAISES} raises), {rounds} alternating rounds")
    out: dict[str, list[Cell]] = {}
    for name, variant, first, second, dead in SPOTS:
        if name not in names:
            continue
        spot = make_spot(variant, first, second, dead, name)
        sizes = [len(h) for h in spot.combos]
        print(f"\n  {name}: {spot.variant.title}, player {spot.first + 1} acts first, dead {dead}")
        for p, text in enumerate((first, second)):
            print(f"    player {p + 1}: {text:<52} {sizes[p]:>6,} hands")
        solve(spot, method="dcfr", iterations=2)  # warm-up (imports, the evaluators' tables)
        cells = [Cell(m) for m in METHODS]
        for r in range(rounds):
            order = cells if r % 2 == 0 else cells[::-1]
            for cell in order:
                cell.runs.append(timed_solve(spot, cell.method, target=TARGET))
        show_spot(name, cells)
        check_agree(name, cells)
        out[name] = cells
    return out


def show_spot(name: str, cells: list[Cell]) -> None:
    head = f"    {'method':<6} {'solve s min':>11} {'median':>8} {'max':>8} {'curve s':>8} {'iterations':>10}"
    print(head + f" {'exploitability':>16} {'ratio':>7}")
    medians = {c.method: statistics.median(r.wall for r in c.runs) for c in cells}
    best = min(medians.values())
    for c in cells:
        walls = [r.wall for r in c.runs]
        hits = [r.reached for r in c.runs if r.reached is not None]
        curve = f"{statistics.median(hits):.2f}" if len(hits) == len(c.runs) else "never"
        iters = statistics.median(r.solution.iterations for r in c.runs)
        gap = statistics.median(r.solution.exploitability_pot for r in c.runs)
        print(
            f"    {c.method:<6} {min(walls):>11.2f} {medians[c.method]:>8.2f} {max(walls):>8.2f} {curve:>8}"
            f" {iters:>10.0f} {pct(gap):>16} {medians[c.method] / best:>6.2f}x"
        )
        unmet = [r for r in c.runs if r.solution.exploitability_pot > TARGET]
        if unmet:
            fail(f"{name}, {c.method}: {len(unmet)} run(s) stopped above {100 * TARGET:g}% of the pot")
    s = cells[0].runs[0].solution
    print(f"    EV of the ranges (first round, {cells[0].method}): {s.ev(0):.3f} and {s.ev(1):.3f} of {s.pot:g}")


def check_agree(name: str, cells: list[Cell]) -> None:
    worst = 0.0
    for runs in zip(*(c.runs for c in cells), strict=True):
        for p in (0, 1):
            evs = [r.solution.ev(p) for r in runs]
            worst = max(worst, (max(evs) - min(evs)) / runs[0].solution.pot)
    verdict = "ok" if worst <= AGREE else "DISAGREE"
    print(f"    methods agree on each range's EV within {pct(worst)} of the pot (bound {pct(AGREE)}): {verdict}")
    if worst > AGREE:
        fail(f"{name}: DCFR and CFR+ differ by {pct(worst)} of the pot on a range's EV")


def show_curves(name: str, cells: list[Cell]) -> None:
    print(f"\n  convergence on {name} (first round of each method): iteration, seconds, exploitability % of the pot")
    for c in cells:
        s = c.runs[0].solution
        points = "  ".join(f"{n}:{sec:.2f}s:{100 * gap / s.pot:.3g}%" for n, sec, gap in s.curve)
        print(f"    {c.method:<6} {points}")


def target_line(cells: list[Cell]) -> None:
    for c in cells:
        median = statistics.median(r.wall for r in c.runs)
        verdict = "met" if median < TARGET_SECONDS else "MISSED"
        print(
            f"  target: main spot to {100 * TARGET:g}% of the pot in < {TARGET_SECONDS:g} s, {c.method}: "
            f"median {median:.2f} s, {verdict}"
        )


def plot(path: str, name: str, cells: list[Cell]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for c in cells:
        s = c.runs[0].solution
        seconds = [sec for _, sec, _ in s.curve]
        gaps = [100 * gap / s.pot for _, _, gap in s.curve]
        ax.plot(seconds, gaps, marker=".", label=f"{c.method.upper()} ({s.iterations} iterations)")
    ax.axhline(100 * TARGET, color="grey", linestyle="--", linewidth=1, label=f"{100 * TARGET:g}% of the pot")
    ax.set_yscale("log")
    ax.set_xlabel("seconds")
    ax.set_ylabel("exploitability, % of the pot")
    sizes = " x ".join(f"{len(h):,}" for h in cells[0].runs[0].solution.game.weights)
    ax.set_title(f"Stud river ({name} spot, {sizes} hands): convergence", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None} if path.endswith(".svg") else None)
    plt.close(fig)
    print(f"  plot written to {path}")


# -- (b) the exact check --------------------------------------------------------------------------------------------
def exact_check() -> None:
    variant, first, second, dead = SMALL
    spot = make_spot(variant, first, second, dead)
    game = spot.game()
    sizes = [len(h) for h in spot.combos]
    print(f"\n(b) exact check: {spot.variant.title}, {sizes[0]} against {sizes[1]} hands, dead {dead}")
    print(f"    player 1: {first}\n    player 2: {second}")
    try:
        from studpoker.solve.lp import solve_lp

        start = time.perf_counter()
        lp = solve_lp(game)
        lp_seconds = time.perf_counter() - start
    except Exception as error:  # the LP is optional: scipy missing, or the module broken
        print(f"  LP skipped: {type(error).__name__}: {error}")
        return
    lp_gap = exploitability(game, lp.strategy)[0]
    print(
        f"    {'method':<6} {'seconds':>8} {'iterations':>10} {'exploitability':>16} {'player 1 EV':>14} {'- LP':>12}"
    )
    print(f"    {'LP':<6} {lp_seconds:>8.2f} {'':>10} {pct(lp_gap / game.pot):>16} {lp.value:>14.6f}")
    for method in METHODS:
        run = timed_solve(game, method, target=EXACT_TARGET, iterations=EXACT_ITERATIONS)
        s = run.solution
        diff = s.ev(0) - lp.value
        print(
            f"    {method:<6} {run.wall:>8.2f} {s.iterations:>10} {pct(s.exploitability_pot):>16} {s.ev(0):>14.6f}"
            f" {diff:>+12.2e}"
        )
        if abs(diff) > EXACT_AGREE * game.pot:
            fail(f"exact check, {method}: EV {s.ev(0):.6f} against the LP's {lp.value:.6f}")
    if lp_gap > EXACT_AGREE * game.pot:
        fail(f"exact check: the LP's strategy is exploitable by {lp_gap:.6f} chips")
    print(f"    bound: {pct(EXACT_AGREE)} of the pot = {EXACT_AGREE * game.pot:g} chips")


# -- (c) the peer ---------------------------------------------------------------------------------------------------
def to_openspiel(pyspiel: Any, os_game: Any, game: Game, strategy: dict[int, np.ndarray]) -> Any:
    """Our Kuhn strategy as an OpenSpiel tabular policy: its cards 0, 1, 2 are our hands J, Q, K; its actions 0
    (pass) and 1 (bet) our first and second actions at every node (check or fold, bet or call)."""
    table: dict[str, list[tuple[int, float]]] = {}

    def walk(state: Any) -> None:
        if state.is_terminal():
            return
        if state.is_chance_node():
            for action, _ in state.chance_outcomes():
                walk(state.child(action))
            return
        history = state.history()
        node = game.tree.nodes[0]
        for action in history[2:]:
            node = game.tree.nodes[node.children[action]]
        sigma = strategy[node.index][history[state.current_player()]]
        table[state.information_state_string()] = [(0, float(sigma[0])), (1, float(sigma[1]))]
        for action in state.legal_actions():
            walk(state.child(action))

    walk(os_game.new_initial_state())
    return pyspiel.TabularPolicy(table)


def openspiel_run(pyspiel: Any, os_game: Any) -> tuple[float, int, float, Any, Any]:
    """One OpenSpiel run: seconds, iterations, exploitability, the average policy and the solver (the policy
    reads the solver's tables: the solver must outlive it)."""
    start = time.perf_counter()
    solver = pyspiel.CFRPlusSolver(os_game)
    n = 0
    while True:
        solver.evaluate_and_update_policy()
        n += 1
        policy = solver.average_policy()
        gap = pyspiel.exploitability(os_game, policy)
        if gap <= PEER_TARGET or n >= PEER_ITERATIONS:
            break
    return time.perf_counter() - start, n, gap, policy, solver


def peer(rounds: int) -> None:
    print(f"\n(c) peer: Kuhn poker to an exploitability of {PEER_TARGET:g} chips, checked every iteration")
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError as error:
        print(f"  skipped: OpenSpiel is not importable ({error}); pip install open_spiel")
        return
    os_game = pyspiel.load_game("kuhn_poker")
    game = toys.kuhn()
    ours_target = PEER_TARGET / game.pot  # solve's target is a fraction of the pot
    runners: dict[str, Callable[[], tuple[float, int, float]]] = {}
    answers: dict[str, Any] = {}

    def theirs() -> tuple[float, int, float]:
        seconds, n, gap, policy, solver = openspiel_run(pyspiel, os_game)
        answers["OpenSpiel CFR+"] = policy, solver
        return seconds, n, gap

    runners["OpenSpiel CFR+"] = theirs
    for method in METHODS:

        def mine(method: Method = method) -> tuple[float, int, float]:
            run = timed_solve(game, method, target=ours_target, iterations=PEER_ITERATIONS, check_every=1)
            answers[f"ours {method}"] = run.solution
            return run.wall, run.solution.iterations, run.solution.exploitability

        runners[f"ours {method}"] = mine
    for run in runners.values():  # warm-up, and the answers to check
        run()
    # The checks: the game value, and OpenSpiel's exploitability of our strategy against ours (our best responses
    # multiply in single precision: the two may differ in the eighth digit).
    state = os_game.new_initial_state()
    values = {"OpenSpiel CFR+": pyspiel.expected_returns(state, answers["OpenSpiel CFR+"][0], -1, True)[0]}
    measured: dict[str, tuple[float, float]] = {}
    for method in METHODS:
        s: Solution = answers[f"ours {method}"]
        values[f"ours {method}"] = s.ev(0) - game.pot / 2  # our EV counts the pot as won back; net of the ante
        policy = to_openspiel(pyspiel, os_game, game, s.strategy)
        measured[method] = (s.exploitability, pyspiel.exploitability(os_game, policy))
    print(
        f"    player 1's value (exact -1/18 = {KUHN_VALUE:.6f}): "
        + ", ".join(f"{name} {v:.6f}" for name, v in values.items())
    )
    print(
        "    exploitability of our strategy by our measure / OpenSpiel's: "
        + ", ".join(f"{m} {a:.6e} / {b:.6e}" for m, (a, b) in measured.items())
    )
    for name, v in values.items():
        if abs(v - KUHN_VALUE) > 4 * PEER_TARGET:
            fail(f"{name}: player 1's value {v:.6f} is not -1/18")
    for which, (a, b) in measured.items():
        if abs(a - b) > PEER_SAME:
            fail(f"OpenSpiel measures our {which} strategy at {b:.6e} chips, we at {a:.6e}")
    rounds = max(rounds, 3)
    times: dict[str, list[float]] = {name: [] for name in runners}
    iters: dict[str, list[int]] = {name: [] for name in runners}
    names = list(runners)
    for r in range(rounds):
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            seconds, n, _ = runners[name]()
            times[name].append(seconds)
            iters[name].append(n)
    reference = statistics.median(times["OpenSpiel CFR+"])
    print(f"    {'solver':<16} {'min s':>9} {'median s':>9} {'max s':>9} {'iterations':>10} {'x OpenSpiel':>12}")
    for name in names:
        t = times[name]
        median = statistics.median(t)
        print(
            f"    {name:<16} {min(t):>9.4f} {median:>9.4f} {max(t):>9.4f} {statistics.median(iters[name]):>10.0f}"
            f" {reference / median:>11.2f}x"
        )
    print("    (x OpenSpiel: OpenSpiel's median seconds over this solver's; above 1, this one is faster)")


# -- main -----------------------------------------------------------------------------------------------------------
def versions() -> str:
    import scipy  # type: ignore[import-untyped]

    out = [f"numpy {np.__version__}", f"scipy {scipy.__version__}"]
    try:
        import pyspiel

        out.append(f"open_spiel {getattr(pyspiel, '__version__', '(version unknown)')}")
    except ImportError:
        out.append("open_spiel missing")
    return ", ".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a short run: one round")
    parser.add_argument("--rounds", "--repeat", type=int, help="alternating rounds (default 3; --quick 1)")
    parser.add_argument(
        "--spot", action="append", choices=[s[0] for s in SPOTS], help="a spot of (a), repeatable (default all)"
    )
    parser.add_argument("--plot", metavar="FILE", help="draw the first spot's convergence to FILE (svg, png)")
    parser.add_argument("--skip-exact", action="store_true", help="leave out (b), the LP check")
    parser.add_argument("--skip-peer", action="store_true", help="leave out (c), OpenSpiel on Kuhn poker")
    args = parser.parse_args()
    rounds = args.rounds if args.rounds is not None else 1 if args.quick else 3
    if rounds < 1:
        parser.error("--rounds must be at least 1")
    names = args.spot or list(DEFAULT_SPOTS)

    import studpoker.solve

    print(f"Python {platform.python_version()} on {platform.machine()} ({platform.processor() or platform.system()})")
    print(f"{versions()}; {os.cpu_count()} CPUs")
    print(f"studpoker from {os.path.dirname(studpoker.solve.__file__)}")
    spots = bench_spots(names, rounds)
    first = next(iter(spots))
    show_curves(first, spots[first])
    if "main" in spots:
        target_line(spots["main"])
    if args.plot:
        plot(args.plot, first, spots[first])
    if not args.skip_exact:
        exact_check()
    if not args.skip_peer:
        peer(rounds)
    if FAILURES:
        print(f"\n{len(FAILURES)} CHECK FAILURE(S):")
        for what in FAILURES:
            print(f"  {what}")
        sys.exit(1)


if __name__ == "__main__":
    main()
