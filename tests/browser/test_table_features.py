"""The table page's words and features of issue 26 in Debian's chromium: "Call N" is what a call costs on the
button, the prompt, the advance action and the log; the cap said to be off heads-up; the tab's title and icon on
your turn; show or muck at the showdown and after a hand nobody called; private notes; a full table's waiting
list; the lobby's filters; a player the floor moves follows his chips to his new table.

Each test opens its own tables with its own accounts in one room served for the module (a long action clock, so no
decision of a test is played by the clock)."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.server.live import serve

from .axe import assert_accessible
from .conftest import ARTIFACTS, TIMEOUT, wait_until
from .test_client import _settings, call_api, go, open_table, player, sit


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The room's address and its database's."""
    settings = replace(_settings(tmp_path_factory.mktemp("features") / "room.db"), seat_hold_seconds=300.0)
    with serve(settings) as url:  # a held seat waits longer than a busy machine could make a click take
        yield url, settings.db_url


@pytest.fixture(scope="module")
def room(served: tuple[str, str]) -> str:
    return served[0]


def shot(page: Any, name: str) -> None:
    """A screenshot in test-artifacts/ (a generous bound: on a busy machine chromium may take long to paint)."""
    page.screenshot(path=str(ARTIFACTS / f"features-{name}.png"), timeout=120_000)


def to_act(pages: list[Any]) -> Any:
    """The page whose action bar has buttons (waits for one)."""
    return wait_until(
        lambda: next((p for p in pages if p.locator("#actions button.act").count()), None), "somebody's turn"
    )


def dealt_to_all(pages: list[Any]) -> Any:
    """The page to act first in a hand dealt to every one of ``pages``: on a busy machine the first hand may begin
    before the last player sat down; such a hand is played out first (a fold, or the first button, at each turn)."""
    names = {page.name for page in pages}
    while True:
        page = to_act(pages)
        started = re.findall(r"^Hand #\d+: (.+)$", log_text(page), re.MULTILINE)  # the players of each hand
        if started and set(started[-1].split(", ")) == names:
            return page
        fold = button(page, "fold")
        with contextlib.suppress(PlaywrightError):  # the turn moved on (the clock): look again
            click(page, fold if fold.count() else page.locator("#actions button.act").first)


def button(page: Any, action: str) -> Any:
    return page.locator(f'#actions button.act[data-action="{action}"]')


def words(page: Any, action: str) -> str:
    return str(button(page, action).locator(".words").inner_text())


def click(page: Any, locator: Any) -> None:
    """Click an action button, then wait until the action bar no longer shows that turn's buttons (none, or the
    next turn's: the same player may act again at once, on a new street or at the showdown)."""
    page.evaluate("() => { window.lastTurn = document.querySelector('#actions button.act'); }")
    locator.click()
    wait_until(
        lambda: page.evaluate("() => document.querySelector('#actions button.act') !== window.lastTurn"),
        "the action taken",
    )


def log_text(page: Any) -> str:
    return str(page.locator("#log").inner_text())


def close(*pages: Any) -> None:
    for page in pages:
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_call_says_what_it_costs_everywhere(browser: Any, room: str) -> None:
    """Three players: the bring-in (3 in) facing a completion to 10 is offered "Call 7" in advance while the third
    player decides, then on his turn by the button and the prompt; the log says "call 7"."""
    pages = [player(browser, room) for _ in range(3)]
    table_id = open_table(pages[0], room, "STUD7")
    for page in pages:
        go(page, room, table_id)
    for page, seat in zip(pages, (1, 4, 6), strict=True):
        sit(page, room, table_id, seat)
    bring_in = dealt_to_all(pages)
    assert words(bring_in, "bring-in") == "Bring in 3"
    button(bring_in, "bring-in").click()
    completer = to_act([p for p in pages if p is not bring_in])
    button(completer, "complete").click()
    third = to_act([p for p in pages if p not in (bring_in, completer)])
    assert words(third, "call") == "Call 10"  # nothing in yet: the whole 10
    # meanwhile the bring-in may choose in advance: the same cost the real button will show
    advance = bring_in.locator('#advance button[data-advance="call"]')
    advance.wait_for(timeout=TIMEOUT)
    assert advance.inner_text() == "Call 7"
    shot(bring_in, "call-advance")
    button(third, "call").click()
    wait_until(lambda: button(bring_in, "call").count(), "the bring-in's turn")
    assert words(bring_in, "call") == "Call 7"
    prompt = bring_in.locator("#prompt").inner_text()
    assert "7 to call" in prompt, prompt
    shot(bring_in, "call-cost")
    assert_accessible(bring_in, "table-call-cost")
    button(bring_in, "call").click()
    name = bring_in.name  # type: ignore[attr-defined]
    for page in pages:  # the log of every player says what the call cost
        wait_until(lambda page=page: f"{name}: call 7" in log_text(page), "the call in the log")
        assert f"{name}: call 10" not in log_text(page)
    close(*pages)


def test_heads_up_the_cap_is_said_to_be_off_and_the_tab_says_whose_turn(browser: Any, room: str) -> None:
    ann, bob = player(browser, room), player(browser, room)
    table_id = open_table(ann, room, "STUD7")  # casino rules: cap 3 raises, lifted heads-up
    for page in (ann, bob):
        go(page, room, table_id)
    sit(ann, room, table_id, 1)
    sit(bob, room, table_id, 5)
    raises = 0
    while raises < 4:
        page = to_act([ann, bob])
        other = bob if page is ann else ann
        # the tab of the player to act says so (title and icon); the other tab is the table's name
        assert page.title().startswith("▶ Your turn · "), page.title()
        assert page.evaluate("() => document.querySelector('link[rel=icon]').href").startswith("data:image/svg+xml")
        assert not other.title().startswith("▶"), other.title()
        assert other.evaluate("() => document.querySelector('link[rel=icon]').href") == "data:,"
        for action in ("raise", "complete", "bring-in"):
            if button(page, action).count():
                click(page, button(page, action).first)
                raises += action == "raise"
                break
    line = wait_until(
        lambda: re.search(r"4 raises \(cap off heads-up\)", ann.locator("#center").inner_text()), "the betting line"
    )
    assert line and "cap 3" not in ann.locator("#center").inner_text()
    shot(ann, "cap-off-heads-up")
    close(ann, bob)


def test_show_or_muck_at_the_showdown_and_after_an_uncalled_win(browser: Any, room: str) -> None:
    ann, bob = player(browser, room), player(browser, room)
    table_id = open_table(ann, room, "STUD7")
    for page in (ann, bob):
        go(page, room, table_id)
    sit(ann, room, table_id, 1)
    sit(bob, room, table_id, 5)
    # checked down until a hand that cannot win is asked (the first hand shown is never asked): it is mucked
    asked = None
    deadline = time.monotonic() + 180
    while asked is None:
        assert time.monotonic() < deadline, "no losing hand was asked to show or muck"
        page = to_act([ann, bob])
        if button(page, "muck").count():
            asked = page
            break
        for action in ("check", "call", "bring-in"):
            if button(page, action).count():
                click(page, button(page, action).first)
                break
    prompt = asked.locator("#prompt").inner_text()
    assert "cannot win" in prompt and words(asked, "show") == "Show" and words(asked, "muck") == "Muck", prompt
    shot(asked, "show-or-muck")
    assert_accessible(asked, "table-show-or-muck")
    asked.keyboard.press("m")  # M: muck
    other = bob if asked is ann else ann
    name = asked.name  # type: ignore[attr-defined]
    wait_until(lambda: f"{name} mucks" in log_text(other), "the muck in the other player's log")
    # auto-muck: the preference is kept on the account
    other.locator("#auto-muck").click()
    wait_until(lambda: other.locator("#auto-muck").get_attribute("aria-pressed") == "true", "auto-muck on")
    assert call_api(other, room, "GET", "/api/me/preferences")["auto_muck"] is True
    # an uncalled win: the loser sits out (no next deal) and folds; the winner may show his cards
    winner = wait_until(
        lambda: next((p for p in (ann, bob) if button(p, "bring-in").count()), None), "the next bring-in", 60
    )
    loser = bob if winner is ann else ann
    call_api(loser, room, "POST", f"/api/tables/{table_id}/sit-out")
    button(winner, "bring-in").click()
    wait_until(lambda: button(loser, "fold").count(), "the fold")
    button(loser, "fold").click()
    show = winner.locator('#actions button[data-action="show-uncalled"]')
    show.wait_for(timeout=TIMEOUT)
    assert show.locator(".words").inner_text() == "Show your cards"
    show.click()
    winner_name = winner.name  # type: ignore[attr-defined]
    wait_until(lambda: f"{winner_name} shows" in log_text(loser), "the shown cards in the other's log")
    assert "(nobody called)" in log_text(loser)
    close(ann, bob)


def test_private_notes_on_players(browser: Any, room: str) -> None:
    ann, bob = player(browser, room), player(browser, room)
    table_id = open_table(ann, room, "RAZZ")
    sit(bob, room, table_id, 3)
    go(ann, room, table_id)
    bob_name = bob.name  # type: ignore[attr-defined]
    ann.locator("#tab-players").click()
    area = ann.get_by_label(f"Notes on {bob_name}")
    area.fill("calls down light; <b>bold</b> is text")
    ann.locator("#panel-players form.note button[type=submit]").click()
    ann.locator("#panel-players .note-status", has_text="Saved.").wait_for(timeout=TIMEOUT)
    seat = ann.locator('#seats > .seat[data-seat="3"]')
    wait_until(lambda: seat.locator(".tag.note").count(), "the Note tag on his seat")
    assert "your note: calls down light" in str(seat.get_attribute("aria-label"))
    assert_accessible(ann, "table-notes")
    ann.reload()
    ann.locator("#tab-players").click()
    wait_until(lambda: ann.get_by_label(f"Notes on {bob_name}").input_value().startswith("calls down"), "the note")
    assert bob.context.request.get(f"{room}/api/me/notes").json() == {"notes": []}  # his own list is empty
    close(ann, bob)


def test_a_full_tables_waiting_list_and_the_lobby_filters(browser: Any, room: str) -> None:
    ann, bob = player(browser, room), player(browser, room)
    table_id = open_table(ann, room, "STUD7", bots=7)
    assert call_api(ann, room, "POST", f"/api/tables/{table_id}/bots", {"count": 1})["seats"]  # 8 bots: full
    other = open_table(ann, room, "RAZZ")
    bob.goto(f"{room}/lobby")
    row = bob.locator(f'tr[data-table="{table_id}"]')
    row.wait_for(timeout=TIMEOUT)
    # the filters: Seats free hides the full table; the game filter keeps only razz tables
    bob.locator("#filter-free").check()
    wait_until(lambda: not row.count(), "the full table hidden")
    bob.locator("#filter-free").uncheck()
    bob.locator("#filter-game").select_option("RAZZ")
    wait_until(lambda: not row.count() and bob.locator(f'tr[data-table="{other}"]').count(), "razz only")
    assert "tables shown" in bob.locator("#filter-count").inner_text()
    assert_accessible(bob, "lobby-filters")
    bob.locator("#filter-game").select_option("")
    wait_for = bob.get_by_role("link", name=re.compile("Join the waiting list of"))
    wait_until(wait_for.count, "the Wait button of the full table")
    wait_for.first.click()
    bob.locator("#waiting-place", has_text="number 1").wait_for(timeout=TIMEOUT)
    shot(bob, "waiting-list")
    call_api(ann, room, "DELETE", f"/api/tables/{table_id}/bots")  # the bots leave when their hand is over
    take = bob.locator("#sit-button", has_text="Take your seat")
    take.wait_for(timeout=TIMEOUT)
    held = re.search(r"seat (\d+)", bob.locator("#seat-controls").inner_text())
    assert held, bob.locator("#seat-controls").inner_text()
    assert bob.title().startswith("▶ Seat for you")
    take.click()
    assert bob.locator("#sit-seat").input_value() == held.group(1)
    bob.locator("#sit-confirm").click()
    wait_until(lambda: bob.locator(f'#seats > .seat.me[data-seat="{held.group(1)}"]').count(), "bob in the seat")
    close(ann, bob)


def test_a_player_the_floor_moves_follows_his_chips(browser: Any, served: tuple[str, str]) -> None:
    from sqlalchemy import create_engine, update

    from studpoker.server.db import Account

    room, db_url = served
    floor, ann = player(browser, room), player(browser, room)
    engine = create_engine(db_url)
    with engine.begin() as connection:
        connection.execute(update(Account).where(Account.username == floor.name).values(is_admin=True))
    engine.dispose()
    one, two = open_table(floor, room, "STUD7"), open_table(floor, room, "STUD7")
    sit(ann, room, one)
    go(ann, room, one)
    ann.locator("#seats > .seat.me").wait_for(timeout=TIMEOUT)
    me = call_api(ann, room, "GET", "/api/me")
    moved = call_api(
        floor, room, "POST", "/api/admin/move", {"account_id": me["id"], "from_table": one, "to_table": two, "seat": 4}
    )
    assert moved["seated"] and moved["stack"] == 400
    ann.wait_for_url(f"{room}/table/{two}", timeout=TIMEOUT)
    ann.locator('#seats > .seat.me[data-seat="4"]').wait_for(timeout=TIMEOUT)
    close(floor, ann)


@pytest.mark.parametrize("viewport", [(390, 844), (1280, 800)])
def test_a_triple_stud_table_from_the_lobby_says_the_game_now_and_next(
    browser: Any, room: str, viewport: tuple[int, int]
) -> None:
    """Issue 31: the lobby opens a Triple Stud table; its sign says the game now and the next, and the log says when
    the game changes (a table of one hand a game, opened through the API, changes at every hand)."""
    ann = player(browser, room, viewport)
    ann.goto(f"{room}/lobby")
    ann.locator("#create-variant option[value='TRIPLE']").wait_for(state="attached", timeout=TIMEOUT)
    ann.locator("#create-variant").select_option("TRIPLE")
    ann.fill("#create-name", f"Triple {viewport[0]}")
    with ann.expect_navigation(timeout=TIMEOUT):
        ann.get_by_role("button", name="Open table").click()
    ann.locator("#conn", has_text="Connected").wait_for(state="attached", timeout=TIMEOUT)
    sign = ann.locator("#sign-short")
    wait_until(lambda: "Triple Stud: Seven-card stud now, Razz in 8 hands" in sign.inner_text(), "the mixed sign")
    ann.goto(f"{room}/lobby")
    opened = ann.locator("#table-rows tr", has_text=f"Triple {viewport[0]}")
    opened.wait_for(timeout=TIMEOUT)
    assert "Triple Stud, Seven-card stud now" in opened.inner_text()
    assert_accessible(ann, f"mixed-lobby-{viewport[0]}")
    quick = open_table(ann, room, bots=2, variant=None, games=[{"variant": "RAZZ"}, {"variant": "STUD7_HL8"}], every=1)
    go(ann, room, quick)
    changed = r"Hand #\d+ \((Razz|Seven-card stud hi/lo) now\)"
    wait_until(lambda: re.search(changed, str(ann.locator("#log").text_content())), "a game change")
    assert re.search(r"Razz / Seven-card stud hi/lo: (Razz|Seven-card stud hi/lo) now", sign.inner_text())
    shot(ann, f"mixed-table-{viewport[0]}")
    assert_accessible(ann, f"mixed-table-{viewport[0]}")
    close(ann)
