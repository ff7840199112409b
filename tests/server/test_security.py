"""The card room closed to abuse: one test (or more) per finding of the security review, named after it.

Each test makes the attack of the finding and checks it fails, and that nothing changed. The browser-side parts
(a cross-origin page trying the CSRF attacks, framing, the login redirect, the CSP) are in
tests/browser/test_security.py; fuzzing from the OpenAPI schema is in tests/server/test_schema.py.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, text, update
from starlette.websockets import WebSocketDisconnect

from studpoker.engine import Rules
from studpoker.history import phh
from studpoker.history.replay import replay
from studpoker.server.db import Account, LedgerEntry, SessionRow, TableRow
from studpoker.server.ledger import BalanceLimitError, check_invariants, transfer, user_account
from studpoker.server.limits import MAX_BALANCE, MAX_CHIPS, MAX_STAKE
from studpoker.server.room import signed_rules

from .conftest import (
    ORIGIN,
    PASSWORD,
    User,
    create_table,
    drain,
    invariants,
    make_settings,
    recv,
    room_client,
    signup,
    stored_phh,
    until,
)


@contextmanager
def as_another_page(client: TestClient) -> Iterator[TestClient]:
    """The same client without the room's ``Origin``: what a page elsewhere (or a bare program) sends."""
    saved = client.headers.pop("origin")
    try:
        yield client
    finally:
        client.headers["origin"] = saved


def make_admin(client: TestClient, user: User) -> None:
    room = client.app.state.room  # type: ignore[attr-defined]
    assert client.portal is not None
    client.portal.call(
        room.db.run, lambda s: s.execute(update(Account).where(Account.id == user.id).values(is_admin=True))
    )


def balance(user: User) -> int:
    result: int = user.get("/api/me").json()["balance"]
    return result


def seats_of(client: TestClient, table_id: int) -> dict[int, dict[str, Any]]:
    return {s["seat"]: s for s in client.get(f"/api/tables/{table_id}").json()["seats"]}


def in_room(client: TestClient, work: Any) -> Any:
    """Run ``work(session)`` on the room's database thread."""
    room = client.app.state.room  # type: ignore[attr-defined]
    assert client.portal is not None
    return client.portal.call(room.db.run, work)


# -- 1. CSRF from any same-site origin ---------------------------------------------------------------------


def test_finding_01_csrf_requests_from_other_origins_are_refused(client: TestClient) -> None:
    ann = signup(client, "ann")
    table_id = create_table(ann)
    assert ann.post(f"/api/tables/{table_id}/sit", {"buy_in": 400}).status_code == 200
    sit, top_up = f"/api/tables/{table_id}/sit", f"/api/tables/{table_id}/top-up"
    attacks: list[tuple[str, str, dict[str, str], bytes | None]] = [
        # a text/plain body that parses as JSON (what a cross-site form or a no-cors fetch can send)
        ("POST", sit, {"content-type": "text/plain", "origin": "http://127.0.0.1:9999"}, b'{"buy_in":5000}'),
        ("POST", sit, {"content-type": "text/plain"}, b'{"buy_in":5000}'),
        ("POST", sit, {"content-type": "application/x-www-form-urlencoded"}, b"buy_in=5000"),
        # JSON, but from another origin of the same site (another port), or saying so in Sec-Fetch-Site
        ("POST", top_up, {"content-type": "application/json", "origin": "http://testserver:9999"}, b'{"amount":1}'),
        ("POST", top_up, {"content-type": "application/json", "sec-fetch-site": "same-site"}, b'{"amount":1}'),
        ("POST", top_up, {"content-type": "application/json", "origin": "null"}, b'{"amount":1}'),
        # bodiless state changes
        ("POST", f"/api/tables/{table_id}/sit-out", {}, None),
        ("POST", f"/api/tables/{table_id}/leave", {"origin": "http://evil.example"}, None),
        ("POST", "/api/logout", {}, None),
        ("DELETE", f"/api/tables/{table_id}/bots", {"content-type": "application/json"}, b"{}"),
        # JSON with no Origin and no token: a program must say where it comes from
        ("POST", f"/api/tables/{table_id}/sit-out", {"content-type": "application/json"}, b"{}"),
        # a token that is not the cookie's
        ("POST", f"/api/tables/{table_id}/sit-out", {"content-type": "application/json", "x-csrf-token": "x"}, b""),
    ]
    with as_another_page(client):
        for method, url, headers, body in attacks:
            answer = client.request(method, url, headers={**ann.headers, **headers}, content=body)
            assert answer.status_code == 403, (method, url, headers, answer.text)
            assert answer.json()["error"]["code"] == "csrf"
        # login CSRF (signing the victim in as the attacker) and sign-up CSRF
        body = json.dumps({"username": "mallory", "password": PASSWORD}).encode()
        for url in ("/api/login", "/api/signup"):
            for headers in ({"content-type": "text/plain"}, {"content-type": "application/json", "origin": "null"}):
                answer = client.post(url, headers=headers, content=body)
                assert answer.status_code == 403 and "set-cookie" not in answer.headers
    me = ann.get("/api/me").json()
    assert me["balance"] == 9600 and me["seats"][0]["stack"] == 400 and not me["seats"][0]["sitting_out"]
    assert client.post("/api/login", json={"username": "mallory", "password": PASSWORD}).status_code == 401


def test_finding_01_csrf_the_rooms_own_requests_and_the_token_pass(client: TestClient) -> None:
    ann = signup(client, "ann")
    table_id = create_table(ann)
    with as_another_page(client):
        # the room's own pages: the same Origin, or Sec-Fetch-Site: same-origin without one
        answer = client.post(f"/api/tables/{table_id}/sit", json={"buy_in": 400}, headers={**ann.headers, **ORIGIN})
        assert answer.status_code == 200
        answer = client.post(
            f"/api/tables/{table_id}/sit-out", json={}, headers={**ann.headers, "sec-fetch-site": "same-origin"}
        )
        assert answer.status_code == 200
        # a program without Origin: the double-submit token
        token = client.get("/api/csrf").json()["token"]
        assert client.cookies["studpoker_csrf"] == token
        cookies = {"cookie": f"studpoker_session={ann.token}; studpoker_csrf={token}"}
        answer = client.post(f"/api/tables/{table_id}/sit-in", json={}, headers={**cookies, "x-csrf-token": token})
        assert answer.status_code == 200


# -- 2. One request bricks a table -------------------------------------------------------------------------


def test_finding_02_an_overflowing_buy_in_is_refused_and_the_table_plays_on(client: TestClient) -> None:
    ann, bob = signup(client, "ann"), signup(client, "bob")
    table_id = create_table(ann, bots=2)
    for buy_in in (9223372036854775808, 10**30, MAX_CHIPS + 1, -5, 0):
        answer = bob.post(f"/api/tables/{table_id}/sit", {"buy_in": buy_in, "seat": 7})
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid", answer.text
    assert 7 not in seats_of(client, table_id)
    deadline = time.monotonic() + 60
    while client.get(f"/api/tables/{table_id}").json()["hands_played"] < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert client.get(f"/api/tables/{table_id}").json()["hands_played"] >= 2  # the table deals on
    assert bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 7}).status_code == 200
    invariants(client)


@pytest.mark.allow_server_errors(r"^POST /api/tables/\d+/(sit|bots) failed$")
def test_finding_02_a_failing_transaction_leaves_the_table_as_it_was(
    settings: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import studpoker.server.cashier as seating_module

    with room_client(settings, raise_server_exceptions=False) as client:
        ann, bob = signup(client, "ann"), signup(client, "bob")
        table_id = create_table(ann, bots=1)

        def broken(*_args: Any, **_kwargs: Any) -> None:
            raise OverflowError("Python int too large to convert to SQLite INTEGER")

        monkeypatch.setattr(seating_module, "transfer", broken)
        for url, body in (
            (f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 7}),
            (f"/api/tables/{table_id}/bots", {"count": 2}),
        ):
            answer = ann.post(url, body)
            assert answer.status_code == 500 and answer.json()["error"]["code"] == "internal"
        monkeypatch.undo()
        assert set(seats_of(client, table_id)) == {1}  # nothing was seated in memory either
        assert client.get(f"/api/tables/{table_id}").status_code == 200
        assert bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 7}).status_code == 200
        assert balance(bob) == 9600
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{table_id}").json()["hands_played"] < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        invariants(client)
    assert "POST /api/tables/1/sit failed" in caplog.text


# -- 3. Folded and uncontested hands are published --------------------------------------------------------


def play_a_hand_where_bob_folds(client: TestClient) -> tuple[User, User, User, int]:
    """Ann, Bob and Cid (seats 1-3) play hand 1 (the room deals 0.5 s after the first sits down); Bob folds as
    soon as he may, the others check or call to the end."""
    ann, bob, cid = signup(client, "ann"), signup(client, "bob"), signup(client, "cid")
    table_id = create_table(ann)
    with ann.socket(table_id) as a, bob.socket(table_id) as b, cid.socket(table_id) as c:
        for ws in (a, b, c):
            until(ws, "snapshot")
        for seat, user in enumerate((ann, bob, cid), 1):
            assert user.post(f"/api/tables/{table_id}/sit", {"buy_in": 300, "seat": seat}).status_code == 200
        sockets = {1: a, 2: b, 3: c}
        over = False
        while not over:
            for seat, ws in sockets.items():
                for message in drain(ws, 0.02):
                    if message["type"] == "your_turn":
                        kinds = {x["action"]: x for x in message["legal"]}
                        if seat == 2 and "fold" in kinds:
                            pick = kinds["fold"]
                        else:
                            pick = next(kinds[k] for k in ("check", "call", "bring-in", "show") if k in kinds)
                        ws.send_text(
                            json.dumps({"type": "act", "hand": message["hand"], "seq": message["seq"], **pick})
                        )
                    over = over or message["type"] == "hand_over"
        for user in (ann, bob, cid):
            user.post(f"/api/tables/{table_id}/sit-out")
    return ann, bob, cid, table_id


def cards_of(text: str, player: int) -> list[str | None]:
    """Every card dealt to ``player`` in a PHH text, ``None`` for ``??``."""
    record = phh.loads_hand(text)
    out: list[str | None] = []
    for action in record.actions:
        if type(action).__name__ == "Deal" and action.player == player:  # type: ignore[union-attr]
            out += [None if c is None else str(c) for c in action.cards]  # type: ignore[union-attr]
    return out


def test_finding_03_histories_show_only_what_was_seen_at_the_table(tmp_path: Path) -> None:
    with room_client(make_settings(tmp_path, between_hands=0.5)) as client:
        histories_show_only_what_was_seen(client)


def histories_show_only_what_was_seen(client: TestClient) -> None:
    ann, bob, cid, table_id = play_a_hand_where_bob_folds(client)
    full = stored_phh(client, table_id, 1)
    bobs = cards_of(full, 1)
    assert None not in bobs and len(bobs) >= 3
    url = f"/api/tables/{table_id}/hands/1"
    anonymous = client.get(url).json()
    public = [anonymous["phh"], client.get(url + ".phh").text, cid.get(url).json()["phh"], cid.get(url + ".phh").text]
    assert anonymous["seen_as"] == "public" and cid.get(url).json()["seen_as"] == "player"
    for text_ in public:
        hidden = cards_of(text_, 1)
        assert hidden[:2] == [None, None] and hidden[2] == bobs[2], "bob folded: only his door card was seen"
        assert not set(bobs[:2]) & set(text_.replace("?", " ").split("'")), "bob's down cards appear somewhere"
        replay(phh.loads_hand(text_))  # what is published is still a valid hand history
    mine = bob.get(url).json()
    assert mine["seen_as"] == "player" and cards_of(mine["phh"], 1) == bobs  # bob sees his own cards
    assert bob.get(url + ".phh").text == mine["phh"]
    showed = {a.player for a in phh.loads_hand(full).actions if type(a).__name__ == "ShowMuck" and a.cards}  # type: ignore[union-attr]
    assert showed == {0, 2}  # ann and cid went to the showdown
    for p in showed:  # a hand shown at the table is public
        assert cards_of(anonymous["phh"], p) == cards_of(full, p)
    make_admin(client, ann)
    assert ann.get(url).json() == {**ann.get(url).json(), "seen_as": "admin", "phh": full}
    assert "cards" not in json.dumps(client.get(f"/api/tables/{table_id}/hands").json())


def test_finding_03_a_hand_won_without_showdown_shows_no_down_card(client: TestClient) -> None:
    ann, bob = signup(client, "ann"), signup(client, "bob")
    table_id = create_table(ann)
    with ann.socket(table_id) as a, bob.socket(table_id) as b:
        until(a, "snapshot"), until(b, "snapshot")
        ann.post(f"/api/tables/{table_id}/sit", {"buy_in": 300, "seat": 1})
        bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 300, "seat": 2})
        over = False
        while not over:
            for ws in (a, b):
                for message in drain(ws, 0.02):
                    if message["type"] == "your_turn":
                        kinds = {x["action"]: x for x in message["legal"]}
                        pick = kinds.get("fold") or kinds["bring-in"]
                        ws.send_text(
                            json.dumps({"type": "act", "hand": message["hand"], "seq": message["seq"], **pick})
                        )
                    over = over or message["type"] == "hand_over"
    public = client.get(f"/api/tables/{table_id}/hands/1.phh").text
    for player in (0, 1):
        dealt = cards_of(public, player)
        assert dealt[:2] == [None, None] and dealt[2] is not None  # only the door cards were seen


# -- 4. Open redirect after login: the browser test (tests/browser/test_security.py) ------------------------
# -- 5. Anyone can manage any table ------------------------------------------------------------------------


def test_finding_05_only_the_creator_or_an_admin_manages_a_table(client: TestClient) -> None:
    ann, bob, root = signup(client, "ann"), signup(client, "bob"), signup(client, "boss1")
    make_admin(client, root)
    table_id = create_table(ann, bots=2)
    for answer in (
        bob.delete(f"/api/tables/{table_id}/bots"),
        bob.post(f"/api/tables/{table_id}/bots", {"count": 1}),
        bob.delete(f"/api/tables/{table_id}"),
    ):
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "forbidden"
    assert client.get(f"/api/tables/{table_id}").json()["seats_taken"] == 2
    assert ann.post(f"/api/tables/{table_id}/bots", {"count": 1}).json()["seats"] == [3]
    assert root.post(f"/api/tables/{table_id}/bots", {"count": 1}).json()["seats"] == [4]
    assert client.post(f"/api/tables/{table_id}/bots", json={"count": 1}).status_code == 401


def test_finding_05_open_tables_per_account_are_limited(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, max_tables_per_account=2, max_tables=4)
    with room_client(settings) as client:
        ann, bob, root = signup(client, "ann"), signup(client, "bob"), signup(client, "boss1")
        make_admin(client, root)
        first = create_table(ann, name="A1")
        create_table(ann, name="A2")
        answer = ann.post("/api/tables", {"variant": "STUD7", "small_bet": 10, "name": "A3"})
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "limit"
        create_table(root, name="R1")  # admins are not limited per account...
        create_table(bob, name="B1")
        answer = root.post("/api/tables", {"variant": "STUD7", "small_bet": 10, "name": "R2"})
        assert answer.status_code == 409 and "maximum of 4" in answer.json()["error"]["message"]  # ...the room is
        assert ann.delete(f"/api/tables/{first}").json()["closed"] is True
        create_table(ann, name="A3")  # a closed table frees its place
        assert len(client.get("/api/tables").json()["tables"]) == 4


def test_finding_05_opening_and_closing_cannot_churn_without_end(tmp_path: Path) -> None:
    with room_client(make_settings(tmp_path, tables_per_account_per_hour=4)) as client:
        ann = signup(client, "ann")
        for n in range(4):
            assert ann.delete(f"/api/tables/{create_table(ann, name=f'T{n}')}").json()["closed"] is True
        answer = ann.post("/api/tables", {"variant": "STUD7", "small_bet": 10, "name": "T4"})
        assert answer.status_code == 429 and int(answer.headers["retry-after"]) > 0


def test_finding_05_closing_a_table_cashes_everyone_out(tmp_path: Path) -> None:
    # ann has no socket: her clock (0.5 s) acts for her
    with room_client(make_settings(tmp_path, action_seconds=0.5, timeouts_to_sit_out=1000)) as client:
        closing_cashes_everyone_out(client)


def closing_cashes_everyone_out(client: TestClient) -> None:
    ann, bob = signup(client, "ann"), signup(client, "bob")
    table_id = create_table(ann, bots=2, name="Closing time")
    with bob.socket(table_id) as b:
        until(b, "snapshot")
        assert bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 500}).status_code == 200
        assert ann.post(f"/api/tables/{table_id}/sit", {"buy_in": 300}).status_code == 200
        until(b, "your_turn", timeout=10)  # a hand with bob in it waits for bob
        answer = ann.delete(f"/api/tables/{table_id}")
        assert answer.json() == {"closed": False, "cashed_out": []}  # after the hand in play
        assert ann.post(f"/api/tables/{table_id}/top-up", {"amount": 100}).status_code == 409
        closed, closing = None, None
        with pytest.raises(WebSocketDisconnect) as gone:
            while True:
                message = recv(b, 10)
                if message["type"] == "your_turn":
                    kinds = {x["action"]: x for x in message["legal"]}
                    pick = kinds.get("fold") or next(iter(kinds.values()))
                    b.send_text(json.dumps({"type": "act", "hand": message["hand"], "seq": message["seq"], **pick}))
                closing = closing or (message if message["type"] == "closing" else None)
                closed = closed or (message if message["type"] == "closed" else None)
        assert gone.value.code == 4410 and closing is not None and closed is not None
    assert {c["name"] for c in closed["cashed_out"]} == {"ann", "bob", "Bot 1", "Bot 2"}
    back = {c["name"]: c["amount"] for c in closed["cashed_out"]}
    assert balance(ann) == 9700 + back["ann"] and balance(bob) == 9500 + back["bob"]
    assert client.get(f"/api/tables/{table_id}").status_code == 404
    assert table_id not in [t["id"] for t in client.get("/api/tables").json()["tables"]]
    assert client.get(f"/api/tables/{table_id}/hands").json()["hands"]  # the history stays
    assert invariants(client).at_tables == 0
    kinds = [e["kind"] for e in ann.get("/api/ledger").json()["entries"]]
    assert kinds[0] == "cash_out"
    create_table(bob, name="closing TIME")  # the name is free again


def test_finding_05_a_table_left_closing_by_a_stop_closes_on_the_next_start(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with room_client(settings) as client:
        ann, bob = signup(client, "ann"), signup(client, "bob")
        table_id = create_table(ann)
        bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 500})
        ann.post(f"/api/tables/{table_id}/sit", {"buy_in": 300})
        with bob.socket(table_id) as b:
            until(b, "snapshot")
            assert ann.delete(f"/api/tables/{table_id}").json()["closed"] is False
    with room_client(settings) as client:
        assert client.get(f"/api/tables/{table_id}").status_code == 404
        assert balance(replace(ann, client=client)) == 10_000 and balance(replace(bob, client=client)) == 10_000
        assert invariants(client).at_tables == 0


# -- 6. Framing protection and CSP -------------------------------------------------------------------------


def test_finding_06_every_answer_carries_the_security_headers(tmp_path: Path) -> None:
    with room_client(make_settings(tmp_path)) as client:
        for url in ("/", "/lobby", "/table/1", "/static/table.js", "/api/tables", "/api/nothing", "/api/openapi.json"):
            headers = client.get(url).headers
            csp = headers["content-security-policy"]
            assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, url
            assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
            assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
            assert headers["referrer-policy"] == "same-origin"
            assert "strict-transport-security" not in headers
        assert client.get("/api/tables").headers["cache-control"] == "no-store"
    with room_client(make_settings(tmp_path, secure_cookies=True)) as client:
        assert client.get("/").headers["strict-transport-security"].startswith("max-age=")
        answer = client.post("/api/signup", json={"username": "ann", "password": PASSWORD})
        assert all("secure" in c.lower() for c in answer.headers.get_list("set-cookie"))


def test_finding_06_no_page_has_an_inline_script_or_handler() -> None:
    static = Path(__file__).resolve().parents[2] / "src/studpoker/server/static"
    import re

    for page in static.glob("*.html"):
        html = page.read_text()
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag, f"{page.name}: inline script {tag}"
        assert not re.search(r"\son[a-z]+\s*=", html), f"{page.name}: an inline event handler"
        assert "style=" not in html, f"{page.name}: an inline style"


# -- 7. Sessions and accounts ------------------------------------------------------------------------------


def test_finding_07_logout_closes_the_sessions_sockets(client: TestClient) -> None:
    ann, bob = signup(client, "ann"), signup(client, "bob")
    table_id = create_table(ann)
    ann.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 1})
    with ann.socket(table_id) as a, bob.socket(table_id) as b:
        until(a, "snapshot"), until(b, "snapshot")
        bob.post(f"/api/tables/{table_id}/sit", {"buy_in": 400, "seat": 2})
        turns = {1: [m for m in drain(a, 0.2) if m["type"] == "your_turn"]}
        assert ann.post("/api/logout").status_code == 200
        error = until(a, "error")
        assert error["code"] == "logged_out"
        with pytest.raises(WebSocketDisconnect) as closed:
            recv(a)
        assert closed.value.code == 4401
        del turns
    # the old cookie opens a spectator's socket now, and cannot act
    with ann.socket(table_id) as again:
        assert until(again, "snapshot")["you"] is None
    assert ann.get("/api/me").status_code == 401


def test_finding_07_sessions_expire_on_the_server(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, session_idle_seconds=3600, session_max_seconds=7200, session_sweep_seconds=3600)
    with room_client(settings) as client:
        ann, bob = signup(client, "ann"), signup(client, "bob")
        table_id = create_table(ann)
        assert ann.get("/api/me").status_code == 200

        def age(user: User, idle: float, since_login: float) -> None:
            from datetime import timedelta

            from studpoker.server.auth import digest
            from studpoker.server.db import utcnow

            now = utcnow()
            in_room(
                client,
                lambda s: s.execute(
                    update(SessionRow)
                    .where(SessionRow.token_hash == digest(user.token))
                    .values(last_seen_at=now - timedelta(seconds=idle), created_at=now - timedelta(seconds=since_login))
                ),
            )

        age(ann, idle=3601, since_login=3601)  # unused for more than the idle limit
        assert ann.get("/api/me").status_code == 401
        age(bob, idle=10, since_login=7201)  # in use, but older than the absolute limit
        with bob.socket(table_id) as b:
            assert until(b, "snapshot")["you"] is None  # expired before the socket opened
        cid = signup(client, "cid")
        with cid.socket(table_id) as c:
            assert until(c, "snapshot")["you"]["username"] == "cid"
            age(cid, idle=10, since_login=7201)
            room = client.app.state.room  # type: ignore[attr-defined]
            assert client.portal is not None
            gone = client.portal.call(room.sockets.sweep)
            assert len(gone) == 1
            assert until(c, "error")["code"] == "logged_out"
        assert cid.get("/api/me").status_code == 401
        assert in_room(client, lambda s: s.scalar(select(SessionRow.token_hash))) is None


def test_finding_07_an_open_socket_keeps_its_session_alive(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, session_idle_seconds=3600, session_sweep_seconds=3600)
    with room_client(settings) as client:
        ann = signup(client, "ann")
        table_id = create_table(ann)
        from datetime import timedelta

        from studpoker.server.db import utcnow

        with ann.socket(table_id) as a:
            until(a, "snapshot")
            old = utcnow() - timedelta(seconds=3000)
            in_room(client, lambda s: s.execute(update(SessionRow).values(last_seen_at=old)))
            room = client.app.state.room  # type: ignore[attr-defined]
            assert client.portal is not None
            assert client.portal.call(room.sockets.sweep) == []
            seen = in_room(client, lambda s: s.scalar(select(SessionRow.last_seen_at)))
            assert seen > old + timedelta(seconds=2000)


def test_finding_07_logins_are_throttled_per_account_and_per_address(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, login_failures_per_account=5, login_failures_per_address=8)
    with room_client(settings) as client:
        signup(client, "ann"), signup(client, "bob")
        for _ in range(5):
            assert client.post("/api/login", json={"username": "ann", "password": "wrong guess"}).status_code == 401
        for password in ("wrong guess", PASSWORD):  # even the right password waits
            answer = client.post("/api/login", json={"username": "ANN", "password": password})
            assert answer.status_code == 429 and answer.json()["error"]["code"] == "rate_limited"
            assert 0 < int(answer.headers["retry-after"]) <= 15 * 60
        assert client.post("/api/login", json={"username": "bob", "password": PASSWORD}).status_code == 200
        for _ in range(3):  # 5 + 3 failures from this address in all
            client.post("/api/login", json={"username": "bob", "password": "wrong guess"})
        answer = client.post("/api/login", json={"username": "bob", "password": PASSWORD})
        assert answer.status_code == 429 and "retry-after" in answer.headers


def test_finding_07_parallel_guesses_are_throttled_too(tmp_path: Path) -> None:
    # counted only after argon2, a burst of parallel guesses all passed the check (the hostile review: 100 x 401)
    settings = make_settings(tmp_path, login_failures_per_account=5, login_failures_per_address=1000)
    with room_client(settings) as client:
        signup(client, "bobby")
        with ThreadPoolExecutor(16) as pool:
            answers = list(
                pool.map(
                    lambda _: client.post("/api/login", json={"username": "bobby", "password": "wrong guess"}),
                    range(40),
                )
            )
        codes = sorted(a.status_code for a in answers)
        assert codes.count(401) == 5 and codes.count(429) == 35, codes


def test_finding_07_parallel_sign_ups_are_limited_too(tmp_path: Path) -> None:
    with room_client(make_settings(tmp_path, signups_per_address=3)) as client:
        with ThreadPoolExecutor(16) as pool:
            answers = list(
                pool.map(
                    lambda n: client.post("/api/signup", json={"username": f"sock{n}", "password": PASSWORD}),
                    range(20),
                )
            )
        assert sorted(a.status_code for a in answers) == [201] * 3 + [429] * 17
        assert invariants(client).granted == 30_000
        # a refused sign-up (a weak password) does not use up the allowance
    (tmp_path / "again").mkdir()
    with room_client(make_settings(tmp_path / "again", signups_per_address=1)) as client:
        assert client.post("/api/signup", json={"username": "weak", "password": "password"}).status_code == 400
        assert client.post("/api/signup", json={"username": "strong", "password": PASSWORD}).status_code == 201


def test_finding_07_weak_passwords_are_refused(client: TestClient) -> None:
    for password in ("password", "12345678", "\x00" * 8, "annannann", "qwertyuiop", "stud poker", "x" * 129, "short"):
        answer = client.post("/api/signup", json={"username": "ann", "password": password})
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid", password
        assert "password" in answer.json()["error"]["message"]
    answer = client.post("/api/signup", json={"username": "ann", "password": "password"})
    assert "too easy to guess" in answer.json()["error"]["message"]
    assert (
        client.post("/api/signup", json={"username": "ann", "password": "purple monkey dishwasher"}).status_code == 201
    )


def test_finding_07_sign_ups_are_limited_per_address(tmp_path: Path) -> None:
    with room_client(make_settings(tmp_path, signups_per_address=3)) as client:
        for n in range(3):
            signup(client, f"player{n}")
        answer = client.post("/api/signup", json={"username": "player3", "password": PASSWORD})
        assert answer.status_code == 429 and int(answer.headers["retry-after"]) > 0
        assert invariants(client).granted == 30_000


# -- 8. 500s for bad input ---------------------------------------------------------------------------------


def test_finding_08_bad_input_gets_a_4xx_with_the_error_body(client: TestClient) -> None:
    ann = signup(client, "ann")
    table_id = create_table(ann)
    cases: list[tuple[str, str, Any, int]] = [
        ("GET", f"/api/tables/{table_id}/hands?before=99999999999999999999", None, 400),
        ("GET", f"/api/tables/{table_id}/hands?limit=abc", None, 400),
        ("GET", f"/api/tables/{table_id}/hands?limit=0", None, 400),
        ("GET", f"/api/tables/{table_id}/hands/99999999999999999999", None, 404),
        ("GET", f"/api/tables/{table_id}/hands/99999999999999999999.phh", None, 404),
        ("GET", f"/api/tables/{table_id}/hands/-1", None, 404),
        ("GET", "/api/tables/99999999999999999999", None, 404),
        ("GET", "/api/tables/x", None, 404),
        ("GET", "/api/ledger?limit=abc", None, 400),
        ("POST", "/api/tables", b"[" * 5000, 400),
        ("POST", "/api/tables", b'{"a":' * 3000, 400),
        ("POST", "/api/tables", b"{not json", 400),
        ("POST", "/api/tables", b"x" * 20_000, 413),
        ("POST", "/api/tables", b"[]", 400),
        ("POST", f"/api/tables/{table_id}/sit", b'{"buy_in": 1e400}', 400),
        ("GET", "/static/nothing-here.js", None, 404),
        ("GET", "/nothing", None, 404),
        ("PUT", "/api/tables", b"{}", 405),
    ]
    for method, url, body, status in cases:
        headers = {**ann.headers, "content-type": "application/json"}
        answer = client.request(method, url, content=body, headers=headers)
        assert answer.status_code == status, (method, url, answer.status_code, answer.text[:200])
        error = answer.json()["error"]
        assert set(error) <= {"code", "message", "details"} and error["message"], (url, error)
    answer = ann.post(f"/api/tables/{table_id}/sit", {"buy_in": "400"})
    assert answer.json()["error"]["message"].startswith("buy_in: ")


def test_finding_08_a_deeply_nested_frame_is_refused_with_a_message(client: TestClient) -> None:
    ann = signup(client, "ann")
    table_id = create_table(ann)
    for frame in ("[" * 2000, '{"type": "act", "hand": ' + "[" * 2000 + "]" * 2000 + "}"):
        with client.websocket_connect(f"/ws/table/{table_id}") as ws:
            until(ws, "snapshot")
            ws.send_text(frame)
            error = until(ws, "error")
            assert error["code"] == "bad_json" and "nested" in error["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                recv(ws)
            assert closed.value.code == 1008
    with ann.socket(table_id) as ws:
        until(ws, "snapshot")
        ws.send_text(json.dumps({"type": "act", "hand": 10**30, "seq": 1, "action": "call"}))
        assert until(ws, "error")["code"] == "bad_message"


def test_finding_08_a_table_id_of_other_digits_is_no_table(client: TestClient) -> None:
    ann = signup(client, "ann")
    create_table(ann, name="One")
    for raw in ("%C2%B2", "%D9%A1", "1%E2%80%8B", "+1", "01x", "9" * 30):  # "²", Arabic-Indic one, zero width...
        with client.websocket_connect(f"/ws/table/{raw}") as ws:
            assert recv(ws)["code"] == "not_found", raw
            with pytest.raises(WebSocketDisconnect) as closed:
                recv(ws)
            assert closed.value.code == 4404


def test_finding_08_table_sockets_are_capped_per_address(tmp_path: Path) -> None:
    with room_client(make_settings(tmp_path, max_sockets_per_address=3)) as client:
        ann = signup(client, "ann")
        table_id = create_table(ann)
        url = f"/ws/table/{table_id}"
        with client.websocket_connect(url) as a, client.websocket_connect(url) as b, client.websocket_connect(url) as c:
            for ws in (a, b, c):
                until(ws, "snapshot")
            with client.websocket_connect(url) as extra:
                error = recv(extra)
                assert error["code"] == "too_many_connections"
                with pytest.raises(WebSocketDisconnect) as closed:
                    recv(extra)
                assert closed.value.code == 1013  # try again later
        with client.websocket_connect(url) as again:  # the three closed: room again
            assert recv(again)["type"] == "snapshot"
        room = client.app.state.room  # type: ignore[attr-defined]
        assert room.sockets.by_address == {}


# -- 9. Unbounded stakes -----------------------------------------------------------------------------------


def test_finding_09_stakes_and_amounts_are_bounded(client: TestClient) -> None:
    ann = signup(client, "ann")
    for body in (
        {"variant": "STUD7", "small_bet": 4 * 10**17},
        {"variant": "STUD7", "small_bet": MAX_STAKE + 1},
        {"variant": "STUD7", "small_bet": 10, "big_bet": 10**12},
        {"variant": "STUD7", "small_bet": 10, "max_buy_in": 10**16},
        {"variant": "STUD7", "small_bet": 10, "bots": 10**6},
    ):
        answer = ann.post("/api/tables", body)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid", body
    top = ann.post("/api/tables", {"variant": "STUD7", "small_bet": MAX_STAKE, "bots": 7}).json()
    assert top["stakes"]["small_bet"] == MAX_STAKE and top["min_buy_in"] == 20 * MAX_STAKE
    books = invariants(client)  # the bots play at once: one that goes broke buys in again, a grant of its own
    buy_in = 20 * MAX_STAKE
    assert books.at_tables >= 7 * buy_in and books.granted == books.balances + books.at_tables
    assert (books.granted - books.balances) % buy_in == 0  # every grant a bot had was one minimum buy-in


def test_finding_09_balances_are_bounded_and_the_books_are_summed_by_the_database(client: TestClient) -> None:
    ann = signup(client, "ann")

    def credit(amount: int) -> Any:
        def work(session: Any) -> None:
            transfer(session, "house", user_account(ann.id), amount, "grant")

        return in_room(client, work)

    with pytest.raises(BalanceLimitError):
        credit(MAX_BALANCE)  # 10,000 + 10^15 is past the maximum
    with pytest.raises(ValueError, match="from 0 to"):
        credit(MAX_BALANCE * 10)
    assert balance(ann) == 10_000
    invariants(client)
    # rows the application could never write: the database's own sums must notice, not wrap around
    for _ in range(3):
        in_room(
            client,
            lambda s: s.add(LedgerEntry(source="house", target="table:99", amount=2**62, kind="grant", memo="forged")),
        )
    # SQLite's SUM overflows (an error, caught and reported); PostgreSQL sums bigints as numeric, exactly, and the
    # forged chips show as a table whose seats do not hold them: the books are refused either way
    with pytest.raises(AssertionError, match=r"database cannot sum|table 99: ledger says 13835058055282163712"):
        in_room(client, check_invariants)


# -- 10. Names ---------------------------------------------------------------------------------------------


def test_finding_10_names_are_normalised_visible_and_unique(client: TestClient) -> None:
    ann = signup(client, "ann")
    for name in (
        "Stud\x00 night",
        "abc\u202egnp.exe",
        "zero\u200bwidth",
        "\u2028",
        "   ",
        "x" * 41,
        # found by the hostile review: letters that draw nothing, marks alone, a Cyrillic S in a Latin name
        "Stud 10/20\u3164",
        "Stud 10/20\u115f",
        "Stud 10/20\u2800",
        "\u2800\u2800",
        "\u0338\u0338\u0338",
        "\u0405tud 10/20",
    ):
        answer = ann.post("/api/tables", {"variant": "STUD7", "small_bet": 10, "name": name})
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid", repr(name)
    made = ann.post("/api/tables", {"variant": "STUD7", "small_bet": 10, "name": "  Ｆｒｉｄａｙ   Razz "}).json()
    assert made["name"] == "Friday Razz"
    for twin in ("friday razz", "FRIDAY RAZZ", "Ｆriday  razz", "Fri\u0301day Razz"):
        answer = ann.post("/api/tables", {"variant": "RAZZ", "small_bet": 10, "name": twin})
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "conflict", twin
    for username in (
        *("Admin", "house", "Bot_3", "bot-12", "BOT", "ａｎｎ", "an\u202en", "ann\x00"),
        *("Admin_", "admin1", "Dealer-1", "B0t_3", "bot3x", "adm1n", "h0use"),  # the hostile review's
    ):
        answer = client.post("/api/signup", json={"username": username, "password": PASSWORD})
        assert answer.status_code in (400, 409), username
    assert client.post("/api/signup", json={"username": "ａｎｎ", "password": PASSWORD}).status_code == 409


def test_finding_10_a_saved_hand_reads_back_whatever_the_table_name(client: TestClient) -> None:
    # a name that passes the checks but is full of TOML's special characters (control characters are refused)
    ann = signup(client, "ann")
    odd = "Bob's \"\\ night\" ' # [x]"
    table_id = create_table(ann, name=odd, bots=2)
    deadline = time.monotonic() + 60
    while not client.get(f"/api/tables/{table_id}/hands").json()["hands"] and time.monotonic() < deadline:
        time.sleep(0.02)
    record = phh.loads_hand(stored_phh(client, table_id, 1))
    assert record.info["table"] == odd
    assert phh.loads_hand(phh.dumps(replace(record, info={**record.info, "table": "a\x00b\x1f\x7fc"}))).info[
        "table"
    ] == ("a\x00b\x1f\x7fc")


# -- 11. Defaults that always fail -------------------------------------------------------------------------


def test_finding_11_every_offered_preset_is_accepted(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    root = signup(client, "boss1")
    make_admin(client, root)
    offered = client.get("/api/presets").json()
    for variant in offered["variants"]:
        for preset in offered["presets"]:
            for n, stakes in enumerate(offered["stakes"]):
                name = f"{variant['variant']} {preset} {n}"
                body = {"variant": variant["variant"], "preset": preset, **stakes, "name": name}
                answer = root.post("/api/tables", body)
                assert answer.status_code == 201, (body, answer.text)
                assert answer.json()["stakes"] == stakes
                # and none is a sign SPEC section 2 warns of (a hi/lo bring-in below twice the ante)
                assert not Rules.from_preset(preset, variant["variant"], **stakes).cautions(), body
    for small in (1, 2, 3, 4, 5, 7, 9, 10, 11, 29, 100):  # only the small bet given: the defaults must work
        answer = root.post("/api/tables", {"variant": "STUD7", "small_bet": small, "name": f"small {small}"})
        assert answer.status_code == 201, (small, answer.text)
    caution = signed_rules("casino", "STUD7_HL8", 2, 3, 10, 20).cautions()[0]
    with caplog.at_level(logging.INFO, logger="studpoker.server"):  # a sign asked for is opened, and logged once
        body = {"variant": "STUD7_HL8", "small_bet": 10, "ante": 2, "bring_in": 3, "name": "low bring-in"}
        opened = root.post("/api/tables", body)
    assert opened.status_code == 201, opened.text
    logged = [r.getMessage() for r in caplog.records if "twice the ante" in r.getMessage()]
    assert logged == [f"table {opened.json()['id']} (low bring-in): {caution}"]


# -- 12. stud serve: the banner and bad --db values: tests/server/test_cli.py --------------------------------


def test_the_schema_and_docs_are_published(client: TestClient) -> None:
    schema = client.get("/api/openapi.json").json()
    assert schema["openapi"].startswith("3.") and "/api/tables/{table_id}/sit" in schema["paths"]
    sit = schema["paths"]["/api/tables/{table_id}/sit"]["post"]
    assert {"200", "400", "401", "402", "403", "404", "409"} <= set(sit["responses"])
    assert "422" not in json.dumps(schema["paths"])
    buy_in = schema["components"]["schemas"]["Sit"]["properties"]["buy_in"]
    assert buy_in["minimum"] == 1 and buy_in["maximum"] == MAX_CHIPS
    docs = client.get("/api/docs")
    assert docs.status_code == 200 and "/static/api-docs.js" in docs.text
    assert client.get("/static/swagger/swagger-ui-bundle.js").status_code == 200


def test_a_fresh_database_and_an_old_one_migrate(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config

    from studpoker.server.db import make_engine, migrate

    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    config = Config()
    config.set_main_option(
        "script_location", str(Path(__file__).resolve().parents[2] / "src/studpoker/server/migrations")
    )
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(
            text(
                "INSERT INTO accounts (id, username, username_key, password_hash, balance, created_at)"
                " VALUES (1, 'ann', 'ann', 'x', 100, '2026-01-01')"
            )
        )
        connection.execute(text("INSERT INTO sessions VALUES ('abc', 1, '2026-01-01')"))
        for table_id in (1, 2):
            connection.execute(
                text(
                    "INSERT INTO tables (id, name, variant, preset, ante, bring_in, small_bet, big_bet, hand_number,"
                    f" created_at) VALUES ({table_id}, 'Stud', 'STUD7', 'casino', 1, 3, 10, 20, 0, '2026-01-01')"
                )
            )
        connection.execute(text("INSERT INTO seats VALUES (1, 1, 1, NULL, 'ann', 50, 0, 0, 0)"))
    migrate(engine)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT account_id, last_seen_at FROM sessions")).one()[0] == 1  # kept
        assert connection.execute(text("SELECT stack FROM seats")).scalar() == 50
        names = connection.execute(text("SELECT name, name_key, status FROM tables ORDER BY id")).all()
        assert [tuple(n) for n in names] == [("Stud", "stud", "open"), ("Stud #2", "stud #2", "open")]
        assert connection.execute(text("SELECT is_admin FROM accounts")).scalar() in (0, False)
    engine.dispose()
    assert TableRow.__tablename__ == "tables"
