"""The HUD on the table page in Debian's chromium, on a phone (390x844) and a desktop (1280x800): off until the
player turns it on in the Players tab, then a line of the chosen statistics under each other player's seat (never
his own), read again after each hand; its buttons are 44 px touch targets and the page stays axe-clean.

The room's clock plays every decision (one second, no time bank, nobody sat out), so hands finish without a click."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.server.live import serve

from .axe import assert_accessible
from .conftest import ARTIFACTS, TIMEOUT, wait_until
from .test_client import _settings, call_api, go, open_table, player, sit


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = replace(
        _settings(tmp_path_factory.mktemp("hud") / "room.db"),
        action_seconds=1.0,
        time_bank=0.0,
        timeouts_to_sit_out=1000,
        between_hands=0.2,
    )
    with serve(settings) as url:
        yield url


def close_side_panel(page: Any) -> None:
    """Close the side panel if it is open. On a phone the drawer also closes by itself at the player's turn, maybe
    between the look and the click: a click that finds nothing to click is fine, the panel closed is what counts."""

    def closed() -> bool:
        button = page.locator("#side-close")
        if not button.is_visible():
            return True
        with contextlib.suppress(PlaywrightTimeout):
            button.click(timeout=5_000)
        return not button.is_visible()

    wait_until(closed, "the side panel closed")


def click_in_players_tab(page: Any, selector: str) -> None:
    """Click ``selector`` in the side panel's Players tab, opening the panel first (on a phone it is a drawer, which
    closes by itself when it is the player's turn: tried again then)."""
    for _ in range(20):
        try:
            if (
                page.locator("#side-toggle").get_attribute("aria-expanded") == "false"
                and page.locator("#side-toggle").is_visible()
            ):
                page.locator("#side-toggle").click(timeout=3000)
            page.locator("#tab-players").click(timeout=3000)
            page.locator(selector).click(timeout=3000)
            return
        except PlaywrightTimeout:
            time.sleep(0.2)
    raise AssertionError(f"could not click {selector} in the Players tab")


@pytest.mark.parametrize("viewport", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_the_hud_is_opt_in_and_shows_the_others_statistics(browser: Any, room: str, viewport: tuple[int, int]) -> None:
    ann, bob = player(browser, room, viewport), player(browser, room)
    table_id = open_table(ann, room, "STUD7")
    sit(ann, room, table_id, 1)
    sit(bob, room, table_id, 4)
    go(ann, room, table_id)
    bob_seat = ann.locator('#seats > .seat[data-seat="4"]')
    bob_seat.wait_for(timeout=TIMEOUT)
    assert ann.locator("#seats .hud").count() == 0  # off by default

    toggle = ann.locator("#hud-toggle")
    for _ in range(20):  # on a phone the panel is a drawer, which closes by itself at the player's turn
        click_in_players_tab(ann, "#tab-players")
        boxes = [button.bounding_box() for button in [toggle, *ann.locator(".hud-choice button").all()]]
        if all(box is not None for box in boxes):
            break
    assert toggle.get_attribute("aria-pressed") == "false"
    for box in boxes:
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, box
    click_in_players_tab(ann, "#hud-toggle")
    wait_until(lambda: toggle.get_attribute("aria-pressed") == "true", "the HUD on")
    assert call_api(ann, room, "GET", "/api/me/preferences")["hud"] is True
    # choose VPIP only: the hands count (n) is always shown
    for key in [b.get_attribute("data-stat") for b in ann.locator('.hud-choice button[aria-pressed="true"]').all()]:
        if key != "vpip":
            click_in_players_tab(ann, f'.hud-choice button[data-stat="{key}"]')
    if ann.locator('.hud-choice button[data-stat="vpip"]').get_attribute("aria-pressed") != "true":
        click_in_players_tab(ann, '.hud-choice button[data-stat="vpip"]')
    wait_until(lambda: call_api(ann, room, "GET", "/api/me/preferences")["hud_stats"] == ["vpip"], "the choice saved")
    assert_accessible(ann, f"hud-settings-{viewport[0]}x{viewport[1]}")
    close_side_panel(ann)  # the felt in full again

    # hands finish (the clock plays them); after each the line under bob's seat is read again
    line = bob_seat.locator(".hud")
    wait_until(lambda: line.count() and re.search(r"n=[1-9]", line.inner_text()), "bob's HUD line after a hand")
    text = line.inner_text()
    assert re.fullmatch(r"VPIP (\d+%|-) · n=\d+", text), text
    assert ann.locator('#seats > .seat[data-seat="1"] .hud').count() == 0  # never his own seat
    assert "HUD: VPIP" in str(bob_seat.get_attribute("aria-label"))
    ann.screenshot(path=str(ARTIFACTS / f"hud-{viewport[0]}x{viewport[1]}.png"), timeout=120_000)
    assert_accessible(ann, f"hud-table-{viewport[0]}x{viewport[1]}")
    assert not ann.errors  # type: ignore[attr-defined]

    # off again: the lines go
    click_in_players_tab(ann, "#hud-toggle")
    wait_until(lambda: ann.locator("#seats .hud").count() == 0, "the HUD lines gone")
    for page in (ann, bob):
        page.context.close()
