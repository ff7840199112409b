"""Training tables: off by default, practice chips from the house, every card of a finished hand public, and each
player's equity street by street (computed once, off the event loop, bounded); the live hand stays private."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from studpoker.equity import equity
from studpoker.history import phh
from studpoker.history.replay import replay
from studpoker.server import training
from studpoker.server.db import HandRow, LedgerEntry
from studpoker.server.errors import ApiError

from .conftest import User, create_table, invariants, make_settings, room_client, signup, stored_phh
from .test_play import wire_hand


def finished_hands(user: User, table_id: int, count: int, timeout: float = 20.0) -> list[dict[str, Any]]:
    """Wait until the table has ``count`` finished hands; the newest first."""
    deadline = time.monotonic() + timeout
    while True:
        hands = [h for h in user.get(f"/api/tables/{table_id}/hands").json()["hands"] if h["status"] == "finished"]
        if len(hands) >= count:
            return hands
        assert time.monotonic() < deadline, f"only {len(hands)} hands finished in {timeout} s"
        time.sleep(0.05)


def hand_row(client: TestClient, table_id: int, number: int) -> HandRow:
    room = client.app.state.room  # type: ignore[attr-defined]
    assert client.portal is not None
    row: HandRow = client.portal.call(
        room.db.run,
        lambda s: s.scalar(select(HandRow).where(HandRow.table_id == table_id, HandRow.number == number)),
    )
    return row


def test_a_table_is_not_a_training_table_unless_asked(client: TestClient) -> None:
    ann = signup(client, "ann")
    table_id = create_table(ann, bots=2)
    assert ann.get(f"/api/tables/{table_id}").json()["training"] is False
    finished_hands(ann, table_id, 1)
    detail = client.get(f"/api/tables/{table_id}/hands/1").json()
    assert detail["training"] is False and detail["seen_as"] == "public"
    answer = client.get(f"/api/tables/{table_id}/hands/1/equity")
    assert answer.status_code == 404 and "not a training table" in answer.json()["error"]["message"]


def test_a_training_hand_is_public_with_its_equities_street_by_street(client: TestClient) -> None:
    ann = signup(client, "ann")
    table_id = create_table(ann, bots=3, training=True, variant="RAZZ")
    info = client.get("/api/tables").json()["tables"]
    assert [t["training"] for t in info if t["id"] == table_id] == [True]
    finished_hands(ann, table_id, 2)
    full = stored_phh(client, table_id, 1)
    detail = client.get(f"/api/tables/{table_id}/hands/1").json()  # anonymous: every card all the same
    assert detail["seen_as"] == "training" and detail["training"] is True and detail["phh"] == full
    assert client.get(f"/api/tables/{table_id}/hands/1.phh").text == full
    assert hand_row(client, table_id, 1).equity is None  # nothing computed before it is asked for
    answer = client.get(f"/api/tables/{table_id}/hands/1/equity")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["variant"] == "RAZZ" and data["number"] == 1 and data["streets"]
    assert hand_row(client, table_id, 1).equity == data["streets"]  # stored with the hand
    assert client.get(f"/api/tables/{table_id}/hands/1/equity").json() == data
    record = phh.loads_hand(full)
    state = replay(record).state
    seats = {record.seats[p]: p for p in range(len(record.seats))}
    for street in data["streets"]:
        players = street["players"]
        assert len(players) >= 2
        assert sum(p["actual"] for p in players) == pytest.approx(1.0, abs=1e-9)
        for p in players:
            engine = seats[p["seat"]]
            dealt = [str(c) for c in (*state.down_cards(engine), *state.up_cards(engine))]
            assert sorted(p["cards"]) == sorted(dealt[: len(p["cards"])]) or set(p["cards"]) <= set(dealt)
            assert 0.0 <= p["actual"] <= 1.0 and 0.0 <= p["ranged"] <= 1.0
    # on the first street (nobody has folded yet), each player's equity against the others' up cards, asked of
    # equity() directly with ten times the trials: within 4 standard errors of the two estimates
    first = data["streets"][0]
    for i, me in enumerate(first["players"]):
        others = [o for k, o in enumerate(first["players"]) if k != i]
        ups = [" ".join(c for c, up in zip(o["cards"], o["up"], strict=True) if up) for o in others]
        direct = equity([" ".join(me["cards"]), *ups], variant="razz", trials=200_000, seed=i)
        assert me["ranged"] == pytest.approx(direct.players[0].equity, abs=4 * 0.5 / training_trials() ** 0.5)
    # and against the actual cards, the folded players' cards dead, on every street
    for street in data["streets"]:
        live = {p["seat"] for p in street["players"]}
        hands = [" ".join(p["cards"]) for p in street["players"]]
        dead = [
            str(c)
            for seat, p in seats.items()
            if seat not in live
            for c in [*state.down_cards(p), *state.up_cards(p)][: len(street["players"][0]["cards"])]
        ]
        direct = equity(hands, variant="razz", dead=" ".join(dead), trials=200_000, seed=street["street"])
        for p, d in zip(street["players"], direct.players, strict=True):
            assert p["actual"] == pytest.approx(d.equity, abs=4 * 0.5 / training_trials() ** 0.5 + 0.003)


def training_trials() -> int:
    from studpoker.equity.streets import TRIALS

    return TRIALS


def test_training_chips_come_from_the_house_and_no_balance_moves(client: TestClient) -> None:
    ann = signup(client, "ann")
    table_id = create_table(ann, training=True)
    before = ann.get("/api/me").json()["balance"]
    sat = ann.post(f"/api/tables/{table_id}/sit", {"buy_in": 400})
    assert sat.status_code == 200 and sat.json()["balance"] == before and sat.json()["stack"] == 400
    topped = ann.post(f"/api/tables/{table_id}/top-up", {"amount": 100})
    assert topped.status_code == 200 and topped.json()["balance"] == before
    left = ann.post(f"/api/tables/{table_id}/leave")
    assert left.status_code == 200 and left.json()["cashed_out"] == 500 and left.json()["balance"] == before
    assert ann.get("/api/me").json()["balance"] == before
    room = client.app.state.room  # type: ignore[attr-defined]
    assert client.portal is not None
    moves = client.portal.call(
        room.db.run,
        lambda s: [(e.source, e.target, e.amount, e.kind) for e in s.scalars(select(LedgerEntry)).all()],
    )
    table = f"table:{table_id}"
    assert ("house", table, 400, "training_buy_in") in moves and ("house", table, 100, "training_top_up") in moves
    assert (table, "house", 500, "training_cash_out") in moves
    assert not [m for m in moves if f"user:{ann.id}" in m[:2] and m[3] != "grant"]
    assert invariants(client).at_tables == 0


def test_the_live_hand_of_a_training_table_stays_private(tmp_path: Path) -> None:
    with room_client(make_settings(tmp_path, between_hands=0.5)) as client:
        wire_hand(client, training=True)


def test_the_operator_may_forbid_training_tables(tmp_path: Path) -> None:
    with room_client(make_settings(tmp_path, training_tables=False)) as client:
        ann = signup(client, "ann")
        refused = ann.post("/api/tables", {"variant": "STUD7", "small_bet": 10, "training": True})
        assert refused.status_code == 403 and "no training tables" in refused.json()["error"]["message"]
        assert ann.get("/api/tables").json()["tables"] == []
        create_table(ann)  # an ordinary table still opens


@pytest.mark.parametrize("value", ["yes", 1, 0, "true", None, [True], {"on": True}])
def test_training_is_a_strict_boolean(client: TestClient, value: object) -> None:
    ann = signup(client, "ann")
    answer = ann.post("/api/tables", {"variant": "STUD7", "small_bet": 10, "training": value})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["details"][0]["field"] == "training"
    assert ann.get("/api/tables").json()["tables"] == []


def test_equities_of_hands_that_are_not_there(client: TestClient) -> None:
    ann = signup(client, "ann")
    table_id = create_table(ann, training=True)
    for url, status in [
        (f"/api/tables/{table_id}/hands/1/equity", 404),  # no hand yet
        (f"/api/tables/{table_id}/hands/0/equity", 404),  # a path that names no hand, as everywhere in the API
        (f"/api/tables/{table_id}/hands/99999999999999999999/equity", 404),
        (f"/api/tables/{table_id}/hands/-1/equity", 404),
        (f"/api/tables/{table_id}/hands/1e3/equity", 404),
        ("/api/tables/987654/hands/1/equity", 404),
        (f"/api/tables/{table_id}/hands/1/equity?x={'a' * 5000}", 404),
    ]:
        assert client.get(url).status_code == status, url
    for method in ("POST", "PUT", "DELETE"):
        assert (
            ann.client.request(method, f"/api/tables/{table_id}/hands/1/equity", headers=ann.headers).status_code == 405
        )


def test_a_hand_asked_for_by_many_at_once_is_computed_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    ann = signup(client, "ann")
    table_id = create_table(ann, bots=2, training=True)
    finished_hands(ann, table_id, 3)
    calls: list[int] = []
    real = training.streets_of

    def counted(text: str, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
        calls.append(1)
        time.sleep(0.2)
        return real(text, players)

    monkeypatch.setattr(training, "streets_of", counted)
    room = client.app.state.room  # type: ignore[attr-defined]
    row = hand_row(client, table_id, 1)

    async def many() -> list[Any]:
        return await asyncio.gather(*(room.front.equity_desk.streets(room, row) for _ in range(20)))

    assert client.portal is not None
    answers = client.portal.call(many)
    assert len(calls) == 1 and all(a == answers[0] for a in answers)
    assert hand_row(client, table_id, 1).equity == answers[0]

    monkeypatch.setattr(training, "MAX_WAITING", 1)
    rows = [hand_row(client, table_id, n) for n in (2, 3)]

    async def two() -> list[Any]:
        return await asyncio.gather(*(room.front.equity_desk.streets(room, r) for r in rows), return_exceptions=True)

    first, second = client.portal.call(two)
    assert isinstance(first, list) and isinstance(second, ApiError) and second.status == 503
    assert second.headers == {"Retry-After": "2"}
    assert client.get(f"/api/tables/{table_id}/hands/3/equity").status_code == 200  # once the desk is free


@pytest.mark.allow_server_errors
def test_a_stored_hand_that_does_not_replay_is_a_clear_404(client: TestClient) -> None:
    ann = signup(client, "ann")
    table_id = create_table(ann, bots=2, training=True)
    finished_hands(ann, table_id, 1)
    room = client.app.state.room  # type: ignore[attr-defined]
    assert client.portal is not None

    def spoil(session: Any) -> None:
        row = session.scalar(select(HandRow).where(HandRow.table_id == table_id, HandRow.number == 1))
        row.phh = row.phh.replace("d dh p1", "d dh p9", 1)

    client.portal.call(room.db.run, spoil)
    answer = client.get(f"/api/tables/{table_id}/hands/1/equity")
    assert answer.status_code == 404 and "cannot be analysed" in answer.json()["error"]["message"]
