"""Bot strength: the tight-aggressive bot's win rate against the simple bots, in every stud game.

    python bench/bots.py                       # 10,000 hands per game and opponent (a few minutes)
    python bench/bots.py --hands 2000 --seed 7
    python bench/bots.py --variant RAZZ --opponent random

What is measured: for each game (seven-card stud, stud hi/lo eight-or-better, five-card stud, razz) and each
opponent type (``random``: a uniform choice among the legal actions; ``calling-station``: checks or calls to
the end, never folds, never raises), one ``tight-aggressive`` bot and ``--opponents`` copies of the opponent
play ``--hands`` hands at one table with ``studpoker.bots.run_match``: the casino preset (ante 1, bring-in 3,
10/20, three raises after the opening wager, open-pair double bet where the game has it), everyone buying in
for the minimum (200 chips = 10 big bets) and rebuying when busted. The table is seeded with ``--seed``; the
TAG bot with ``--seed``, the opponents with ``--seed + 1 + i``, so a run is reproducible.

Reported per line: the TAG bot's win rate in big bets (20 chips) per 100 hands, the 95 % confidence interval
of that rate (mean ± 1.96 · sd / √hands over the per-hand results, scaled to 100 hands), and the speed of the
whole match in hands per second (engine, table, all bots, on one thread; the clock is ``time.perf_counter``).
"""

from __future__ import annotations

import argparse
import platform
import time

from studpoker.bots import TightAggressive, make_bot, run_match
from studpoker.engine import Rules, Variant

OPPONENTS = ("random", "calling-station")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=10_000, help="hands per game and opponent (default 10,000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the table and the bots (default 1)")
    parser.add_argument("--opponents", type=int, default=5, help="opponents at the table (default 5)")
    parser.add_argument("--variant", choices=[v.value for v in Variant], action="append", help="only this game")
    parser.add_argument("--opponent", choices=OPPONENTS, action="append", help="only this opponent type")
    args = parser.parse_args()
    variants = [Variant(v) for v in args.variant] if args.variant else list(Variant)
    opponents = args.opponent or list(OPPONENTS)

    print(
        f"1 tight-aggressive + {args.opponents} opponents; ante 1, bring-in 3, 10/20 (casino preset);"
        f" {args.hands:,} hands per line, seed {args.seed}"
    )
    print(f"Python {platform.python_version()} on {platform.machine()} ({platform.processor() or platform.system()})")
    print()
    print(f"{'game':<10} {'opponent':<16} {'hands':>7} {'bb/100':>8} {'95% interval':>18} {'hands/s':>8}")
    for variant in variants:
        rules = Rules(variant, ante=1, bring_in=3, small_bet=10, big_bet=20)
        for opponent in opponents:
            bots = [TightAggressive(seed=args.seed)]
            bots += [make_bot(opponent, seed=args.seed + 1 + i) for i in range(args.opponents)]
            start = time.perf_counter()
            result = run_match(rules, bots, args.hands, seed=args.seed)
            seconds = time.perf_counter() - start
            low, high = result.interval(0)
            print(
                f"{variant.value:<10} {opponent:<16} {result.hands:>7,} {result.bb_per_100(0):>8.1f}"
                f" {f'[{low:.1f}, {high:.1f}]':>18} {result.hands / seconds:>8,.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
