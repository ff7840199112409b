"""Showing and mucking where the rules let a player choose (issue 26, item 5): a hand that cannot win against the
hands shown is asked (and its clock mucks it), every other hand is shown for the player; the winner of a hand
nobody called may show it; what was mucked or never shown stays hidden in every frame and in the history."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import cards_in, drain, make_settings, room_client, until
from .test_table_protocol import act, passive, play_hand, sit_both, two_players


def _down_cards(log: list[dict[str, Any]], seat: int, hand: int) -> set[str]:
    """The down cards of ``seat`` in ``hand`` that a socket was shown (a player's own, from the dealt messages)."""
    return {
        c["card"]
        for m in log
        if m["type"] == "dealt" and m["hand"] == hand
        for c in m["cards"]
        if c["seat"] == seat and c["card"] and not c["face_up"]
    }


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A room where a test may play many quick hands in a row (the socket's rate limit out of the way)."""
    with room_client(make_settings(tmp_path, max_messages_per_second=10_000)) as test_client:
        yield test_client


def test_a_hand_that_cannot_win_is_asked_and_may_be_mucked(client: TestClient) -> None:
    ann, bob, table_id = two_players(client)
    asked: list[dict[str, Any]] = []

    def muck_when_asked(turn: dict[str, Any]) -> dict[str, Any]:
        kinds = {a["action"]: a for a in turn["legal"]}
        if "muck" in kinds:
            asked.append(turn)
            assert [a["label"] for a in turn["legal"]] == ["show", "muck"]
            return kinds["muck"]
        return passive(turn)

    with (
        ann.socket(table_id) as a,
        bob.socket(table_id) as b,
        client.websocket_connect(f"/ws/table/{table_id}") as watcher,
    ):
        for ws in (a, b, watcher):
            until(ws, "snapshot")
        sit_both(ann, bob, table_id)
        hands = 0
        while not asked:  # checked down, the second hand shown loses about half the time
            hands += 1
            assert hands <= 20, "no showdown with a losing second hand in 20 hands"
            logs = play_hand([a, b], muck_when_asked, watchers=(watcher,))
        turn = asked[0]
        loser, loser_log = (2, logs[0]) if turn["seat"] == 2 else (5, logs[1])
        winner_log = logs[1] if loser == 2 else logs[0]
        hand = turn["hand"]
        # the first hand was shown for its player without asking; the muck is announced; no card of it leaks
        shows = [m for m in winner_log if m["type"] == "showdown" and m["hand"] == hand]
        assert len(shows) == 1 and shows[0]["seat"] != loser
        assert any(m["type"] == "muck" and m["seat"] == loser for m in winner_log)
        hidden = _down_cards(loser_log, loser, hand)
        assert len(hidden) == 3
        for seen in (winner_log, logs[2]):
            assert not hidden & set().union(*(cards_in(m) for m in seen)), "a mucked card reached another socket"
        # and he really could not win: the pot went to the hand shown
        over = next(m for m in winner_log if m["type"] == "hand_over" and m["hand"] == hand)
        assert {w["seat"] for w in over["winners"]} == {shows[0]["seat"]}
    # the history keeps the mucked hand hidden from the other player and from spectators
    for viewer in (client, ann if loser == 5 else bob):
        answer = viewer.get(f"/api/tables/{table_id}/hands/{hand}.phh")
        assert answer.status_code == 200 and "sm" in answer.text  # the shows and the muck are in it
        assert not any(card in answer.text for card in hidden), answer.text


def test_a_hand_that_can_win_is_never_asked(client: TestClient) -> None:
    """Checked down to showdowns: a hand the room asks about never wins anything (shown by choice here), and every
    hand it does not ask about is shown for its player."""
    ann, bob, table_id = two_players(client)
    asked: list[tuple[int, int]] = []

    def show_when_asked(turn: dict[str, Any]) -> dict[str, Any]:
        if turn["legal"][0]["action"] == "show":
            asked.append((turn["hand"], turn["seat"]))
        return passive(turn)  # checks and calls, and shows when asked

    showdowns = 0
    with ann.socket(table_id) as a, bob.socket(table_id) as b:
        until(a, "snapshot")
        until(b, "snapshot")
        sit_both(ann, bob, table_id)
        for _ in range(8):
            log = play_hand([a, b], show_when_asked)[0]
            over = next(m for m in log if m["type"] == "hand_over")
            shows = {m["seat"] for m in log if m["type"] == "showdown" and m["hand"] == over["hand"]}
            if not shows:
                continue
            showdowns += 1
            assert shows == {2, 5}  # nobody mucked: both hands are on the table
            winners = {w["seat"] for w in over["winners"]}
            for hand, seat in asked:
                if hand == over["hand"]:
                    assert seat not in winners, "the room asked about a hand that wins"
    assert showdowns >= 4 and asked


def test_the_clock_mucks_a_hand_that_cannot_win(tmp_path: Path) -> None:
    settings = make_settings(
        tmp_path, action_seconds=0.3, time_bank=0.0, timeouts_to_sit_out=99, max_messages_per_second=10_000
    )
    with room_client(settings) as client:
        ann, bob, table_id = two_players(client)
        with ann.socket(table_id) as a, bob.socket(table_id) as b:
            until(a, "snapshot")
            until(b, "snapshot")
            sit_both(ann, bob, table_id)
            muck = None
            for _ in range(400):  # act passively, but leave a showdown question to the clock
                for ws in (a, b):
                    for message in drain(ws, 0.02):
                        if message["type"] == "your_turn" and message["legal"][0]["action"] != "show":
                            ws.send_text(act(message, passive(message)))
                        elif message["type"] == "action" and message["action"] == "muck":
                            muck = message
                if muck is not None:
                    break
            assert muck is not None and muck["auto"] is True


def test_the_winner_nobody_called_may_show_and_only_he(client: TestClient) -> None:
    ann, bob, table_id = two_players(client, variant="STUD7")

    def fold_or_bring_in(turn: dict[str, Any]) -> dict[str, Any]:
        return next(x for x in turn["legal"] if x["action"] in ("fold", "bring-in"))

    # both sit out from the next hand: the table waits, and the winner's right to show lasts until a deal

    with (
        ann.socket(table_id) as a,
        bob.socket(table_id) as b,
        client.websocket_connect(f"/ws/table/{table_id}") as watcher,
    ):
        for ws in (a, b, watcher):
            until(ws, "snapshot")
        sit_both(ann, bob, table_id)
        until(a, "hand_started")
        for user in (ann, bob):
            assert user.post(f"/api/tables/{table_id}/sit-out").status_code == 200
        logs = play_hand([a, b], fold_or_bring_in, watchers=(watcher,))
        over = next(m for m in logs[0] if m["type"] == "hand_over")
        (winner,) = {w["seat"] for w in over["winners"]}
        hand = over["hand"]
        win_ws, lose_ws = (a, b) if winner == 2 else (b, a)
        win_log = logs[0] if winner == 2 else logs[1]
        mine = _down_cards(win_log, winner, hand)
        lose_ws.send_text(json.dumps({"type": "show", "hand": hand}))
        refused = until(lose_ws, "error")
        assert refused["code"] == "not_allowed"
        win_ws.send_text(json.dumps({"type": "show", "hand": hand + 1}))
        assert until(win_ws, "error")["code"] == "stale"
        win_ws.send_text(json.dumps({"type": "show", "hand": "x"}))
        assert until(win_ws, "error")["code"] == "bad_message"
        win_ws.send_text(json.dumps({"type": "show", "hand": hand}))
        shown = until(watcher, "showdown")
        assert shown["voluntary"] is True and shown["seat"] == winner and set(shown["down"]) == mine
        assert shown["description"] == ""  # three cards make no hand yet
        win_ws.send_text(json.dumps({"type": "show", "hand": hand}))  # once
        assert until(win_ws, "error")["code"] == "stale"
    answer = client.get(f"/api/tables/{table_id}/hands/{hand}.phh")  # the history shows what the table saw
    assert answer.status_code == 200 and all(card in answer.text for card in mine), answer.text


def test_an_act_message_cannot_show_for_someone_else(client: TestClient) -> None:
    """A ``show`` or ``muck`` sent as an ``act`` out of turn is refused like any other action."""
    ann, bob, table_id = two_players(client)
    with ann.socket(table_id) as a, bob.socket(table_id) as b:
        until(a, "snapshot")
        until(b, "snapshot")
        sit_both(ann, bob, table_id)
        turn = until(a, "turn")
        other = b if turn["seat"] == 2 else a
        other.send_text(act(turn, {"action": "muck", "amount": 0}))
        assert until(other, "error")["code"] == "not_your_turn"
