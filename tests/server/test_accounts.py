"""Accounts: signup, login, logout, the session cookie; the migrations on a fresh database; the lobby."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect

from studpoker.server.db import make_engine, migrate

from .conftest import PASSWORD, create_table, invariants, make_settings, room_client, signup


def test_signup_sets_a_safe_cookie_and_grants_play_money(client: TestClient) -> None:
    response = client.post("/api/signup", json={"username": "Ann", "password": PASSWORD})
    assert response.status_code == 201
    assert response.json() == {"id": 1, "username": "Ann", "balance": 10_000, "is_admin": False}
    cookie = response.headers["set-cookie"].lower()
    assert "studpoker_session=" in cookie and "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
    me = client.get("/api/me")  # the client keeps the cookie
    assert me.status_code == 200 and me.json()["balance"] == 10_000 and me.json()["seats"] == []
    ledger = client.get("/api/ledger").json()
    assert ledger["entries"][0]["kind"] == "grant" and ledger["entries"][0]["amount"] == 10_000
    assert invariants(client).granted == 10_000


def test_signup_refusals(client: TestClient) -> None:
    signup(client, "ann")
    taken = client.post("/api/signup", json={"username": "ANN", "password": PASSWORD})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "conflict"
    for body in ({"username": "a", "password": PASSWORD}, {"username": "bob", "password": "short"}, {}):
        response = client.post("/api/signup", json=body)
        assert response.status_code == 400 and response.json()["error"]["code"] == "invalid"
    garbage = client.post("/api/signup", content=b"{not json", headers={"content-type": "application/json"})
    assert garbage.status_code == 400 and garbage.json()["error"]["code"] == "bad_request"
    huge = client.post("/api/signup", content=b"x" * 20_000)
    assert huge.status_code == 413


def test_login_logout(client: TestClient) -> None:
    signup(client, "ann")
    wrong = client.post("/api/login", json={"username": "ann", "password": "correct horse battery2"})
    unknown = client.post("/api/login", json={"username": "zed", "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json()["error"] == unknown.json()["error"]
    assert client.get("/api/me").status_code == 401
    ok = client.post("/api/login", json={"username": "ANN", "password": PASSWORD})
    assert ok.status_code == 200 and ok.json()["username"] == "ann"
    assert client.get("/api/me").status_code == 200
    out = client.post("/api/logout", json={})
    assert out.status_code == 200 and "studpoker_session=" in out.headers["set-cookie"]
    client.cookies.clear()
    again = client.get("/api/me", headers={"cookie": f"studpoker_session={ok.cookies['studpoker_session']}"})
    assert again.status_code == 401 and again.json()["error"]["code"] == "not_logged_in"


def test_lobby_and_table_creation(client: TestClient) -> None:
    ann = signup(client, "ann")
    assert client.get("/api/tables").json() == {"tables": []}
    assert client.post("/api/tables", json={"variant": "RAZZ", "small_bet": 10}).status_code == 401
    table_id = create_table(ann, variant="RAZZ", preset="tournament", name="Razz night")
    [table] = client.get("/api/tables").json()["tables"]
    assert table["id"] == table_id and table["name"] == "Razz night" and table["variant"] == "RAZZ"
    assert table["stakes_text"] == "10/20, ante 1, bring-in 3" and table["min_buy_in"] == 200
    assert table["preset"] == "tournament" and table["seats_taken"] == 0 and table["average_pot"] == 0
    defaults = ann.post("/api/tables", {"variant": "STUD5", "small_bet": 30}).json()
    assert defaults["stakes"] == {"ante": 3, "bring_in": 10, "small_bet": 30, "big_bet": 60}
    assert defaults["name"] == "Five-card stud 30/60" and defaults["max_seats"] == 10
    for name in ("razz", "FR", "Razz", "7stud8", "stud7_hl8", "Seven-card stud hi/lo"):  # any name of the game
        made = ann.post("/api/tables", {"variant": name, "small_bet": 10})
        assert made.status_code == 201 and made.json()["variant"] in ("RAZZ", "STUD7_HL8"), (name, made.text)
    for bad in (
        {"variant": "HOLDEM", "small_bet": 10},
        {"variant": "razz" * 100, "small_bet": 10},
        {"variant": ["razz"], "small_bet": 10},
        {"variant": {"razz": 1}, "small_bet": 10},
        {"variant": 7, "small_bet": 10},
        {"variant": "STUD7"},
        {"variant": "STUD7", "small_bet": 10, "preset": "home"},
        {"variant": "STUD7", "small_bet": 10, "bring_in": 50},
    ):
        response = ann.post("/api/tables", bad)
        assert response.status_code == 400 and response.json()["error"]["code"] == "invalid", bad
    presets = client.get("/api/presets").json()
    assert "tight-aggressive" in presets["bots"] and {"variant": "RAZZ", "name": "Razz"} in presets["variants"]
    assert client.get("/api/tables/99").status_code == 404
    assert client.get("/api/tables/x").status_code == 404


def test_a_fresh_database_migrates(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'fresh.db'}")
    migrate(engine)
    migrate(engine)  # a second run is a no-op
    names = set(inspect(engine).get_table_names())
    tables = {"accounts", "sessions", "ledger", "tables", "seats", "hands", "table_leases", "notes", "hud_counts"}
    assert {*tables, "alembic_version"} <= names
    with engine.connect() as connection:
        assert connection.exec_driver_sql("select version_num from alembic_version").scalar() == "0013"
    engine.dispose()


def test_import_studpoker_does_not_load_the_server() -> None:
    code = (
        "import sys, studpoker, studpoker.cli\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('fastapi', 'sqlalchemy')"
        " or m.startswith('studpoker.server')]\n"
        "assert not bad, bad\n"
        "print('ok')"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.stdout == "ok\n", result.stderr


def test_default_table_has_bots_and_plays(tmp_path: Path) -> None:

    from .conftest import make_settings

    settings = make_settings(tmp_path, default_table=True, default_bots=3)
    with room_client(settings) as client:
        [table] = client.get("/api/tables").json()["tables"]
        assert table["name"] == "Stud 10/20" and table["seats_taken"] == 3
        import time

        deadline = time.monotonic() + 60
        while client.get("/api/tables/1/hands").json()["hands"] == [] and time.monotonic() < deadline:
            time.sleep(0.02)
        [*_, first] = client.get("/api/tables/1/hands").json()["hands"]
        detail = client.get(f"/api/tables/1/hands/{first['number']}").json()
        assert detail["status"] == "finished" and "variant = " in detail["phh"]
        download = client.get(f"/api/tables/1/hands/{first['number']}.phh")
        assert download.headers["content-disposition"].startswith("attachment") and download.text == detail["phh"]
        from studpoker.history import phh
        from studpoker.history.replay import replay

        replay(phh.loads_hand(download.text))
        assert client.get("/api/tables/1/hands/9999").status_code == 404
    assert invariants_after(settings)


def invariants_after(settings: object) -> bool:
    from studpoker.server.db import Database
    from studpoker.server.ledger import check_invariants

    db = Database(settings.db_url)  # type: ignore[attr-defined]
    try:
        db.transaction(check_invariants)
    finally:
        db.close()
    return True


# -- issue 26, item 7: a sign-up checks the cheap things first, and failures are throttled -------------------


def counting_hasher(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The passwords the room hashes from now on (argon2: 130 to 337 ms of CPU each at the default cost)."""
    room = client.app.state.room  # type: ignore[attr-defined]
    real = room.front.passwords.hash
    calls: list[str] = []

    def counted(password: str) -> str:
        calls.append(password)
        return str(real(password))

    monkeypatch.setattr(room.front.passwords, "hash", counted)
    return calls


def test_issue26_07_a_taken_name_never_reaches_the_hasher(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    signup(client, "ann")
    hashed = counting_hasher(client, monkeypatch)
    for name in ("ann", "ANN", "ａｎｎ", " ann "):  # taken, however it is written
        answer = client.post("/api/signup", json={"username": name, "password": PASSWORD})
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "conflict", name
    for name, password in (("bob", "password"), ("x", PASSWORD), ("admin", PASSWORD), ("bob", "\x00" * 9)):
        answer = client.post("/api/signup", json={"username": name, "password": password})
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid", (name, password)
    assert hashed == []
    signup(client, "bob")
    assert hashed == [PASSWORD]


def test_issue26_07_failed_sign_ups_are_throttled_per_address(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with room_client(make_settings(tmp_path, signup_failures_per_address=4)) as client:
        signup(client, "ann")
        for n in range(6):  # sign-ups that work are not failures
            signup(client, f"fine{n}")
        hashed = counting_hasher(client, monkeypatch)
        attempts = [("ann", PASSWORD), ("ANN", PASSWORD), ("bob", "password"), ("b", PASSWORD)]
        for name, password in attempts:
            assert client.post("/api/signup", json={"username": name, "password": password}).status_code in (400, 409)
        for name in ("ann", "carol"):  # past the limit: 429 for anything, a good sign-up too, until the window ends
            answer = client.post("/api/signup", json={"username": name, "password": PASSWORD})
            assert answer.status_code == 429 and answer.json()["error"]["code"] == "rate_limited", name
            assert "failed sign-ups" in answer.json()["error"]["message"]
            assert 0 < int(answer.headers["retry-after"]) <= 15 * 60
        assert hashed == []
        assert client.post("/api/login", json={"username": "ann", "password": PASSWORD}).status_code == 200


def test_issue26_07_a_burst_of_failed_sign_ups_is_throttled_too(tmp_path: Path) -> None:
    with room_client(make_settings(tmp_path, signup_failures_per_address=5)) as client:
        signup(client, "ann")
        with ThreadPoolExecutor(16) as pool:
            answers = list(
                pool.map(
                    lambda _: client.post("/api/signup", json={"username": "ann", "password": PASSWORD}), range(30)
                )
            )
        codes = sorted(a.status_code for a in answers)
        assert codes == [409] * 5 + [429] * 25, codes
