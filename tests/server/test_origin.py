"""The table WebSocket checks the Origin of a handshake that carries the session cookie (docs/server.md)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from studpoker.server.app import create_app

from .conftest import create_table, make_settings, recv, room_client, signup


def test_a_cross_site_page_cannot_open_a_table_socket_with_the_cookie(client: TestClient) -> None:
    ann = signup(client, "ann")
    table_id = create_table(ann)
    url = f"/ws/table/{table_id}"
    for origin in ("http://evil.example", "null", "http://testserver:8080", "https://testserver.evil.example"):
        headers = {**ann.headers, "origin": origin}
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url, headers=headers) as ws:
            recv(ws)
        assert refused.value.code == 1008, origin
    # the server's own pages (TestClient's host is "testserver"), and programs that send no Origin
    for headers in (
        {**ann.headers, "origin": "http://testserver"},
        {**ann.headers, "Origin": "HTTP://TestServer:80"},
        ann.headers,
    ):
        with client.websocket_connect(url, headers=headers) as ws:
            snapshot = recv(ws)
            assert snapshot["type"] == "snapshot" and snapshot["you"]["username"] == "ann"
    # without the cookie nothing of an account is at stake: a cross-origin spectator is let in
    with client.websocket_connect(url, headers={"origin": "http://evil.example"}) as ws:
        assert recv(ws)["you"] is None


def test_allowed_origins_are_let_in(tmp_path: Path) -> None:
    settings = replace(make_settings(tmp_path), allowed_origins=("https://cards.example.org",))
    with room_client(settings) as client:
        ann = signup(client, "ann")
        table_id = create_table(ann)
        headers = {**ann.headers, "origin": "https://cards.example.org:443"}
        with client.websocket_connect(f"/ws/table/{table_id}", headers=headers) as ws:
            assert recv(ws)["you"]["username"] == "ann"
        headers = {**ann.headers, "origin": "http://cards.example.org"}
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(f"/ws/table/{table_id}", headers=headers) as ws,
        ):
            recv(ws)


# -- issue 26, item 8: the scheme is part of the origin ------------------------------------------------------


def test_issue26_08_an_https_page_is_not_the_http_rooms_origin(client: TestClient) -> None:
    ann = signup(client, "ann")
    table_id = create_table(ann)
    before = ann.get("/api/me/preferences").json()
    # the room is reached over http (TestClient's scope scheme): a page of https://testserver is another origin
    for origin in ("https://testserver", "https://testserver:80", "wss://testserver", "ws://testserver:443"):
        headers = {**ann.headers, "origin": origin}
        answer = client.post("/api/me/preferences", json={"four_color": True}, headers=headers)
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "csrf", origin
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(f"/ws/table/{table_id}", headers=headers) as ws,
        ):
            recv(ws)
        assert refused.value.code == 1008, origin
    assert ann.get("/api/me/preferences").json() == before  # nothing changed
    # the room's own origin, with the scheme it is reached by
    answer = client.post(
        "/api/me/preferences", json={"four_color": True}, headers={**ann.headers, "origin": "http://testserver"}
    )
    assert answer.status_code == 200 and answer.json()["four_color"] is True


def test_issue26_08_an_https_room_refuses_its_http_origin(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path)), base_url="https://testserver") as client:
        client.headers["origin"] = "https://testserver"
        ann = signup(client, "ann")
        table_id = create_table(ann)
        with client.websocket_connect(f"wss://testserver/ws/table/{table_id}", headers=ann.headers) as ws:
            assert recv(ws)["you"]["username"] == "ann"  # scheme wss, origin https: the same
        for origin in ("http://testserver", "http://testserver:443"):  # a page served over plain http
            headers = {**ann.headers, "origin": origin}
            answer = client.post("/api/me/preferences", json={"four_color": True}, headers=headers)
            assert answer.status_code == 403 and answer.json()["error"]["code"] == "csrf", origin
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                client.websocket_connect(f"wss://testserver/ws/table/{table_id}", headers=headers) as ws,
            ):
                recv(ws)
            assert refused.value.code == 1008, origin
