"""A training table in the browser: opened from the lobby's form, tagged in the lobby, and its hands replayed with
every card and each player's equity street by street (the numbers the API gives), on a phone-sized screen that does
not scroll sideways and passes axe-core's checks."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from .axe import assert_accessible
from .conftest import ARTIFACTS, TIMEOUT

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def trainee(room_url: str) -> tuple[str, int]:
    """Tess: signed up, a razz training table of three bots opened, two hands played by them, the bots gone."""
    with httpx.Client(base_url=room_url, headers={"origin": room_url}, timeout=10) as client:
        answer = client.post("/api/signup", json={"username": "tess", "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        token = client.cookies["studpoker_session"]
        stakes = {"small_bet": 10, "big_bet": 20, "ante": 1, "bring_in": 3}
        opened = client.post("/api/tables", json={"variant": "RAZZ", **stakes, "bots": 3, "training": True})
        assert opened.status_code == 201 and opened.json()["training"] is True, opened.text
        table_id = opened.json()["id"]
        deadline = time.monotonic() + 120
        while not [h for h in client.get(f"/api/tables/{table_id}/hands").json()["hands"] if h["status"] == "finished"]:
            assert time.monotonic() < deadline, "no training hand finished in 30 s"
            time.sleep(0.1)
        assert client.request("DELETE", f"/api/tables/{table_id}/bots", json={}).status_code == 200
    return token, table_id


def _page(browser: Any, room_url: str, token: str, viewport: tuple[int, int]) -> Any:
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    cookie = {"name": "studpoker_session", "value": token, "url": room_url, "httpOnly": True, "sameSite": "Lax"}
    context.add_cookies([cookie])
    return context.new_page()


def test_the_replayer_shows_each_players_equity_street_by_street(
    browser: Any, room_url: str, trainee: tuple[str, int]
) -> None:
    token, table_id = trainee
    expected = httpx.get(f"{room_url}/api/tables/{table_id}/hands/1/equity", timeout=30).json()
    page = _page(browser, room_url, token, (390, 844))
    try:
        page.goto(f"{room_url}/history/{table_id}")
        page.locator("#sign").filter(has_text="A training table").wait_for(timeout=TIMEOUT)
        page.get_by_role("button", name="Replay hand 1", exact=True).click()
        table = page.locator(".replay-equity table")
        table.wait_for(timeout=TIMEOUT)
        headers = table.locator("thead th").all_inner_texts()
        assert headers == ["Player", *(s["name"] for s in expected["streets"])]
        first = expected["streets"][0]
        for p in first["players"]:
            row = table.locator("tbody tr", has=page.get_by_role("rowheader", name=p["name"], exact=True))
            cell = row.locator("td").first.inner_text()
            assert cell == f"{100 * p['actual']:.1f}% / {100 * p['ranged']:.1f}%", (p, cell)
        # stepping to the first street shows each live player's equity beside his cards
        page.get_by_role("button", name="Street ▶▶").click()
        page.locator(".replayer h3").filter(has_text="3rd street").wait_for(timeout=TIMEOUT)
        text = page.locator(".replay-players").inner_text()
        for p in first["players"]:
            assert f"equity {100 * p['actual']:.1f}% ({100 * p['ranged']:.1f}% against the up cards)" in text
        # every card of the hand is shown: no card face hides a ?? at a training table
        assert "??" not in page.locator(".replay-players").inner_html()
        page.screenshot(path=str(ARTIFACTS / "training-replayer-390x844.png"), full_page=True)
        sizes = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert sizes[0] <= sizes[1], f"the replayer with its equities scrolls sideways: {sizes}"
        assert_accessible(page, "training-replayer")
    finally:
        page.context.close()


def test_a_training_table_opens_from_the_lobby_and_is_tagged(
    browser: Any, room_url: str, trainee: tuple[str, int]
) -> None:
    token, table_id = trainee
    page = _page(browser, room_url, token, (1280, 800))
    try:
        page.goto(f"{room_url}/lobby")
        row = page.locator(f"#table-rows tr[data-table='{table_id}']")
        row.wait_for(timeout=TIMEOUT)
        assert "training" in row.locator("th").inner_text()
        page.get_by_text("Signed in as tess").wait_for(timeout=TIMEOUT)
        page.locator("#create-variant option").first.wait_for(state="attached", timeout=TIMEOUT)
        page.fill("#create-name", "Practice razz")
        page.get_by_label("Training table").check()
        with page.expect_navigation(timeout=TIMEOUT):
            page.get_by_role("button", name="Open table").click()
        opened = int(page.url.rstrip("/").split("/")[-1].split("?")[0])
        info = httpx.get(f"{room_url}/api/tables/{opened}", timeout=10).json()
        assert info["training"] is True and info["name"] == "Practice razz"
        page.goto(f"{room_url}/lobby")
        page.locator(f"#table-rows tr[data-table='{opened}']").wait_for(timeout=TIMEOUT)
        assert_accessible(page, "training-lobby")
    finally:
        page.context.close()
