"""The table protocol's additions: the raise cap on the wire (``pot``, ``your_turn``, the snapshot), what a shown
hand plays (``showdown``), the dealer's lines, the pause after a showdown (``hand_over.next_in``), and the voided
hands a snapshot tells of after a restart."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from studpoker.cards import parse_cards
from studpoker.engine import Variant, describe_board, describe_hand
from studpoker.evaluation import evaluate_high, evaluate_low8
from studpoker.server.hudschemas import DEFAULT_HUD_STATS

from .conftest import User, create_table, drain, first_turn, make_settings, recv, room_client, signup, until

Policy = Callable[[dict[str, Any]], dict[str, Any]]


def passive(turn: dict[str, Any]) -> dict[str, Any]:
    kinds = {a["action"]: a for a in turn["legal"]}
    return next(kinds[k] for k in ("check", "call", "bring-in", "complete", "bet", "raise", "show") if k in kinds)


def act(turn: dict[str, Any], pick: dict[str, Any]) -> str:
    return json.dumps(
        {"type": "act", "hand": turn["hand"], "seq": turn["seq"], "action": pick["action"], "amount": pick["amount"]}
    )


def play_hand(
    sockets: list[Any], policy: Policy = passive, watchers: tuple[Any, ...] = ()
) -> list[list[dict[str, Any]]]:
    """Answer every ``your_turn`` with ``policy`` until each player socket has seen a ``hand_over``; the logs of
    the players' sockets then the watchers'."""
    logs: list[list[dict[str, Any]]] = [[] for _ in sockets]
    over = [False] * len(sockets)
    deadline = time.monotonic() + 60
    while not all(over):
        assert time.monotonic() < deadline, "the hand did not end"
        for i, ws in enumerate(sockets):
            while not over[i]:  # message by message: what follows hand_over is the next test step's
                try:
                    message = recv(ws, 0.02)
                except TimeoutError:
                    break
                logs[i].append(message)
                if message["type"] == "your_turn":
                    ws.send_text(act(message, policy(message)))
                over[i] = message["type"] == "hand_over"
    for watcher in watchers:  # read to the hand's end: the deal may be slow on a loaded machine
        logs.append([])
        until(watcher, "hand_over", timeout=60, log=logs[-1])
        logs[-1] += drain(watcher, 0.2)
    return logs


def two_players(client: TestClient, **table: Any) -> tuple[User, User, int]:
    ann, bob = signup(client, "ann"), signup(client, "bob")
    return ann, bob, create_table(ann, **table)


def sit_both(ann: User, bob: User, table_id: int) -> None:
    assert ann.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 2}).status_code == 200
    assert bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 5}).status_code == 200


# -- the raise cap ---------------------------------------------------------------------------------------------


def test_the_cap_on_the_wire(client: TestClient) -> None:
    """Tournament rules: four raises after the completion, also heads-up. Every raise is taken until the cap."""
    ann, bob, table_id = two_players(client, preset="tournament")
    turns: list[dict[str, Any]] = []

    def raise_all(turn: dict[str, Any]) -> dict[str, Any]:
        turns.append(turn)
        kinds = {a["action"]: a for a in turn["legal"]}
        if turn["street"] == 3:
            return next(kinds[k] for k in ("raise", "bring-in", "complete", "call") if k in kinds)
        return passive(turn)

    with ann.socket(table_id) as a, bob.socket(table_id) as b:
        until(a, "snapshot")
        until(b, "snapshot")
        sit_both(ann, bob, table_id)
        logs = play_hand([a, b], raise_all)
    third = [t for t in turns if t["street"] == 3]
    assert [t["raises"] for t in third] == [0, 0, 0, 1, 2, 3, 4]
    assert {t["raise_cap"] for t in third} == {4}
    assert [t["capped"] for t in third] == [False] * 6 + [True]
    first = third[0]["legal"]
    assert first == [
        {"action": "bring-in", "amount": 3, "cost": 3, "label": "bring in 3", "cap": False},
        {"action": "complete", "amount": 10, "cost": 10, "label": "complete to 10", "cap": False},
    ]
    assert third[1]["legal"] == [
        {"action": "fold", "amount": 0, "cost": 0, "label": "fold", "cap": False},
        {"action": "call", "amount": 3, "cost": 3, "label": "call 3", "cap": False},
        {"action": "complete", "amount": 10, "cost": 10, "label": "complete to 10", "cap": False},
    ]
    # "call N" says what calling costs: the bring-in (3 in) facing the completion to 10 adds 7
    assert [e["label"] for e in third[2]["legal"]] == ["fold", "call 7", "raise to 20"]
    assert [e["cost"] for e in third[2]["legal"]] == [0, 7, 17]
    assert third[5]["legal"][-1] == {
        "action": "raise",
        "amount": 50,
        "cost": 20,
        "label": "raise to 50 (cap)",
        "cap": True,
    }
    assert [e["cap"] for t in third[:5] for e in t["legal"]] == [False] * sum(len(t["legal"]) for t in third[:5])
    assert third[6]["legal"] == [
        {"action": "fold", "amount": 0, "cost": 0, "label": "fold", "cap": False},
        {"action": "call", "amount": 50, "cost": 10, "label": "call 10", "cap": False},
    ]
    # the log's words are the buttons': each action message says what it added, and a call its cost
    actions = [m for m in logs[0] if m["type"] == "action" and m["street"] == 3]
    assert [m["label"] for m in actions] == [
        "bring in 3",
        "complete to 10",
        "raise to 20",
        "raise to 30",
        "raise to 40",
        "raise to 50",
        "call 10",
    ]
    assert [m["added"] for m in actions] == [3, 10, 17, 20, 20, 20, 10]
    pots = [m for m in logs[0] if m["type"] == "pot"]
    assert all({"raises", "raise_cap", "capped"} <= set(m) for m in pots)
    capped = [m for m in pots if m["capped"]]
    assert capped and capped[0]["raises"] == 4 and capped[0]["street"] == 3
    fourth = next(m for m in pots if m["street"] == 4)
    assert (fourth["raises"], fourth["capped"]) == (0, False)  # a new street


def test_heads_up_the_wire_says_the_cap_is_off(client: TestClient) -> None:
    """Casino rules lift the cap heads-up (R6.6): raises go past 3, and every message says ``uncapped``."""
    ann, bob, table_id = two_players(client)
    turns: list[dict[str, Any]] = []

    def raise_all(turn: dict[str, Any]) -> dict[str, Any]:
        turns.append(turn)
        kinds = {a["action"]: a for a in turn["legal"]}
        if turn["street"] == 3 and turn["raises"] < 5:
            return next(kinds[k] for k in ("raise", "bring-in", "complete", "call") if k in kinds)
        return passive(turn)

    with ann.socket(table_id) as a, bob.socket(table_id) as b:
        until(a, "snapshot")
        until(b, "snapshot")
        sit_both(ann, bob, table_id)
        logs = play_hand([a, b], raise_all)
    third = [t for t in turns if t["street"] == 3]
    assert max(t["raises"] for t in third) == 5 and not any(t["capped"] for t in third)
    assert all(t["uncapped"] and t["raise_cap"] == 3 for t in third)
    assert not any(e["cap"] for t in third for e in t["legal"])  # no "(cap)" label on a raise that is not the last
    pots = [m for m in logs[0] if m["type"] == "pot" and m["street"] == 3]
    assert pots and all(m["uncapped"] for m in pots)


def test_the_snapshot_tells_the_cap_too(client: TestClient) -> None:
    ann, bob, table_id = two_players(client)
    with ann.socket(table_id) as a:
        until(a, "snapshot")
        sit_both(ann, bob, table_id)
        until(a, "hand_started")
        a.send_text('{"type": "snapshot"}')
        hand = until(a, "snapshot")["hand"]
        assert (hand["raises"], hand["raise_cap"], hand["capped"], hand["uncapped"]) == (0, 3, False, True)


def test_no_cap_is_null(client: TestClient) -> None:
    """A table without a cap says ``raise_cap: null``: the casino and tournament presets both have one, so this
    is the wire function itself on a hand without."""
    from studpoker.engine import HandState, Rules
    from studpoker.server import wire

    state = HandState(
        Rules.casino(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20, raise_cap=None), [500] * 3, seed=1
    )
    assert wire.betting(state) == {"raises": 0, "raise_cap": None, "capped": False, "uncapped": False}
    assert not any(e["cap"] for e in wire.legal_entries(state))


# -- the showdown ----------------------------------------------------------------------------------------------


def test_a_showdown_says_what_plays(client: TestClient) -> None:
    ann, bob, table_id = two_players(client, variant="STUD7_HL8")
    cid = signup(client, "cid")
    with ann.socket(table_id) as a, bob.socket(table_id) as b, cid.socket(table_id) as c:
        for ws in (a, b, c):
            until(ws, "snapshot")
        sit_both(ann, bob, table_id)
        logs = play_hand([a, b], watchers=(c,))
    shows = [m for m in logs[2] if m["type"] == "showdown"]
    assert len(shows) == 2
    for show in shows:
        cards = show["down"] + show["up"]
        parsed = parse_cards(" ".join(cards))
        high, low = evaluate_high(parsed), evaluate_low8(parsed)
        assert len(show["best"]) == 5 and set(show["best"]) <= set(cards)
        assert show["best"] == [str(c) for c in high.cards]
        assert show["high_description"] == high.description
        assert show["low"] == (None if low is None else [str(c) for c in low.cards])
        assert show["low_description"] == (None if low is None else low.description)
        assert show["description"] == describe_hand(parsed, Variant.STUD7_HL8)  # as before
    assert shows == [m for m in logs[0] if m["type"] == "showdown"]  # the same for players and spectators


# -- the dealer ------------------------------------------------------------------------------------------------


def test_the_dealer_speaks_to_everyone(client: TestClient) -> None:
    ann, bob, table_id = two_players(client)
    with ann.socket(table_id) as a, bob.socket(table_id) as b, client.websocket_connect(f"/ws/table/{table_id}") as v:
        for ws in (a, b, v):
            until(ws, "snapshot")
        sit_both(ann, bob, table_id)
        logs = play_hand([a, b], watchers=(v,))
    said = [[m for m in log if m["type"] == "dealer"] for log in logs]
    assert said[0] == said[1] == said[2]  # one text for all: it comes from public events only
    lines = [m["text"] for m in said[2]]
    assert all(m["hand"] == 1 for m in said[2])
    bring_in = next(m for m in logs[2] if m["type"] == "action")
    name = {2: "ann", 5: "bob"}[bring_in["seat"]]
    assert lines[0] == f"{name} brings in for 3"
    # the bring-in line comes after its action, before the chips
    kinds = [m["type"] for m in logs[2]]
    at = kinds.index("dealer")
    assert kinds[at - 1] == "action" and kinds[at + 1] == "pot"
    # each later street: who acts first, with the words for his board, once it is dealt and before anyone acts
    names = {2: "ann", 5: "bob"}
    boards: dict[int, list[str]] = {2: [], 5: []}
    for i, message in enumerate(logs[2]):
        if message["type"] == "dealt":
            for card in message["cards"]:
                if card["face_up"]:
                    boards[card["seat"]].append(card["card"])
        if message["type"] == "dealer" and "acts first" in message["text"]:
            turn = next(m for m in logs[2][i:] if m["type"] in ("turn", "action"))
            assert turn["type"] == "turn"  # nobody acted before the line
            seat = turn["seat"]
            words = describe_board(parse_cards(" ".join(boards[seat])), Variant.STUD7)
            assert message["text"] == f"{names[seat]} is high with {words} showing and acts first"
    assert "wins" in lines[-1] and "from the main pot with" in lines[-1]
    assert len([line for line in lines if "acts first" in line]) == 4  # 4th to 7th street


# -- the pause after a showdown --------------------------------------------------------------------------------


def test_a_showdown_pauses_the_next_deal(client: TestClient) -> None:
    ann, bob, table_id = two_players(client, showdown_seconds=0.8)
    assert ann.get(f"/api/tables/{table_id}").json()["showdown_seconds"] == 0.8
    with ann.socket(table_id) as a, bob.socket(table_id) as b:
        assert until(a, "snapshot")["table"]["showdown_seconds"] == 0.8
        until(b, "snapshot")
        sit_both(ann, bob, table_id)
        logs = play_hand([a, b])
        over = next(m for m in logs[0] if m["type"] == "hand_over")
        assert over["next_in"] == 0.8
        ended = time.monotonic()
        started = until(a, "hand_started", timeout=5)
        assert time.monotonic() - ended >= 0.6 and started["hand"] == 2
        # a hand won without a showdown waits between_hands only (0 here)
        logs = play_hand([a, b], lambda turn: next(x for x in turn["legal"] if x["action"] in ("fold", "bring-in")))
        over = next(m for m in logs[0] if m["type"] == "hand_over")
        assert over["next_in"] == 0 and not any(m["type"] == "showdown" for m in logs[0])


def test_next_in_is_null_when_no_hand_can_follow(client: TestClient) -> None:
    ann, bob, table_id = two_players(client)
    with ann.socket(table_id) as a, bob.socket(table_id) as b:
        until(a, "snapshot")
        until(b, "snapshot")
        sit_both(ann, bob, table_id)
        until(a, "hand_started")
        assert bob.post(f"/api/tables/{table_id}/leave").json()["left"] is False  # leaves when it is over
        logs = play_hand([a, b])
        assert next(m for m in logs[0] if m["type"] == "hand_over")["next_in"] is None
        assert bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 5}).status_code == 200
        until(a, "hand_started")
        assert ann.delete(f"/api/tables/{table_id}").json()["closed"] is False  # closing: no next hand
        logs = play_hand([a, b])
        assert next(m for m in logs[0] if m["type"] == "hand_over")["next_in"] is None


def test_someone_sitting_down_during_the_pause_does_not_cut_it_short(client: TestClient) -> None:
    ann, bob, table_id = two_players(client, showdown_seconds=1.0)
    cid = signup(client, "cid")
    with ann.socket(table_id) as a, bob.socket(table_id) as b:
        until(a, "snapshot")
        until(b, "snapshot")
        sit_both(ann, bob, table_id)
        until(a, "hand_started")
        assert cid.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 7}).status_code == 200  # asks for a deal
        play_hand([a, b])
        ended = time.monotonic()
        assert cid.post(f"/api/tables/{table_id}/sit-out").status_code == 200
        assert cid.post(f"/api/tables/{table_id}/sit-in").status_code == 200  # asks for a deal again
        until(a, "hand_started", timeout=5)
        assert time.monotonic() - ended >= 0.8


@pytest.mark.parametrize(
    "value", [31, -1, 30.0001, "5", True, None, [5]], ids=["31", "-1", "just-over", "text", "bool", "null", "list"]
)
def test_showdown_seconds_are_bounded_and_strict(client: TestClient, value: Any) -> None:
    ann = signup(client, "ann")
    body = {"variant": "STUD7", "small_bet": 10, "showdown_seconds": value}
    answer = ann.post("/api/tables", body)
    if value is None:  # null: the room's default, as for the other optional fields
        assert answer.status_code == 201 and answer.json()["showdown_seconds"] == 0.0
        return
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["details"][0]["field"].startswith("showdown_seconds")
    assert ann.get("/api/tables").json()["tables"] == []


def test_showdown_seconds_nan_and_infinity_are_refused(client: TestClient) -> None:
    ann = signup(client, "ann")
    for literal in ("NaN", "Infinity", "-Infinity", "1e400"):
        content = f'{{"variant": "STUD7", "small_bet": 10, "showdown_seconds": {literal}}}'
        answer = client.post(
            "/api/tables", headers={**ann.headers, "content-type": "application/json"}, content=content
        )
        assert answer.status_code == 400, (literal, answer.text)
    for good in (0, 30, 2.5):
        name = f"Stud {good}"
        answer = ann.post("/api/tables", {"variant": "STUD7", "small_bet": 10, "name": name, "showdown_seconds": good})
        assert answer.status_code == 201 and answer.json()["showdown_seconds"] == good
    assert {t["showdown_seconds"] for t in ann.get("/api/tables").json()["tables"]} == {0, 30, 2.5}


def test_a_cross_origin_table_with_a_pause_is_refused(client: TestClient) -> None:
    ann = signup(client, "ann")
    saved = client.headers.pop("origin")
    try:
        answer = client.post(
            "/api/tables",
            headers={**ann.headers, "origin": "http://evil.example"},
            json={"variant": "STUD7", "small_bet": 10, "showdown_seconds": 1},
        )
    finally:
        client.headers["origin"] = saved
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "csrf"
    assert ann.get("/api/tables").json()["tables"] == []


def test_the_room_default_pause(tmp_path: Path) -> None:
    with room_client(make_settings(tmp_path, showdown_seconds=7.5)) as client:
        ann = signup(client, "ann")
        table_id = create_table(ann)
        assert ann.get(f"/api/tables/{table_id}").json()["showdown_seconds"] == 7.5
    for bad in (-0.1, 30.5, float("nan")):
        with pytest.raises(ValueError, match="showdown_seconds"):
            make_settings(tmp_path, showdown_seconds=bad)


# -- voided hands ----------------------------------------------------------------------------------------------


def test_a_restart_tells_of_the_voided_hand(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with room_client(settings) as client:
        ann, bob, table_id = two_players(client)
        other = create_table(ann, name="Other table")
        with ann.socket(table_id) as a, bob.socket(table_id) as b:
            until(a, "snapshot")
            until(b, "snapshot")
            assert ann.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 3}).status_code == 200
            assert bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 500, "seat": 6}).status_code == 200
            _, turn = first_turn([a, b])
            assert turn["hand"] == 1
        assert client.get(f"/api/tables/{table_id}").json()["playing"]
    # the server stopped during hand 1
    with room_client(settings) as client:
        with client.websocket_connect(f"/ws/table/{table_id}") as visitor:
            snapshot = recv(visitor)
        voided = snapshot["voided"]
        assert len(voided) == 1
        entry = voided[0]
        assert entry["hand"] == 1 and entry["at"].endswith("Z")
        assert entry["players"] == [{"seat": 3, "name": "ann", "stack": 400}, {"seat": 6, "name": "bob", "stack": 500}]
        assert {s["seat"]: s["stack"] for s in snapshot["seats"]} == {3: 400, 6: 500}
        with client.websocket_connect(f"/ws/table/{other}") as visitor:
            assert recv(visitor)["voided"] == []  # the other table had no hand in play
        hands = client.get(f"/api/tables/{table_id}/hands").json()["hands"]
        assert (hands[-1]["number"], hands[-1]["status"]) == (1, "voided")
        assert client.get(f"/api/tables/{table_id}").json()["playing"]  # hand 2 is dealt, and cut short too
    # a third start tells of the hand it voided (2), not of the one the start before voided (1)
    with room_client(settings) as client, client.websocket_connect(f"/ws/table/{table_id}") as visitor:
        assert [v["hand"] for v in recv(visitor)["voided"]] == [2]


def test_a_table_tells_of_five_voided_hands_at_most(tmp_path: Path) -> None:
    """Hands left in play are rare (one per table at a stop); rows made by hand stand for many: the snapshot
    tells of the newest five, the newest last, and the books stay right."""
    from studpoker.server.db import HandRow
    from studpoker.server.room import VOIDED_KEPT

    from .conftest import invariants

    settings = make_settings(tmp_path)
    with room_client(settings) as client:
        _ann, _bob, table_id = two_players(client)
        room = client.app.state.room  # type: ignore[attr-defined]

        def rows(session: Any) -> None:
            for number in range(101, 108):
                players = [{"seat": 1, "name": "Ghost", "start": number, "end": None, "account_id": None}]
                session.add(HandRow(table_id=table_id, number=number, status="playing", players=players))

        room.db.transaction(rows)
    with room_client(settings) as client:
        with client.websocket_connect(f"/ws/table/{table_id}") as visitor:
            voided = recv(visitor)["voided"]
        assert len(voided) == VOIDED_KEPT == 5
        assert [v["hand"] for v in voided] == [103, 104, 105, 106, 107]
        assert voided[-1]["players"] == [{"seat": 1, "name": "Ghost", "stack": 107}]
        statuses = {h["number"]: h["status"] for h in client.get(f"/api/tables/{table_id}/hands").json()["hands"]}
        assert all(statuses[n] == "voided" for n in range(101, 108))
        invariants(client)


# -- the migration ---------------------------------------------------------------------------------------------


def test_a_database_of_revision_0002_migrates(tmp_path: Path) -> None:
    """Revision 0003 adds ``tables.showdown_seconds`` and ``accounts.preferences``; rows already there get
    ``NULL``, read as the room's default pause and the default preferences."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    from studpoker.server.auth import digest
    from studpoker.server.db import make_engine, migrate

    from .conftest import POSTGRES, database_url

    url = database_url(tmp_path) if POSTGRES else f"sqlite:///{tmp_path / 'room.db'}"
    engine = make_engine(url)
    config = Config()
    config.set_main_option(
        "script_location", str(Path(__file__).resolve().parents[2] / "src/studpoker/server/migrations")
    )
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
        connection.execute(
            text(
                "INSERT INTO accounts (id, username, username_key, password_hash, balance, is_admin, created_at)"
                " VALUES (1, 'ann', 'ann', 'x', 0, false, '2026-01-01')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO sessions (token_hash, account_id, created_at, last_seen_at) VALUES (:token, 1, :now, :now)"
            ),
            {"token": digest("ann-token"), "now": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())},
        )
        connection.execute(
            text(
                "INSERT INTO tables (id, name, name_key, variant, preset, ante, bring_in, small_bet, big_bet,"
                " hand_number, created_at, status) VALUES (1, 'Old', 'old', 'STUD7', 'casino', 1, 3, 10, 20, 0,"
                " '2026-01-01', 'open')"
            )
        )
    migrate(engine)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT showdown_seconds FROM tables")).scalar() is None
        assert connection.execute(text("SELECT preferences FROM accounts")).scalar() is None
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0013"
        # revision 0005: the table there is not a training table
        assert connection.execute(text("SELECT training FROM tables")).scalar() in (False, 0)
        # revision 0004 gives the table there a lease row, without an owner
        lease = connection.execute(text("SELECT table_id, worker, generation FROM table_leases")).all()
        assert [tuple(row) for row in lease] == [(1, None, 0)]
    engine.dispose()
    settings = make_settings(tmp_path, showdown_seconds=4.0)
    assert settings.db_url == url
    with room_client(settings) as client:
        assert client.get("/api/tables/1").json()["showdown_seconds"] == 4.0
        assert client.get("/api/tables/1").json()["training"] is False
        ann = User(client, "ann", "ann-token", 1)
        assert ann.get("/api/me/preferences").json() == {
            "four_color": False,
            "sound": True,
            "volume": 70,
            "auto_muck": False,
            "muted": [],
            "hud": False,
            "hud_stats": DEFAULT_HUD_STATS,
        }
        assert ann.post("/api/me/preferences", {"volume": 10}).json()["volume"] == 10
