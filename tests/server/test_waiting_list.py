"""A full table's waiting list (issue 26, item 5): names in order, a free seat held for the first name, nobody else
(bots included) taking it meanwhile, the hold running out to the next name, and the refusals."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from studpoker.server.waitlist import MAX_WAITING, WaitingList

from .conftest import User, create_table, make_settings, recv, room_client, signup


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # the players' clocks are short and act for them (they play no hand here): a leave during a hand is soon done
    # a seat is held a minute (long enough on a busy machine); the test shortens a hold it wants to see run out
    settings = make_settings(tmp_path, seat_hold_seconds=60.0, action_seconds=0.2, time_bank=0.0)
    with room_client(settings) as test_client:
        yield test_client


def snapshot_where(ws: Any, condition: Any, timeout: float = 30.0) -> dict[str, Any]:
    """Read a socket until a snapshot for which ``condition(snapshot["you"])`` holds (generous bound)."""
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "no such snapshot came"
        try:
            message = recv(ws, 0.5)
        except TimeoutError:
            continue
        if message["type"] == "snapshot" and condition(message["you"]):
            return message


def full_table(client: TestClient) -> tuple[User, int]:
    """A seven-card stud table of 7 bots and ann: full (8 seats)."""
    ann = signup(client, "ann")
    table_id = create_table(ann, bots=7)
    answer = ann.post(f"/api/tables/{table_id}/sit", {"buy_in": 400})
    assert answer.status_code == 200, answer.text
    return ann, table_id


def test_a_freed_seat_is_held_for_the_first_name_then_the_next(client: TestClient) -> None:
    ann, table_id = full_table(client)
    bob, cid = signup(client, "bob"), signup(client, "cid")
    refused = bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 400})
    assert refused.status_code == 409 and "waiting list" in refused.json()["error"]["message"]
    assert bob.post(f"/api/tables/{table_id}/waiting-list").json() == {"place": 1, "waiting": 1}
    assert cid.post(f"/api/tables/{table_id}/waiting-list").json() == {"place": 2, "waiting": 2}
    assert bob.post(f"/api/tables/{table_id}/waiting-list").json()["place"] == 1  # once
    assert client.get(f"/api/tables/{table_id}").json()["waiting"] == 2
    seat = next(s["seat"] for s in client.get(f"/api/tables/{table_id}").json()["seats"] if s["name"] == "ann")
    with bob.socket(table_id) as b, cid.socket(table_id) as c:
        assert snapshot_where(b, lambda you: True)["you"]["waiting"] == 1
        assert ann.post(f"/api/tables/{table_id}/leave").status_code == 200  # at once, or when her hand ends
        offered = snapshot_where(b, lambda you: you["offer"] is not None)["you"]["offer"]
        assert offered["seat"] == seat and 0 < offered["seconds"] <= 60.0
        # held: cid may not take it, nor may the manager's bots
        taken = cid.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": seat})
        assert taken.status_code == 409 and "held" in taken.json()["error"]["message"]
        assert ann.post(f"/api/tables/{table_id}/bots", {"count": 1}).json() == {"seats": []}
        sat = bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 400})  # no seat named: the held one
        assert sat.status_code == 200 and sat.json()["seat"] == seat
        assert snapshot_where(c, lambda you: you["waiting"] == 1)["you"]["offer"] is None
        # bob leaves at once (between his hands or at the end of one): cid is offered the seat, and lets it go
        client.app.state.room.actors[table_id].waiting.hold_seconds = 1.0  # type: ignore[attr-defined]
        assert bob.post(f"/api/tables/{table_id}/leave").status_code == 200
        assert snapshot_where(c, lambda you: you["offer"] is not None)["you"]["offer"]["seat"] == seat
        gone = snapshot_where(c, lambda you: you["offer"] is None)["you"]
        assert gone["waiting"] is None  # the hold ran out: off the list
    assert client.get(f"/api/tables/{table_id}").json()["waiting"] == 0


def test_the_refusals(client: TestClient) -> None:
    ann, table_id = full_table(client)
    assert client.post(f"/api/tables/{table_id}/waiting-list", json={}).status_code == 401
    seated = ann.post(f"/api/tables/{table_id}/waiting-list")
    assert seated.status_code == 409 and "already sit" in seated.json()["error"]["message"]
    roomy = create_table(ann, name="Roomy", bots=1)
    bob = signup(client, "bob")
    free = bob.post(f"/api/tables/{roomy}/waiting-list")
    assert free.status_code == 409 and "free seat" in free.json()["error"]["message"]
    assert bob.delete(f"/api/tables/{table_id}/waiting-list").json() == {"left": False, "waiting": 0}
    assert bob.post(f"/api/tables/{table_id}/waiting-list").status_code == 200
    assert bob.delete(f"/api/tables/{table_id}/waiting-list").json() == {"left": True, "waiting": 0}
    forged = client.post(
        f"/api/tables/{table_id}/waiting-list", json={}, headers={**bob.headers, "origin": "http://evil.example"}
    )
    assert forged.status_code == 403 and forged.json()["error"]["code"] == "csrf"
    assert client.get(f"/api/tables/{table_id}").json()["waiting"] == 0


def test_the_list_is_bounded() -> None:
    waiting = WaitingList(hold_seconds=30)
    for account in range(MAX_WAITING):
        waiting.join(account, f"p{account}")
    with pytest.raises(ValueError, match="full"):
        waiting.join(10_000, "late")
    assert len(waiting) == MAX_WAITING and waiting.leave(0) and waiting.place(1) == 1
