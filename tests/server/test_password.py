"""Changing the password and signing out everywhere (issue 26, item 12): ``POST /api/me/password`` and ``POST
/api/me/sessions/end``.

A change needs the current password (a wrong one is counted with the wrong logins and throttled the same way) and
a new one that passes the sign-up's rules; it ends every other session of the account, closing their table
sockets with the logged-out code, and keeps this one. Signing out everywhere ends every session, this one too. Both
are refused from another site (CSRF) and without a session. Each test makes the attack or the mistake and checks
that nothing changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update
from starlette.websockets import WebSocketDisconnect

from studpoker.server.db import Account, SessionRow

from .conftest import PASSWORD, User, create_table, make_settings, recv, room_client, signup, until

NEW = "purple monkey dishwasher"


def in_room(client: TestClient, work: Any) -> Any:
    """Run ``work(session)`` on the room's database thread."""
    room = client.app.state.room  # type: ignore[attr-defined]
    assert client.portal is not None
    return client.portal.call(room.db.run, work)


def another_session(client: TestClient, user: User, password: str = PASSWORD) -> User:
    """The same account signed in again (another browser): a second session."""
    answer = client.post("/api/login", json={"username": user.name, "password": password})
    assert answer.status_code == 200, answer.text
    client.cookies.clear()
    return User(client, user.name, answer.cookies["studpoker_session"], user.id)


def sessions_of(client: TestClient, user: User) -> int:
    return int(in_room(client, lambda s: s.scalar(select(func.count()).where(SessionRow.account_id == user.id))))


def stored_hash(client: TestClient, user: User) -> str:
    return str(in_room(client, lambda s: s.scalar(select(Account.password_hash).where(Account.id == user.id))))


def test_a_change_ends_the_other_sessions_and_their_sockets_and_keeps_this_one(client: TestClient) -> None:
    ann = signup(client, "ann")
    laptop, phone = another_session(client, ann), another_session(client, ann)
    bob = signup(client, "bob")
    table_id = create_table(ann)
    with ann.socket(table_id) as mine, phone.socket(table_id) as theirs, bob.socket(table_id) as bobs:
        for ws in (mine, theirs, bobs):
            until(ws, "snapshot")
        answer = ann.post("/api/me/password", {"current": PASSWORD, "new": NEW})
        assert answer.status_code == 200 and answer.json() == {"ended": 2}, answer.text
        error = until(theirs, "error")
        assert error["code"] == "logged_out" and error["message"] == "your password was changed: sign in again"
        with pytest.raises(WebSocketDisconnect) as closed:
            recv(theirs)
        assert closed.value.code == 4401
        # this session's socket and another account's are untouched
        for ws in (mine, bobs):
            ws.send_json({"type": "ping"})
            assert until(ws, "pong")["type"] == "pong"
    assert ann.get("/api/me").status_code == 200
    for gone in (laptop, phone):
        answer = gone.get("/api/me")
        assert answer.status_code == 401 and answer.json()["error"]["code"] == "not_logged_in"
    assert client.post("/api/login", json={"username": "ann", "password": PASSWORD}).status_code == 401
    client.cookies.clear()
    assert client.post("/api/login", json={"username": "ann", "password": NEW}).status_code == 200
    client.cookies.clear()
    assert bob.get("/api/me").status_code == 200


def test_a_wrong_current_password_is_refused_and_throttled_like_logins(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, login_failures_per_account=3, login_failures_per_address=1000)
    with room_client(settings) as client:
        ann = signup(client, "ann")
        other = another_session(client, ann)
        before = stored_hash(client, ann)
        for guess in ("wrong guess", "correct horse batterY", PASSWORD.upper()):
            answer = ann.post("/api/me/password", {"current": guess, "new": NEW})
            assert answer.status_code == 403 and answer.json()["error"] == {
                "code": "bad_credentials",
                "message": "the current password is not right",
            }
        # past the limit, even the right password waits, and logins for the name too: one count for both
        for attempt in (
            lambda: ann.post("/api/me/password", {"current": PASSWORD, "new": NEW}),
            lambda: client.post("/api/login", json={"username": "ann", "password": PASSWORD}),
        ):
            answer = attempt()
            assert answer.status_code == 429 and answer.json()["error"]["code"] == "rate_limited"
            assert 0 < int(answer.headers["retry-after"]) <= settings.login_window_seconds
        assert stored_hash(client, ann) == before
        assert other.get("/api/me").status_code == 200  # nothing ended


def test_wrong_logins_count_against_a_change_too(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, login_failures_per_account=3, login_failures_per_address=1000)
    with room_client(settings) as client:
        ann = signup(client, "ann")
        for _ in range(3):
            assert client.post("/api/login", json={"username": "ANN", "password": "wrong guess"}).status_code == 401
        assert ann.post("/api/me/password", {"current": PASSWORD, "new": NEW}).status_code == 429


def test_a_weak_new_password_is_refused_and_costs_no_try(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, login_failures_per_account=3, login_failures_per_address=1000)
    with room_client(settings) as client:
        ann = signup(client, "ann")
        before = stored_hash(client, ann)
        for weak, says in (
            ("password", "too easy to guess"),
            ("12345678", "too easy to guess"),
            ("annannann", "too easy to guess"),
            ("short", "at least 8 characters"),
            ("pass\x00word long enough", "control characters"),
            (PASSWORD, "the new password is the current one"),
        ):
            answer = ann.post("/api/me/password", {"current": PASSWORD, "new": weak})
            assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid", weak
            assert says in answer.json()["error"]["message"], answer.text
        for body in ({"current": PASSWORD, "new": "x" * 129}, {"current": PASSWORD}, {"new": NEW}, {}):
            answer = ann.post("/api/me/password", body)
            assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid", body
        assert stored_hash(client, ann) == before
        # none of them was a guess at the current password: the change still goes through
        assert ann.post("/api/me/password", {"current": PASSWORD, "new": NEW}).json() == {"ended": 0}


def test_sign_out_everywhere_ends_every_session_this_one_too(client: TestClient) -> None:
    ann = signup(client, "ann")
    laptop = another_session(client, ann)
    bob = signup(client, "bob")
    table_id = create_table(ann)
    with ann.socket(table_id) as mine, laptop.socket(table_id) as theirs, bob.socket(table_id) as bobs:
        for ws in (mine, theirs, bobs):
            until(ws, "snapshot")
        answer = laptop.post("/api/me/sessions/end")
        assert answer.status_code == 200 and answer.json() == {"ended": 2}
        cleared = [c for c in answer.headers.get_list("set-cookie") if c.startswith("studpoker_session=")]
        assert cleared and ("max-age=0" in cleared[0].lower() or 'studpoker_session=""' in cleared[0])
        for ws in (mine, theirs):
            error = until(ws, "error")
            assert error == {"type": "error", "code": "logged_out", "message": "you signed out everywhere"}
            with pytest.raises(WebSocketDisconnect) as closed:
                recv(ws)
            assert closed.value.code == 4401
        bobs.send_json({"type": "ping"})
        assert until(bobs, "pong")["type"] == "pong"
    for gone in (ann, laptop):
        assert gone.get("/api/me").status_code == 401
    assert sessions_of(client, ann) == 0
    assert bob.get("/api/me").status_code == 200
    # and the password still opens a new session
    assert client.post("/api/login", json={"username": "ann", "password": PASSWORD}).status_code == 200


def test_both_are_refused_from_another_site_and_without_a_session(client: TestClient) -> None:
    ann = signup(client, "ann")
    before = stored_hash(client, ann)
    saved = client.headers.pop("origin")
    try:
        for path, body in (("/api/me/password", {"current": PASSWORD, "new": NEW}), ("/api/me/sessions/end", {})):
            answer = client.post(path, json=body, headers={**ann.headers, "origin": "https://evil.example"})
            assert answer.status_code == 403 and answer.json()["error"]["code"] == "csrf", path
            answer = client.post(path, json=body, headers=ann.headers)  # no Origin, no token: a bare program
            assert answer.status_code == 403 and answer.json()["error"]["code"] == "csrf", path
    finally:
        client.headers["origin"] = saved
    for path, body in (("/api/me/password", {"current": PASSWORD, "new": NEW}), ("/api/me/sessions/end", {})):
        answer = client.post(path, json=body)
        assert answer.status_code == 401 and answer.json()["error"]["code"] == "not_logged_in", path
    assert stored_hash(client, ann) == before and ann.get("/api/me").status_code == 200


def test_a_sign_in_that_checked_the_old_password_opens_no_session_after_a_change(client: TestClient) -> None:
    # a login verifies the password off the database thread, then opens the session: a change in between must win
    ann = signup(client, "ann")
    room = client.app.state.room  # type: ignore[attr-defined]
    verify = room.front.passwords.verify

    def verify_then_change(stored: str | None, password: str) -> bool:
        ok: bool = verify(stored, password)
        room.db.transaction(lambda s: s.execute(update(Account).where(Account.id == ann.id).values(password_hash="x")))
        return ok

    room.front.passwords.verify = verify_then_change
    before = sessions_of(client, ann)
    try:
        answer = client.post("/api/login", json={"username": "ann", "password": PASSWORD})
    finally:
        room.front.passwords.verify = verify
    assert answer.status_code == 401 and "set-cookie" not in answer.headers
    assert sessions_of(client, ann) == before == 1  # the sign-up's only
