"""The floor's moves in the one-process room (studpoker.server.director, studpoker.server.moves): a player taken
with his chips from one table to another in one ledger transaction, his time bank and sitting out with him; every
refusal leaves both tables and the books as they were; a lost last step is made good from the books."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from studpoker.server import moves
from studpoker.server.db import LedgerEntry, SeatRow

from .conftest import User, create_table, invariants, make_settings, recv, room_client, signup
from .test_security import make_admin, seats_of

#: The bound on anything the room does on its own (a generous one: the machine may be busy).
BOUND = 30.0


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with room_client(make_settings(tmp_path, time_bank=30.0)) as test_client:
        yield test_client


def room_of(client: TestClient) -> Any:
    return client.app.state.room  # type: ignore[attr-defined]


def on_loop(client: TestClient, work: Any, *args: Any) -> Any:
    assert client.portal is not None
    return client.portal.call(work, *args)


def seated(user: User, table_id: int, buy_in: int = 400, seat: int | None = None) -> None:
    body: dict[str, Any] = {"buy_in": buy_in} | ({} if seat is None else {"seat": seat})
    answer = user.post(f"/api/tables/{table_id}/sit", body)
    assert answer.status_code == 200, answer.text


def move(admin: User, account: User, from_table: int, to_table: int, seat: int | None = None) -> Any:
    body: dict[str, Any] = {"account_id": account.id, "from_table": from_table, "to_table": to_table}
    return admin.post("/api/admin/move", body | ({} if seat is None else {"seat": seat}))


def where(client: TestClient, user: User, *tables: int) -> dict[int, int]:
    """The tables ``user`` sits at, with his stack at each."""
    return {t: s["stack"] for t in tables for s in seats_of(client, t).values() if s["name"] == user.name}


def moves_in_ledger(client: TestClient) -> list[tuple[str, str, int]]:
    rows = on_loop(
        client,
        room_of(client).db.run,
        lambda s: s.execute(select(LedgerEntry).where(LedgerEntry.kind == "move")).scalars().all(),
    )
    return [(r.source, r.target, r.amount) for r in rows]


def test_a_player_moves_with_his_chips_time_bank_and_sitting_out(client: TestClient) -> None:
    ann, bob, floor = signup(client, "ann"), signup(client, "bob"), signup(client, "dora")
    make_admin(client, floor)
    one, two = create_table(ann, name="Stud One"), create_table(bob, name="Stud Two")
    seated(ann, one, 437)
    seated(bob, two, 400, seat=1)
    assert ann.post(f"/api/tables/{one}/sit-out").status_code == 200
    room = room_of(client)
    room.actors[one].seats[1].time_bank = 12.5  # he has used some of his bank
    balance = ann.get("/api/me").json()["balance"]
    before = invariants(client)
    with ann.socket(one) as watching:
        recv(watching)  # the snapshot
        answer = move(floor, ann, one, two, seat=5)
        assert answer.status_code == 200, answer.text
        assert answer.json() == {
            "account_id": ann.id,
            "from_table": one,
            "from_seat": 1,
            "to_table": two,
            "seat": 5,
            "stack": 437,
            "seated": True,
        }
        left = recv(watching)
        while left["type"] != "left":
            left = recv(watching)
        assert left["moved_to"] == {"table": two, "name": "Stud Two", "seat": 5} and left["name"] == "ann"
    assert where(client, ann, one, two) == {two: 437}
    assert seats_of(client, two)[5]["sitting_out"] is True
    assert room.actors[two].seats[5].time_bank == 12.5
    assert room.actors[two].seats[5].account_id == ann.id
    assert ann.get("/api/me").json()["balance"] == balance  # no chip went through his balance
    assert moves_in_ledger(client) == [(f"table:{one}", f"table:{two}", 437)]
    after = invariants(client)
    assert after == before  # the books balance, the chips on tables are the same chips
    for table_id in (one, two):
        assert room.actors[table_id].table.money_in - room.actors[table_id].table.money_out == sum(
            s.stack + s.queued for s in room.actors[table_id].table.occupied
        )
    # he plays on at his new table: sitting in, a hand is dealt to him and bob
    with bob.socket(two) as b:
        # his snapshot first: from it on he gets the table's messages (a hand started before would reach him only
        # as a snapshot, and the wait below for hand_started would never end: CI saw it once, on PostgreSQL)
        assert recv(b, BOUND)["type"] == "snapshot"
        assert ann.post(f"/api/tables/{two}/sit-in").status_code == 200
        deadline = time.monotonic() + BOUND
        while True:
            assert time.monotonic() < deadline, "no hand was dealt to ann at her new table"
            message = recv(b, BOUND)
            if message["type"] == "hand_started":
                assert {p["name"] for p in message["players"]} == {"ann", "bob"}
                break


def test_every_refusal_leaves_both_tables_and_the_books_as_they_were(client: TestClient) -> None:
    ann, bob, cid, floor = (signup(client, n) for n in ("ann", "bob", "cid", "dora"))
    make_admin(client, floor)
    one, two = create_table(ann, name="Stud One"), create_table(bob, name="Stud Two")
    razz = create_table(cid, name="Razz", variant="RAZZ")
    practice = create_table(cid, name="Practice", training=True)
    seated(ann, one)
    seated(bob, two, seat=1)
    before = invariants(client)
    cases = [
        (ann, move(ann, ann, one, two), 403),  # only an admin moves players
        (floor, move(floor, ann, one, one), 400),  # to the table he sits at
        (floor, move(floor, ann, one, razz), 409),  # another game
        (floor, move(floor, ann, one, practice), 409),  # practice chips
        (floor, move(floor, ann, one, two, seat=1), 409),  # bob's seat
        (floor, move(floor, cid, one, two), 409),  # cid sits nowhere
        (floor, move(floor, ann, one, 999), 404),  # no such table
        (floor, move(floor, bob, two, one, seat=11), 400),  # no seat 11 (the request's schema)
    ]
    for _who, answer, status in cases:
        assert answer.status_code == status, answer.text
    extra = floor.post("/api/admin/move", {"account_id": ann.id, "from_table": one, "to_table": two, "x": 1})
    assert extra.status_code == 400
    assert where(client, ann, one, two, razz, practice) == {one: 400}
    assert where(client, bob, one, two) == {two: 400}
    assert moves_in_ledger(client) == []
    assert invariants(client) == before
    # no seat stays held after a refusal: cid may take seat 2 of table two at once
    seated(cid, two, seat=2)


def test_a_player_in_the_hand_in_play_is_not_moved(client: TestClient) -> None:
    ann, bob, floor = signup(client, "ann"), signup(client, "bob"), signup(client, "dora")
    make_admin(client, floor)
    one, two = create_table(ann, name="Stud One", bots=1), create_table(bob, name="Stud Two")
    with ann.socket(one):  # connected: her clock of 30 s runs only while she is away too long
        seated(ann, one)
        deadline = time.monotonic() + 4 * BOUND  # the hand waits on her once dealt; a loaded machine deals late
        while not client.get(f"/api/tables/{one}").json()["playing"]:
            assert time.monotonic() < deadline, "no hand was dealt"
            time.sleep(0.05)
        refused = move(floor, ann, one, two)
    assert refused.status_code == 409 and "hand in play" in refused.json()["error"]["message"]
    assert where(client, ann, one, two) == {one: 400}
    assert room_of(client).actors[two].context.arriving == {}


def test_a_lost_last_step_is_made_good_from_the_books(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat is held and the transaction done, but the table he goes to is never told (a worker died between
    the steps, an answer was lost): when the hold runs out, that table seats him from his seat row."""
    monkeypatch.setattr(moves, "HOLD_SECONDS", 0.2)
    ann, bob = signup(client, "ann"), signup(client, "bob")
    one, two = create_table(ann, name="Stud One"), create_table(bob, name="Stud Two")
    seated(ann, one, 420)
    room = room_of(client)
    source, target = room.actors[one], room.actors[two]
    held = on_loop(client, target.hold_seat, ann.id, "ann", 3).model_dump()
    assert held == {"seat": 3}
    refused = bob.post(f"/api/tables/{two}/sit", {"buy_in": 400, "seat": 3})
    assert refused.status_code == 409 and "moving here" in refused.json()["error"]["message"]
    assert on_loop(client, source.move_out, ann.id, two, "Stud Two", 3).model_dump() == {"seat": 1, "stack": 420}
    deadline = time.monotonic() + BOUND
    while where(client, ann, one, two) != {two: 420}:
        assert time.monotonic() < deadline, "the hold ran out and ann was never seated from the books"
        time.sleep(0.05)
    assert target.context.arriving == {}
    rows = on_loop(client, room.db.run, lambda s: [(r.table_id, r.seat, r.stack) for r in s.scalars(select(SeatRow))])
    assert rows == [(two, 3, 420)]
    assert invariants(client).at_tables == 420
