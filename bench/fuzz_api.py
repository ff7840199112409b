"""Soak the card room's HTTP API with Schemathesis: many examples an operation, several seeds, then the books.

Starts ``stud serve``'s app on a free loopback port with a fresh SQLite database (or ``--db``), signs up an admin
(so every operation is reachable) and runs Schemathesis's every phase (examples, coverage, fuzzing, stateful
sequences along the schema's links) with every check but "valid input is accepted" (a valid buy-in above the
balance is rightly refused), once per seed; then checks the ledger's invariant (summed in SQL and in Python). The
test suite runs the same at 15 examples an operation (tests/server/test_schema.py).

    python bench/fuzz_api.py --examples 500 --seeds 3

Prints each run's summary line and time, and exits non-zero if any run failed or the books do not balance.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.live import serve  # noqa: E402
from tests.server.test_schema import admin_token, fuzz_settings, run_schemathesis  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=200, help="examples an operation (default 200)")
    parser.add_argument("--seeds", type=int, default=2, help="runs, each with its own seed (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="the first seed (default 1)")
    args = parser.parse_args()

    from studpoker.server.db import Database
    from studpoker.server.ledger import check_invariants

    failed = 0
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        settings = fuzz_settings(folder, max_tables=10_000)
        with serve(settings) as base:
            token = admin_token(base, settings.db_url)
            for seed in range(args.seed, args.seed + args.seeds):
                started = time.perf_counter()
                result = run_schemathesis(base, token, folder, args.examples, seed)
                seconds = time.perf_counter() - started
                cases = re.search(r"(\d+) generated, ([^\n]*)", result.stdout)
                line = cases.group(0) if cases else "(no summary)"
                print(f"seed {seed}: {line} in {seconds:.1f} s, exit {result.returncode}", flush=True)
                if result.returncode != 0:
                    failed += 1
                    print(result.stdout[-8000:], file=sys.stderr)
        db = Database(settings.db_url)
        try:
            books = db.transaction(check_invariants)
        except AssertionError as error:
            print(f"the books do not balance: {error}")
            return 1
        finally:
            db.close()
    print(f"books: granted {books.granted:,} = balances {books.balances:,} + at tables {books.at_tables:,}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
