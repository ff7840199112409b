"""A table's lobby entry as a worker caches it (studpoker.server.worker): made again only when the table's
``lobby_mark`` changed, so the mark must change whenever the entry would. Followed here through a table's life
in the one-process room (the actors are the same): sitting, a socket, a hand dealt and finished, sitting out, a
top-up, leaving."""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from studpoker.server.worker import lobby_mark, table_entry

from .conftest import create_table, make_settings, room_client, signup

#: The bound on anything the room does on its own (a generous one: the machine may be busy).
BOUND = 30.0


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # a short clock: the hand ends by itself, its players' turns played for them
    with room_client(make_settings(tmp_path, action_seconds=0.5, time_bank=0.0)) as test_client:
        yield test_client


def test_the_mark_changes_whenever_the_entry_does(client: TestClient) -> None:
    room: Any = client.app.state.room  # type: ignore[attr-defined]
    seen: list[tuple[Hashable, str]] = []

    def look() -> tuple[Hashable, str]:
        actor = room.actors[table_id]
        assert client.portal is not None
        pair: tuple[Hashable, str] = client.portal.call(_both, actor)
        seen.append(pair)
        return pair

    ann, bob = signup(client, "ann"), signup(client, "bob")
    table_id = create_table(ann)
    look()
    assert ann.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 1}).status_code == 200
    look()
    with ann.socket(table_id):
        look()
        assert bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 2}).status_code == 200
        deadline = time.monotonic() + BOUND
        while '"playing":true' not in look()[1]:  # the first hand is dealt
            assert time.monotonic() < deadline, "no hand was dealt"
            time.sleep(0.05)
        assert bob.post(f"/api/tables/{table_id}/sit-out").status_code == 200
        look()
        while '"hands_played":0' in look()[1]:  # the clock plays their turns: the hand ends
            assert time.monotonic() < deadline, "the hand did not end"
            time.sleep(0.05)
        assert ann.post(f"/api/tables/{table_id}/top-up", {"amount": 100}).status_code == 200
        look()
    look()  # ann's socket closed
    assert bob.post(f"/api/tables/{table_id}/leave", {}).status_code == 200
    look()
    entries = {entry for _, entry in seen}
    assert len(entries) >= 7, "the table went through the states the test means"
    for mark, entry in seen:
        assert {e for m, e in seen if m == mark} == {entry}, "one mark, two entries: the lobby would go stale"


async def _both(actor: Any) -> tuple[Hashable, str]:
    return lobby_mark(actor), table_entry(actor)
