"""Soak of the room on several processes: table workers killed at random while bots play, then the books checked.

Starts a private ``redis-server`` on a free loopback port with a password (bench/load.py's ``private_redis``: an
ACL user as docs/server.md sets one up), a fresh PostgreSQL database (made from ``--postgres``, default
``$STUDPOKER_TEST_POSTGRES``, an admin URL of a role that may create databases; dropped at the end unless
``--keep``), ``--workers`` table workers and one gateway (``python -m studpoker serve --role ...``, the URLs in
their environment, not on their command lines), and opens ``--tables`` tables of 6 server bots through the
gateway's API (as an admin made straight in the database). Every ``--kill-every`` seconds (0.5 to 1.5 times it) it
kills a random worker with SIGKILL and starts another. Every 5 seconds it samples every table's ``hand_number``.

At the end (after ``--minutes``) it stops every process gracefully (workers drain), starts one worker to take every
table (voiding whatever a kill left unfinished), stops it, and checks, in SQL:

* no chip lost: :func:`studpoker.server.ledger.check_invariants` (balances equal the ledger, each table's ledger
  equals its seats, the ledger sums to zero);
* no hand stuck: no hand left ``playing``; every table dealt in every window of ``--stuck-seconds`` (default 60)
  except the windows right after a kill of its worker (lease plus claim);
* each kill's tables were taken by another worker (their lease generation grew) and their hands in play voided.

    STUDPOKER_TEST_POSTGRES=postgresql+psycopg://studpoker_ci:studpoker_ci@localhost/postgres \\
        python bench/soak.py --minutes 30
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from load import private_redis


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def admin_url(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def make_database(url: str) -> str:
    import psycopg
    from sqlalchemy.engine import make_url

    name = "studpoker_soak_" + uuid.uuid4().hex[:10]
    with psycopg.connect(admin_url(url), autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def drop_database(admin: str, url: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    name = make_url(url).database
    with psycopg.connect(admin_url(admin), autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Processes:
    """The soak's processes: Redis, the workers, the gateway; each logging to a file."""

    def __init__(self, folder: Path, db: str, redis_port: int, lease: float) -> None:
        self.folder, self.db, self.lease = folder, db, lease
        self.workers: list[subprocess.Popen[bytes]] = []
        self.others: list[subprocess.Popen[bytes]] = []
        self.count = 1
        with open(self.folder / "001-redis.log", "wb") as log:
            redis, self.redis_url = private_redis(redis_port, log)
        self.others.append(redis)

    def _start(self, name: str, command: list[str]) -> subprocess.Popen[bytes]:
        """A room process, the URLs (with their passwords) in its environment."""
        self.count += 1
        log = open(self.folder / f"{self.count:03d}-{name}.log", "wb")  # noqa: SIM115 - the process keeps it
        env = {**os.environ, "STUDPOKER_DB_URL": self.db, "STUDPOKER_REDIS_URL": self.redis_url}
        return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)

    def serve(self, role: str, *extra: str) -> list[str]:
        command = [sys.executable, "-m", "studpoker", "serve", "--role", role]
        command += ["--lease-seconds", str(self.lease), "--log-level", "warning"]
        command += ["--bot-delay", "0.3", "--between-hands", "1", "--showdown-seconds", "1", "--drain-seconds", "30"]
        return command + list(extra)

    def worker(self) -> subprocess.Popen[bytes]:
        process = self._start("worker", self.serve("worker"))
        self.workers.append(process)
        return process

    def gateway(self, port: int) -> subprocess.Popen[bytes]:
        process = self._start("gateway", self.serve("gateway", "--port", str(port), "--no-default-table"))
        self.others.append(process)
        return process

    def stop(self, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def stop_all(self) -> None:
        for process in self.workers:
            self.stop(process)
        for process in reversed(self.others):
            self.stop(process, 10)


def wait_http(base: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/api/tables", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the gateway at {base} did not answer within {seconds:.0f} s")


def wait_workers(redis_url: str, count: int, seconds: float) -> None:
    """Wait until ``count`` table workers have registered in Redis (the set every worker joins when it is up)."""
    import redis

    bus = redis.Redis.from_url(redis_url)
    deadline = time.monotonic() + seconds
    try:
        while bus.zcard("studpoker:workers") < count:
            if time.monotonic() > deadline:
                raise SystemExit(f"{count} table workers did not come up within {seconds:.0f} s")
            time.sleep(0.2)
    finally:
        bus.close()


def post(base: str, path: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Cookie": f"studpoker_session={token}", "Origin": base},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        result: dict[str, Any] = json.loads(response.read())
        return result


def make_admin(db_url: str) -> str:
    from studpoker.server.auth import Passwords, create_account, new_session
    from studpoker.server.db import Database

    db = Database(db_url)
    db.migrate()
    hashed = Passwords(time_cost=1, memory_kib=1024).hash("soak-password-ok")

    def work(session: Any) -> str:
        account = create_account(session, "soakadmin", hashed, 10_000)
        account.is_admin = True
        return new_session(session, account.id)

    token = db.transaction(work)
    db.close()
    return token


def sample(db: Any) -> dict[int, int]:
    from sqlalchemy import select

    from studpoker.server.db import TableRow

    return db.transaction(lambda s: {int(i): int(n) for i, n in s.execute(select(TableRow.id, TableRow.hand_number))})


def owners(db: Any) -> dict[int, tuple[str | None, int]]:
    from sqlalchemy import select

    from studpoker.server.db import LeaseRow

    return db.transaction(
        lambda s: {
            int(t): (w, int(g))
            for t, w, g in s.execute(select(LeaseRow.table_id, LeaseRow.worker, LeaseRow.generation))
        }
    )


def check_books(db: Any) -> dict[str, Any]:
    from sqlalchemy import func, select

    from studpoker.server.db import HandRow, LedgerEntry
    from studpoker.server.ledger import check_invariants

    invariants = db.transaction(check_invariants)

    def counts(session: Any) -> dict[str, int]:
        by_status = dict(session.execute(select(HandRow.status, func.count(HandRow.id)).group_by(HandRow.status)).all())
        voids = session.scalar(select(func.count(LedgerEntry.id)).where(LedgerEntry.kind == "void"))
        return {**{str(k): int(v) for k, v in by_status.items()}, "void_rows": int(voids or 0)}

    return {"invariants": str(invariants), **db.transaction(counts)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--postgres",
        default=os.environ.get("STUDPOKER_TEST_POSTGRES"),
        metavar="URL",
        help="a PostgreSQL URL of a role that may create databases (default $STUDPOKER_TEST_POSTGRES)",
    )
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--kill-every", type=float, default=120.0, metavar="SECONDS")
    parser.add_argument("--lease-seconds", type=float, default=5.0)
    parser.add_argument("--stuck-seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the database and the logs")
    args = parser.parse_args()
    if not args.postgres:
        parser.error("give --postgres URL or set $STUDPOKER_TEST_POSTGRES")
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="studpoker-soak-"))
    db_url = make_database(args.postgres)
    from studpoker.server.db import Database

    token = make_admin(db_url)
    processes = Processes(folder, db_url, free_port(), args.lease_seconds)
    db = Database(db_url)
    report: dict[str, Any] = {"logs": str(folder)}
    try:
        for _ in range(args.workers):
            processes.worker()
        port = free_port()
        processes.gateway(port)
        base = f"http://127.0.0.1:{port}"
        wait_http(base, 60)
        wait_workers(processes.redis_url, args.workers, 120)  # a table made before any worker listens gets no bots
        variants = ["STUD7", "STUD7_HL8", "RAZZ", "STUD5"]
        for i in range(args.tables):
            post(
                base,
                "/api/tables",
                token,
                {"name": f"Soak {i}", "variant": variants[i % 4], "small_bet": 10, "bots": 5},
            )
        print(
            f"soak: {args.tables} tables of 5 bots, {args.workers} workers, {args.minutes:g} minutes; logs in {folder}",
            flush=True,
        )
        start = time.monotonic()
        end = start + args.minutes * 60
        next_kill = start + args.kill_every * (0.5 + rng.random())
        kills: list[dict[str, Any]] = []
        last_progress: dict[int, float] = {}
        last_number: dict[int, int] = {}
        stalls: list[dict[str, Any]] = []
        while time.monotonic() < end:
            time.sleep(5)
            now = time.monotonic()
            numbers = sample(db)
            for table, number in numbers.items():
                if number != last_number.get(table):
                    last_number[table], last_progress[table] = number, now
                idle = now - last_progress.get(table, now)
                recent_kill = any(now - k["at"] < args.stuck_seconds + 2 * args.lease_seconds for k in kills)
                if idle > args.stuck_seconds and not recent_kill:
                    stalls.append({"table": table, "idle": round(idle, 1), "minute": round((now - start) / 60, 1)})
                    last_progress[table] = now  # counted once per window
            if now >= next_kill:
                alive = [p for p in processes.workers if p.poll() is None]
                before = owners(db)
                holding = {w.split("-")[-2] for w, _ in before.values() if w}
                victim = rng.choice([p for p in alive if str(p.pid) in holding] or alive)  # one that holds tables
                held = [t for t, (w, _) in before.items() if w and w.split("-")[-2] == str(victim.pid)]
                victim.kill()
                victim.wait()
                processes.workers.remove(victim)
                processes.worker()
                kills.append(
                    {"at": now, "pid": victim.pid, "tables": held, "generations": {t: before[t][1] for t in held}}
                )
                print(
                    f"soak: minute {(now - start) / 60:.1f}: killed worker {victim.pid} (it held {len(held)} tables)",
                    flush=True,
                )
                next_kill = now + args.kill_every * (0.5 + rng.random())
        hands_before_stop = sum(sample(db).values())
        processes.stop_all()
        # one worker takes every table (voiding what a kill left in play) and drains
        processes.workers = []
        last = processes.worker()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(w is None for w, _ in owners(db).values()):
            time.sleep(0.5)
        processes.stop(last)
        after = owners(db)
        taken_over = sum(1 for k in kills for t in k["tables"] if after.get(t, (None, 0))[1] > k["generations"][t])
        books = check_books(db)
        report.update(
            {
                "minutes": args.minutes,
                "tables": args.tables,
                "kills": len(kills),
                "tables_held_by_killed_workers": sum(len(k["tables"]) for k in kills),
                "of_which_taken_over": taken_over,
                "hands_dealt": hands_before_stop,
                "stalls": stalls,
                **books,
            }
        )
        ok = not stalls and books.get("playing", 0) == 0 and taken_over == sum(len(k["tables"]) for k in kills)
        report["ok"] = ok
        print(json.dumps(report, indent=2))
        return 0 if ok else 1
    finally:
        processes.stop_all()
        db.close()
        if not args.keep:
            drop_database(args.postgres, db_url)
            if report.get("ok"):
                shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
