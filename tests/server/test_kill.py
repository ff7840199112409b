"""A card room killed outright (SIGKILL, no shutdown at all) in the middle of a hand loses no chip: the next start
voids the hand, returns its chips to the stacks they came from, and the books balance."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from studpoker.server.ledger import check_invariants

from .conftest import PASSWORD, POSTGRES, database_url


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(db: str, port: int) -> subprocess.Popen[bytes]:
    """``stud serve`` in its own process: the default table with bots playing fast, a long clock for people. The
    database URL (PostgreSQL's holds a password) goes in its environment, as ``stud serve`` wants it."""
    command = [sys.executable, "-m", "studpoker", "serve", "--port", str(port), "--clock", "60"]
    command += ["--bot-delay", "0.01", "--between-hands", "0", "--showdown-seconds", "0", "--log-level", "warning"]
    environment = {**os.environ, "STUDPOKER_DB_URL": db}
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment)


def wait_until(check: Any, what: str, seconds: float = 30.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            result = check()
        except httpx.HTTPError:
            result = None
        if result:
            return result
        time.sleep(0.1)
    raise AssertionError(f"gave up waiting for {what}")


def test_a_killed_server_loses_no_chip(tmp_path: Path) -> None:
    db = database_url(tmp_path) if POSTGRES else f"sqlite:///{tmp_path / 'room.db'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve(db, port)
    try:
        with httpx.Client(base_url=base, timeout=5, headers={"origin": base}) as ann:
            wait_until(lambda: ann.get("/api/tables").status_code == 200, "the server to start")
            assert ann.post("/api/signup", json={"username": "ann", "password": PASSWORD}).status_code == 201
            table = ann.get("/api/tables").json()["tables"][0]["id"]
            assert ann.post(f"/api/tables/{table}/sit", json={"buy_in": 400}).status_code == 200
            # the bots play on; once a hand with ann in it is dealt, it waits for her (a 60 s clock)
            wait_until(lambda: ann.get(f"/api/tables/{table}").json()["playing"], "a hand to be dealt")
            time.sleep(0.5)
            assert ann.get(f"/api/tables/{table}").json()["playing"]
        server.kill()  # SIGKILL: no shutdown code runs
        server.wait(timeout=10)
        server = serve(db, port)
        with httpx.Client(base_url=base, timeout=5) as client:
            wait_until(lambda: client.get("/api/tables").status_code == 200, "the server to start again")
            hands = client.get(f"/api/tables/{table}/hands").json()["hands"]
            assert "voided" in [h["status"] for h in hands], hands
    finally:
        server.kill()
        server.wait(timeout=10)
    engine = create_engine(db)
    try:
        with Session(engine) as session:
            books = check_invariants(session)  # raises if a chip went missing anywhere
    finally:
        engine.dispose()
    assert books.at_tables > 0
