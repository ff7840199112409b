"""``stud serve``: its options, and the one-line error without the server extra."""

from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
from typing import Any

import pytest

from studpoker.cli import main
from studpoker.cli.serve import _db_url, has_password


def test_serve_without_the_extra(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "fastapi" else real(name, *a))
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err == "stud serve needs the card room's packages, the [server] extra: in a clone of studpoker: " + (
        "pip install -e '.[server]'; from a wheel built from it: pip install 'studpoker-VERSION-...whl[server]'\n"
    )


def test_serve_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert "--db URL" in capsys.readouterr().out
    assert _db_url(None) == "sqlite:///./studpoker.db"
    assert _db_url("room.db") == "sqlite:///room.db"
    assert _db_url("postgresql+psycopg://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert main(["serve", "--clock", "0"]) == 2
    assert "--clock must be more than 0 seconds" in capsys.readouterr().err
    assert main(["serve", "--showdown-seconds", "31"]) == 2
    assert "--showdown-seconds must be 0 to 30" in capsys.readouterr().err


def test_finding_12_bad_db_values_get_one_clear_line(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("these are my notes, not a database\n" * 20)
    cases = {
        "mysql://ann:secret@localhost/room": "no database driver for mysql",
        str(tmp_path / "no" / "such" / "dir" / "room.db"): "does not exist",
        str(not_a_db): "is not a usable database",
        "postgresql+psycopg://ann:secret@127.0.0.1:1/room": "cannot open the database",
        "postgresql+nodriver://ann:secret@localhost/room": "no database driver",
        "notaurl://": "no database driver",
        # found by the hostile review
        "sqlite:////tmp/x.db?check_same_thread=maybe": "cannot use the database",
        "postgresql+psycopg://ann:secret@[::1/room": "is not a database URL",
        "sqlite://ann:secret@/room.db": "cannot use the database",
        str(tmp_path / ("d" * 300) / "room.db"): "File name too long",
        "": "in-memory",
        "sqlite://": "in-memory",
    }
    for db, words in cases.items():
        if has_password(db):  # refused on the command line (issue 26, item 11): given as it would be
            monkeypatch.setenv("STUDPOKER_DB_URL", db)
            assert main(["serve", "--no-default-table"]) == 2, db
            monkeypatch.delenv("STUDPOKER_DB_URL")
        else:
            assert main(["serve", "--db", db, "--no-default-table"]) == 2, db
        err = capsys.readouterr().err
        assert err.startswith("stud serve: error: ") and words in err, (db, err)
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert "secret" not in err  # the password is never printed


def test_finding_12_odd_but_good_file_names_work(tmp_path: Any) -> None:
    from studpoker.server.db import check_database

    for name in ("café.db", "a%b:c.db", "50% off.db"):  # "%" once reached Alembic's config parser
        assert check_database(f"sqlite:///{tmp_path / name}") is None, name
        assert (tmp_path / name).stat().st_size > 0


def test_finding_12_the_banner_hides_the_password(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    import uvicorn

    from studpoker.server import db

    monkeypatch.setattr(db, "check_database", lambda url: None)
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: None)
    monkeypatch.setenv("STUDPOKER_DB_URL", "postgresql+psycopg://stud:hunter2secret@db.example/room")
    assert main(["serve"]) == 0
    err = capsys.readouterr().err
    assert "hunter2secret" not in err and "postgresql+psycopg://stud:***@db.example/room" in err


def test_serve_refuses_a_bad_origin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--origin", "not an origin"]) == 2
    assert "--origin" in capsys.readouterr().err


def test_finding_05_stud_admin_creates_an_admin(tmp_path: Any, capsys: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from sqlalchemy import select

    from studpoker.server.db import Account, Database

    url = f"sqlite:///{tmp_path / 'room.db'}"
    monkeypatch.setattr("sys.stdin", io.StringIO("correct horse battery\n"))
    assert main(["admin", "create-user", "floorman", "--admin", "--db", url, "--password-stdin"]) == 0
    assert "created floorman" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("password\n"))
    with pytest.raises(SystemExit) as weak:
        main(["admin", "create-user", "bob", "--db", url, "--password-stdin"])
    assert weak.value.code == 2 and "too easy to guess" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO("correct horse battery\n"))
    with pytest.raises(SystemExit):
        main(["admin", "create-user", "FloorMan", "--db", url, "--password-stdin"])
    assert "is taken" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["admin", "set-admin", "nobody", "--db", url])
    assert "there is no account 'nobody'" in capsys.readouterr().err
    db = Database(url)
    try:
        roles = db.transaction(lambda s: {a.username: a.is_admin for a in s.scalars(select(Account))})
        assert roles == {"floorman": True}
        assert main(["admin", "set-admin", "floorman", "--revoke", "--db", url]) == 0
        assert db.transaction(lambda s: s.scalar(select(Account.is_admin))) is False
    finally:
        db.close()


def test_the_distributed_options_are_checked_before_anything_starts(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "room.db")
    assert main(["serve", "--db", db, "--role", "worker"]) == 2
    assert "give --redis URL" in capsys.readouterr().err
    assert main(["serve", "--db", db, "--workers", "3"]) == 2
    assert "give --redis URL" in capsys.readouterr().err
    assert main(["serve", "--db", db, "--redis", "redis://127.0.0.1:1/0", "--workers", "0"]) == 2
    assert "--workers must be 1 to 64, got 0" in capsys.readouterr().err
    assert main(["serve", "--db", db, "--redis", "redis://127.0.0.1:1/0", "--drain-seconds", "-1"]) == 2
    assert "--drain-seconds must be 0 to 3600, got -1" in capsys.readouterr().err
    assert main(["serve", "--db", db, "--redis", "redis://127.0.0.1:1/0"]) == 2
    assert "keeps its leases in PostgreSQL" in capsys.readouterr().err
    pg = "postgresql+psycopg://u@127.0.0.1:1/x"
    # nothing listens on port 1: one line, and the Redis password is not printed
    monkeypatch.setenv("STUDPOKER_REDIS_URL", "redis://:hunter2@127.0.0.1:1/0")
    assert main(["serve", "--db", pg]) == 2
    err = capsys.readouterr().err
    assert err.startswith("stud serve: error: cannot use Redis at redis://:***@127.0.0.1:1/0: ")
    assert "hunter2" not in err
    assert err.count("\n") == 1
    monkeypatch.delenv("STUDPOKER_REDIS_URL")
    assert main(["serve", "--db", pg, "--redis", "not a url"]) == 2
    assert "cannot use Redis at" in capsys.readouterr().err


def test_the_compose_file_runs_stud_serve_with_options_it_has() -> None:
    """docker-compose.yml cannot be run here (no container engine in CI): its commands are at least parsed by
    ``stud serve``'s own parser, and give two workers and two gateways on one PostgreSQL and one Redis, published
    on this host's loopback only (issue 26, item 10: plain http must not face the internet). Issue 26, item 11:
    every URL and password is a secret file (none in a command or an environment variable), Redis has users from a
    secret (the default one off) and, like PostgreSQL, is on the internal network only."""
    import argparse
    from pathlib import Path

    yaml = pytest.importorskip("yaml")
    from studpoker.cli.serve import add_commands

    compose = yaml.safe_load((Path(__file__).parents[2] / "docker-compose.yml").read_text())
    parser = argparse.ArgumentParser(prog="stud")
    add_commands(parser.add_subparsers())
    roles: dict[str, int] = {}
    services = compose["services"]
    for service in services.values():
        assert "://" not in json.dumps(service) and "POSTGRES_PASSWORD" not in service.get("environment", {})
        if service.get("build") != ".":  # PostgreSQL's and Redis's own images
            continue
        args = parser.parse_args(["serve", *service["command"]])
        assert (args.db, args.redis) == (None, None)
        assert (args.db_file, args.redis_file) == ("/run/secrets/db_url", "/run/secrets/redis_url")
        assert set(service["secrets"]) == {"db_url", "redis_url"} and not args.redis_allow_unauthenticated
        roles[args.role] = roles.get(args.role, 0) + service.get("deploy", {}).get("replicas", 1)
    assert roles == {"worker": 2, "gateway": 2}
    published = [port for service in compose["services"].values() for port in service.get("ports", [])]
    assert len(published) == 2 and all(str(port).startswith("127.0.0.1:") for port in published), published
    redis = services["redis"]["command"]
    assert redis[redis.index("--aclfile") + 1] == "/run/secrets/redis_acl" and "--requirepass" not in redis
    assert services["postgres"]["environment"]["POSTGRES_PASSWORD_FILE"] == "/run/secrets/postgres_password"
    assert compose["networks"]["private"] == {"internal": True}
    for name in ("postgres", "redis"):
        assert services[name]["networks"] == ["private"] and "ports" not in services[name]
    assert {name: spec["file"] for name, spec in compose["secrets"].items()} == {
        name: f"./secrets/{name}" for name in ("postgres_password", "db_url", "redis_acl", "redis_url")
    }


def test_issue26_11_the_compose_secrets_agree(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """tools/compose_secrets.py writes the four files docker-compose.yml reads: the URLs hold the passwords the
    servers are given, Redis's room user has the room's rules (``bus.ACL_RULES``) and its default user is off; the
    folder is its owner's only, and nothing is replaced on a second run (PostgreSQL keeps its first password).
    tests/cluster/test_bus.py starts a real redis-server with the ACL file."""
    import importlib.util
    import stat
    from pathlib import Path

    from sqlalchemy.engine import make_url

    from studpoker.server.bus import ACL_RULES

    path = Path(__file__).parents[2] / "tools" / "compose_secrets.py"
    spec = importlib.util.spec_from_file_location("compose_secrets", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    folder = tmp_path / "secrets"
    assert tool.main([str(folder)]) == 0
    files = {name: (folder / name).read_text() for name in tool.NAMES}
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    db = make_url(files["db_url"].strip())
    assert (db.username, db.password, db.host, db.database) == (
        "stud",
        files["postgres_password"].strip(),
        "postgres",
        "studpoker",
    )
    user, password = files["redis_url"].strip().removeprefix("redis://").split("@")[0].split(":")
    assert files["redis_acl"] == f"user default off\nuser {user} on >{password} {ACL_RULES}\n"
    assert tool.ACL_RULES == ACL_RULES and len(password) >= 32 and password != db.password
    capsys.readouterr()
    assert tool.main([str(folder)]) == 2
    assert "already holds" in capsys.readouterr().err
    assert {name: (folder / name).read_text() for name in tool.NAMES} == files


def test_issue26_11_a_password_on_the_command_line_is_refused(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A URL with a password in ``--db`` or ``--redis`` (``ps`` shows it to every user of the host, and the
    ``--workers`` children inherited it) is refused, for ``stud serve`` and ``stud admin``, in one line that
    says where to put it and never shows it; URLs without one, and SQLite paths, still work there."""
    from studpoker.server import db, manage  # manage first: imported under the patch, it would keep the fake

    assert manage.check_database is db.check_database
    opened: list[str] = []
    monkeypatch.setattr(db, "check_database", lambda url: opened.append(url) or "stop here")
    refused = {
        ("serve", "--db", "postgresql+psycopg://stud:hunter2@db/room"): "--db holds a password",
        ("serve", "--db", "postgresql+psycopg:///room?host=/run/pg&password=hunter2"): "--db holds a password",
        ("serve", "--redis", "redis://:hunter2@10.0.0.5:6379/0"): "--redis holds a password",
        ("serve", "--redis", "redis://studpoker:hunter2@10.0.0.5:6379/0"): "--redis holds a password",
        ("admin", "set-admin", "ann", "--db", "postgresql+psycopg://stud:hunter2@db/room"): "--db holds a password",
    }
    for argv, words in refused.items():
        with pytest.raises(SystemExit) as stopped:
            main(list(argv))
        err = capsys.readouterr().err
        assert stopped.value.code == 2 and err.count("\n") == 1, (argv, err)
        assert err.startswith(f"stud {argv[0]}: error: {words}") and "hunter2" not in err, err
        assert "$STUDPOKER_DB_URL" in err or "$STUDPOKER_REDIS_URL" in err
    assert opened == []  # refused before anything was opened
    for value in ("postgresql+psycopg://stud@db/room", str(tmp_path / "room.db")):
        assert main(["serve", "--db", value]) == 2
        assert capsys.readouterr().err == "stud serve: error: stop here\n"
    assert opened == ["postgresql+psycopg://stud@db/room", f"sqlite:///{tmp_path / 'room.db'}"]


def test_issue26_11_the_urls_come_from_the_environment_or_a_file(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--db-file``/``--redis-file`` (one line, trailing newline and blanks ignored: a Docker secret), else
    ``$STUDPOKER_DB_URL``/``$STUDPOKER_REDIS_URL``, else the default; the option beats the environment. A file
    that cannot be used, or an empty variable, is one line (never its content); ``--db`` and ``--db-file``
    together, argparse's usage error."""
    from studpoker.server import db, manage  # manage first: imported under the patch, it would keep the fake

    assert manage.check_database is db.check_database
    opened: list[str] = []
    monkeypatch.setattr(db, "check_database", lambda url: opened.append(url) or "stop here")
    monkeypatch.delenv("STUDPOKER_DB_URL", raising=False)
    monkeypatch.delenv("STUDPOKER_REDIS_URL", raising=False)
    secret = tmp_path / "db_url"
    secret.write_text("  postgresql+psycopg://stud:hunter2@db/room \n\n")
    assert main(["serve", "--db-file", str(secret)]) == 2
    monkeypatch.setenv("STUDPOKER_DB_URL", "postgresql+psycopg://stud:hunter2@env/room")
    assert main(["serve"]) == 2
    assert main(["serve", "--db", "other.db"]) == 2
    monkeypatch.delenv("STUDPOKER_DB_URL")
    assert main(["serve"]) == 2
    assert opened == [
        "postgresql+psycopg://stud:hunter2@db/room",
        "postgresql+psycopg://stud:hunter2@env/room",
        "sqlite:///other.db",
        "sqlite:///./studpoker.db",
    ]
    capsys.readouterr()
    (tmp_path / "two").write_text("postgresql+psycopg://stud:hunter2@db/room\nsqlite:///x.db\n")
    (tmp_path / "empty").write_text("\n")
    (tmp_path / "binary").write_bytes(b"\xff\xfehunter2")
    bad = {
        ("--db-file", str(tmp_path / "missing")): f"cannot read --db-file {tmp_path / 'missing'}: No such file",
        ("--db-file", str(tmp_path)): "cannot read --db-file",
        ("--db-file", str(tmp_path / "two")): "must hold one line: the URL",
        ("--redis-file", str(tmp_path / "empty")): "must hold one line: the URL",
        ("--db-file", str(tmp_path / "binary")): "is not UTF-8 text",
    }
    for argv, words in bad.items():
        with pytest.raises(SystemExit) as stopped:
            main(["serve", *argv])
        err = capsys.readouterr().err
        assert stopped.value.code == 2 and err.count("\n") == 1 and words in err, (argv, err)
        assert "hunter2" not in err
    monkeypatch.setenv("STUDPOKER_REDIS_URL", " ")
    with pytest.raises(SystemExit):
        main(["serve"])
    assert "$STUDPOKER_REDIS_URL is set but empty" in capsys.readouterr().err
    monkeypatch.delenv("STUDPOKER_REDIS_URL")
    with pytest.raises(SystemExit) as both:
        main(["serve", "--db", "a.db", "--db-file", str(secret)])
    assert both.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


def test_issue26_11_stud_admin_takes_the_database_from_the_environment(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``stud admin`` reads the URL where ``stud serve`` does: an operator who set ``$STUDPOKER_DB_URL`` for the
    room makes his admin in the room's database, not in a new ./studpoker.db."""
    import io

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("STUDPOKER_DB_URL", f"sqlite:///{tmp_path / 'room.db'}")
    monkeypatch.setattr("sys.stdin", io.StringIO("correct horse battery\n"))
    assert main(["admin", "create-user", "floorman", "--admin", "--password-stdin"]) == 0
    assert (tmp_path / "room.db").exists() and not (tmp_path / "studpoker.db").exists()
    url_file = tmp_path / "db_url"
    url_file.write_text(f"sqlite:///{tmp_path / 'room.db'}\n")
    monkeypatch.delenv("STUDPOKER_DB_URL")
    assert main(["admin", "set-admin", "floorman", "--revoke", "--db-file", str(url_file)]) == 0
    assert "floorman is no longer an admin" in capsys.readouterr().out


def test_issue26_11_the_workers_get_the_urls_in_their_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--workers N`` starts its workers with the URLs in their environment, none on their command line."""
    import argparse

    from studpoker.cli.serve import _worker_command, add_commands

    parser = argparse.ArgumentParser(prog="stud")
    add_commands(parser.add_subparsers())
    args = parser.parse_args(["serve", "--workers", "3", "--redis-allow-unauthenticated"])
    args.db, args.redis = "postgresql+psycopg://stud:hunter2@db/room", "redis://u:hunter2@10.0.0.5:6379/0"
    command, environment = _worker_command(args)
    assert not any("hunter2" in word or "://" in word for word in command), command
    assert "--redis-allow-unauthenticated" in command and "--db" not in command and "--redis" not in command
    assert environment == {"STUDPOKER_DB_URL": args.db, "STUDPOKER_REDIS_URL": args.redis}


def test_a_busy_port_is_one_line_before_the_banner_and_the_database(tmp_path: Any) -> None:
    """Issue 27, item 4: the port is tried first; nothing is printed, migrated or created before the refusal."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "studpoker", "serve", "--db", str(tmp_path / "room.db"), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        f"stud serve: error: cannot listen on 127.0.0.1:{port}: the port is in use (another stud serve?): "
        "choose one with --port\n"
    )
    assert not (tmp_path / "room.db").exists()


def test_a_host_that_is_not_here_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    assert main(["serve", "--db", str(tmp_path / "room.db"), "--host", "no-such-host.invalid"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("stud serve: error: cannot listen on no-such-host.invalid:8000: 'no-such-host.invalid' is")
    assert err.count("\n") == 1 and not (tmp_path / "room.db").exists()
