"""Mixed games at cash tables (issue 31): a Triple Stud table rotates, its sign says the game now and next, each
hand's history names its game and replays, and the rotation goes on where it stood after a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from studpoker.engine import Variant
from studpoker.history import phh
from studpoker.history.replay import replay
from studpoker.rotation import Rotation
from studpoker.server.db import Database, HandRow, TableRow
from studpoker.server.tablehost import rules_of, turn_of

from .conftest import User, invariants, make_settings, room_client, signup, stored_phh, until

TRIPLE = [{"variant": "STUD7"}, {"variant": "RAZZ"}, {"variant": "7stud8"}]


def mixed_table(user: User, **body: Any) -> dict[str, Any]:
    data = {"games": TRIPLE, "small_bet": 10, "every": 2, **body}
    answer = user.post("/api/tables", data)
    assert answer.status_code == 201, answer.text
    info: dict[str, Any] = answer.json()
    return info


def watch_hands(user: User, table_id: int, count: int) -> list[dict[str, Any]]:
    """The ``hand_started`` messages of the next ``count`` hands, seen by a spectator."""
    seen = []
    with user.socket(table_id) as ws:
        until(ws, "snapshot")
        while len(seen) < count:
            seen.append(until(ws, "hand_started", timeout=30))
    return seen


def test_a_triple_stud_table_rotates_every_two_hands_and_its_sign_says_now_and_next(client: TestClient) -> None:
    ann = signup(client, "ann")
    info = mixed_table(ann, bots=3)
    assert info["name"] == "Triple Stud 10/20" and info["variant"] == "STUD7"
    mix = info["mix"]
    assert mix["name"] == "Triple Stud" and mix["every"] == 2
    assert [g["variant"] for g in mix["games"]] == ["STUD7", "RAZZ", "STUD7_HL8"]
    assert [g["stakes_text"] for g in mix["games"]] == [info["stakes_text"]] * 3
    started = watch_hands(ann, info["id"], 7)
    numbers = [m["hand"] for m in started]
    assert numbers == list(range(numbers[0], numbers[0] + 7))
    games = {m["hand"]: m["table"]["variant"] for m in started}
    order = ["STUD7", "RAZZ", "STUD7_HL8"]
    for number, variant in games.items():  # hands 1-2 stud, 3-4 razz, 5-6 stud/8, 7-8 stud...
        assert variant == order[(number - 1) // 2 % 3], (number, variant)
        assert started[numbers.index(number)]["table"]["mix"]["hands_left"] == (0 if number % 2 == 0 else 1)
    for m in started:
        sign = m["table"]["mix"]
        assert sign["games"][sign["now"]]["variant"] == m["table"]["variant"]
        assert sign["next"] == (sign["now"] + 1) % 3
    codes = {"STUD7": "F7S", "RAZZ": "FR", "STUD7_HL8": "F7S/8"}
    for number in numbers[:-1]:  # every hand's history names its game and replays
        text = stored_phh(client, info["id"], number)
        record = phh.loads(text)[0]
        assert f"variant = '{codes[games[number]]}'" in text
        assert record.rules.variant is Variant(games[number])
        assert replay(record).state.is_over
    invariants(client)


def test_the_rotation_goes_on_where_it_stood_after_a_restart(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with room_client(settings) as client:
        ann = signup(client, "ann")
        table_id = mixed_table(ann, bots=2, every=3)["id"]
        watch_hands(ann, table_id, 4)
    db = Database(settings.db_url)  # the room is stopped: what it left in the database
    try:

        def read(session: Any) -> tuple[TableRow, int]:
            done = session.scalar(
                select(func.count(HandRow.id)).where(HandRow.table_id == table_id, HandRow.status == "finished")
            )
            return session.get(TableRow, table_id), int(done)

        row, done = db.transaction(read)
    finally:
        db.close()
    # the turn counts the finished hands (a hand the stop cut short is void at the next start and does not count)
    turn, rotation = turn_of(row), rules_of(row)
    assert turn is not None and (turn.index, turn.dealt, turn.length) == ((done - 1) // 3 % 3, (done - 1) % 3 + 1, 3)
    assert isinstance(rotation, Rotation)
    expected = rotation.games[rotation.upcoming(turn).index].variant
    with room_client(settings) as client:
        bob = signup(client, "bob")
        number = row.hand_number + 1  # the first hand dealt after the restart
        while watch_hands(bob, table_id, 1)[0]["hand"] <= number:
            pass
        assert phh.loads(stored_phh(client, table_id, number))[0].rules.variant is expected


def test_lobby_and_table_pages_show_the_mix(client: TestClient) -> None:
    ann = signup(client, "ann")
    table_id = mixed_table(ann, games=[{"variant": "RAZZ", "small_bet": 20}, {"variant": "5stud"}], every=0)["id"]
    listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}[table_id]
    mix = listed["mix"]
    assert mix["name"] == "Razz / Five-card stud" and mix["every"] == 0 and mix["hands_left"] is None
    assert [g["stakes"]["small_bet"] for g in mix["games"]] == [20, 10]
    assert listed["max_seats"] == 8  # five-card stud seats ten, razz eight: the table has eight
    assert listed["min_buy_in"] == 400  # the biggest game's (10 big bets of 40)
    single = client.get("/api/tables").json()["tables"]
    assert all(t["mix"] is None for t in single if t["id"] != table_id)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"variant": "STUD7", "games": TRIPLE}, "not both"),
        ({"games": None}, "not both"),
        ({"games": TRIPLE[:1]}, "at least 2"),
        ({"games": TRIPLE * 3}, "at most 8"),
        ({"every": 101}, "less than or equal to 100"),
        ({"every": -1}, "greater than or equal to 0"),
        ({"games": [{"variant": "holdem"}, {"variant": "RAZZ"}]}, "variant"),
        ({"games": [{"variant": "RAZZ", "small_bet": 10**18}, {"variant": "RAZZ"}]}, "small_bet"),
        ({"games": [{"variant": "RAZZ", "extra": 1}, {"variant": "RAZZ"}]}, "extra"),
        ({"games": [{"variant": "RAZZ", "small_bet": 10, "bring_in": 11}, {"variant": "RAZZ"}]}, "bring_in"),
        ({"games": [{"variant": "STUD5"}, {"variant": "STUD7"}], "bots": 8}, "bots must be 0 to 7"),
        ({"bots": 8}, "bots must be 0 to 7"),
    ],
)
def test_a_mixed_table_that_cannot_be_is_refused_with_the_reason(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    ann = signup(client, "ann")
    data = {"games": TRIPLE, "small_bet": 10, **body}
    data = {k: v for k, v in data.items() if v is not None}
    answer = ann.post("/api/tables", data)
    assert answer.status_code == 400, answer.text
    assert words in answer.text
    assert client.get("/api/tables").json()["tables"] == []


def test_each_game_may_have_its_own_preset(client: TestClient) -> None:
    ann = signup(client, "ann")
    games = [{"variant": "STUD7"}, {"variant": "RAZZ", "preset": "tournament"}]
    info = mixed_table(ann, games=games)
    room = client.app.state.room  # type: ignore[attr-defined]
    rotation = room.actors[info["id"]].table.rotation
    assert [g.preset for g in rotation.games] == ["casino", "tournament"]
    assert [g.raise_cap for g in rotation.games] == [3, 4]
