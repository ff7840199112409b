"""Two builds of studpoker read the same room file at the same time, one process on each core: per run, the
microseconds a hand of each (reading alone, and reading + replay + check), and how many times as fast B is.

On a machine whose speed wanders from one minute to the next (a shared or throttled one), runs one after the other
cannot show a step of 20 %; two runs at the same moment meet the same machine. Each side is a ``src`` folder with
its compiled modules built (``pip install -e .`` in that checkout, or ``python setup.py build_ext --inplace``); the
measure is ``read_and_verify`` of ``bench/replay.py`` (this checkout's) on its ``--rooms`` text.

    python bench/versus.py ../old/src src --runs 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: What each side runs: the room's text made as bench/replay.py makes it, a warm-up, then timed rounds.
CHILD = """
import json, statistics, sys, time
sys.path.insert(0, {bench!r})
from pathlib import Path
import replay
import studpoker
text, count = replay.room_texts(Path({data!r}), {hands})[{room!r}]
replay.read_and_verify(text, {room!r})
reads, totals = [], []
for _ in range({rounds}):
    start = time.perf_counter()
    _, read = replay.read_and_verify(text, {room!r})
    totals.append((time.perf_counter() - start) / count * 1e6)
    reads.append(read / count * 1e6)
print(json.dumps({{"read": statistics.median(reads), "total": statistics.median(totals), "hands": count,
                  "from": studpoker.__file__}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", type=Path, help="the first build's src folder (the old one)")
    parser.add_argument("b", type=Path, help="the second build's src folder (the new one)")
    parser.add_argument("--room", choices=["pokerstars", "ipoker"], default="pokerstars")
    parser.add_argument("--runs", type=int, default=5, help="runs of the two at once (default 5)")
    parser.add_argument("--hands", type=int, default=10_000, help="hands in the text (default 10,000)")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds a run, after a warm-up (default 3)")
    parser.add_argument(
        "--data", type=Path, default=Path(os.environ.get("STUDPOKER_DATA", HERE.parent.parent / "shared" / "data"))
    )
    args = parser.parse_args()
    for side in (args.a, args.b):
        if not (side / "studpoker" / "__init__.py").is_file():
            raise SystemExit(f"bench/versus.py: {side} is not a src folder holding studpoker/")
    code = CHILD.format(bench=str(HERE), data=str(args.data), hands=args.hands, room=args.room, rounds=args.rounds)
    print(f"{args.room}, {args.rounds} rounds a run (medians, microseconds a hand); A = {args.a}, B = {args.b}")
    print(f"{'run':>3} {'A read':>8} {'A whole':>8} {'B read':>8} {'B whole':>8} {'read':>7} {'whole':>7}")
    ratios: list[tuple[float, float]] = []
    for run in range(1, args.runs + 1):
        children = [
            subprocess.Popen(
                [sys.executable, "-c", code],
                env={**os.environ, "PYTHONPATH": str(side.resolve())},
                stdout=subprocess.PIPE,
                text=True,
            )
            for side in (args.a, args.b)
        ]
        results = []
        for side, child in zip((args.a, args.b), children, strict=True):
            out, _ = child.communicate()
            if child.returncode != 0:
                raise SystemExit(f"bench/versus.py: the run of {side} failed (exit {child.returncode})")
            results.append(json.loads(out.strip().splitlines()[-1]))
        a, b = results
        if not a["from"].startswith(str(args.a.resolve())) or not b["from"].startswith(str(args.b.resolve())):
            raise SystemExit(f"bench/versus.py: imported {a['from']} and {b['from']}, not the two src folders")
        if a["hands"] != b["hands"]:
            raise SystemExit(f"bench/versus.py: A read {a['hands']} hands, B {b['hands']}")
        ratio = (a["read"] / b["read"], a["total"] / b["total"])
        ratios.append(ratio)
        print(
            f"{run:>3} {a['read']:>8.0f} {a['total']:>8.0f} {b['read']:>8.0f} {b['total']:>8.0f}"
            f" {ratio[0]:>6.2f}x {ratio[1]:>6.2f}x"
        )
    read = statistics.median(r for r, _ in ratios)
    whole = statistics.median(w for _, w in ratios)
    print(f"\nB is {read:.2f}x as fast as A at reading, {whole:.2f}x at reading + replay + check (medians of the runs)")


if __name__ == "__main__":
    main()
