"""Names that look alike are one name (issue 26, item 9): tables and usernames are unique by the UTS #39 skeleton of
their name (studpoker.server.names), in any case; names stored before the rule migrate without failing.

The attacks are the review's: tables named with a Lisu ``ꓢ`` (U+A4E2), a division slash (U+2215) or a fraction
slash (U+2044) opened beside "Stud 10/20"; usernames with ``1`` for ``l``, ``0`` for ``O``, ``rn`` for ``m``, a
capital ``I`` for an ``l``. Each test also checks that names that only resemble each other stay two names.
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from studpoker.server.auth import Passwords
from studpoker.server.db import make_engine, migrate
from studpoker.server.limits import MAX_NAME, MAX_NAME_KEY
from studpoker.server.names import look_key, name_key, skeleton, unshowable

from .conftest import PASSWORD, POSTGRES, User, create_table, database_url, make_settings, room_client, signup

MIGRATIONS = Path(__file__).resolve().parents[2] / "src/studpoker/server/migrations"


def test_the_reviews_look_alike_tables_are_refused_beside_stud_10_20(client: TestClient) -> None:
    ann = signup(client, "ann")
    create_table(ann, name="Stud 10/20")
    for twin in ("\ua4e2tud 10/20", "Stud 10\u221520", "Stud 10\u204420", "Stud I0/20", "STUD 1O/2O", "stud lo/20"):
        answer = ann.post("/api/tables", {"variant": "STUD7", "small_bet": 10, "name": twin})
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "conflict", twin
        message = answer.json()["error"]["message"]
        assert message.startswith(f"the name {twin!r} looks like the open table 'Stud 10/20': choose another name")
        assert message.endswith(", such as " + repr(twin + " #2")), message  # a free name proposed (item 4)
    same = ann.post("/api/tables", {"variant": "STUD7", "small_bet": 10, "name": "Stud 10/20"}).json()["error"]
    assert same["message"] == "a table named 'Stud 10/20' is open: choose another name, such as 'Stud 10/20 #2'"
    # names that only resemble it are other tables
    for other in ("Stud 20/40", "Stud 10/200", "Stud 1/20", "Razz 10/20", "Stud 10-20", "Stud 10/20 deep"):
        assert ann.post("/api/tables", {"variant": "STUD7", "small_bet": 10, "name": other}).status_code == 201, other
    # the names are shown as typed: only the keys compare them
    names = {t["name"] for t in client.get("/api/tables").json()["tables"]}
    assert "Stud 10/20" in names and "Stud 20/40" in names


def test_a_closed_tables_name_may_be_taken_again(client: TestClient) -> None:
    ann = signup(client, "ann")
    table_id = create_table(ann, name="Stud 10/20")
    assert ann.delete(f"/api/tables/{table_id}").status_code == 200
    assert ann.post("/api/tables", {"variant": "STUD7", "small_bet": 10, "name": "\ua4e2tud 10/20"}).status_code == 201


def test_look_alike_usernames_are_refused(client: TestClient) -> None:
    for name in ("paypal", "Ann", "money", "Ian", "bob"):
        signup(client, name)
    for twin, owner in (
        ("paypa1", "paypal"),
        ("PAYPAL", "paypal"),
        ("paypaI", "paypal"),  # a capital I
        ("ANN", "Ann"),
        ("AnN", "Ann"),
        ("rnoney", "money"),
        ("MONEY", "money"),
        ("lan", "Ian"),  # a small L for the capital I
        ("b0b", "bob"),
        ("\uff41nn", "Ann"),  # full-width: NFKC makes it ann
    ):
        answer = client.post("/api/signup", json={"username": twin, "password": PASSWORD})
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "conflict", twin
        message = answer.json()["error"]["message"]
        if twin.casefold() == owner.casefold() or unicodedata.normalize("NFKC", twin).casefold() == owner.casefold():
            assert "is taken" in message, message
        else:
            assert message == f"the username {twin!r} looks like {owner!r}, which is taken: choose another", message
    # a Greek capital alpha for the A is refused by the name rules before (usernames are A-Z, digits, _ and -)
    greek = client.post("/api/signup", json={"username": "\u0391nn", "password": PASSWORD})
    assert greek.status_code == 400 and greek.json()["error"]["code"] == "invalid"
    # names that only resemble taken ones are free: the rule is no broader than the look
    for free in ("Kai", "Kal", "paypals", "bobb", "Anne", "rnoneys", "Eli", "Ell"):
        assert client.post("/api/signup", json={"username": free, "password": PASSWORD}).status_code == 201, free
        client.cookies.clear()


def test_login_finds_an_account_through_its_look_alikes_and_throttles_them_as_one(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, login_failures_per_account=3, login_failures_per_address=100)
    with room_client(settings) as client:
        signup(client, "paypal")
        assert client.post("/api/login", json={"username": "PAYPA1", "password": PASSWORD}).json()["username"] == (
            "paypal"
        )
        # a capital I for the l is another key in any case (it looks like paypal only as written): no account
        assert client.post("/api/login", json={"username": "paypaI", "password": PASSWORD}).status_code == 401
        for guess in ("paypa1", "PAYPAL", "pAYPA1"):
            assert client.post("/api/login", json={"username": guess, "password": "wrong guess"}).status_code == 401
        answer = client.post("/api/login", json={"username": "paypal", "password": PASSWORD})
        assert answer.status_code == 429, "three look-alikes are three guesses at one account"


def test_no_character_has_a_key_longer_than_the_columns_allow() -> None:
    # the keys' columns are MAX_NAME_KEY wide: 8 characters per character of the longest table name
    longest = 0
    for point in range(sys.maxunicode + 1):
        char = chr(point)
        if unshowable(char):
            continue
        char = unicodedata.normalize("NFKC", char)
        longest = max(longest, len(name_key(char)) / len(char), len(look_key(char)) / len(char))
    assert longest * MAX_NAME <= MAX_NAME_KEY, longest
    assert skeleton("\ua4e2tud 10\u221520") == skeleton("Stud 10/20")


def _database(tmp_path: Path) -> str:
    return database_url(tmp_path) if POSTGRES else f"sqlite:///{tmp_path / 'room.db'}"


@pytest.mark.parametrize("twice", [False, True], ids=["once", "run-again"])
def test_names_stored_before_the_rule_migrate_and_sign_in_as_before(tmp_path: Path, twice: bool) -> None:
    from alembic import command
    from alembic.config import Config

    url = _database(tmp_path)
    engine = make_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    hashed = Passwords(time_cost=1, memory_kib=1024).hash(PASSWORD)
    accounts = ["paypal", "paypa1", "rnoney", "money", "Ann", "Bill", "BiII"]  # 2, 3 and 7 look like 1, 4 and 6
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0005")
        for n, name in enumerate(accounts, 1):
            connection.execute(
                text(
                    "INSERT INTO accounts (id, username, username_key, password_hash, balance, is_admin, created_at)"
                    " VALUES (:id, :name, :key, :hash, 0, false, '2027-01-01')"
                ),
                {"id": n, "name": name, "key": name.lower(), "hash": hashed},
            )
        tables = [
            ("Stud 10/20", "open"),
            ("\ua4e2tud 10/20", "open"),  # the review's: opened beside it under the old rule
            ("Stud 10\u221520", "closed"),
            ("Stud 10\u204420", "closing"),
            ("Razz", "open"),
        ]
        for n, (name, status) in enumerate(tables, 1):
            connection.execute(
                text(
                    "INSERT INTO tables (id, name, name_key, variant, preset, ante, bring_in, small_bet, big_bet,"
                    " hand_number, created_at, status) VALUES (:id, :name, :key, 'STUD7', 'casino', 1, 3, 10, 20, 0,"
                    " '2027-01-01', :status)"
                ),
                {"id": n, "name": name, "key": name.casefold(), "status": status},
            )
    migrate(engine)
    if twice:
        migrate(engine)  # the head again: nothing to do
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0013"
        keys = connection.execute(text("SELECT username, username_key, username_look FROM accounts ORDER BY id")).all()
        assert [tuple(k) for k in keys] == [
            ("paypal", "paypal", "paypal"),
            ("paypa1", "#paypa1", "#paypa1"),  # kept its name; its keys are its own
            ("rnoney", "rnoney", "rnoney"),
            ("money", "#money", "#money"),
            ("Ann", "ann", "ann"),
            ("Bill", "bill", "bill"),
            ("BiII", "#biii", "#biii"),  # its look (bill) is Bill's
        ]
        rows = connection.execute(text("SELECT name, name_key, name_look, status FROM tables ORDER BY id")).all()
        assert [tuple(r) for r in rows] == [
            ("Stud 10/20", "stud lo/2o", "stud lo/2o", "open"),
            ("\ua4e2tud 10/20 #2", "stud lo/2o #2", "stud lo/2o #2", "open"),  # the later twin is renamed
            ("Stud 10\u221520", "stud lo/2o", "stud lo/2o", "closed"),  # closed: no need
            ("Stud 10\u204420 #4", "stud lo/2o #4", "stud lo/2o #4", "closing"),
            ("Razz", "razz", "razz", "open"),
        ]
    engine.dispose()
    settings = make_settings(tmp_path, default_table=False)
    assert settings.db_url == url
    with room_client(settings) as client:
        # every account signs in with its name as it was, in any case; a kept name is found before its look-alike
        for typed, account_id in (("paypal", 1), ("paypa1", 2), ("PAYPA1", 2), ("money", 4), ("RNONEY", 3)):
            answer = client.post("/api/login", json={"username": typed, "password": PASSWORD})
            assert answer.status_code == 200 and answer.json()["id"] == account_id, (typed, answer.text)
            client.cookies.clear()
        # and nobody can take a name like a kept one: it looks like its older twin
        for twin in ("PAYPAl", "rnoney", "BilI"):
            assert client.post("/api/signup", json={"username": twin, "password": PASSWORD}).status_code == 409
        token = client.post("/api/login", json={"username": "ann", "password": PASSWORD}).cookies["studpoker_session"]
        client.cookies.clear()
        ann = User(client, "Ann", token, 5)
        answer = ann.post("/api/tables", {"variant": "STUD7", "small_bet": 10, "name": "Stud 10\u221520"})
        assert (
            answer.status_code == 409 and "looks like the open table 'Stud 10/20'" in answer.json()["error"]["message"]
        )


def test_the_revision_goes_down_and_up_again(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config

    engine = make_engine(_database(tmp_path))
    migrate(engine)
    with engine.begin() as connection:
        for n, name in enumerate(["paypal", "Bill"], 1):
            connection.execute(
                text(
                    "INSERT INTO accounts (id, username, username_key, username_look, password_hash, balance,"
                    " is_admin, created_at) VALUES (:id, :name, :key, :look, 'x', 0, false, '2027-01-01')"
                ),
                {"id": n, "name": name, "key": name_key(name), "look": look_key(name)},
            )
        connection.execute(
            text(
                "INSERT INTO tables (id, name, name_key, name_look, variant, preset, ante, bring_in, small_bet,"
                " big_bet, hand_number, created_at, status) VALUES (1, 'Stud 10/20', 'stud lo/2o', 'stud lo/2o',"
                " 'STUD7', 'casino', 1, 3, 10, 20, 0, '2027-01-01', 'open')"
            )
        )
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0005")
        # the keys of before: the name case-folded without marks
        assert connection.execute(text("SELECT username_key FROM accounts ORDER BY id")).scalars().all() == [
            "paypal",
            "bill",
        ]
        assert connection.execute(text("SELECT name_key FROM tables")).scalar() == "stud 10/20"
    migrate(engine)
    with engine.connect() as connection:
        keys = connection.execute(text("SELECT username_key, username_look FROM accounts ORDER BY id")).all()
        assert [tuple(k) for k in keys] == [("paypal", "paypal"), ("bill", "bill")]
        assert tuple(connection.execute(text("SELECT name_key, name_look FROM tables")).one()) == (
            "stud lo/2o",
            "stud lo/2o",
        )
    engine.dispose()
