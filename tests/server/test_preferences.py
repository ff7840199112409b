"""An account's preferences of the browser client: ``GET``/``POST /api/me/preferences``, bounded and strict."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from studpoker.server.db import Account
from studpoker.server.hudschemas import DEFAULT_HUD_STATS

from .conftest import signup

URL = "/api/me/preferences"
HUD = {"hud": False, "hud_stats": DEFAULT_HUD_STATS}  # the HUD's (tests/server/test_hud.py)
DEFAULTS = {"four_color": False, "sound": True, "volume": 70, "auto_muck": False, "muted": [], **HUD}


def test_defaults_then_changes_field_by_field(client: TestClient) -> None:
    ann = signup(client, "ann")
    assert ann.get(URL).json() == DEFAULTS
    answer = ann.post(URL, {"four_color": True})
    assert answer.status_code == 200 and answer.json() == {**DEFAULTS, "four_color": True}
    answer = ann.post(URL, {"volume": 0, "muted": ["bob", "Cid_9", "BOB", "cid_9", "x-y"]})
    expected = {**DEFAULTS, "four_color": True, "volume": 0, "muted": ["bob", "Cid_9", "x-y"]}
    assert answer.json() == expected  # repeats ignoring case dropped, the first spelling kept
    assert ann.post(URL, {}).json() == expected  # nothing given: nothing changes
    assert ann.get(URL).json() == expected
    assert ann.post(URL, {"muted": []}).json()["muted"] == []  # the list is replaced as a whole
    bob = signup(client, "bob")
    assert bob.get(URL).json() == DEFAULTS  # one account's preferences are its own


def test_a_visitor_gets_401(client: TestClient) -> None:
    assert client.get(URL).status_code == 401
    answer = client.post(URL, json={"sound": False})
    assert answer.status_code == 401 and answer.json()["error"]["code"] == "not_logged_in"


@pytest.mark.parametrize(
    "body",
    [
        {"volume": 101},
        {"volume": -1},
        {"volume": 50.5},
        {"volume": "70"},
        {"volume": True},
        {"volume": None},
        {"sound": 1},
        {"sound": "true"},
        {"sound": None},
        {"four_color": "yes"},
        {"muted": "bob"},
        {"muted": None},
        {"muted": [""]},
        {"muted": ["a" * 21]},
        {"muted": ["bob smith"]},
        {"muted": ["<script>"]},
        {"muted": ["b\u202eob"]},
        {"muted": ["ａｎｎ"]},  # full-width letters are not the usernames' alphabet
        {"muted": [f"user{i}" for i in range(101)]},
        {"muted": [1, 2]},
        {"theme": "dark"},  # unknown field
        {"sound": False, "extra": 1},
    ],
)
def test_bad_bodies_are_400_and_change_nothing(client: TestClient, body: dict[str, Any]) -> None:
    ann = signup(client, "ann")
    ann.post(URL, {"volume": 33})
    answer = ann.post(URL, body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "invalid"
    assert ann.get(URL).json() == {**DEFAULTS, "volume": 33}


def test_a_body_that_is_not_an_object_is_refused(client: TestClient) -> None:
    ann = signup(client, "ann")
    for content in (b"[]", b'"sound"', b"not json", b"[" * 100):
        answer = client.post(URL, headers={**ann.headers, "content-type": "application/json"}, content=content)
        assert answer.status_code == 400, content
    assert ann.get(URL).json() == DEFAULTS


def test_a_hundred_muted_names_are_allowed(client: TestClient) -> None:
    ann = signup(client, "ann")
    names = [f"user_{i:03d}" for i in range(100)]
    assert ann.post(URL, {"muted": names}).json()["muted"] == names


def test_a_cross_origin_change_is_refused(client: TestClient) -> None:
    ann = signup(client, "ann")
    saved = client.headers.pop("origin")
    try:
        for headers in (
            {"content-type": "application/json", "origin": "http://evil.example"},
            {"content-type": "application/json", "origin": "http://testserver:9999"},
            {"content-type": "text/plain", "origin": "http://testserver"},
            {"content-type": "application/json", "sec-fetch-site": "cross-site"},
            {"content-type": "application/json"},  # no Origin, no token
        ):
            answer = client.post(URL, headers={**ann.headers, **headers}, content=json.dumps({"sound": False}))
            assert answer.status_code == 403, headers
            assert answer.json()["error"]["code"] == "csrf"
    finally:
        client.headers["origin"] = saved
    assert ann.get(URL).json() == DEFAULTS


def test_stored_values_that_do_not_fit_get_the_defaults(client: TestClient) -> None:
    """A stored value the model no longer accepts (a column edited by hand, an older version) is read as that
    field's default; the other fields are kept."""
    ann = signup(client, "ann")
    room = client.app.state.room  # type: ignore[attr-defined]

    def corrupt(session: Any) -> None:
        stored = {"volume": 5000, "sound": False, "muted": "everyone", "unknown": 1}
        session.execute(update(Account).where(Account.id == ann.id).values(preferences=stored))

    room.db.transaction(corrupt)
    assert ann.get(URL).json() == {**DEFAULTS, "sound": False}
    ann.post(URL, {"four_color": True})
    stored = room.db.transaction(lambda s: s.scalar(select(Account.preferences).where(Account.id == ann.id)))
    kept = {"four_color": True, "sound": False, "volume": 70, "auto_muck": False, "muted": [], **HUD}
    assert stored == kept  # as the model


def test_the_schema_shows_the_models(client: TestClient) -> None:
    schema = client.get("/api/openapi.json").json()
    operations = schema["paths"][URL]
    assert {"get", "post"} <= set(operations)
    change = schema["components"]["schemas"]["PreferencesChange"]
    assert change["additionalProperties"] is False and set(change["properties"]) == set(DEFAULTS)
    assert change["properties"]["volume"]["maximum"] == 100 and change["properties"]["muted"]["maxItems"] == 100
    assert "Preferences" in schema["components"]["schemas"]
    assert {"401", "403"} <= set(operations["post"]["responses"])


def test_auto_muck_is_a_preference_of_the_account(client: TestClient) -> None:
    ann = signup(client, "ann")
    assert ann.post(URL, {"auto_muck": True}).json()["auto_muck"] is True
    assert ann.get(URL).json() == {**DEFAULTS, "auto_muck": True}
    assert ann.post(URL, {"auto_muck": "yes"}).status_code == 400  # strict: a boolean only
    assert ann.post(URL, {"auto_muck": None}).status_code == 400
