"""A tournament on a room of several processes (issue 31): its tables on table workers, run by a gateway, and the
worker of one of its tables killed with SIGKILL mid-tournament: the table is taken over (a hand in play voided,
every chip back) and the tournament plays on to the end, the books balanced."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text

from .conftest import Books, Cluster, Process, skip_reason, wait_for

if skip_reason() is not None:  # make test-cluster runs it (PostgreSQL and Redis); make test has neither
    pytest.skip(skip_reason() or "", allow_module_level=True)

FAST = ["--tournament-time-scale", "1200"]  # a 10-minute level lasts half a second


def page(gateway: Process, account: Any, tournament_id: int) -> dict[str, Any]:
    with gateway.http(account) as http:
        found: dict[str, Any] = http.get(f"/api/tournaments/{tournament_id}").json()
        return found


def test_a_tournament_goes_on_when_a_worker_is_killed(cluster: Cluster, books: Books) -> None:
    cluster.worker(*FAST)
    cluster.worker(*FAST)
    gateway = cluster.gateway(*FAST)
    director = books.account("director")
    books.db.transaction(
        lambda s: s.execute(text("UPDATE accounts SET is_admin = true WHERE id = :i"), {"i": director.id})
    )
    with gateway.http(director) as http:
        body = {"name": "Cluster event", "kind": "scheduled", "starts_in": 0.5, "buy_in": 25, "bots": 10, "seats": 5}
        made = http.post("/api/tournaments", json=body)
        assert made.status_code == 201, made.text
    event = made.json()["id"]

    def running() -> dict[str, Any] | None:
        found = page(gateway, director, event)
        return found if found["status"] == "running" else None

    tables = [t["table_id"] for t in wait_for(running, 60, "the start")["tables"]]
    assert len(tables) == 2
    victim = cluster.owner(tables[0], books)
    dealt = "SELECT count(*) FROM hands WHERE table_id = :t"
    wait_for(lambda: books.one(dealt, t=tables[0]) >= 2, 60, "hands dealt at the first table")
    victim.kill()

    def finished() -> dict[str, Any] | None:
        found = page(gateway, director, event)
        return found if found["status"] == "finished" else None

    done = wait_for(finished, 300, "the end of the tournament", every=0.2)
    assert not victim.alive()
    places = sorted(p["place"] for p in done["players"])
    assert places[0] == 1 and len(places) == 10
    assert sum(p["prize"] for p in done["players"]) == 10 * 25
    statuses = books.rows("SELECT DISTINCT status FROM hands WHERE table_id IN (:a, :b)", a=tables[0], b=tables[1])
    assert {s for (s,) in statuses} <= {"finished", "voided"}
    # The runner writes the tournament over (the prizes paid) first, then closes its tables, each through the
    # worker that holds it: a moment later, longer when that worker took the table over from the one killed.
    still_open = "SELECT count(*) FROM tables WHERE tournament_id = :e AND status != 'closed'"
    wait_for(lambda: books.one(still_open, e=event) == 0, 60, "the tournament's tables closed")
    books.invariants()
