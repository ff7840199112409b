"""Regressions of a hostile review of the table page's server features (chat, sessions, slow sockets)."""

from __future__ import annotations

import asyncio
import json
import re
import time
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from starlette.websockets import WebSocketDisconnect

from studpoker.server.chat import ChatRefusedError, clean_text
from studpoker.server.connection import Connection
from studpoker.server.db import SessionRow, utcnow

from .conftest import create_table, drain, recv, signup, until


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("\u3164", "U+3164"),  # a Hangul filler: a line that shows nothing
        ("\u2800\u2800\u2800", "U+2800"),  # the Braille blank
        ("gg \uffa0", "U+FFA0"),
        ("\ue000 logo", "U+E000"),  # private use: whatever a font draws there
        ("x\U000e0080", "U+E0080"),  # unassigned
        ("\uffff", "U+FFFF"),  # a noncharacter
        ("a" + "\u0301" * 60, "combining marks"),  # "Zalgo": draws over the lines above and below
        ("\u0301abc", "combining mark"),  # nothing to sit on
        ("\u0301", "needs some text"),
    ],
)
def test_review_01_invisible_and_overdrawn_chat_is_refused(text: str, why: str) -> None:
    with pytest.raises(ChatRefusedError, match=re.escape(why)) as refused:
        clean_text(text)
    assert refused.value.code == "bad_message"


@pytest.mark.parametrize(
    "text",
    [
        "\u2764\ufe0f",  # an emoji with its variation selector
        "1\ufe0f\u20e3",  # a keycap: two marks
        "\U0001f44d\U0001f3fd",  # a skin tone
        "\u0928\u092e\u0938\u094d\u0924\u0947",  # Devanagari with its signs
        "\u05e9\u05b8\u05c1\u05dc\u05d5\u05b9\u05dd",  # Hebrew with points
        "Vi\u1ec7t Nam",
        "\U0001f600" * 200,  # 200 astral characters: 800 bytes of UTF-8, under the 4 KiB frame
    ],
)
def test_review_01_real_text_still_passes(text: str) -> None:
    assert clean_text(text)


def test_review_02_a_socket_whose_session_vanished_is_closed_by_the_sweep(client: TestClient) -> None:
    """A session past its longest life is deleted by the first HTTP request that shows its cookie; the sweep
    then never listed it as expired, so its table sockets stayed open (able to chat and act) for good."""
    ann = signup(client, "ann")
    table = create_table(ann)
    room = client.app.state.room  # type: ignore[attr-defined]
    assert client.portal is not None
    with ann.socket(table) as ws:
        drain(ws)
        longest = room.settings.session_max_seconds

        def age(session: object) -> None:
            old = utcnow() - timedelta(seconds=longest + 60)
            session.execute(update(SessionRow).values(created_at=old))  # type: ignore[attr-defined]

        client.portal.call(room.db.run, age)
        assert ann.get("/api/me").status_code == 401  # this request deletes the expired row
        client.portal.call(room.sockets.sweep)
        error = until(ws, "error")
        assert error["code"] == "logged_out"
        with pytest.raises(WebSocketDisconnect) as closed:
            recv(ws)
        assert closed.value.code == 4401


def test_review_03_a_socket_that_stops_reading_is_bounded_in_bytes() -> None:
    """Snapshots with a full chat history are ~120 KB each (50 lines of 200 astral characters, JSON-escaped):
    5000 of them queued for a client that stopped reading would be 600 MB; the queue is bounded in size too."""
    line = {"type": "chat", "id": 1, "text": "\U0001f600" * 200}
    snapshot = json.dumps({"type": "snapshot", "chat": [line] * 50})
    assert len(snapshot) > 100_000
    connection = Connection(1, "ann")
    pushed = 0
    while not connection.closed and pushed < 5000:
        connection.push(snapshot)
        pushed += 1
    assert connection.closed and pushed < 100
    assert connection.queued == 0 and list(connection.frames) == [1008]  # the frames were let go at once


def test_review_03_a_reading_socket_is_not_closed() -> None:
    async def run() -> None:
        connection = Connection(1, "ann", byte_limit=1000)
        for _ in range(50):
            connection.push("x" * 600)
            assert await connection.next() == "x" * 600
        assert not connection.closed and connection.queued == 0

    asyncio.run(run())


def test_review_04_refused_invisible_lines_reach_nobody(client: TestClient) -> None:
    ann, bob = signup(client, "ann"), signup(client, "bob")
    table = create_table(ann)
    with ann.socket(table) as mine, bob.socket(table) as theirs:
        drain(mine), drain(theirs)
        mine.send_text(json.dumps({"type": "chat", "text": "\u3164\u3164"}))
        assert recv(mine)["code"] == "bad_message"
        time.sleep(0.55)
        mine.send_text(json.dumps({"type": "chat", "text": "gg"}))
        assert until(theirs, "chat")["text"] == "gg"


def test_review_05_snapshot_asks_are_answered_once_a_second(client: TestClient) -> None:
    """A snapshot is the largest frame and the costliest to build: a socket asking 15 times at once gets one now
    and one more a second later (the asks in between coalesced), not 15."""
    ann = signup(client, "ann")
    table = create_table(ann)
    with ann.socket(table) as ws:
        drain(ws)
        started = time.monotonic()
        for _ in range(15):
            ws.send_text(json.dumps({"type": "snapshot"}))
        first = until(ws, "snapshot")
        second = until(ws, "snapshot", timeout=3.0)
        assert first["table"]["id"] == second["table"]["id"] == table
        assert time.monotonic() - started >= 0.9, "the second answer waits for the interval"
        assert [m for m in drain(ws, 1.3) if m["type"] == "snapshot"] == [], "the other asks were coalesced"


def test_review_06_a_stored_showdown_pause_is_bounded_again(client: TestClient) -> None:
    """A showdown pause written to the database by hand (outside the API's bounds) is bounded when the table
    is loaded: an actor never waits minutes or a negative time."""
    from studpoker.server.actor import TableActor
    from studpoker.server.db import TableRow
    from studpoker.server.limits import MAX_SHOWDOWN_SECONDS

    room = client.app.state.room  # type: ignore[attr-defined]
    ann = signup(client, "ann")
    create_table(ann)
    actor = next(iter(room.actors.values()))
    default = room.settings.showdown_seconds
    for stored, expected in ((3600.0, MAX_SHOWDOWN_SECONDS), (-5.0, 0.0), (float("nan"), default), (2.5, 2.5)):
        row = TableRow(id=actor.id, name="x", preset="casino", created_by=None, status="open", showdown_seconds=stored)
        loaded = TableActor(room, row, actor.table, actor.seats, [])
        assert loaded.showdown_seconds == expected, (stored, loaded.showdown_seconds)
