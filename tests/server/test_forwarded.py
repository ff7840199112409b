"""Forwarded addresses (issue 26, item 6): the room believes ``X-Forwarded-For``/``-Proto`` only from the proxies
the operator names (``stud serve --proxy-headers``, ``Settings.trusted_proxies``), never by default.

The attacks are made against a real uvicorn server configured as ``stud serve`` configures it
(:func:`studpoker.server.edge.uvicorn_options`), from 127.0.0.1: before, uvicorn's default believed the header from
127.0.0.1, so every request picked its own client address and the limits per address counted nothing.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import httpx
import pytest

from studpoker.server.config import Settings
from studpoker.server.forwarded import TrustedProxies, forwarded_client

from .conftest import PASSWORD, make_settings
from .live import serve

websockets_sync = pytest.importorskip("websockets.sync.client")


def room(url: str) -> httpx.Client:
    """An HTTP client of the live room that sends the room's own Origin, as its pages do."""
    return httpx.Client(base_url=url, headers={"origin": url}, timeout=30)


def open_table(client: httpx.Client) -> int:
    """Sign a player up and open a table (for sockets to watch)."""
    answer = client.post("/api/signup", json={"username": "opener", "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    answer = client.post(
        "/api/tables", json={"variant": "STUD7", "small_bet": 10, "big_bet": 20, "ante": 1, "bring_in": 3}
    )
    assert answer.status_code == 201, answer.text
    client.cookies.clear()
    return int(answer.json()["id"])


def watch(url: str, table_id: int, forged: str) -> Any:
    """A spectator's table socket whose handshake claims to come from ``forged``."""
    ws_url = url.replace("http://", "ws://") + f"/ws/table/{table_id}"
    return websockets_sync.connect(ws_url, additional_headers={"X-Forwarded-For": forged}, open_timeout=30)


def first_message(ws: Any) -> dict[str, Any]:
    import json

    message: dict[str, Any] = json.loads(ws.recv(timeout=30))
    return message


def test_issue26_06_forged_addresses_do_not_get_more_sign_ups(tmp_path: Path) -> None:
    with serve(make_settings(tmp_path, signups_per_address=5)) as url, room(url) as client:
        codes = []
        for n in range(7):
            answer = client.post(
                "/api/signup",
                json={"username": f"forger{n}", "password": PASSWORD},
                headers={"x-forwarded-for": f"203.0.113.{n + 1}"},
            )
            client.cookies.clear()
            codes.append(answer.status_code)
        assert codes == [201] * 5 + [429] * 2, codes


def test_issue26_06_forged_addresses_do_not_get_more_table_sockets(tmp_path: Path) -> None:
    from websockets.exceptions import ConnectionClosed

    with serve(make_settings(tmp_path, max_sockets_per_address=3)) as url, room(url) as client:
        table_id = open_table(client)
        with contextlib.ExitStack() as held:
            for n in range(3):
                ws = held.enter_context(watch(url, table_id, f"198.51.100.{n + 1}"))
                assert first_message(ws)["type"] == "snapshot"
            with watch(url, table_id, "198.51.100.99") as extra:
                assert first_message(extra)["code"] == "too_many_connections"
                with pytest.raises(ConnectionClosed) as closed:
                    extra.recv(timeout=30)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013


def test_issue26_06_forged_addresses_do_not_get_more_wrong_logins(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, login_failures_per_address=5, login_failures_per_account=5)
    with serve(settings) as url, room(url) as client:
        codes = []
        for n in range(7):
            answer = client.post(
                "/api/login",
                json={"username": f"victim{n}", "password": "wrong guess"},
                headers={"x-forwarded-for": f"192.0.2.{n + 1}"},
            )
            codes.append(answer.status_code)
        assert codes == [401] * 5 + [429] * 2, codes


def test_issue26_06_a_proxy_the_operator_names_is_believed(tmp_path: Path) -> None:
    settings = make_settings(
        tmp_path, signups_per_address=1, max_sockets_per_address=1, trusted_proxies=("127.0.0.1", "::1")
    )
    with serve(settings) as url, room(url) as client:
        # each forwarded client has its own allowance: one sign-up each
        for n in range(3):
            answer = client.post(
                "/api/signup",
                json={"username": f"client{n}", "password": PASSWORD},
                headers={"x-forwarded-for": f"203.0.113.{n + 1}"},
            )
            client.cookies.clear()
            assert answer.status_code == 201, answer.text
        again = client.post(
            "/api/signup",
            json={"username": "client9", "password": PASSWORD},
            headers={"x-forwarded-for": "203.0.113.1"},
        )
        assert again.status_code == 429
        # the proxy appends what it saw to what the client claimed: the right-most hop it did not write counts
        again = client.post(
            "/api/signup",
            json={"username": "client8", "password": PASSWORD},
            headers={"x-forwarded-for": "203.0.113.77, 203.0.113.2"},
        )
        assert again.status_code == 429
        client.cookies.clear()
        # a socket per forwarded client (the cap is 1 per address)
        table_id = open_table_as(client, "203.0.113.50")
        with contextlib.ExitStack() as held:
            for n in range(3):
                ws = held.enter_context(watch(url, table_id, f"198.51.100.{n + 1}"))
                assert first_message(ws)["type"] == "snapshot"


def open_table_as(client: httpx.Client, forwarded: str) -> int:
    headers = {"x-forwarded-for": forwarded}
    answer = client.post("/api/signup", json={"username": "opener", "password": PASSWORD}, headers=headers)
    assert answer.status_code == 201, answer.text
    body = {"variant": "STUD7", "small_bet": 10, "big_bet": 20, "ante": 1, "bring_in": 3}
    answer = client.post("/api/tables", json=body, headers=headers)
    assert answer.status_code == 201, answer.text
    client.cookies.clear()
    return int(answer.json()["id"])


# -- the rule, unit by unit -----------------------------------------------------------------------------------


def test_the_forwarded_client_is_the_right_most_hop_no_trusted_proxy_wrote() -> None:
    trusted = TrustedProxies(["127.0.0.1", "10.0.0.0/8", "::1"])

    def client(peer: str, *values: str) -> str:
        return forwarded_client([v.encode() for v in values], peer, trusted)

    assert client("127.0.0.1", "203.0.113.9") == "203.0.113.9"
    assert client("127.0.0.1", "6.6.6.6, 203.0.113.9") == "203.0.113.9"  # the client's own claim is left of it
    assert client("127.0.0.1", "6.6.6.6, 203.0.113.9, 10.1.2.3") == "203.0.113.9"  # through two proxies
    assert client("127.0.0.1", "6.6.6.6", "203.0.113.9") == "203.0.113.9"  # two header lines are one list
    assert client("127.0.0.1", "10.0.0.5") == "10.0.0.5"  # only proxies: the farthest one
    assert client("127.0.0.1", "203.0.113.9:4711") == "203.0.113.9"
    assert client("127.0.0.1", "[2001:db8::1]:443") == "2001:db8::1"
    assert client("127.0.0.1", "::ffff:203.0.113.9") == "203.0.113.9"
    # what does not parse is not believed: the nearest address that did
    assert client("127.0.0.1", "not an address") == "127.0.0.1"
    assert client("127.0.0.1", "203.0.113.9, garbage, 10.0.0.1") == "10.0.0.1"
    assert client("127.0.0.1", "") == "127.0.0.1"
    assert client("::ffff:127.0.0.1", "203.0.113.9") == "203.0.113.9"  # a dual-stack socket's IPv4 peer


def test_trusted_proxies_are_addresses_or_networks() -> None:
    trusted = TrustedProxies(["192.168.0.0/16", "fd00::1"])
    assert "192.168.4.4" in trusted and "fd00::1" in trusted and "::ffff:192.168.1.1" in trusted
    assert "192.169.0.1" not in trusted and "unknown" not in trusted and "" not in trusted
    for bad in ("*", "proxy.example.org", "10.0.0.0/33", ""):
        with pytest.raises(ValueError, match="not an address or network"):
            Settings(trusted_proxies=(bad,))


def test_stud_serve_believes_forwarded_headers_only_from_the_proxies_it_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    from studpoker.cli import main

    served: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.append((app, options)))
    db = str(tmp_path / "room.db")
    assert main(["serve", "--db", db, "--no-default-table"]) == 0
    assert main(["serve", "--db", db, "--no-default-table", "--proxy-headers", "127.0.0.1, 10.0.0.0/8"]) == 0
    (plain, plain_options), (proxied, proxied_options) = served
    assert plain_options["proxy_headers"] is False and proxied_options["proxy_headers"] is False  # never uvicorn's
    assert plain.state.room.settings.trusted_proxies == ()
    assert proxied.state.room.settings.trusted_proxies == ("127.0.0.1", "10.0.0.0/8")
    capsys.readouterr()
    for bad in ("*", "proxy.example.org", "127.0.0.1,"):
        assert main(["serve", "--db", db, "--proxy-headers", bad]) == 2
        err = capsys.readouterr().err
        assert err.startswith("stud serve: error: trusted proxy ") and "not an address or network" in err, err
        assert err.count("\n") == 1
