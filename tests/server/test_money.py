"""The cashier: buy-ins, cash-outs and top-ups move money between the balance and the table through the ledger,
and the books always balance, even with buy-ins racing on one balance."""

from __future__ import annotations

import random
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fastapi.testclient import TestClient

from .conftest import create_table, invariants, make_settings, room_client, signup


def test_buy_in_and_cash_out(client: TestClient) -> None:
    ann = signup(client, "ann")
    table_id = create_table(ann)
    sat = ann.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 3})
    assert sat.status_code == 200 and sat.json() == {"seat": 3, "stack": 400, "balance": 9600}
    assert ann.get("/api/me").json()["seats"] == [
        {
            "table_id": table_id,
            "table": "Seven-card stud 10/20",
            "seat": 3,
            "stack": 400,
            "queued": 0,
            "sitting_out": False,
        }
    ]
    assert invariants(client).at_tables == 400
    again = ann.post(f"/api/tables/{table_id}/sit", {"buy_in": 400})
    assert again.status_code == 409
    up = ann.post(f"/api/tables/{table_id}/top-up", {"amount": 100})
    assert up.json() == {"queued": False, "stack": 500, "queued_chips": 0, "balance": 9500}
    left = ann.post(f"/api/tables/{table_id}/leave")
    assert left.json() == {"left": True, "cashed_out": 500, "balance": 10_000}
    kinds = [e["kind"] for e in ann.get("/api/ledger").json()["entries"]]
    assert kinds == ["cash_out", "top_up", "buy_in", "grant"]
    assert invariants(client).at_tables == 0
    assert ann.post(f"/api/tables/{table_id}/leave").status_code == 409


def test_refused_buy_ins_change_nothing(client: TestClient) -> None:
    ann = signup(client, "ann")
    table_id = create_table(ann, max_buy_in=50_000)
    cases = [
        ({"buy_in": 20_000}, 402, "insufficient_funds"),
        ({"buy_in": 100}, 400, "invalid"),  # below the minimum of 200
        ({"buy_in": 60_000}, 400, "invalid"),  # above the maximum
        ({"buy_in": "400"}, 400, "invalid"),
        ({"buy_in": 400, "seat": 9}, 400, "invalid"),
        ({}, 400, "invalid"),
    ]
    for body, status, code in cases:
        response = ann.post(f"/api/tables/{table_id}/sit", body)
        assert response.status_code == status and response.json()["error"]["code"] == code, body
    assert ann.get("/api/me").json() == {
        "id": ann.id,
        "username": "ann",
        "balance": 10_000,
        "is_admin": False,
        "seats": [],
    }
    assert client.get(f"/api/tables/{table_id}").json()["seats"] == []
    assert ann.post(f"/api/tables/{table_id}/sit", {"buy_in": 900}).status_code == 200
    over = ann.post(f"/api/tables/{table_id}/top-up", {"amount": 49_200})
    assert over.status_code == 400 and ann.get("/api/me").json()["balance"] == 9100
    assert invariants(client).at_tables == 900


def test_concurrent_buy_ins_never_overdraw(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, starting_balance=1000)
    with room_client(settings) as client:
        ann = signup(client, "ann")
        tables = [create_table(ann, min_buy_in=300, name=f"Table {i}") for i in range(8)]
        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(lambda t: ann.post(f"/api/tables/{t}/sit", {"buy_in": 300}), tables))
        codes = sorted(r.status_code for r in results)
        assert codes == [200] * 3 + [402] * 5
        me = ann.get("/api/me").json()
        assert me["balance"] == 100 and len(me["seats"]) == 3
        assert invariants(client).at_tables == 900


def test_books_balance_under_random_operations(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, action_seconds=0.05, timeouts_to_sit_out=1000)
    rng = random.Random(5)
    with room_client(settings) as client:
        users = [signup(client, name) for name in ("ann", "bob", "cid")]
        tables = [create_table(users[0], bots=2), create_table(users[1], variant="RAZZ", bots=1)]
        for _ in range(60):
            user, table = rng.choice(users), rng.choice(tables)
            op = rng.choice(["sit", "leave", "top-up", "sit-out", "sit-in", "bots", "nobots"])
            if op == "sit":
                user.post(f"/api/tables/{table}/sit", {"buy_in": rng.choice([200, 300, 5000, 20_000])})
            elif op == "top-up":
                user.post(f"/api/tables/{table}/top-up", {"amount": rng.choice([1, 50, 400])})
            elif op == "bots":
                user.post(f"/api/tables/{table}/bots", {"count": 1})
            elif op == "nobots":
                user.delete(f"/api/tables/{table}/bots")
            else:
                user.post(f"/api/tables/{table}/{op}")
            time.sleep(rng.random() * 0.03)
            invariants(client)
        played = sum(client.get(f"/api/tables/{t}").json()["hands_played"] for t in tables)
        assert played > 0
    # after a stop (hands cut short are voided on the next start) the books still balance
    with room_client(settings) as client:
        totals = invariants(client)
        balances = sum(client.get("/api/me", headers=u.headers).json()["balance"] for u in users)
        assert totals.balances == balances and totals.granted == balances + totals.at_tables
