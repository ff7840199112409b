"""Schema-driven fuzzing: Schemathesis runs every operation of the published OpenAPI schema against a live card
room, with valid and invalid input, then stateful sequences (links it infers: open a table, sit at it, top up,
leave...). It checks that no answer is a 5xx, that every answer has a documented status, content type, headers
and body, and that invalid input is refused; afterwards the books must balance, summed by the database.

The suite runs a bounded number of examples (``STUDPOKER_FUZZ_EXAMPLES``, 15 by default); ``bench/fuzz_api.py``
runs the same with many more, as a soak.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import update

from studpoker.server.config import Settings
from studpoker.server.db import Account, Database
from studpoker.server.ledger import check_invariants

from .conftest import PASSWORD, make_settings
from .live import serve

EXAMPLES = int(os.environ.get("STUDPOKER_FUZZ_EXAMPLES", "15"))


def fuzz_config(base: str, token: str, examples: int, seed: int) -> str:
    """The Schemathesis configuration: the room's Origin (its pages send it), the session cookie as the schema's
    ``cookieAuth`` scheme, every check but "valid input is accepted" (a valid buy-in larger than the balance
    is rightly refused), and logout and signing out everywhere left out (they would end the session the rest of the
    run uses)."""
    return f"""
headers = {{ Origin = "{base}" }}
seed = {seed}

[generation]
max-examples = {examples}

[checks]
positive_data_acceptance.enabled = false

[auth.openapi.cookieAuth]
api_key = "{token}"

[[operations]]
include-path = "/api/logout"
enabled = false

[[operations]]
include-path = "/api/me/sessions/end"
enabled = false
"""


def admin_token(base: str, db_url: str) -> str:
    """Sign up an account, make it an admin (so every operation is reachable), and return its session token."""
    with httpx.Client(base_url=base, headers={"origin": base}) as client:
        answer = client.post("/api/signup", json={"username": "fuzzer", "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        token = answer.cookies["studpoker_session"]
    db = Database(db_url)
    try:
        db.transaction(lambda s: s.execute(update(Account).values(is_admin=True)))
    finally:
        db.close()
    return token


def run_schemathesis(base: str, token: str, folder: Path, examples: int, seed: int) -> subprocess.CompletedProcess[str]:
    config = folder / "schemathesis.toml"
    config.write_text(fuzz_config(base, token, examples, seed))
    command = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run"]
    command += [f"{base}/api/openapi.json", "--no-color"]
    return subprocess.run(command, capture_output=True, text=True, timeout=900, check=False, cwd=folder)


def fuzz_settings(folder: Path, **overrides: Any) -> Settings:
    """The room under fuzzing: the default table with three quick bots, and no login or failed sign-up throttle
    (the fuzzer's wrong passwords and invalid sign-ups would otherwise lock it out; the throttles have tests of
    their own)."""
    base = make_settings(
        folder,
        default_table=True,
        default_bots=3,
        between_hands=0.05,
        login_failures_per_address=10**6,
        login_failures_per_account=10**6,
        signup_failures_per_address=10**6,
    )
    return replace(base, **overrides)


def test_the_api_holds_up_to_schema_driven_fuzzing(tmp_path: Path) -> None:
    settings = fuzz_settings(tmp_path)
    with serve(settings) as base:
        token = admin_token(base, settings.db_url)
        result = run_schemathesis(base, token, tmp_path, EXAMPLES, seed=20261201)
        summary = result.stdout[result.stdout.find("SUMMARY") :]
        assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
        assert "Stateful" in summary and "generated" in summary
        with httpx.Client(base_url=base, cookies={"studpoker_session": token}) as client:
            books = client.get("/api/admin/books").json()
            assert books["balanced"], books
    db = Database(settings.db_url)
    try:
        totals = db.transaction(check_invariants)  # summed in SQL and in Python
    finally:
        db.close()
    assert totals.granted == totals.balances + totals.at_tables + totals.in_escrow
