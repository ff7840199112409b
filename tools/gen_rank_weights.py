"""Generate the additive rank weights used by studpoker's evaluators (``RANK_WEIGHTS`` in
``src/studpoker/evaluation/_tables.py``).

The weights must give every multiset of up to seven ranks (no rank more than
four times) of the same size its own sum, so that a hand's rank multiset can be
looked up by adding one number per card. A greedy search takes, for each rank
in turn, the smallest weight larger than the previous one that creates no
collision: a weight ``w`` for the new rank collides iff ``s1 + m1 * w == s2 + m2 * w``
for two partial multisets of the earlier ranks (sums ``s1``, ``s2``) and
multiplicities ``m1 < m2`` of the new rank with equal total size, i.e. iff
``w == (s1 - s2) / (m2 - m1)``; those values are struck out and the first one
left is taken. Runs in about 15 seconds.

    python tools/gen_rank_weights.py          # print the weights
    python tools/gen_rank_weights.py --check  # compare with the ones shipped
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

MAX_CARDS = 7
MAX_SAME_RANK = 4
RANKS = 13
SEARCH_SPAN = 4_000_000


def generate() -> list[int]:
    weights = [0]
    # sums[t]: the sums of all multisets of t cards over the ranks chosen so far.
    sums = {t: np.array([0], dtype=np.int64) if t <= MAX_SAME_RANK else np.empty(0, np.int64) for t in range(8)}
    for _ in range(1, RANKS):
        low = weights[-1] + 1
        struck = np.zeros(SEARCH_SPAN, dtype=bool)
        for total in range(1, MAX_CARDS + 1):
            for m1 in range(min(MAX_SAME_RANK, total) + 1):
                for m2 in range(m1 + 1, min(MAX_SAME_RANK, total) + 1):
                    a, b, d = sums[total - m1], sums[total - m2], m2 - m1
                    for start in range(0, len(a), 2000):
                        diff = (a[start : start + 2000, None] - b[None, :]).ravel()
                        diff = diff[(diff >= low * d) & (diff < (low + SEARCH_SPAN) * d) & (diff % d == 0)] // d
                        struck[diff - low] = True
        weight = low + int(np.argmin(struck))
        assert not struck[weight - low], "search span too small"
        weights.append(weight)
        sums = {
            t: np.concatenate([sums[t - m] + m * weight for m in range(min(MAX_SAME_RANK, t) + 1)])
            for t in range(MAX_CARDS + 1)
        }
        for t in range(MAX_CARDS + 1):
            assert len(np.unique(sums[t])) == len(sums[t])
    return weights


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with studpoker's RANK_WEIGHTS")
    args = parser.parse_args()
    weights = generate()
    print(tuple(weights))
    if args.check:
        from studpoker.evaluation._tables import RANK_WEIGHTS

        if tuple(weights) != RANK_WEIGHTS:
            print(f"differs from the shipped RANK_WEIGHTS {RANK_WEIGHTS}", file=sys.stderr)
            return 1
        print("matches the shipped RANK_WEIGHTS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
