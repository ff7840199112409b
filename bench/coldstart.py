"""Cold start: how long a fresh process takes to answer, from the command line to the command line.

    python bench/coldstart.py                # 10 runs of each command
    python bench/coldstart.py --runs 20
    python bench/coldstart.py --cold-cache   # also time the first use, with an empty table cache

Each run is a new process started with ``subprocess.run`` and timed with ``time.perf_counter`` around it (wall
time, interpreter start-up included). Three commands:

* ``stud equity`` on a seventh-street spot (two players, seven known cards each: one outcome), which loads the
  7-card tables, NumPy and the equity code; target: a median under :data:`TARGET` seconds (issue 16);
* ``stud eval`` on seven cards: the scalar path (no NumPy once the tables are cached);
* ``python -c "import studpoker"``: the package's own import cost.

Printed per command: the minimum, median and maximum wall time, and the median CPU time (user + system) of the
child, which a busy machine inflates less than the wall time; the load average before the runs says how busy.

Bytecode: an installed package has its ``.pyc`` files (pip writes them at install time), so the children run with
``PYTHONDONTWRITEBYTECODE`` removed and ``PYTHONPYCACHEPREFIX`` pointing at a temporary directory that the
warm-up fills (nothing is written into the source tree); ``--no-bytecode`` keeps the environment as it is, which
with ``PYTHONDONTWRITEBYTECODE=1`` times compiling every module from source on each run as well.

The tables come from the per-user cache (``STUDPOKER_CACHE``, else ``$XDG_CACHE_HOME/studpoker``, else
``~/.cache/studpoker``); one untimed warm-up run fills it first. ``--cold-cache`` adds the runs that find the cache
empty (a fresh temporary directory per run), which is what the first use after an install or upgrade costs.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The target of issue 16: ``stud equity`` on a seventh-street spot, median wall time of a cold process.
TARGET = 0.12

SPOT = ("As Ad 7c 7h 2s Kd 9c", "Kh Qh Jh Th 3c 4d 5s")


def _stud() -> list[str]:
    """The ``stud`` entry point of this interpreter's environment, else ``python -m studpoker``."""
    script = Path(sys.executable).with_name("stud")
    return [str(script)] if script.exists() else [sys.executable, "-m", "studpoker"]


def _time(
    command: list[str], runs: int, env: dict[str, str], fresh_cache: bool = False
) -> tuple[list[float], list[float]]:
    """Wall seconds and CPU seconds (user + system, of the child) of ``runs`` fresh processes."""
    walls, cpus = [], []
    for _ in range(runs):
        run_env = dict(env)
        scratch = tempfile.mkdtemp(prefix="studpoker-coldstart-") if fresh_cache else None
        if scratch is not None:
            run_env["STUDPOKER_CACHE"] = scratch
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, env=run_env, check=True, stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    return walls, cpus


def _line(name: str, times: tuple[list[float], list[float]]) -> str:
    walls, cpus = times
    return (
        f"  {name:<30} {min(walls):7.3f} {statistics.median(walls):8.3f} {max(walls):7.3f}"
        f" {statistics.median(cpus):10.3f}   ({len(walls)} runs)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="fresh processes per command (default: 10)")
    parser.add_argument("--cold-cache", action="store_true", help="also time runs with an empty table cache")
    parser.add_argument("--no-bytecode", action="store_true", help="leave PYTHONDONTWRITEBYTECODE as it is")
    args = parser.parse_args()
    env = dict(os.environ)
    pycache = None
    if not args.no_bytecode:
        pycache = tempfile.mkdtemp(prefix="studpoker-pycache-")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache
    try:
        return _run(args, env)
    finally:
        if pycache is not None:
            shutil.rmtree(pycache, ignore_errors=True)


def _run(args: argparse.Namespace, env: dict[str, str]) -> int:
    stud = _stud()
    commands = {
        "stud equity (7th street)": [*stud, "equity", *SPOT],
        "stud eval (7 cards)": [*stud, "eval", *SPOT[0].split()],
        'python -c "import studpoker"': [sys.executable, "-c", "import studpoker"],
    }
    for command in commands.values():  # warm-up: fills the table cache and the OS's file cache
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    bytecode = "from .pyc files" if "PYTHONPYCACHEPREFIX" in env else "as the environment has it"
    print(f"Python {sys.version.split()[0]}; modules loaded {bytecode}; seconds per fresh process")
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"  {'command':<30} {'min':>7} {'median':>8} {'max':>7} {'median CPU':>10}")
    results = {name: _time(command, args.runs, env) for name, command in commands.items()}
    for name, times in results.items():
        print(_line(name, times))
    if args.cold_cache:
        cold = _time(commands["stud equity (7th street)"], args.runs, env, fresh_cache=True)
        print(_line("stud equity, empty cache", cold))
    median = statistics.median(results["stud equity (7th street)"][0])
    verdict = "met" if median < TARGET else "NOT met"
    print(f"\nTarget: stud equity on 7th street under {TARGET} s (median): {median:.3f} s, {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
