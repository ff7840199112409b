"""The tournament screens in Debian's chromium, on a phone (390x844) and a desktop (1280x800): the tournament lobby
(a sit-and-go listed, registering and unregistering from it, opening one with bots from its form), a tournament's
page (the structure, the clock and the payouts while it runs, the places and prizes once it is over) and a
tournament's table (the level, the countdown, the player's place and the link back to the tournament).

The room runs the tournaments' clock 300 times as fast as in play (a 10-minute level lasts 2 seconds), so that a
sit-and-go of two bots and a player runs in a minute or so: the player, his table page closed, is away and folded at
once at his turns. Every page must pass axe-core's checks, raise no error and not scroll sideways on the phone."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from tests.server.live import serve

from .axe import assert_accessible
from .conftest import ARTIFACTS, TIMEOUT
from .test_client import _settings, call_api, player
from .test_table_features import wait_until

VIEWPORTS = [(390, 844), (1280, 800)]
PHONE = (390, 844)
_numbers = itertools.count(1)


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = replace(
        _settings(tmp_path_factory.mktemp("tournaments") / "room.db"),
        tournament_time_scale=300.0,  # a turbo level (10 minutes) in 2 seconds
        action_seconds=6.0,  # the player whose table page is open acts by the clock when the test does not
        time_bank=1.0,
    )
    with serve(settings) as url:
        yield url


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"tournaments-{name}.png"), full_page=True, timeout=120_000)


def check_page(page: Any, name: str, viewport: tuple[int, int]) -> None:
    """No page error so far, no sideways scrolling on a phone, axe-core clean; a screenshot for the record."""
    shot(page, f"{name}-{viewport[0]}x{viewport[1]}")
    assert not page.errors, f"{name}: page errors {page.errors}"
    if viewport[0] < 600:
        sizes = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert sizes[0] <= sizes[1], f"{name} scrolls sideways at {viewport}: {sizes}"
    assert_accessible(page, f"tournaments-{name}-{viewport[0]}x{viewport[1]}")


def open_sit_and_go(page: Any, room: str, seats: int, bots: int, **extra: Any) -> dict[str, Any]:
    """A turbo sit-and-go opened through the API by the page's account."""
    body = {"name": f"Sng {next(_numbers)}", "seats": seats, "bots": bots, "buy_in": 50, **extra}
    return call_api(page, room, "POST", "/api/tournaments", body)


def detail(page: Any, room: str, tournament_id: int) -> dict[str, Any]:
    return call_api(page, room, "GET", f"/api/tournaments/{tournament_id}")


def vp_id(viewport: tuple[int, int]) -> str:
    return f"{viewport[0]}x{viewport[1]}"


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=vp_id)
def test_register_and_unregister_from_the_lobby(browser: Any, room: str, viewport: tuple[int, int]) -> None:
    host = player(browser, room)
    page = player(browser, room, viewport)
    try:
        t = open_sit_and_go(host, room, seats=6, bots=2)
        page.goto(f"{room}/tournaments")
        row = page.locator(f"#registering-rows tr[data-tournament='{t['id']}']")
        row.wait_for(timeout=TIMEOUT)
        page.get_by_text(f"Signed in as {page.name}").wait_for(timeout=TIMEOUT)
        assert t["name"] in row.locator("th").inner_text()
        assert row.locator("a").get_attribute("href") == f"/tournament/{t['id']}"
        assert "2/6" in row.inner_text() and "100" in row.inner_text()  # entries, prize pool
        check_page(page, "lobby", viewport)

        row.get_by_role("button", name=f"Register for {t['name']}", exact=False).click()
        page.locator("#status").filter(has_text=f"You are registered for {t['name']}").wait_for(timeout=TIMEOUT)
        unregister = row.get_by_role("button", name=f"Unregister from {t['name']}")
        unregister.wait_for(timeout=TIMEOUT)
        assert "3/6" in row.inner_text() and "entered" in row.inner_text()
        assert page.name in [p["name"] for p in detail(page, room, t["id"])["players"]]
        check_page(page, "lobby-registered", viewport)

        unregister.click()
        page.locator("#status").filter(has_text="50 refunded").wait_for(timeout=TIMEOUT)
        row.get_by_role("button", name=f"Register for {t['name']}", exact=False).wait_for(timeout=TIMEOUT)
        assert "2/6" in row.inner_text()
        assert page.name not in [p["name"] for p in detail(page, room, t["id"])["players"]]
        assert not page.errors, page.errors
    finally:
        page.context.close()
        host.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=vp_id)
def test_open_a_sit_and_go_with_bots_from_the_form(browser: Any, room: str, viewport: tuple[int, int]) -> None:
    page = player(browser, room, viewport)
    try:
        page.goto(f"{room}/tournaments")
        page.get_by_text(f"Signed in as {page.name}").wait_for(timeout=TIMEOUT)
        page.locator("#create-variant option").first.wait_for(state="attached", timeout=TIMEOUT)
        name = f"Razz night {next(_numbers)}"
        form = page.locator("#create-form")
        form.get_by_label("Name").fill(name)
        form.get_by_label("Game").select_option("RAZZ")
        form.get_by_label("Buy-in").fill("40")
        form.get_by_label("Seats").fill("5")
        form.get_by_label("Structure").select_option("turbo")
        form.get_by_label("Bots").fill("3")
        with page.expect_navigation(timeout=TIMEOUT):
            page.get_by_role("button", name="Open sit-and-go").click()
        tournament_id = int(re.fullmatch(r".*/tournament/(\d+)", page.url).group(1))  # type: ignore[union-attr]
        t = detail(page, room, tournament_id)
        assert (t["name"], t["variant"], t["buy_in"], t["seats"], t["entries"]) == (name, "RAZZ", 40, 5, 3)

        page.locator("#name").filter(has_text=name).wait_for(timeout=TIMEOUT)
        facts = page.locator("#facts")
        facts.filter(has_text="Registering").wait_for(timeout=TIMEOUT)
        assert "3/5" in facts.inner_text() and "Razz" in facts.inner_text()
        assert page.locator("#level-rows tr").count() == len(t["levels"]) == 15
        assert page.locator("#payout-rows tr").first.inner_text().split() == ["1st", "120"]
        assert page.locator("#player-rows tr").count() == 3
        page.get_by_role("button", name="Register (40)").wait_for(timeout=TIMEOUT)
        check_page(page, "page-registering", viewport)

        # registering on the tournament's page
        page.get_by_role("button", name="Register (40)").click()
        page.locator("#status").filter(has_text="You are registered").wait_for(timeout=TIMEOUT)
        page.get_by_role("button", name="Unregister").wait_for(timeout=TIMEOUT)
        assert page.name in page.locator("#player-rows").inner_text()
    finally:
        page.context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=vp_id)
def test_a_sit_and_go_runs_at_its_table_and_ends_with_places_and_prizes(
    browser: Any, room: str, viewport: tuple[int, int]
) -> None:
    page = player(browser, room, viewport)
    try:
        t = open_sit_and_go(page, room, seats=3, bots=2)
        call_api(page, room, "POST", f"/api/tournaments/{t['id']}/register")  # the last seat: it starts
        page.goto(f"{room}/tournaments")
        row = page.locator(f"#running-rows tr[data-tournament='{t['id']}']")
        row.wait_for(timeout=TIMEOUT)
        assert "Running" in row.inner_text()
        check_page(page, "lobby-running", viewport)
        with page.expect_navigation(timeout=TIMEOUT):
            row.get_by_role("link", name=t["name"]).click()

        # while it runs: the level, the countdown, the structure with the level marked, the payouts, the table
        page.locator("#level-now").filter(has_text=re.compile(r"^Level \d+: ")).wait_for(timeout=TIMEOUT)
        page.locator("#countdown").filter(has_text=re.compile(r"^\d+:\d\d to level \d+$")).wait_for(timeout=TIMEOUT)
        current = page.locator("#level-rows tr[aria-current='step']")
        current.wait_for(timeout=TIMEOUT)
        level = page.locator("#level-now").inner_text()
        assert current.count() == 1
        assert page.locator("#payout-rows tr").first.inner_text().split() == ["1st", "150"]
        assert "Players left" in page.locator("#facts").inner_text()
        assert "Average stack" in page.locator("#facts").inner_text()
        table_link = page.locator("#tables a")
        table_link.wait_for(timeout=TIMEOUT)
        table_id = int(table_link.get_attribute("href").rsplit("/", 1)[1])
        # the countdown ticks between reads of the API
        before = page.locator("#countdown").inner_text()
        wait_until(lambda: page.locator("#countdown").inner_text() != before, "the countdown to move")
        check_page(page, "page-running", viewport)
        assert re.match(r"^Level \d+", level)

        # the tournament's table: the level, the countdown, the player's place and the way back
        with page.expect_navigation(timeout=TIMEOUT):
            table_link.click()
        line = page.locator("#tourney-line")
        line.filter(has_text=re.compile(r"Level \d+ · \d+:\d\d to level \d+")).wait_for(timeout=TIMEOUT)
        line.filter(has_text=re.compile(r"you are \d(st|nd|rd) of [23]")).wait_for(timeout=TIMEOUT)
        back = line.get_by_role("link", name=t["name"])
        assert back.get_attribute("href") == f"/tournament/{t['id']}"
        assert "min buy-in" not in page.locator("#sign-short").inner_text()
        assert "Min buy-in" not in page.locator("#sign-list").inner_text()
        for refused in ("#sit-button", "#top-up-button", "#join-waiting", "#add-bot"):
            assert page.locator(refused).count() == 0, f"{refused} shown at a tournament's table"
        assert page.locator("#seat-controls").get_by_role("button", name="Leave table").count() == 0
        assert page.locator("#seat-controls").get_by_role("button", name=re.compile("Sit out")).count() == 0
        assert page.url.endswith(f"/table/{table_id}")
        check_page(page, "table", viewport)

        # back to the tournament (the table page closed: the player is away, folded at once at his turns)
        with page.expect_navigation(timeout=TIMEOUT):
            back.click()
        page.locator("#facts").filter(has_text="Finished").wait_for(timeout=180_000)
        over = detail(page, room, t["id"])
        assert over["status"] == "finished"
        rows = page.locator("#player-rows tr")
        wait_until(lambda: rows.count() == 3, "three players listed")
        places = [re.search(r"\d+(st|nd|rd)", rows.nth(i).locator("td").nth(2).inner_text()) for i in range(3)]
        places = [place.group() if place else None for place in places]
        assert places == ["1st", "2nd", "3rd"], places
        winner = next(p for p in over["players"] if p["place"] == 1)
        assert winner["prize"] == 150
        first = rows.nth(0).inner_text()
        assert winner["name"] in first and "150" in first and "winner" in first
        assert page.locator("#clock").is_hidden()
        assert page.locator("#tables-section").is_hidden()
        check_page(page, "page-finished", viewport)

        page.goto(f"{room}/tournaments")
        page.locator(f"#finished-rows tr[data-tournament='{t['id']}']").wait_for(timeout=TIMEOUT)
        assert not page.errors, page.errors
    finally:
        page.context.close()
