"""Hand-evaluation speed: studpoker against phevaluator, eval7, treys and PokerKit, in one process.

Every evaluator gets the same random hands (seeded), each in its own card
type, converted before the clock starts. Fast evaluators run all the hands;
PokerKit runs the first ``--slow`` of them (it is thousands of times slower)
and its rate is reported for those. Each timing is the best of ``--repeat``
runs. The results of every evaluator are checked against ours first.

    python bench/evaluate.py              # 1,000,000 hands (the README's numbers)
    python bench/evaluate.py --hands 200000 --repeat 1

Targets (issue 2): batch 7-card high >= 5x phevaluator's C extension; batch
eight-or-better low >= 2,000x PokerKit's EightOrBetterLowHand; scalar 7-card
high >= 5x treys.
"""

from __future__ import annotations

import argparse
import itertools
import platform
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from studpoker.cards import CARDS
from studpoker.evaluation import high_batch, high_value, low8_batch, low8_value, razz_batch

R = "23456789TJQKA"
S = "cdhs"


def best_time(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def random_hands(n: int, k: int, seed: int) -> npt.NDArray[np.uint8]:
    rng = np.random.default_rng(seed)
    out = np.empty((n, k), dtype=np.uint8)
    for a in range(0, n, 100_000):
        b = min(n, a + 100_000)
        out[a:b] = np.argsort(rng.random((b - a, 52)), axis=1)[:, :k]
    return out


class Table:
    def __init__(self, title: str) -> None:
        self.title = title
        self.rows: list[tuple[str, int, float]] = []

    def add(self, name: str, hands: int, seconds: float) -> float:
        self.rows.append((name, hands, seconds))
        return hands / seconds

    def rate(self, name: str) -> float:
        return next(h / s for n, h, s in self.rows if n == name)

    def show(self, reference: str) -> None:
        ref = self.rate(reference)
        print(f"\n{self.title}")
        print(f"  {'evaluator':<44} {'hands':>10} {'hands/s':>14} {'vs ' + reference:>22}")
        for name, hands, seconds in self.rows:
            rate = hands / seconds
            print(f"  {name:<44} {hands:>10,} {rate:>14,.0f} {rate / ref:>21.2f}x")


def bench_high(hands: npt.NDArray[np.uint8], args: argparse.Namespace) -> Table:
    n, k = hands.shape
    table = Table(f"{k}-card high hands ({n:,} random hands)")
    as_lists = hands.tolist()
    as_tuples = [tuple(h) for h in as_lists]
    ours = high_batch(hands)

    seconds, _ = best_time(lambda: high_batch(hands), args.repeat)
    table.add("studpoker high_batch (uint8 array)", n, seconds)
    seconds, _ = best_time(lambda: high_batch(hands, check=False), args.repeat)
    table.add("studpoker high_batch(check=False)", n, seconds)
    wide = hands.astype(np.int64)
    seconds, _ = best_time(lambda: high_batch(wide), args.repeat)
    table.add("studpoker high_batch (int64 array)", n, seconds)

    card_lists = [[CARDS[c] for c in h] for h in as_lists]
    seconds, values = best_time(lambda: [high_value(h) for h in card_lists], 1)
    assert values == ours.tolist()
    table.add("studpoker high_value (scalar, Card objects)", n, seconds)
    seconds, _ = best_time(lambda: [high_value(h) for h in as_lists], 1)
    table.add("studpoker high_value (scalar, int lists)", n, seconds)

    try:
        from phevaluator import _pheval
    except ImportError:
        print("phevaluator is not installed: pip install -e '.[bench]'")
        raise
    evaluate = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}[k]
    # The fastest way to call the C extension from Python: starmap over tuples of ints.
    seconds, values = best_time(lambda: list(itertools.starmap(evaluate, as_tuples)), args.repeat)
    assert (7463 - np.array(values) == ours).all(), "phevaluator disagrees"
    table.add("phevaluator C extension (starmap)", n, seconds)

    try:
        import eval7

        cards7 = [[eval7.Card(R[c >> 2] + S[c & 3]) for c in h] for h in as_lists]
        ev = eval7.evaluate
        seconds, values = best_time(lambda: [ev(h) for h in cards7], 1)
        _check_order(ours, np.array(values))
        table.add("eval7 evaluate", n, seconds)
    except ImportError:
        print("eval7 not installed; skipped")

    try:
        from treys import Card as TreysCard
        from treys import Evaluator

        treys_eval = Evaluator().evaluate
        cards_t = [[TreysCard.new(R[c >> 2] + S[c & 3]) for c in h] for h in as_lists[: args.treys]]
        seconds, values = best_time(lambda: [treys_eval(h[:2], h[2:]) for h in cards_t], 1)
        _check_order(ours[: args.treys], -np.array(values))
        table.add("treys Evaluator.evaluate", len(cards_t), seconds)
    except ImportError:
        print("treys not installed; skipped")

    try:
        from pokerkit import Card as PkCard
        from pokerkit import StandardHighHand

        pk = [list(PkCard.parse("".join(R[c >> 2] + S[c & 3] for c in h))) for h in as_lists[: args.slow]]
        seconds, _ = best_time(lambda: [StandardHighHand.from_game(h) for h in pk], 1)
        table.add("pokerkit StandardHighHand.from_game", len(pk), seconds)
    except ImportError:
        print("pokerkit not installed; skipped")
    return table


def _check_order(ours: npt.NDArray[np.int32], theirs: npt.NDArray[np.int64]) -> None:
    pairs = np.unique(np.stack([ours.astype(np.int64), theirs.astype(np.int64)], axis=1), axis=0)
    assert len(np.unique(pairs[:, 0])) == len(pairs) == len(np.unique(pairs[:, 1])), "orders differ"
    assert (np.diff(pairs[:, 1]) > 0).all(), "orders differ"


def bench_lows(hands: npt.NDArray[np.uint8], args: argparse.Namespace) -> tuple[Table, Table]:
    n, k = hands.shape
    low = Table(f"{k}-card eight-or-better lows ({n:,} random hands)")
    seconds, _ = best_time(lambda: low8_batch(hands), args.repeat)
    low.add("studpoker low8_batch (uint8 array)", n, seconds)
    seconds, _ = best_time(lambda: low8_batch(hands, check=False), args.repeat)
    low.add("studpoker low8_batch(check=False)", n, seconds)
    card_lists = [[CARDS[c] for c in h] for h in hands.tolist()]
    seconds, _ = best_time(lambda: [low8_value(h) for h in card_lists], 1)
    low.add("studpoker low8_value (scalar, Card objects)", n, seconds)
    razz = Table(f"{k}-card razz lows ({n:,} random hands)")
    seconds, _ = best_time(lambda: razz_batch(hands), args.repeat)
    razz.add("studpoker razz_batch (uint8 array)", n, seconds)

    from pokerkit import Card as PkCard
    from pokerkit import EightOrBetterLowHand, RegularLowHand

    pk = [list(PkCard.parse("".join(R[c >> 2] + S[c & 3] for c in h))) for h in hands[: args.slow].tolist()]
    seconds, _ = best_time(lambda: [EightOrBetterLowHand.from_game_or_none(h) for h in pk], 1)
    low.add("pokerkit EightOrBetterLowHand.from_game_or_none", len(pk), seconds)
    seconds, _ = best_time(lambda: [RegularLowHand.from_game(h) for h in pk], 1)
    razz.add("pokerkit RegularLowHand.from_game", len(pk), seconds)
    return low, razz


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1_000_000, help="random hands per size (default 1,000,000)")
    parser.add_argument("--slow", type=int, default=20_000, help="hands given to PokerKit (default 20,000)")
    parser.add_argument("--treys", type=int, default=1_000_000, help="hands given to treys (default all)")
    parser.add_argument("--repeat", type=int, default=5, help="best of this many runs for fast paths")
    args = parser.parse_args()
    args.treys = min(args.treys, args.hands)
    args.slow = min(args.slow, args.hands)

    print(f"Python {platform.python_version()}, NumPy {np.__version__}, {platform.machine()}, {platform.processor()}")
    seven = random_hands(args.hands, 7, seed=7)
    five = random_hands(args.hands, 5, seed=5)
    high_batch(seven[:10])  # build the tables before timing (about 0.3 s, once per process)
    high_batch(five[:10])
    low8_batch(seven[:10])
    razz_batch(seven[:10])
    high_value(seven[0].tolist())
    low8_value(seven[0].tolist())

    high7 = bench_high(seven, args)
    high7.show("phevaluator C extension (starmap)")
    high5 = bench_high(five, args)
    high5.show("phevaluator C extension (starmap)")
    low, razz = bench_lows(seven, args)
    low.show("pokerkit EightOrBetterLowHand.from_game_or_none")
    razz.show("pokerkit RegularLowHand.from_game")

    batch_vs_phe = high7.rate("studpoker high_batch (uint8 array)") / high7.rate("phevaluator C extension (starmap)")
    low_vs_pk = low.rate("studpoker low8_batch (uint8 array)") / low.rate(
        "pokerkit EightOrBetterLowHand.from_game_or_none"
    )
    scalar_vs_treys = high7.rate("studpoker high_value (scalar, Card objects)") / high7.rate("treys Evaluator.evaluate")
    print("\nTargets")
    for label, ratio, goal in [
        ("batch 7-card high vs phevaluator", batch_vs_phe, 5),
        ("batch eight-or-better low vs pokerkit", low_vs_pk, 2000),
        ("scalar 7-card high vs treys", scalar_vs_treys, 5),
    ]:
        verdict = "met" if ratio >= goal else "NOT met"
        print(f"  {label:<40} {ratio:>10,.1f}x  (target {goal:,}x: {verdict})")


if __name__ == "__main__":
    main()
