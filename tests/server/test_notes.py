"""Private notes on players (issue 26, item 5): kept on the account, read by nobody else, bounded and cleaned."""

from __future__ import annotations

from fastapi.testclient import TestClient

from studpoker.server.routes.notes import MAX_NOTE

from .conftest import signup


def test_notes_are_written_read_and_deleted_by_their_author_only(client: TestClient) -> None:
    ann, bob = signup(client, "ann"), signup(client, "bob")
    assert ann.get("/api/me/notes").json() == {"notes": []}
    put = client.put("/api/me/notes/bob", json={"text": " calls down\r\nwith any pair "}, headers=ann.headers)
    assert put.status_code == 200 and put.json()["text"] == "calls down\nwith any pair"
    again = client.put("/api/me/notes/BOB", json={"text": "bluffs rivers"}, headers=ann.headers)  # one note per name
    assert again.json()["name"] == "BOB"
    assert [n["text"] for n in ann.get("/api/me/notes").json()["notes"]] == ["bluffs rivers"]
    client.put("/api/me/notes/Bot 3", json={"text": "a bot"}, headers=ann.headers)
    assert {n["name"] for n in ann.get("/api/me/notes").json()["notes"]} == {"BOB", "Bot 3"}
    assert bob.get("/api/me/notes").json() == {"notes": []}  # nobody else reads them
    assert client.get("/api/me/notes").status_code == 401
    empty = client.put("/api/me/notes/bob", json={"text": "  "}, headers=ann.headers)  # empty deletes
    assert empty.json() == {"name": "bob", "text": "", "updated_at": None}
    assert ann.delete("/api/me/notes/Bot 3").json() == {"ok": True}
    assert ann.get("/api/me/notes").json() == {"notes": []}


def test_hostile_notes_are_refused(client: TestClient) -> None:
    ann = signup(client, "ann")

    def put(name: str, body: object, **headers: str) -> int:
        return client.put(f"/api/me/notes/{name}", json=body, headers={**ann.headers, **headers}).status_code

    assert put("bob", {"text": "x" * (MAX_NOTE + 1)}) == 400
    assert put("bob", {"text": "look \u202eright"}) == 400  # a bidi override
    assert put("bob", {"text": "a\x00b"}) == 400
    assert put("bob", {"text": 5}) == 400
    assert put("bob", {"text": "ok", "extra": 1}) == 400
    assert put("b%C3%B6b", {"text": "ok"}) == 404  # not a name the tables show
    assert put("x" * 41, {"text": "ok"}) == 404
    assert put("bob", {"text": "ok"}, origin="http://evil.example") == 403
    assert ann.get("/api/me/notes").json() == {"notes": []}
