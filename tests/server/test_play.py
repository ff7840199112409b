"""Hands over WebSockets: what each connection may see, turns, refusals, tabs, reconnects, the clock, restarts."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from studpoker.cards import parse_cards
from studpoker.engine import Variant, describe_hand
from studpoker.history import phh
from studpoker.history.replay import replay

from .conftest import (
    User,
    cards_in,
    create_table,
    drain,
    first_turn,
    invariants,
    make_settings,
    recv,
    room_client,
    signup,
    stored_phh,
    until,
)


def seated_pair(client: TestClient, **table: Any) -> tuple[User, User, int]:
    ann, bob = signup(client, "ann"), signup(client, "bob")
    table_id = create_table(ann, **table)
    assert ann.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 2}).status_code == 200
    return ann, bob, table_id


def choose(turn: dict[str, Any], fold: bool = False) -> dict[str, Any]:
    kinds = {a["action"]: a for a in turn["legal"]}
    if fold and "fold" in kinds:
        pick = kinds["fold"]
    else:
        pick = next(kinds[k] for k in ("check", "call", "bring-in", "complete", "bet", "raise", "show") if k in kinds)
    return {"type": "act", "hand": turn["hand"], "seq": turn["seq"], **pick}


def test_a_hand_on_the_wire_leaks_no_hidden_card(tmp_path: Path) -> None:
    with room_client(make_settings(tmp_path, between_hands=0.5)) as client:
        wire_hand(client)


def wire_hand(client: TestClient, **table: Any) -> None:
    """Three players' hand (cid folds at once) seen by them, a spectator and an anonymous socket: nobody sees a
    down card that is not his before the showdown, nor ever a folded one; ``table``: the table's options."""
    users = [signup(client, n) for n in ("ann", "bob", "cid")]
    table_id = create_table(users[0], **table)
    watcher = signup(client, "dan")
    sockets = [u.socket(table_id) for u in users]
    spectator, anonymous = watcher.socket(table_id), client.websocket_connect(f"/ws/table/{table_id}")
    opened = [s.__enter__() for s in [*sockets, spectator, anonymous]]
    try:
        logs: list[list[dict[str, Any]]] = [[] for _ in opened]
        for i, ws in enumerate(opened):
            logs[i].append(recv(ws))
            assert logs[i][0]["type"] == "snapshot" and logs[i][0]["hand"] is None
        for seat, user in enumerate(users, 1):
            assert user.post(f"/api/tables/{table_id}/sit", {"buy_in": 300, "seat": seat}).status_code == 200
        over = [False] * 3
        while not all(over):
            for i, ws in enumerate(opened[:3]):
                for message in drain(ws, 0.02):
                    logs[i].append(message)
                    if message["type"] == "your_turn":
                        ws.send_text(json.dumps(choose(message, fold=i == 2)))  # cid folds at once
                    over[i] = over[i] or message["type"] == "hand_over"
        for i in (3, 4):  # the watchers' sockets were not read during the hand: read them to its end
            until(opened[i], "hand_over", timeout=60, log=logs[i])
            logs[i] += drain(opened[i], 0.1)
    finally:
        for ws in opened:
            ws.__exit__(None, None, None)
    state = replay(phh.loads_hand(stored_phh(client, table_id, 1))).state
    down = {seat: {str(c) for c in state.down_cards(p)} for p, seat in enumerate((1, 2, 3))}
    shown = {m["seat"] for m in logs[0] if m["type"] == "showdown"}
    assert 3 not in shown and any(m["type"] == "action" and m["action"] == "fold" and m["seat"] == 3 for m in logs[0])
    for i, log in enumerate(logs):
        me = i + 1 if i < 3 else None
        showdown_at = next((k for k, m in enumerate(log) if m["type"] == "showdown"), len(log))
        before = set().union(*(cards_in(m) for m in log[:showdown_at]))
        everything = set().union(*(cards_in(m) for m in log))
        for seat, cards in down.items():
            if seat == me:
                assert cards <= everything  # a player sees his own down cards
                continue
            assert not cards & before, f"connection {i} saw seat {seat}'s down cards before the showdown"
            if seat not in shown:
                assert not cards & everything, f"connection {i} saw the mucked hand of seat {seat}"
        kinds = [m["type"] for m in log]
        assert {"hand_started", "ante", "street", "dealt", "action", "pot", "turn", "hand_over"} <= set(kinds)
        assert ("your_turn" in kinds) == (me is not None)
    # every shown hand comes with the engine's words for it
    assert shown == {1, 2}
    for message in (m for m in logs[3] if m["type"] == "showdown"):
        cards = parse_cards(" ".join(message["down"] + message["up"]))
        assert message["description"] == describe_hand(cards, Variant.STUD7) != ""
    assert invariants(client).at_tables == 900


def test_out_of_turn_double_clicks_and_other_seats_are_refused(client: TestClient) -> None:
    ann, bob, table_id = seated_pair(client)
    cid = signup(client, "cid")
    with ann.socket(table_id) as a, bob.socket(table_id) as b, cid.socket(table_id) as c:
        for ws in (a, b, c):
            until(ws, "snapshot")
        bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 5})
        # whoever is to act gets your_turn; the other one tries to act in his place
        actor, turn = first_turn([a, b])
        other = b if actor is a else a
        move = choose(turn)
        other.send_text(json.dumps(move))
        assert until(other, "error")["code"] == "not_your_turn"
        c.send_text(json.dumps(move))
        assert until(c, "error")["code"] == "not_seated"
        other.send_text(json.dumps({**move, "seat": turn["seat"]}))  # naming the other seat changes nothing
        assert until(other, "error")["code"] == "not_your_turn"
        actor.send_text(json.dumps({**move, "action": "raise", "amount": 999}))
        assert until(actor, "error")["code"] == "illegal"
        actor.send_text(json.dumps({**move, "amount": "ten"}))
        assert until(actor, "error")["code"] == "bad_message"
        actor.send_text(json.dumps({"type": "dance"}))
        assert until(actor, "error")["code"] == "unknown_type"
        assert not [m for m in drain(c, 0.1) if m["type"] == "action"]  # nothing was applied so far
        actor.send_text(json.dumps(move))
        actor.send_text(json.dumps(move))  # a double click
        log: list[dict[str, Any]] = []
        error = until(actor, "error", log=log)
        assert error["code"] == "stale" and error["seq"] == turn["seq"]
        applied = [m for m in log + drain(c, 0.2) if m["type"] == "action" and m["seq"] == turn["seq"]]
        assert len(applied) == 2  # once on the actor's socket, once on the spectator's
        stale = {**move, "hand": turn["hand"] - 1}
        actor.send_text(json.dumps(stale))
        assert until(actor, "error")["code"] == "stale"


def test_malformed_and_oversized_messages_close_only_that_socket(client: TestClient) -> None:
    ann, _bob, table_id = seated_pair(client)
    with ann.socket(table_id) as good:
        until(good, "snapshot")
        for frame, code, close in (
            ("{not json", "bad_json", 1008),
            ("[1, 2]", "bad_json", 1008),
            ("x" * 5000, "too_big", 1009),
        ):
            with client.websocket_connect(f"/ws/table/{table_id}") as bad:
                until(bad, "snapshot")
                bad.send_text(frame)
                assert until(bad, "error")["code"] == code
                with pytest.raises(WebSocketDisconnect) as closed:
                    recv(bad)
                assert closed.value.code == close
        with client.websocket_connect(f"/ws/table/{table_id}") as binary:
            until(binary, "snapshot")
            binary.send_bytes(b"\x00\x01")
            assert until(binary, "error")["code"] == "bad_json"
        good.send_text('{"type": "ping"}')
        assert until(good, "pong") == {"type": "pong"}
    with client.websocket_connect("/ws/table/42") as missing:
        assert recv(missing)["code"] == "not_found"
        with pytest.raises(WebSocketDisconnect) as closed:
            recv(missing)
        assert closed.value.code == 4404
    assert client.get("/api/tables").status_code == 200


def test_two_tabs_of_one_account_act_once(client: TestClient) -> None:
    ann, bob, table_id = seated_pair(client)
    with ann.socket(table_id) as tab1, ann.socket(table_id) as tab2, bob.socket(table_id) as b:
        for ws in (tab1, tab2, b):
            until(ws, "snapshot")
        bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 5})
        for _ in range(20):  # play until it is ann's turn
            bob_turns = [m for m in drain(b, 0.05) if m["type"] == "your_turn"]
            for turn in bob_turns:
                b.send_text(json.dumps(choose(turn)))
            first = [m for m in drain(tab1, 0.05) if m["type"] == "your_turn"]
            if first:
                break
        else:
            pytest.fail("ann never got a turn")
        second = until(tab2, "your_turn")
        assert first[-1] == second
        tab1.send_text(json.dumps(choose(second)))
        tab2.send_text(json.dumps(choose(second)))
        got1: list[dict[str, Any]] = []
        got2: list[dict[str, Any]] = []

        def applied(got: list[dict[str, Any]]) -> bool:
            return any(m["type"] == "action" and m["seq"] == second["seq"] for m in got)

        deadline = time.monotonic() + 60  # both tabs see the action, one of them the refusal of the second click
        while not (applied(got1) and applied(got2) and any(m["type"] == "error" for m in got1 + got2)):
            assert time.monotonic() < deadline, (got1, got2)
            got1 += drain(tab1, 0.02)
            got2 += drain(tab2, 0.02)
        got1 += drain(tab1, 0.2)
        got2 += drain(tab2, 0.2)
        for got in (got1, got2):
            assert len([m for m in got if m["type"] == "action" and m["seq"] == second["seq"]]) == 1
        errors = [m for m in got1 + got2 if m["type"] == "error"]
        assert [e["code"] for e in errors] == ["stale"]


def test_reconnect_gets_a_snapshot_and_plays_on(client: TestClient) -> None:
    ann, bob, table_id = seated_pair(client)
    with bob.socket(table_id) as b:
        until(b, "snapshot")
        bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 5})
        with ann.socket(table_id) as a:
            snap = until(a, "snapshot")
            assert snap["you"]["seat"] == 2 and snap["hand"]["hand"] == 1
            assert snap["hand"]["seats"] == [2, 5]
            view = snap["hand"]["view"]
            mine, theirs = view["players"]
            assert mine["seat"] == 2 and None not in mine["down"] and theirs["down"] == [None, None]
        # ann's socket is gone; her seat stays
        seat = next(s for s in client.get(f"/api/tables/{table_id}").json()["seats"] if s["seat"] == 2)
        assert seat["name"] == "ann" and not seat["connected"]
        with ann.socket(table_id) as a:
            snap = until(a, "snapshot")
            assert snap["hand"]["hand"] == 1 and snap["you"]["seat"] == 2
            for _ in range(60):
                for ws in (a, b):
                    for message in drain(ws, 0.02):
                        if message["type"] == "your_turn":
                            ws.send_text(json.dumps(choose(message)))
                if client.get(f"/api/tables/{table_id}/hands").json()["hands"]:
                    break
            assert client.get(f"/api/tables/{table_id}/hands/1").json()["status"] == "finished"


def test_the_clock_acts_for_a_player_who_does_not(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, action_seconds=0.2, time_bank=0.1, timeouts_to_sit_out=1)
    with room_client(settings) as client:
        _ann, bob, table_id = seated_pair(client)
        with bob.socket(table_id) as b:
            until(b, "snapshot")
            bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 5})
            turn = until(b, "your_turn")
            # what is left when the message was built: a busy machine may have used a little of it already
            assert 0 < turn["clock"]["action"] <= 0.2 and turn["clock"]["bank"] == 0.1
            auto = until(b, "action", timeout=3)
            while auto["seq"] != turn["seq"]:
                auto = until(b, "action", timeout=3)
            assert auto["auto"] is True and auto["seat"] == 5 and auto["action"] in ("check", "fold", "bring-in")
            until(b, "hand_over", timeout=10)
            seats = {s["seat"]: s for s in client.get(f"/api/tables/{table_id}").json()["seats"]}
            assert seats[5]["sitting_out"] or seats[2]["sitting_out"]  # one timeout sits a player out here
        assert invariants(client).at_tables == 800


def test_a_restart_mid_hand_voids_the_hand_and_returns_every_chip(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with room_client(settings) as client:
        ann, bob, table_id = seated_pair(client, bots=0)
        with bob.socket(table_id) as b, ann.socket(table_id) as a:
            until(b, "snapshot")
            until(a, "snapshot")
            bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 500, "seat": 5})
            ws, turn = first_turn([a, b])
            ws.send_text(json.dumps(choose(turn)))
            until(ws, "action")
        assert ann.post(f"/api/tables/{table_id}/top-up", {"amount": 100}).json()["queued"] is True
        assert client.get(f"/api/tables/{table_id}").json()["playing"]
    # the server stopped with hand 1 unfinished
    with room_client(settings) as client:
        hands = client.get(f"/api/tables/{table_id}/hands").json()["hands"]
        assert [(h["number"], h["status"]) for h in hands][-1] == (1, "voided")
        assert client.get(f"/api/tables/{table_id}/hands/1").json()["phh"] is None
        seats = client.get(f"/api/tables/{table_id}").json()["seats"]
        assert {s["seat"]: s["stack"] for s in seats} == {2: 500, 5: 500}  # 400 + the queued 100; 500
        entries = client.get("/api/ledger", headers=ann.headers).json()["entries"]
        assert [e["kind"] for e in entries] == ["top_up", "buy_in", "grant"]
        room = client.app.state.room  # type: ignore[attr-defined]
        from sqlalchemy import select

        from studpoker.server.db import HandRow, LedgerEntry

        def check(session: Any) -> None:
            voids = session.scalars(select(LedgerEntry).where(LedgerEntry.kind == "void")).all()
            assert sorted(v.amount for v in voids) == [400, 500]
            first = session.scalar(select(HandRow).where(HandRow.number == 1))
            assert {p["seat"]: p["start"] for p in first.players} == {2: 400, 5: 500}

        room.db.transaction(check)
        assert invariants(client).at_tables == 1000
