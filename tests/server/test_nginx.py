"""The room behind Debian's nginx (issue 26, item 10): the recommended configuration,
``examples/nginx/studpoker.conf``, run as it ships (only its ports and paths replaced, so the docs cannot drift),
in front of the room as ``stud serve --proxy-headers 127.0.0.1 --secure-cookies`` serves it.

nginx runs as a private process (``-p`` a prefix in ``tmp_path``, its own main configuration, pid file, logs and
temporary folders, ``daemon off``, free loopback ports) with a self-signed certificate made by the ``openssl``
command. The client connects from 127.0.0.2 (or 127.0.0.3), nginx reaches the room from 127.0.0.1: so the room
seeing 127.0.0.2 shows the forwarded address is used, and only nginx's.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from studpoker.server.app import create_app

from .conftest import PASSWORD, make_settings
from .live import free_port, serve

websockets_sync = pytest.importorskip("websockets.sync.client")

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else "")
OPENSSL = shutil.which("openssl") or ""
CONFIG = Path(__file__).resolve().parents[2] / "examples" / "nginx" / "studpoker.conf"
PATIENCE = 30.0

pytestmark = pytest.mark.skipif(
    not NGINX or not OPENSSL,
    reason="the nginx test needs Debian's nginx and openssl (apt install nginx-light openssl; .ci/run does)",
)


@dataclass
class Front:
    """nginx in front of a room: its https and http ports, the certificate to trust, the room's app."""

    https_port: int
    http_port: int
    certificate: Path
    app: Any

    @property
    def origin(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"

    def client(self, source: str) -> httpx.Client:
        """An HTTPS client from ``source`` that trusts the test's certificate and sends the room's origin."""
        context = ssl.create_default_context(cafile=str(self.certificate))
        transport = httpx.HTTPTransport(local_address=source, verify=context)
        return httpx.Client(
            transport=transport, base_url=self.origin, headers={"origin": self.origin}, timeout=PATIENCE
        )

    def table_socket(self, table_id: int, source: str, **options: Any) -> Any:
        """A table WebSocket through nginx (wss) from ``source``."""
        sock = socket.create_connection(("127.0.0.1", self.https_port), timeout=PATIENCE, source_address=(source, 0))
        context = ssl.create_default_context(cafile=str(self.certificate))
        url = f"wss://127.0.0.1:{self.https_port}/ws/table/{table_id}"
        return websockets_sync.connect(
            url, sock=sock, ssl=context, server_hostname="127.0.0.1", open_timeout=PATIENCE, proxy=None, **options
        )


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1, and its key."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    command = [OPENSSL, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    command += ["-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=127.0.0.1"]
    command += ["-addext", "subjectAltName=IP:127.0.0.1"]
    subprocess.run(command, check=True, capture_output=True, timeout=60)
    return cert, key


def templated(https_port: int, http_port: int, room_port: int, cert: Path, key: Path) -> str:
    """The shipped configuration with this test's ports and paths (each replaced text must be there)."""
    text = CONFIG.read_text()
    replacements = [
        ("listen [::]:443 ssl;", ""),  # the test listens on the IPv4 loopback only
        ("listen [::]:80;", ""),
        ("listen 443 ssl;", f"listen 127.0.0.1:{https_port} ssl;"),
        ("listen 80;", f"listen 127.0.0.1:{http_port};"),
        ("/etc/letsencrypt/live/cards.example.org/fullchain.pem", str(cert)),
        ("/etc/letsencrypt/live/cards.example.org/privkey.pem", str(key)),
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{room_port};"),
        ("server_name cards.example.org;", "server_name 127.0.0.1;"),
    ]
    for old, new in replacements:
        assert old in text, f"{CONFIG} no longer has {old!r}: update the test's template"
        text = text.replace(old, new)
    return text


def main_configuration(folder: Path, site: Path) -> str:
    """nginx's own configuration around the site: everything it writes stays in ``folder``."""
    user = "user root root;" if os.geteuid() == 0 else ""  # workers that can read and write the test's folder
    temp = "\n".join(
        f"    {name}_temp_path {folder / name};" for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""{user}
worker_processes 1;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} info;
events {{ worker_connections 512; }}
http {{
    access_log {folder / "access.log"};
{temp}
    include {site};
}}
"""


def answers(port: int, certificate: Path) -> bool:
    context = ssl.create_default_context(cafile=str(certificate))
    try:
        with (
            socket.create_connection(("127.0.0.1", port), timeout=2) as sock,
            context.wrap_socket(sock, server_hostname="127.0.0.1"),
        ):
            return True
    except OSError:
        return False


@pytest.fixture
def front(tmp_path: Path) -> Iterator[Front]:
    """The room (``--proxy-headers 127.0.0.1 --secure-cookies``, two sign-ups an address) behind nginx."""
    settings = make_settings(
        tmp_path, trusted_proxies=("127.0.0.1",), secure_cookies=True, signups_per_address=2, max_sockets_per_address=3
    )
    app = create_app(settings)
    folder = tmp_path / "nginx"
    folder.mkdir()
    cert, key = certificate(folder)
    https_port, http_port = free_port(), free_port()
    with serve(settings, app=app) as url:
        site = folder / "studpoker.conf"
        site.write_text(templated(https_port, http_port, int(url.rsplit(":", 1)[1]), cert, key))
        main = folder / "nginx.conf"
        main.write_text(main_configuration(folder, site))
        command = [NGINX, "-p", str(folder), "-c", str(main), "-e", str(folder / "error.log"), "-g", "daemon off;"]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + PATIENCE
            while not answers(https_port, cert):
                log = (folder / "error.log").read_text() if (folder / "error.log").exists() else ""
                assert process.poll() is None, f"nginx ended ({process.returncode}): {log[-2000:]}"
                assert time.monotonic() < deadline, f"nginx did not answer within {PATIENCE:g} s: {log[-2000:]}"
                time.sleep(0.1)
            yield Front(https_port, http_port, cert, app)
        finally:
            process.terminate()
            try:
                process.wait(timeout=PATIENCE)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_for(condition: Any, what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, f"not within {PATIENCE:g} s: {what}"
        time.sleep(0.05)


def test_issue26_10_the_room_behind_nginx(front: Front) -> None:
    room = front.app.state.room
    with httpx.Client(timeout=PATIENCE) as plain:  # plain http is sent to https
        moved = plain.get(f"http://127.0.0.1:{front.http_port}/lobby")
        assert moved.status_code == 301 and moved.headers["location"] == "https://127.0.0.1/lobby"
    with front.client("127.0.0.2") as ann:
        # a sign-up over https: the cookie is Secure; a forged X-Forwarded-For is overwritten by nginx
        answer = ann.post(
            "/api/signup", json={"username": "ann", "password": PASSWORD}, headers={"x-forwarded-for": "203.0.113.9"}
        )
        assert answer.status_code == 201, answer.text
        assert "secure" in answer.headers["set-cookie"].lower()
        assert answer.headers["strict-transport-security"].startswith("max-age=")
        token = answer.cookies["studpoker_session"]
        table = {"variant": "STUD7", "small_bet": 10, "big_bet": 20, "ante": 1, "bring_in": 3}
        answer = ann.post("/api/tables", json=table)
        assert answer.status_code == 201, answer.text
        table_id = int(answer.json()["id"])
        # the room sees https: the page of http://127.0.0.1:PORT is not its origin
        answer = ann.post(
            "/api/me/preferences", json={"four_color": True}, headers={"origin": front.origin.replace("https", "http")}
        )
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "csrf"
        assert ann.post("/api/me/preferences", json={"four_color": True}).status_code == 200
    with front.client("127.0.0.2") as forger:
        # 127.0.0.2's second and last sign-up; no forged address buys a third
        for n, forged in enumerate(("203.0.113.10", "203.0.113.11, 198.51.100.1", "127.0.0.3")):
            answer = forger.post(
                "/api/signup",
                json={"username": f"forger{n}", "password": PASSWORD},
                headers={"x-forwarded-for": forged},
            )
            forger.cookies.clear()
            assert answer.status_code == (201 if n == 0 else 429), (forged, answer.text)
    with front.client("127.0.0.3") as bob:  # another client behind the same nginx has its own allowance
        assert bob.post("/api/signup", json={"username": "bob", "password": PASSWORD}).status_code == 201
    # the table socket: upgraded through nginx, with the https origin; the room counts it under 127.0.0.2
    cookie = {"Cookie": f"studpoker_session={token}", "X-Forwarded-For": "203.0.113.9"}
    with front.table_socket(table_id, "127.0.0.2", origin=front.origin, additional_headers=cookie) as ws:
        snapshot = json.loads(ws.recv(timeout=PATIENCE))
        assert snapshot["type"] == "snapshot" and snapshot["you"]["username"] == "ann"
        wait_for(
            lambda: room.sockets.by_address == {"127.0.0.2": 1}, f"one socket of 127.0.0.2: {room.sockets.by_address}"
        )
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=PATIENCE))["type"] == "pong"
    # from a page of the http origin, the socket is refused before the upgrade
    from websockets.exceptions import InvalidStatus

    with (
        pytest.raises(InvalidStatus) as refused,
        front.table_socket(
            table_id, "127.0.0.2", origin=front.origin.replace("https", "http"), additional_headers=cookie
        ),
    ):
        pass
    assert refused.value.response.status_code == 403
    wait_for(lambda: room.sockets.by_address == {}, "the sockets closed")
