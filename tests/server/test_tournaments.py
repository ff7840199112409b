"""Tournaments in the card room (issue 31): a sit-and-go and a 24-player tournament of bots played to the end on a
fast clock, with the chips conserved in every hand, the tables balanced and broken, the prizes paid from the escrow
and the books balanced; registering, unregistering, the refusals, and a tournament's table refusing what only a cash
table does."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from studpoker.server.db import Database, EntryRow, HandRow, LedgerEntry, TableRow, TournamentRow
from studpoker.server.tournamentrunner import _place_the_busted
from studpoker.tournament import payouts

from .conftest import User, invariants, make_settings, room_client, signup
from .test_security import make_admin


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # a 10-minute level lasts a second; the bots act at once; the players these tests enter are away (no socket):
    # they are dealt in and folded at their turn, at once
    settings = make_settings(tmp_path, tournament_time_scale=600.0)
    with room_client(settings) as test_client:
        yield test_client


def wait_for(user: User, tournament_id: int, status: str, timeout: float = 300.0) -> dict[str, Any]:
    """The tournament's page once it is ``status`` (a generous bound: the bots play fast, a busy machine slowly)."""
    deadline = time.monotonic() + timeout
    while True:
        page: dict[str, Any] = user.get(f"/api/tournaments/{tournament_id}").json()
        if page["status"] == status:
            return page
        assert time.monotonic() < deadline, f"tournament {tournament_id} still {page['status']} after {timeout} s"
        time.sleep(0.1)


def closing(user: User, tournament_id: int, timeout: float = 60.0) -> None:
    """Wait until the tournament's last table has closed (the runner closes it once the prizes are paid)."""
    deadline = time.monotonic() + timeout
    while user.get(f"/api/tournaments/{tournament_id}").json()["tables"]:
        assert time.monotonic() < deadline, "the last table did not close"
        time.sleep(0.05)


def rows(client: TestClient, query: Any) -> list[Any]:
    room = client.app.state.room  # type: ignore[attr-defined]
    assert client.portal is not None
    found: list[Any] = client.portal.call(room.db.run, lambda s: list(s.execute(query).all()))
    return found


def check_hands(client: TestClient, tournament_id: int) -> list[Any]:
    """Every hand of the tournament's tables: finished, and its chips conserved (the stacks at the end sum to the
    stacks at the start: a tournament hand has no rake). Returns them."""
    tables = [r[0] for r in rows(client, select(TableRow.id).where(TableRow.tournament_id == tournament_id))]
    hands = [r[0] for r in rows(client, select(HandRow).where(HandRow.table_id.in_(tables)))]
    assert hands
    for hand in hands:
        assert hand.status == "finished", (hand.table_id, hand.number, hand.status)
        assert sum(p["start"] for p in hand.players) == sum(p["end"] for p in hand.players)
    return hands


def test_a_sit_and_go_of_bots_and_a_player_runs_to_the_end_and_pays_from_the_escrow(client: TestClient) -> None:
    ann = signup(client, "ann")
    info = ann.post("/api/tournaments", {"name": "Razz SNG", "variant": "razz", "buy_in": 100, "bots": 5, "seats": 6})
    assert info.status_code == 201, info.text
    sng = info.json()
    assert (sng["kind"], sng["max_entries"], sng["entries"], sng["status"]) == ("sit_and_go", 6, 5, "registering")
    assert ann.get("/api/me").json()["balance"] == 10_000
    entered = ann.post(f"/api/tournaments/{sng['id']}/register").json()
    assert entered == {"entries": 6, "prize_pool": 600, "balance": 9_900}
    page = wait_for(ann, sng["id"], "finished")
    places = sorted(p["place"] for p in page["players"])
    assert places[0] == 1 and len(places) == 6 and all(1 <= p <= 6 for p in places)
    assert page["payouts"] == list(payouts(600, 6)) == [390, 210]
    assert sum(p["prize"] for p in page["players"]) == 600
    mine = next(p for p in page["players"] if p["name"] == "ann")
    assert ann.get("/api/me").json()["balance"] == 9_900 + mine["prize"]
    hands = check_hands(client, sng["id"])
    assert {h.phh.split("variant = ")[1][:4] for h in hands} == {"'FR'"}
    books = invariants(client)
    assert books.in_escrow == 0
    kinds = {r[0] for r in rows(client, select(LedgerEntry.kind))}
    assert {"tournament_buy_in", "tournament_bot_entry", "tournament_chips", "tournament_prize"} <= kinds
    closing(ann, sng["id"])  # the last table closes, its chips back in the chip account


def test_a_24_player_tournament_balances_breaks_and_ends_on_one_table(client: TestClient) -> None:
    floor = signup(client, "director")
    make_admin(client, floor)
    made = floor.post(
        "/api/tournaments",
        {"name": "Stud event", "kind": "scheduled", "starts_in": 0.5, "buy_in": 50, "bots": 24, "seats": 8},
    )
    assert made.status_code == 201, made.text
    event = made.json()
    assert (event["entries"], event["prize_pool"]) == (24, 1200)
    running = wait_for(floor, event["id"], "running", timeout=60)
    assert len(running["tables"]) == 3 and [t["players"] for t in running["tables"]] == [8, 8, 8]
    assert running["clock"]["level"] >= 1 and running["average_stack"] == 2_000
    done = wait_for(floor, event["id"], "finished")
    check_places(client, event["id"], [p["place"] for p in done["players"]])
    assert sum(p["prize"] for p in done["players"]) == 1200 and len(done["payouts"]) == 3
    hands = check_hands(client, event["id"])
    tables = {h.table_id for h in hands}
    assert len(tables) == 3
    # the tables broke as the field shrank: the last hands were dealt at one table, to every player left
    last = max(hands, key=lambda h: h.finished_at)
    assert len(last.players) == 2
    closing(floor, event["id"])
    closed = [r[0] for r in rows(client, select(TableRow.status).where(TableRow.id.in_(tables)))]
    assert closed == ["closed"] * 3
    moved = rows(client, select(LedgerEntry.memo).where(LedgerEntry.kind == "move", LedgerEntry.table_id.in_(tables)))
    sources = {memo.split(" seat ")[0].split("/")[-1] for (memo,) in moved}
    assert {"2", "3"} <= sources  # tables 3 and 2 broken (the highest-numbered first), their players moved
    books = invariants(client)
    assert books.in_escrow == 0 and books.balances == 10_000


def check_places(client: TestClient, tournament_id: int, places: list[int]) -> None:
    """The places are a ranking of the whole field (players tied for a place take the places below it), and players
    share places only when they went out in one hand, or in one hand-for-hand round."""
    ranked = sorted(places)
    assert ranked[0] == 1
    i = 0
    while i < len(ranked):
        tied = ranked.count(ranked[i])
        assert ranked[i] == i + 1, ranked
        i += tied
    out = rows(
        client,
        select(EntryRow.place, EntryRow.out_table, EntryRow.out_hand, EntryRow.out_round).where(
            EntryRow.tournament_id == tournament_id, EntryRow.place > 1
        ),
    )
    hands: dict[int, set[tuple[Any, ...]]] = {}
    for place, table, hand, round_ in out:
        assert hand is not None  # every player out was written with the hand he went out in
        hands.setdefault(place, set()).add(("round", round_) if round_ is not None else ("hand", table, hand))
    assert all(len(found) == 1 for found in hands.values()), hands


def test_hand_for_hand_on_the_bubble(client: TestClient) -> None:
    """Six players on two tables of three, five places paid: on the bubble from the first hand, so every table deals
    one hand a round (the tournament's page says so), each round's hands dealt once the last round's are over; the
    hand-for-hand ends with the first player out."""
    ann = signup(client, "ann")
    make_admin(client, ann)
    event = ann.post(
        "/api/tournaments",
        {"kind": "scheduled", "starts_in": 0.2, "buy_in": 10, "bots": 6, "seats": 3, "payouts": [40, 25, 15, 12, 8]},
    ).json()
    seen: set[bool] = set()
    deadline = time.monotonic() + 300
    while True:
        page = ann.get(f"/api/tournaments/{event['id']}").json()
        if page["status"] == "running":
            seen.add(page["hand_for_hand"])
        if page["status"] == "finished":
            break
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert True in seen, "no hand-for-hand round was seen"
    hands = check_hands(client, event["id"])
    assert sum(p["prize"] for p in page["players"]) == 60 and len(page["payouts"]) == 5
    check_places(client, event["id"], [p["place"] for p in page["players"]])
    # the rounds: up to the hand the first player went out in, the tables dealt their k-th hands together
    first_out = min(h.finished_at for h in hands if len(h.players) > 0 and any(p["end"] == 0 for p in h.players))
    by_table: dict[int, list[Any]] = {}
    for hand in sorted(hands, key=lambda h: h.number):
        by_table.setdefault(hand.table_id, []).append(hand)
    assert len(by_table) == 2
    a, b = by_table.values()
    rounds = [pair for pair in zip(a, b, strict=False) if max(h.started_at for h in pair) <= first_out]
    assert len(rounds) >= 1
    for last, this in pairwise(rounds):
        assert min(h.started_at for h in this) >= max(h.finished_at for h in last)


def test_entries_refunds_and_refusals(client: TestClient) -> None:
    ann, bob = signup(client, "ann"), signup(client, "bob")
    sng = ann.post("/api/tournaments", {"buy_in": 300, "seats": 3}).json()
    url = f"/api/tournaments/{sng['id']}"
    assert ann.post(f"{url}/register").json()["balance"] == 9_700
    again = ann.post(f"{url}/register")
    assert again.status_code == 409 and "already" in again.json()["error"]["message"]
    assert ann.delete(f"{url}/register").json() == {"entries": 0, "refunded": 300, "balance": 10_000}
    assert bob.post(f"{url}/bots", {"count": 1}).status_code == 403  # not his tournament
    scheduled = bob.post("/api/tournaments", {"kind": "scheduled", "starts_in": 60})
    assert scheduled.status_code == 403
    rich = ann.post("/api/tournaments", {"buy_in": 20_000, "seats": 2}).json()
    short = ann.post(f"/api/tournaments/{rich['id']}/register")
    assert short.status_code == 402 and short.json()["error"]["code"] == "insufficient_funds"
    for body, words in [
        ({"seats": 11}, "less than or equal to 10"),
        ({"variant": "holdem"}, "variant"),
        ({"variant": "7stud", "seats": 10}, "at most 8 seats"),
        ({"max_entries": 9}, "at most 8 entries"),
        ({"buy_in": -1}, "greater than or equal to 0"),
        ({"bots": 9}, "bots must be 0 to 8"),
        ({"structure": "slow"}, "standard"),
        ({"kind": "scheduled"}, "admin"),
        ({"name": "\u202e"}, "name"),
        ({"extra": 1}, "extra"),
    ]:
        answer = ann.post("/api/tournaments", body)
        assert answer.status_code in (400, 403), (body, answer.text)
        assert words in answer.text, (body, answer.text)
    assert client.get("/api/tournaments/999").status_code == 404
    assert client.post(f"{url}/register", json={}).status_code == 401
    assert invariants(client).in_escrow == 0


def test_a_scheduled_tournament_without_two_entries_is_cancelled_and_refunded(client: TestClient) -> None:
    floor = signup(client, "director")
    make_admin(client, floor)
    event = floor.post("/api/tournaments", {"kind": "scheduled", "starts_in": 0.3, "buy_in": 500}).json()
    assert floor.post(f"/api/tournaments/{event['id']}/register").json()["balance"] == 9_500
    wait_for(floor, event["id"], "cancelled", timeout=60)
    assert floor.get("/api/me").json()["balance"] == 10_000
    assert invariants(client).in_escrow == 0


def test_a_tournament_table_refuses_what_only_a_cash_table_allows(client: TestClient) -> None:
    ann = signup(client, "ann")
    sng = ann.post("/api/tournaments", {"buy_in": 0, "seats": 2, "bots": 1, "structure": "standard"}).json()
    ann.post(f"/api/tournaments/{sng['id']}/register")
    page = wait_for(ann, sng["id"], "running", timeout=60)
    table = page["tables"][0]["table_id"]
    for method, path, body in [
        ("post", "leave", None),
        ("post", "top-up", {"amount": 100}),
        ("post", "sit-out", None),
        ("post", "bots", {"count": 1}),
    ]:
        answer = getattr(ann, method)(f"/api/tables/{table}/{path}", body)
        assert answer.status_code in (403, 409), (path, answer.text)
    bob = signup(client, "bob")
    refused = bob.post(f"/api/tables/{table}/sit", {"buy_in": 400})
    assert refused.status_code == 409 and "tournament" in refused.json()["error"]["message"]
    late = bob.post(f"/api/tournaments/{sng['id']}/register")
    assert late.status_code == 409 and "is full" in late.json()["error"]["message"]  # a sit-and-go: one table


def test_late_registration_and_a_re_entry(client: TestClient) -> None:
    """A player who enters after the start is seated at once with the starting chips; away, he is folded until he
    is out, then buys in again (one re-entry allowed), and once more is refused. Each entry gets its place."""
    ann = signup(client, "ann")
    make_admin(client, ann)
    body = {"kind": "scheduled", "starts_in": 0.2, "buy_in": 10, "bots": 5, "late_registration_level": 15}
    event = ann.post("/api/tournaments", {**body, "reentries": 1}).json()
    url = f"/api/tournaments/{event['id']}"
    wait_for(ann, event["id"], "running", timeout=60)
    assert ann.post(f"{url}/register").json()["entries"] == 6

    def mine() -> list[dict[str, Any]]:
        return [p for p in ann.get(url).json()["players"] if p["name"] == "ann"]

    deadline = time.monotonic() + 120
    while not any(p["status"] == "out" for p in mine()):  # seated at once, then folded to nothing while away
        assert time.monotonic() < deadline, mine()
        time.sleep(0.05)
    again = ann.post(f"{url}/register")
    assert again.status_code == 200, again.text
    while sum(p["status"] == "out" for p in mine()) != 2:
        assert time.monotonic() < deadline, mine()
        time.sleep(0.05)
    third = ann.post(f"{url}/register")
    assert third.status_code == 409 and "re-entries" in third.json()["error"]["message"]
    done = wait_for(ann, event["id"], "finished")
    assert len(done["players"]) == 7 and sum(p["prize"] for p in done["players"]) == 70
    assert sorted(p["place"] for p in done["players"]) == list(range(1, 8))
    assert invariants(client).in_escrow == 0


def test_registration_closes_with_the_late_level(client: TestClient) -> None:
    ann = signup(client, "ann")
    make_admin(client, ann)
    made = ann.post("/api/tournaments", {"kind": "scheduled", "starts_in": 0.1, "bots": 3, "reentries": 1})
    assert made.status_code == 400 and "late registration" in made.text  # turbo: no late registration
    event = ann.post("/api/tournaments", {"kind": "scheduled", "starts_in": 0.1, "bots": 3}).json()
    wait_for(ann, event["id"], "running", timeout=60)
    late = ann.post(f"/api/tournaments/{event['id']}/register")
    assert late.status_code == 409 and "closed at the start" in late.json()["error"]["message"]


def test_entries_racing_for_the_last_places_cannot_overfill_a_sit_and_go(client: TestClient) -> None:
    """Six players register at once for the two places left: two get in, four are told it is full (on PostgreSQL the
    transactions run side by side: the tournament's row is locked while an entry is taken)."""
    from concurrent.futures import ThreadPoolExecutor

    ann = signup(client, "ann")
    players = [signup(client, f"racer{i}") for i in range(6)]
    sng = ann.post("/api/tournaments", {"buy_in": 10, "seats": 3, "bots": 1, "structure": "standard"}).json()
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda p: p.post(f"/api/tournaments/{sng['id']}/register").status_code, players))
    assert sorted(answers) == [200, 200, 409, 409, 409, 409]
    page = ann.get(f"/api/tournaments/{sng['id']}").json()
    assert page["entries"] == 3
    assert invariants(client).in_escrow == 30


def test_a_structure_and_a_payout_table_of_ones_own(client: TestClient) -> None:
    ann = signup(client, "ann")
    levels = [
        {"ante": 5, "bring_in": 10, "small_bet": 40, "minutes": 5},
        {"pause": True, "minutes": 5},
        {"ante": 10, "bring_in": 20, "small_bet": 60, "big_bet": 120, "minutes": 5},
    ]
    body = {"buy_in": 100, "seats": 4, "bots": 3, "levels": levels, "starting_chips": 1_000, "payouts": [80, 20]}
    sng = ann.post("/api/tournaments", body).json()
    assert sng["starting_chips"] == 1_000
    page = ann.get(f"/api/tournaments/{sng['id']}").json()
    assert page["levels"] == [
        {"level": 1, "ante": 5, "bring_in": 10, "small_bet": 40, "big_bet": 80, "minutes": 5},
        {"break": 5},
        {"level": 2, "ante": 10, "bring_in": 20, "small_bet": 60, "big_bet": 120, "minutes": 5},
    ]
    assert page["payouts"] == [240, 60]  # 80 % and 20 % of three entries' 300
    ann.post(f"/api/tournaments/{sng['id']}/register")
    done = wait_for(ann, sng["id"], "finished")
    assert sorted(p["prize"] for p in done["players"]) == [0, 0, 80, 320]  # four entries: 400
    assert invariants(client).in_escrow == 0
    for junk, words in [
        ({"payouts": [50, 30, 10]}, "sum to 100"),
        ({"payouts": [30, 70]}, "never rise"),
        ({"payouts": [100.0, 0]}, "greater than 0"),
        ({"levels": [{"ante": 5, "small_bet": 40}]}, "needs ante, bring_in and small_bet"),
        ({"levels": [{"ante": 5, "bring_in": 10, "small_bet": 40}], "starting_chips": 10}, "starting chips"),
        ({"levels": [{"ante": 5, "bring_in": 50, "small_bet": 40}]}, "bring"),
        ({"levels": [{"pause": True, "minutes": 5}]}, "starts with a level"),
        ({"levels": [{"ante": 1, "bring_in": 2, "small_bet": 4}] * 101}, "at most 100"),
        ({"starting_chips": 5_000}, "levels of your own"),
    ]:
        answer = ann.post("/api/tournaments", {"seats": 4, **junk})
        assert answer.status_code == 400, (junk, answer.text)
        assert words in answer.text, (junk, answer.text)


# -- found by a hostile read (issue 31) ------------------------------------------------------------------------


def test_a_cash_table_named_like_a_tournament_table_keeps_no_tournament_from_its_tables(client: TestClient) -> None:
    ann, mallory = signup(client, "ann"), signup(client, "mallory")
    squat = mallory.post("/api/tables", {"variant": "STUD7", "small_bet": 10, "name": "Foo T1/1"})
    assert squat.status_code == 201, squat.text
    sng = ann.post("/api/tournaments", {"name": "Foo", "seats": 2, "bots": 2, "buy_in": 5}).json()
    assert sng["id"] == 1
    wait_for(ann, sng["id"], "finished", timeout=120)
    assert invariants(client).in_escrow == 0


def test_heads_up_tables_on_the_bubble_do_not_wait_for_each_other(client: TestClient) -> None:
    """Five players at tables of two pay two places: at three left the tables hold two and one, so there is no
    hand-for-hand round to wait for (the lone player moves when the table with two breaks... or plays on)."""
    ann = signup(client, "ann")
    make_admin(client, ann)
    event = ann.post("/api/tournaments", {"kind": "scheduled", "starts_in": 0.1, "seats": 2, "bots": 5}).json()
    done = wait_for(ann, event["id"], "finished", timeout=120)
    assert sum(p["prize"] for p in done["players"]) == 500


def test_a_tournament_table_with_players_cannot_be_closed_and_the_bots_come_from_one_pool(client: TestClient) -> None:
    ann = signup(client, "ann")
    make_admin(client, ann)
    sng = ann.post("/api/tournaments", {"seats": 2, "bots": 1, "structure": "standard"}).json()
    assert ann.post(f"/api/tournaments/{sng['id']}/register").status_code == 200
    page = wait_for(ann, sng["id"], "running", timeout=60)
    closed = ann.delete(f"/api/tables/{page['tables'][0]['table_id']}")  # even an admin
    assert closed.status_code == 409 and "tournament" in closed.json()["error"]["message"]
    other = ann.post("/api/tournaments", {"seats": 3, "bots": 1}).json()  # the same pool: "Tourney bot 1" again
    url = f"/api/tournaments/{other['id']}"
    assert ann.post(f"{url}/register").status_code == 200
    assert ann.delete(f"{url}/register").status_code == 200
    assert ann.post(f"{url}/bots", {"count": 1}).json()["entries"] == 2  # after someone left, as before
    names = [p["name"] for p in ann.get(url).json()["players"]]
    assert sorted(names) == ["Tourney bot 1", "Tourney bot 2"]
    from studpoker.server.db import Account
    from studpoker.server.tournaments import BOT

    assert len(rows(client, select(Account.id).where(Account.password_hash == BOT))) == 2


def test_an_account_may_run_three_tournaments_at_once(client: TestClient) -> None:
    ann = signup(client, "ann")
    for _ in range(3):  # each full of bots: they start at once, and still count
        assert ann.post("/api/tournaments", {"seats": 2, "bots": 2, "structure": "standard"}).status_code == 201
    fourth = ann.post("/api/tournaments", {"seats": 2, "bots": 2})
    assert fourth.status_code == 409 and fourth.json()["error"]["code"] == "limit"


def test_places_follow_the_hands_players_went_out_in(db: Database) -> None:
    """Players out in different hands are placed in the order the hands ended, even when the runner sees them in
    one look; players out in one hand or one hand-for-hand round go by their starting stacks, equal stacks tied; a
    round not over yet waits for the rest of it."""
    at = datetime(2026, 12, 7, 12, 0, 0)
    outs = {  # name: (table, hand, hand-for-hand round, seconds after `at`, starting stack)
        "Ann": (1, 5, None, 10, 300),
        "Bob": (2, 3, None, 5, 300),
        "Cid": (1, 7, None, 20, 100),
        "Dan": (1, 7, None, 20, 100),
        "Eve": (1, 8, 4, 30, 200),
        "Fay": (2, 6, 4, 31, 500),
        "Gus": (2, 7, 5, 40, 900),
    }

    def setup(session: Session) -> int:
        row = TournamentRow(
            name="Places", kind="scheduled", variant="STUD7", structure={}, buy_in=10, seats=8, max_entries=8
        )
        session.add(row)
        session.flush()
        for name, (table, hand, round_, seconds, stack) in outs.items():
            session.add(
                EntryRow(
                    tournament_id=row.id,
                    name=name,
                    status="out",
                    out_table=table,
                    out_hand=hand,
                    out_round=round_,
                    out_at=at + timedelta(seconds=seconds),
                    busted_from=stack,
                )
            )
        session.add(EntryRow(tournament_id=row.id, name="Hal", status="playing"))
        return row.id

    tournament = db.transaction(setup)

    def places(session: Session) -> dict[str, int | None]:
        found = session.scalars(select(EntryRow).where(EntryRow.tournament_id == tournament)).all()
        return {e.name: e.place for e in found}

    left = db.transaction(lambda s: _place_the_busted(s, tournament, closed=True, playing_round=5))
    assert left == (1, 8)
    expected: dict[str, int | None] = {"Bob": 8, "Ann": 7, "Cid": 5, "Dan": 5, "Eve": 4, "Fay": 3, "Gus": None}
    assert db.transaction(places) == expected | {"Hal": None}
    db.transaction(lambda s: _place_the_busted(s, tournament, closed=True, playing_round=None))  # round 5 over
    assert db.transaction(places) == expected | {"Gus": 2, "Hal": None}
