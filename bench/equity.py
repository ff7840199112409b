"""Equity speed: studpoker.equity's exact counting and Monte Carlo, against a straightforward NumPy baseline run
in the same process and against pokenum's numbers as the issue quotes them.

    python bench/equity.py                   # about two minutes, most of it the NumPy baseline
    python bench/equity.py --quick           # a smoke run: fewer trials, the baseline on part of the outcomes
    python bench/equity.py --skip-baseline

What is measured (the clock is ``time.perf_counter`` around one ``studpoker.equity.equity()`` call, which
includes parsing the spot and dealing with the processes; best of ``--repeat`` runs; not timed: imports and one
warm-up call per game and method, which builds the evaluation tables and the caches):

* (a) exact, three players with five known cards each and three dead cards (``SPOT_A``: 121,041,360
  outcomes), in seven-card stud and stud hi/lo: outcomes per second with 1 and 2 worker processes.
  pokenum (poker-eval's C enumerator) cannot be installed here (it is neither on PyPI nor in Debian), so its
  rates are the issue's, quoted: about 35M outcomes/s (stud) and 31M/s (hi/lo) on this machine. Target: at
  least 3x those rates.
* (b) exact, heads-up third street (``SPOT_B``: three known cards each, four dead, 8,262,112,950 outcomes) in
  seven-card stud, razz and stud hi/lo: seconds. Target: under 10 s. A game the exact method refuses
  (``EquityError``: too large to count) is reported as refused.
* (c) Monte Carlo on ``SPOT_B`` in seven-card stud: sampled deals (trials) per second with 1 and 2 workers.
  Target: at least 5M trials/s; the issue quotes 7.3M/s for pokenum and 2M/s for a straightforward NumPy
  version.
* (d) the baseline, in this file and timed on the same spots: a deliberately straightforward NumPy
  implementation with no counting tricks. Exact: every outcome of ``SPOT_A`` is dealt explicitly (for each
  completion of the first player, every disjoint completion of the others, in one array) and all three 7-card
  hands of every outcome are evaluated with the batch evaluators (``high_batch``, and ``low8_batch`` for
  hi/lo), then the pot is shared out. Monte Carlo: each trial shuffles the unseen cards with an ``argsort`` of
  random numbers, deals both players' missing cards and evaluates both hands. Its answers are checked against
  ours (exactly equal for the exact spot, within five standard errors for Monte Carlo) before any ratio is
  printed. ``--quick`` times the exact baseline on the first ``QUICK_BASELINE_CHUNKS`` chunks only (a rate,
  without the check).
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from functools import reduce
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from studpoker.engine import Variant
from studpoker.equity import EquityError, EquityResult, Spot, equity
from studpoker.evaluation import high_batch, low8_batch, razz_batch

#: (a): three players with five known cards each, three dead cards.
SPOT_A = (("As Ad 7c 7h 2s", "Kh Kd Qs Jc 9c", "8s 8d 4c 4h Th"), "3c 5d 6s")
#: (b) and (c): heads-up third street, four dead cards.
SPOT_B = (("As 2d 5c", "Kh Ks 4d"), "7c 9h Js Ts")

ISSUE_POKENUM_EXACT = {"7stud": 35e6, "7stud8": 31e6}  # outcomes/s, quoted from the issue
ISSUE_POKENUM_MC = 7.3e6  # trials/s, quoted
ISSUE_NUMPY_MC = 2e6  # trials/s, quoted ("a straightforward NumPy version")
TARGET_EXACT_RATIO = 3.0
TARGET_EXACT_SECONDS = 10.0
TARGET_MC_RATE = 5e6
QUICK_BASELINE_CHUNKS = 40
BASELINE_MC_BATCH = 100_000

Cards = npt.NDArray[np.uint8]


def best_time(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The shortest of ``repeat`` runs and the last run's answer."""
    best, answer = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        answer = run()
        best = min(best, time.perf_counter() - start)
    return best, answer


def spot(game: str, which: tuple[tuple[str, ...], str]) -> Spot:
    hands, dead = which
    return Spot.parse(game, list(hands), dead)


# -- the straightforward NumPy baseline --------------------------------------------------------------


def _values(variant: Variant, hands: Cards) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32] | None]:
    """(deciding value, eight-or-better low or None) of each row; larger is better in every game."""
    if variant is Variant.RAZZ:
        return razz_batch(hands, check=False), None
    high = high_batch(hands, check=False)
    return high, (low8_batch(hands, check=False) if variant is Variant.STUD7_HL8 else None)


def _shares(
    values: list[npt.NDArray[np.int32]], lows: list[npt.NDArray[np.int32]] | None
) -> list[npt.NDArray[np.float64]]:
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


def baseline_exact(s: Spot, max_chunks: int | None = None) -> tuple[npt.NDArray[np.float64], int]:
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


def baseline_montecarlo(s: Spot, trials: int, seed: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
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


# -- the runs -------------------------------------------------------------------------------------


def ours(s: Spot, method: str, workers: int, trials: int | None = None) -> Callable[[], EquityResult]:
    return lambda: equity(s, method=method, workers=workers, trials=trials, seed=1)


def equities(result: EquityResult) -> npt.NDArray[np.float64]:
    return np.array([player.equity for player in result.players])


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def part_a(args: argparse.Namespace) -> None:
    print(f"(a) exact, 3 players with 5 known cards each: {' | '.join(SPOT_A[0])}, dead {SPOT_A[1]}")
    print(
        f"  {'game':<7} {'implementation':<40} {'outcomes':>12} {'seconds':>8} {'outcomes/s':>13}"
        f" {'vs pokenum (quoted)':>20}"
    )
    for game in ("7stud", "7stud8"):
        s = spot(game, SPOT_A)
        quoted = ISSUE_POKENUM_EXACT[game]
        equity(s, method="exact")  # warm-up

        def row(name: str, outcomes: int, seconds: float, game: str = game, quoted: float = quoted) -> float:
            rate = outcomes / seconds
            print(f"  {game:<7} {name:<40} {outcomes:>12,} {seconds:>8.2f} {rate:>13,.0f} {rate / quoted:>19.1f}x")
            return rate

        rates: dict[int, float] = {}
        answer: EquityResult | None = None
        for workers in (1, 2):
            seconds, answer = best_time(ours(s, "exact", workers), args.repeat)
            rates[workers] = row(f"studpoker exact, {workers} worker(s)", s.outcomes, seconds)
        base_rate = None
        if not args.skip_baseline:
            chunks = QUICK_BASELINE_CHUNKS if args.quick else None
            start = time.perf_counter()
            base, visited = baseline_exact(s, chunks)
            seconds = time.perf_counter() - start
            if chunks is None:
                assert answer is not None
                if visited != s.outcomes or not np.allclose(base, equities(answer), rtol=0, atol=1e-9):
                    raise SystemExit(f"bench/equity.py: the baseline disagrees: {base} against {equities(answer)}")
            label = f"NumPy baseline, first {chunks} chunks" if chunks else "NumPy baseline, every outcome (agrees)"
            base_rate = row(label, visited, seconds)
        print(f"  {game:<7} {'pokenum (the issue quotes)':<40} {'':>12} {'':>8} {quoted:>13,.0f}")
        best = max(rates.values())
        line = f"  {game}: {best / quoted:.1f}x pokenum's quoted rate (target >= {TARGET_EXACT_RATIO:g}x:"
        line += f" {verdict(best / quoted >= TARGET_EXACT_RATIO)})"
        if base_rate is not None:
            line += "; vs the NumPy baseline: " + ", ".join(
                f"{w} worker(s) {rate / base_rate:,.0f}x" for w, rate in rates.items()
            )
        print(line, flush=True)
    print()


def part_b(args: argparse.Namespace) -> None:
    print(f"(b) exact, heads-up third street: {' | '.join(SPOT_B[0])}, dead {SPOT_B[1]}")
    print(
        f"  {'game':<7} {'workers':>7} {'outcomes':>15} {'seconds':>8} {'outcomes/s':>15}"
        f"  target < {TARGET_EXACT_SECONDS:g} s"
    )
    for game in ("7stud", "razz", "7stud8"):
        s = spot(game, SPOT_B)
        for workers in (1, 2):
            try:
                seconds, _ = best_time(ours(s, "exact", workers), args.repeat)
            except EquityError as error:
                print(f"  {game:<7} {workers:>7} {s.outcomes:>15,}  refused: {error}")
                break
            rate = s.outcomes / seconds
            ok = verdict(seconds < TARGET_EXACT_SECONDS)
            print(f"  {game:<7} {workers:>7} {s.outcomes:>15,} {seconds:>8.2f} {rate:>15,.0f}  {ok}", flush=True)
    print()


def part_c(args: argparse.Namespace) -> None:
    trials = args.trials
    print(
        f"(c) Monte Carlo, heads-up third street (7stud): {' | '.join(SPOT_B[0])}, dead {SPOT_B[1]}; {trials:,} trials"
    )
    s = spot("7stud", SPOT_B)
    equity(s, method="montecarlo", trials=10_000, seed=0)  # warm-up
    print(
        f"  {'implementation':<36} {'trials':>11} {'seconds':>8} {'trials/s':>12} {'vs pokenum 7.3M/s':>18}"
        f" {'vs NumPy 2M/s':>14} {'vs NumPy baseline':>18}"
    )
    exact_answer = equities(equity(s, method="exact")) if not args.quick else None
    rows: list[tuple[str, int, float]] = []
    answer: EquityResult | None = None
    for workers in (1, 2):
        seconds, answer = best_time(ours(s, "montecarlo", workers, trials), args.repeat)
        rows.append((f"studpoker Monte Carlo, {workers} worker(s)", trials, seconds))
        if exact_answer is not None:
            assert answer is not None
            se = np.array([p.equity_se or 0.0 for p in answer.players])
            if np.any(np.abs(equities(answer) - exact_answer) > 5 * se + 1e-12):
                raise SystemExit(f"bench/equity.py: Monte Carlo {equities(answer)} is far from exact {exact_answer}")
    base_rate = None
    if not args.skip_baseline:
        base_trials = max(trials // 10, 100_000)
        start = time.perf_counter()
        mean, se = baseline_montecarlo(s, base_trials, seed=1)
        seconds = time.perf_counter() - start
        if exact_answer is not None and np.any(np.abs(mean - exact_answer) > 5 * se):
            raise SystemExit(f"bench/equity.py: the baseline {mean} is far from exact {exact_answer}")
        rows.append(("NumPy baseline (argsort shuffle)", base_trials, seconds))
        base_rate = base_trials / seconds
    for name, count, seconds in rows:
        rate = count / seconds
        against = f"{rate / base_rate:>17.1f}x" if base_rate else f"{'':>18}"
        print(
            f"  {name:<36} {count:>11,} {seconds:>8.2f} {rate:>12,.0f} {rate / ISSUE_POKENUM_MC:>17.2f}x"
            f" {rate / ISSUE_NUMPY_MC:>13.2f}x {against}"
        )
    best = max(count / seconds for name, count, seconds in rows if name.startswith("studpoker"))
    print(f"  best {best:,.0f} trials/s (target >= {TARGET_MC_RATE:,.0f}/s: {verdict(best >= TARGET_MC_RATE)})")
    if exact_answer is not None:
        print("  (both Monte Carlo answers checked against the exact one: within 5 standard errors)")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: fewer trials, a partial baseline")
    parser.add_argument("--skip-baseline", action="store_true", help="do not run the NumPy baseline")
    parser.add_argument("--repeat", type=int, help="runs per timing, the best one counts (default 3; --quick 1)")
    parser.add_argument("--trials", type=int, help="Monte Carlo trials per run (default 10,000,000; --quick 1,000,000)")
    parser.add_argument("--part", choices=["a", "b", "c"], action="append", help="run only this part (repeatable)")
    args = parser.parse_args()
    args.repeat = args.repeat or (1 if args.quick else 3)
    args.trials = args.trials or (1_000_000 if args.quick else 10_000_000)
    print(__doc__.split("\n")[0])
    print(
        f"Python {platform.python_version()} on {platform.machine()} ({platform.processor() or platform.system()}),"
        f" NumPy {np.__version__}, {os.cpu_count()} CPUs; best of {args.repeat} run(s)"
    )
    print()
    parts = {"a": part_a, "b": part_b, "c": part_c}
    for name in args.part or list(parts):
        parts[name](args)


if __name__ == "__main__":
    main()
