"""The account page (``/account``) on a phone and a desktop: change the password, sign out everywhere.

For each size a player signs up, signs in a second time elsewhere (another session, with a table socket open), and
opens the page from the header (the signed-in name is its link). A wrong current password and two new passwords
that differ are each told in the form's alert line, and change nothing; the right change says how many other
sessions were signed out, keeps this one, and closes the other session's socket with the logged-out code. Then
"Sign out everywhere" takes the browser to the sign-in page with its session ended. axe-core checks the page with
its messages shown, and nothing on it scrolls sideways. Screenshots: ``test-artifacts/account-WxH-STEP.png``.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from .axe import assert_accessible
from .conftest import ARTIFACTS, TIMEOUT

PASSWORD = "correct horse battery"
NEW = "purple monkey dishwasher"
SIZES = [(390, 844), (1280, 800)]  # a phone, a desktop


def _signed_in(room_url: str, name: str) -> tuple[str, str]:
    """Sign ``name`` up and in a second time: the two sessions' tokens."""
    with httpx.Client(base_url=room_url, headers={"origin": room_url}, timeout=10) as client:
        answer = client.post("/api/signup", json={"username": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        first = answer.cookies["studpoker_session"]
        client.cookies.clear()
        answer = client.post("/api/login", json={"username": name, "password": PASSWORD})
        assert answer.status_code == 200, answer.text
        return first, answer.cookies["studpoker_session"]


def _table(room_url: str, token: str, name: str) -> int:
    headers = {"origin": room_url, "cookie": f"studpoker_session={token}"}
    with httpx.Client(base_url=room_url, headers=headers, timeout=10) as client:
        answer = client.post("/api/tables", json={"variant": "STUD7", "small_bet": 10, "name": name})
        assert answer.status_code == 201, answer.text
        return int(answer.json()["id"])


def _me(room_url: str, token: str) -> int:
    with httpx.Client(base_url=room_url, cookies={"studpoker_session": token}, timeout=10) as client:
        return client.get("/api/me").status_code


def _fits(page: Any) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the account page scrolls sideways: {width}"


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_account_page_changes_the_password_and_signs_out_everywhere(
    room_url: str, browser: Any, size: tuple[int, int]
) -> None:
    from websockets.sync.client import connect

    width, height = size
    name = f"Acct{width}"
    here, elsewhere = _signed_in(room_url, name)
    table_id = _table(room_url, here, f"Elsewhere {width}")
    shot = f"account-{width}x{height}"
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_cookies([{"name": "studpoker_session", "value": here, "url": room_url}])
    page = context.new_page()
    url = room_url.replace("http://", "ws://") + f"/ws/table/{table_id}"
    headers = {"Origin": room_url, "Cookie": f"studpoker_session={elsewhere}"}
    try:
        with connect(url, additional_headers=headers, open_timeout=10) as other:
            assert json.loads(other.recv(timeout=10))["type"] == "snapshot"
            page.goto(f"{room_url}/lobby")
            page.locator("#top").get_by_role("link", name=f"{name}: your account").click()
            page.wait_for_url(f"{room_url}/account", timeout=TIMEOUT)
            page.wait_for_function(
                "name => document.getElementById('account-name').textContent === name", arg=name, timeout=TIMEOUT
            )
            _fits(page)
            assert_accessible(page, f"{shot}-open")

            status = page.locator("#password-status")
            page.get_by_label("Current password", exact=True).fill("not my password")
            page.get_by_label("New password", exact=True).fill(NEW)
            page.get_by_label("Repeat the new password").fill(NEW)
            page.get_by_role("button", name="Change password").click()
            page.wait_for_function(
                "() => document.getElementById('password-status').textContent.includes('not right')", timeout=TIMEOUT
            )
            assert status.text_content() == "The current password is not right."
            assert "error" in (status.get_attribute("class") or "")
            page.screenshot(path=str(ARTIFACTS / f"{shot}-wrong.png"), full_page=True)
            assert_accessible(page, f"{shot}-wrong")

            page.get_by_label("Current password", exact=True).fill(PASSWORD)
            page.get_by_label("Repeat the new password").fill(NEW + "!")
            page.get_by_role("button", name="Change password").click()
            assert status.text_content() == "The two new passwords are not the same: type it again."
            assert page.evaluate("() => document.activeElement.id") == "repeat"
            assert _me(room_url, elsewhere) == 200, "a refused change ended nothing"

            page.get_by_label("Repeat the new password").fill(NEW)
            page.get_by_role("button", name="Change password").click()
            page.wait_for_function(
                "() => document.getElementById('password-status').textContent.startsWith('Your password is changed')",
                timeout=TIMEOUT,
            )
            assert status.text_content() == "Your password is changed. 1 other session was signed out."
            assert page.get_by_label("Current password", exact=True).input_value() == ""  # the form is emptied
            _fits(page)
            page.screenshot(path=str(ARTIFACTS / f"{shot}-changed.png"), full_page=True)
            assert_accessible(page, f"{shot}-changed")
            # the other session's socket was told, then closed with the logged-out code
            error = json.loads(other.recv(timeout=10))
            while error["type"] != "error":
                error = json.loads(other.recv(timeout=10))
            assert error["code"] == "logged_out"
            from websockets.exceptions import ConnectionClosed

            with pytest.raises(ConnectionClosed):
                while True:
                    other.recv(timeout=10)
            assert other.close_code == 4401
        assert _me(room_url, elsewhere) == 401 and _me(room_url, here) == 200

        page.get_by_role("button", name="Sign out everywhere").click()
        page.wait_for_url(f"{room_url}/login", timeout=TIMEOUT)
        assert _me(room_url, here) == 401
        with httpx.Client(base_url=room_url, headers={"origin": room_url}, timeout=10) as client:
            assert client.post("/api/login", json={"username": name, "password": PASSWORD}).status_code == 401
            assert client.post("/api/login", json={"username": name, "password": NEW}).status_code == 200
    finally:
        context.close()
