"""The card room's defences in a real browser (Debian's chromium): the Content-Security-Policy breaks no page,
a page on another origin of the same site (another port of 127.0.0.1, which gets the SameSite=Lax cookie)
cannot change anything for a signed-in player nor frame the room, and the login redirect stays on the site.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from tests.server.live import free_port

from .conftest import TIMEOUT

PASSWORD = "correct horse battery"

#: Records every CSP violation of a page in ``window.__csp`` (installed before any page script runs).
WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) =>
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
"""

#: The attacker's page: every request a page elsewhere can make with the victim's cookies.
ATTACK = """<!doctype html>
<html><head><meta charset="utf-8"><title>free chips</title></head>
<body>
<h1>Free chips!</h1>
<iframe name="sink" id="sink"></iframe>
<iframe id="framed" src="ROOM/lobby" width="600" height="300"></iframe>
<form id="leave" method="POST" action="ROOM/api/tables/TABLE/leave" target="sink"></form>
<form id="topup" method="POST" action="ROOM/api/tables/TABLE/top-up" target="sink" enctype="text/plain">
  <input name='{"amount":3000,"x":"' value='"}'>
</form>
<script>
const room = "ROOM", table = "TABLE";
const results = {};
async function attempt(name, run) {
  try { const r = await run(); results[name] = r && r.type ? `${r.type} ${r.status}` : String(r); }
  catch (e) { results[name] = `refused: ${e}`; }
}
(async () => {
  const plain = { "Content-Type": "text/plain" };
  await attempt("no-cors top-up", () => fetch(`${room}/api/tables/${table}/top-up`,
    { method: "POST", mode: "no-cors", credentials: "include", headers: plain, body: '{"amount":3000}' }));
  await attempt("no-cors sit-out", () => fetch(`${room}/api/tables/${table}/sit-out`,
    { method: "POST", mode: "no-cors", credentials: "include" }));
  await attempt("cors json top-up", () => fetch(`${room}/api/tables/${table}/top-up`,
    { method: "POST", credentials: "include", headers: { "Content-Type": "application/json" },
      body: '{"amount":3000}' }));
  await attempt("no-cors delete bots", () => fetch(`${room}/api/tables/${table}/bots`,
    { method: "DELETE", mode: "no-cors", credentials: "include" }));
  await attempt("login as mallory", () => fetch(`${room}/api/login`,
    { method: "POST", mode: "no-cors", credentials: "include", headers: plain,
      body: JSON.stringify({ username: "mallory", password: "correct horse battery" }) }));
  await attempt("beacon sit-out", () => navigator.sendBeacon(`${room}/api/tables/${table}/sit-out`, "{}"));
  await attempt("socket", () => new Promise((resolve) => {
    const ws = new WebSocket(room.replace("http", "ws") + `/ws/table/${table}`);
    ws.onmessage = (m) => { resolve(`message ${m.data.slice(0, 40)}`); ws.close(); };
    ws.onerror = () => resolve("error");
    ws.onclose = (e) => resolve(`closed ${e.code}`);
  }));
  document.getElementById("topup").submit();
  await new Promise((r) => setTimeout(r, 300));
  document.getElementById("leave").submit();
  await new Promise((r) => setTimeout(r, 500));
  await attempt("no-cors logout", () => fetch(`${room}/api/logout`,
    { method: "POST", mode: "no-cors", credentials: "include" }));
  window.results = results;
  window.done = true;
})();
</script>
</body></html>
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def attacker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """Another origin of the same site: a plain file server on another port of 127.0.0.1 (base URL, folder)."""
    folder = tmp_path_factory.mktemp("attacker")
    port = free_port()

    def handler(*args: Any, **kwargs: Any) -> _Quiet:
        return _Quiet(*args, directory=str(folder), **kwargs)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}", folder
    server.shutdown()


def account(room_url: str, name: str) -> httpx.Client:
    """A signed-up account as an HTTP client of the room's own origin (its cookie in the client's jar)."""
    client = httpx.Client(base_url=room_url, headers={"origin": room_url}, timeout=10)
    answer = client.post("/api/signup", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return client


def signed_in_context(browser: Any, room_url: str, client: httpx.Client) -> Any:
    """A browser context holding the account's session cookie for the room (as after signing in there)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    token = client.cookies["studpoker_session"]
    context.add_cookies(
        [{"name": "studpoker_session", "value": token, "url": room_url, "httpOnly": True, "sameSite": "Lax"}]
    )
    context.add_init_script(WATCH_CSP)
    return context


def test_finding_06_every_page_works_under_the_csp(browser: Any, room_url: str) -> None:
    ann = account(room_url, "cspann")
    table = ann.post("/api/tables", json={"variant": "STUD7", "small_bet": 10, "name": "CSP", "bots": 2}).json()["id"]
    context = signed_in_context(browser, room_url, ann)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        for path in ("/", "/login", "/signup", "/lobby", "/cashier", f"/table/{table}", f"/history/{table}"):
            page.goto(room_url + path)
            page.wait_for_load_state("networkidle")
            assert page.evaluate("window.__csp") == [], (path, page.evaluate("window.__csp"))
        page.goto(f"{room_url}/table/{table}")
        page.locator("#conn", has_text="Connected").wait_for(timeout=TIMEOUT)  # the WebSocket under connect-src
        # ann opened it; a summary starts no navigation, so none is waited for (Playwright waited for one that never
        # finished once, on a loaded machine); a click that landed elsewhere shows no "Close table" and fails below
        page.locator("#seat-controls summary", has_text="Manage table").click(timeout=TIMEOUT, no_wait_after=True)
        page.get_by_role("button", name="Close table").wait_for(timeout=TIMEOUT)
        page.goto(f"{room_url}/api/docs")
        page.locator(".swagger-ui .title", has_text="studpoker card room").wait_for(timeout=TIMEOUT)
        page.locator(".opblock-summary-path", has_text="/api/tables/{table_id}/sit").first.wait_for()
        assert page.evaluate("window.__csp") == []
        assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e], errors
    finally:
        context.close()
        ann.close()


def test_finding_05_a_watcher_sees_no_table_management(browser: Any, room_url: str) -> None:
    owner, watcher = account(room_url, "owner5"), account(room_url, "watch5")
    table = owner.post("/api/tables", json={"variant": "RAZZ", "small_bet": 10, "name": "Mine"}).json()["id"]
    context = signed_in_context(browser, room_url, watcher)
    try:
        page = context.new_page()
        page.goto(f"{room_url}/table/{table}")
        page.locator("#sit-button").wait_for(timeout=TIMEOUT)
        assert page.locator("#seat-controls summary", has_text="Manage table").count() == 0
        assert page.locator("#add-bot, #close-table").count() == 0  # not even hidden in the disclosure
    finally:
        context.close()
        owner.close()
        watcher.close()


def test_finding_01_a_page_on_another_port_cannot_act_for_a_signed_in_player(
    browser: Any, room_url: str, attacker: tuple[str, Path]
) -> None:
    base, folder = attacker
    victim = account(room_url, "victim1")
    account(room_url, "mallory").close()
    table = victim.post("/api/tables", json={"variant": "STUD7", "small_bet": 10, "name": "Target", "bots": 1})
    table_id = table.json()["id"]
    assert victim.post(f"/api/tables/{table_id}/sit", json={"buy_in": 400}).status_code == 200
    before = victim.get("/api/me").json()
    (folder / "attack.html").write_text(ATTACK.replace("ROOM", room_url).replace("TABLE", str(table_id)))
    context = signed_in_context(browser, room_url, victim)
    try:
        page = context.new_page()
        page.goto(f"{base}/attack.html")
        page.wait_for_function("window.done === true", timeout=TIMEOUT)
        results = page.evaluate("window.results")
        # the framed lobby was refused (frame-ancestors 'none'): no frame shows the room
        for frame in page.frames[1:]:
            if frame.url.startswith(room_url):
                text = frame.evaluate("document.body ? document.body.innerText : ''")
                assert "studpoker card room" not in text and "Lobby" not in text, frame.url
        assert results["cors json top-up"].startswith("refused"), results
        assert not results["socket"].startswith("message"), results  # the handshake was refused
        # nothing changed for the victim: same seat, stack, balance, not sitting out, still signed in as himself
        after = victim.get("/api/me").json()
        assert after == before, (before, after, results)
        seats = {s["seat"]: s for s in victim.get(f"/api/tables/{table_id}").json()["seats"]}
        assert {s["name"] for s in seats.values()} == {"victim1", "Bot 1"}
        me = context.request.get(f"{room_url}/api/me")
        assert me.status == 200 and me.json()["username"] == "victim1"  # neither logged out nor logged in as mallory
    finally:
        context.close()
        victim.close()


def test_finding_04_the_login_redirect_stays_on_the_site(browser: Any, room_url: str) -> None:
    account(room_url, "redirect4").close()
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{room_url}/login")
        hostile = [
            "//127.0.0.1:9",
            "/\\127.0.0.1:9/x",
            "/\t/127.0.0.1:9/",
            "https://127.0.0.1:9/",
            "javascript:alert(1)",
            # paths the URL parser tidies into "//host" after the origin check (found by the hostile review)
            "/.//127.0.0.1:9",
            "/..//127.0.0.1:9",
            "/%2e//127.0.0.1:9",
            "/./\\127.0.0.1:9",
            "/a/..//127.0.0.1:9/x",
        ]
        resolved = page.evaluate(
            "async (list) => { const { safeNext } = await import('/static/common.js');"
            " return list.map((n) => safeNext(n)); }",
            [*hostile, "/history/1?hand=3#top", None],
        )
        assert resolved == ["/lobby"] * len(hostile) + ["/history/1?hand=3#top", "/lobby"]
        for raw in ("/\\127.0.0.1:9/steal", "/%09/127.0.0.1:9/steal", "//127.0.0.1:9/steal", "/.//127.0.0.1:9/steal"):
            page.goto(f"{room_url}/login?next={quote(raw, safe='%')}")
            page.get_by_label("Username").fill("redirect4")
            page.get_by_label("Password").fill(PASSWORD)
            page.get_by_role("button", name="Sign in").click()
            page.wait_for_url(f"{room_url}/lobby", timeout=TIMEOUT)
        page.goto(f"{room_url}/login?next={quote('/cashier')}")
        page.get_by_label("Username").fill("redirect4")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"{room_url}/cashier", timeout=TIMEOUT)
    finally:
        context.close()
