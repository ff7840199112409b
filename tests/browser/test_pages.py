"""The room's pages other than the live table fit every screen and pass axe-core's checks.

A player, Pat, signs up (over HTTP), opens two tables with bots, buys in at the first and plays one hand to the
end over the table's WebSocket (checking or calling), and opens a sit-and-go with two bots in it, so that the lobby,
the cashier, the history page and the tournament pages all have rows. Then, for each viewport (phone portrait and
landscape, laptop, desktop), the lobby, cashier, account, history, tournament lobby, tournament, landing, sign-in and
sign-up pages must not scroll sideways (``document.documentElement.scrollWidth <=
window.innerWidth``), their main controls must lie inside the viewport's width, and axe-core
(:func:`tests.browser.axe.assert_accessible`) must find no serious or critical violation. The smallest phone
(360x640) and a sweep of widths up to 1920 are checked for sideways scrolling, the replayer is used on a phone (by
keyboard too), the lobby is walked with the Tab key (every control reached, with a visible focus ring, and the focus
kept when the list is redrawn), and the accessibility check itself is shown to fail on a bad page. A screenshot of
each page and viewport goes to ``test-artifacts/pages-PAGE-WxH.png``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from .axe import assert_accessible
from .conftest import ARTIFACTS, TIMEOUT

PASSWORD = "correct horse battery"
#: (width, height): phone portrait, phone landscape, laptop, desktop.
VIEWPORTS = [(390, 844), (844, 390), (1280, 800), (1920, 1080)]
#: The smallest screen the pages are made for (checked for sideways scrolling).
SMALLEST = (360, 640)
#: Widths between the smallest phone and a desktop, around the layouts' breakpoints (30rem, 45rem, 60rem).
SWEEP = [375, 414, 479, 481, 600, 719, 721, 768, 900, 959, 961, 1024, 1100, 1366, 1600, 1920]
#: Each page: its path ("{table}" is the first table's id, "{tournament}" Pat's sit-and-go's), whether Pat is
#: signed in, and the selectors of the
#: controls that must lie inside the viewport's width once the page has loaded (the first one is waited for).
PAGES: dict[str, tuple[str, bool, tuple[str, ...]]] = {
    "lobby": (
        "/lobby",
        True,
        (
            "#table-rows a.button[href='/table/{table}?join=1']",
            "#table-rows a.button[href='/table/{table}']",
            "#table-rows a.button[href='/history/{table}']",
            "#create-form button[type=submit]",
            "#create-stakes",
        ),
    ),
    "cashier": ("/cashier", True, ("#ledger-rows tr >> nth=0", "#balance", "#seat-rows tr a")),
    "account": ("/account", True, ("#password-form button[type=submit]", "#current", "#repeat", "#end-sessions")),
    "history": (
        "/history/{table}",
        True,
        (
            "#hands tr[data-hand] >> nth=0",
            "#hands tr[data-hand] >> nth=0 >> button",
            "#hands tr[data-hand] >> nth=0 >> a",
        ),
    ),
    "tournaments": (
        "/tournaments",
        True,
        (
            "#registering-rows a[href='/tournament/{tournament}']",
            "#registering-rows tr[data-tournament='{tournament}'] button",
            "#create-form button[type=submit]",
            "#create-bots",
        ),
    ),
    "tournament": (
        "/tournament/{tournament}",
        True,
        ("#level-rows tr >> nth=-1", "#register", "#payout-rows tr >> nth=0", "#player-rows tr >> nth=-1"),
    ),
    "index": ("/", True, ("main a.button >> nth=0", "main a.button >> nth=-1")),
    "login": ("/login", False, ("#auth-form button[type=submit]", "#username", "#password")),
    "signup": ("/signup", False, ("#auth-form button[type=submit]", "#username", "#password")),
}

#: What decides whether a page scrolls sideways, and the elements that stick out past the viewport if it does.
OVERFLOW = """() => ({
  scrollWidth: document.documentElement.scrollWidth,
  innerWidth: window.innerWidth,
  wide: [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
    .slice(0, 8)
    .map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.className ? '.' + e.className : ''}`
      + ` right=${Math.round(e.getBoundingClientRect().right)}`),
})"""


@dataclass(frozen=True)
class Player:
    name: str
    token: str  # the session cookie's value
    table_id: int  # where he played a hand
    hand: int  # the number of that hand
    tournament_id: int  # a sit-and-go he opened, registering (two bots entered)


def _best(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Check, else call, else bring in: the hand goes on to the showdown unless the bots fold."""
    kinds = {option["action"]: option for option in legal}
    for kind in ("check", "call", "bring-in", "bring_in"):
        if kind in kinds:
            return kinds[kind]
    return legal[0]


def _play_one_hand(room_url: str, token: str, table_id: int, seat: int) -> int:
    """Plays the first hand this seat is dealt into, to its end, over the table's WebSocket; returns its number.
    Pat asks to sit out once the hand has started, so the table's next hands go on without him (bots only)."""
    from websockets.sync.client import connect

    url = room_url.replace("http://", "ws://") + f"/ws/table/{table_id}"
    headers = {"Origin": room_url, "Cookie": f"studpoker_session={token}"}
    client = httpx.Client(base_url=room_url, headers=headers, timeout=10)
    deadline = time.monotonic() + 120
    hand = None
    with client, connect(url, additional_headers=headers, open_timeout=10) as ws:
        while time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=10))
            kind = message["type"]
            if kind == "hand_started" and hand is None and seat in {p["seat"] for p in message["players"]}:
                hand = message["hand"]
                assert client.post(f"/api/tables/{table_id}/sit-out", json={}).status_code == 200
            elif kind == "your_turn" and message["hand"] == hand:
                choice = _best(message["legal"])
                ws.send(json.dumps({"type": "act", "hand": hand, "seq": message["seq"], **choice}))
            elif kind == "hand_over" and hand is not None and message["hand"] == hand:
                return hand
    raise AssertionError("Pat's first hand was not over within 30 s")


@pytest.fixture(scope="module")
def player(room_url: str) -> Player:
    """Pat: signed up, two tables opened (with bots), one hand played at the first, then sitting out there."""
    with httpx.Client(base_url=room_url, headers={"origin": room_url}, timeout=10) as client:
        answer = client.post("/api/signup", json={"username": "pat", "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        token = client.cookies["studpoker_session"]
        stakes = {"small_bet": 10, "big_bet": 20, "ante": 1, "bring_in": 3}
        first = client.post("/api/tables", json={"variant": "STUD7", **stakes, "bots": 2})
        assert first.status_code == 201, first.text
        table_id = first.json()["id"]
        # A long name and the widest game name, for the narrow layouts.
        second = client.post(
            "/api/tables",
            json={"name": "Late night hi/lo for the whole crew", "variant": "STUD7_HL8", **stakes, "bots": 1},
        )
        assert second.status_code == 201, second.text
        sat = client.post(f"/api/tables/{table_id}/sit", json={"buy_in": 400})
        assert sat.status_code == 200, sat.text
        hand = _play_one_hand(room_url, token, table_id, sat.json()["seat"])
        # The bots leave after the hand in play: the table stops dealing and its history stays short.
        assert client.request("DELETE", f"/api/tables/{table_id}/bots", json={}).status_code == 200
        # A sit-and-go still registering (eight seats, two bots in), with a long name and the widest game name.
        tournament = client.post(
            "/api/tournaments",
            json={"name": "Late night hi/lo freezeout for the crew", "variant": "STUD7_HL8", "seats": 8, "bots": 2},
        )
        assert tournament.status_code == 201, tournament.text
    return Player("pat", token, table_id, hand, tournament.json()["id"])


@pytest.fixture
def new_page(browser: Any, room_url: str, player: Player) -> Iterator[Any]:
    """``new_page(viewport, signed_in)``: a page in a fresh browser context, Pat's session cookie in it or not."""
    contexts: list[Any] = []

    def make(viewport: tuple[int, int], signed_in: bool) -> Any:
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        contexts.append(context)
        if signed_in:
            cookie = {"name": "studpoker_session", "value": player.token, "url": room_url, "httpOnly": True}
            context.add_cookies([{**cookie, "sameSite": "Lax"}])
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def _open(new_page: Any, room_url: str, player: Player, page_name: str, viewport: tuple[int, int]) -> Any:
    """The page loaded and filled in (its first control visible)."""
    path, signed_in, controls = PAGES[page_name]
    page = new_page(viewport, signed_in)
    page.goto(room_url + path.format(table=player.table_id, tournament=player.tournament_id))
    page.locator(controls[0].format(table=player.table_id, tournament=player.tournament_id)).wait_for(timeout=TIMEOUT)
    if signed_in:
        page.get_by_text("Signed in as pat").wait_for(timeout=TIMEOUT)
    return page


def assert_no_sideways_scroll(page: Any, what: str) -> None:
    sizes = page.evaluate(OVERFLOW)
    assert sizes["scrollWidth"] <= sizes["innerWidth"], f"{what} scrolls sideways: {sizes}"


def assert_inside_width(page: Any, selector: str, what: str) -> None:
    """The element is shown and lies between the viewport's left and right edges."""
    box = page.locator(selector).bounding_box()
    width = page.evaluate("() => window.innerWidth")
    assert box is not None, f"{what}: {selector} is not shown"
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, f"{what}: {selector} at {box}, width {width}"


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
@pytest.mark.parametrize("page_name", list(PAGES))
def test_page_fits_and_is_accessible(
    new_page: Any, room_url: str, player: Player, page_name: str, viewport: tuple[int, int]
) -> None:
    page = _open(new_page, room_url, player, page_name, viewport)
    what = f"{page_name} at {viewport[0]}x{viewport[1]}"
    name = f"{page_name}-{viewport[0]}x{viewport[1]}"
    page.screenshot(path=str(ARTIFACTS / f"pages-{name}.png"), full_page=True)
    assert_no_sideways_scroll(page, what)
    for selector in PAGES[page_name][2]:
        assert_inside_width(page, selector.format(table=player.table_id, tournament=player.tournament_id), what)
    assert_accessible(page, name)


@pytest.mark.parametrize("page_name", list(PAGES))
def test_page_never_scrolls_sideways(new_page: Any, room_url: str, player: Player, page_name: str) -> None:
    """On the smallest phone, then at every width of SWEEP (the same page resized: each layout's breakpoints)."""
    page = _open(new_page, room_url, player, page_name, SMALLEST)
    what = f"{page_name} at {SMALLEST[0]}x{SMALLEST[1]}"
    page.screenshot(path=str(ARTIFACTS / f"pages-{page_name}-{SMALLEST[0]}x{SMALLEST[1]}.png"), full_page=True)
    assert_no_sideways_scroll(page, what)
    for selector in PAGES[page_name][2]:
        assert_inside_width(page, selector.format(table=player.table_id, tournament=player.tournament_id), what)
    for width in SWEEP:
        page.set_viewport_size({"width": width, "height": 800})
        assert_no_sideways_scroll(page, f"{page_name} at {width}x800")


@pytest.mark.parametrize("viewport", [SMALLEST, (844, 390)], ids=lambda v: f"{v[0]}x{v[1]}")
def test_the_replayer_on_a_phone(new_page: Any, room_url: str, player: Player, viewport: tuple[int, int]) -> None:
    """Pat's hand replayed on the history page: the controls and every player's cards fit the phone's width."""
    page = _open(new_page, room_url, player, "history", viewport)
    page.get_by_role("button", name=f"Replay hand {player.hand}", exact=True).click()
    heading = page.locator(".replayer h3")
    heading.filter(has_text=f"Hand #{player.hand}").wait_for(timeout=TIMEOUT)
    # By keyboard: the replayer took the focus (Street ▶▶); Enter steps on and the focus stays on the button.
    assert page.evaluate("() => document.activeElement.dataset.step") == "next-street"
    page.keyboard.press("Enter")
    heading.filter(has_text="3rd street").wait_for(timeout=TIMEOUT)
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.dataset.step") == "next"
    page.get_by_role("button", name="End ▶|").click()
    assert "pat" in page.locator(".replay-players").inner_text()
    page.get_by_text("Log so far").click()
    name = f"replayer-{viewport[0]}x{viewport[1]}"
    page.screenshot(path=str(ARTIFACTS / f"pages-{name}.png"), full_page=True)
    assert_no_sideways_scroll(page, f"the replayer at {viewport}")
    for selector in (*(f".replay-controls button >> nth={i}" for i in range(6)), ".replay-players li .card >> nth=-1"):
        assert_inside_width(page, selector, f"the replayer at {viewport}")
    assert_accessible(page, name)


def test_the_lobby_by_keyboard(new_page: Any, room_url: str, player: Player) -> None:
    """Tab reaches every link, button and field of the lobby in order, each with a visible focus ring."""
    page = _open(new_page, room_url, player, "lobby", (390, 844))
    controls = page.evaluate(
        """() => [...document.querySelectorAll('a[href], button:not([disabled]), input, select')]
             .filter((e) => e.getClientRects().length).length"""
    )
    reached = []
    for _ in range(controls + 1):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            """() => {
              const e = document.activeElement;
              const style = getComputedStyle(e);
              return {tag: e.tagName.toLowerCase(), label: e.getAttribute('aria-label') || e.textContent.trim()
                        || e.id, outline: style.outlineStyle, width: parseFloat(style.outlineWidth),
                      right: e.getBoundingClientRect().right, inner: window.innerWidth};
            }"""
        )
        if focused["tag"] == "body":
            break
        reached.append(focused)
        if focused["label"].startswith("Join "):
            page.screenshot(path=str(ARTIFACTS / "pages-lobby-focus-390x844.png"))
    assert len(reached) >= controls, f"Tab reached {len(reached)} of {controls} controls: {reached}"
    labels = [f["label"] for f in reached]
    for wanted in ("Lobby", "Cashier", "Sign out", "Watch ", "Join ", "History of ", "Open table"):
        assert any(label.startswith(wanted) for label in labels), f"Tab never reached {wanted!r}: {labels}"
    for focused in reached:
        assert focused["outline"] != "none" and focused["width"] >= 2, f"no visible focus ring: {focused}"
        assert focused["right"] <= focused["inner"] + 0.5, f"focused control off-screen: {focused}"

    # The list is redrawn every 5 s: the focus stays on the same control of the same table.
    join = page.locator(f"#table-rows a[href='/table/{player.table_id}?join=1']")
    join.focus()
    join.evaluate("(e) => { e.dataset.before = 'redraw'; }")
    with page.expect_response(lambda r: r.url.endswith("/api/tables"), timeout=TIMEOUT):
        pass
    page.wait_for_function("() => !document.querySelector('[data-before]')")  # the rows were drawn again
    assert page.evaluate("() => document.activeElement.dataset.focus") == f"join-{player.table_id}"


def test_the_accessibility_check_is_not_vacuous(browser: Any) -> None:
    """assert_accessible fails on serious and critical violations, naming each rule and element, and saves the
    report; a moderate one alone passes."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content(
            """<!doctype html><html lang="en"><head><title>bad</title></head><body><main><h1>Bad page</h1>
            <p id="faint" style="color:#bbb">faint text</p><img id="picture" src="data:,">
            <button id="empty"></button></main></body></html>"""
        )
        with pytest.raises(pytest.fail.Exception) as failure:
            assert_accessible(page, "selftest-bad")
        message = str(failure.value)
        for rule, target in (("color-contrast", "#faint"), ("image-alt", "#picture"), ("button-name", "#empty")):
            assert rule in message and target in message, message
        report = json.loads((ARTIFACTS / "axe-selftest-bad.json").read_text(encoding="utf-8"))
        assert {"color-contrast", "image-alt", "button-name"} <= {v["id"] for v in report["violations"]}

        page.set_content(  # heading-order is moderate: reported, not failed
            """<!doctype html><html lang="en"><head><title>ok</title></head><body><main><h1>Fine</h1>
            <h3>Skipped a level</h3></main></body></html>"""
        )
        results = assert_accessible(page, "selftest-moderate")
        assert [v["id"] for v in results["violations"]] == ["heading-order"]
    finally:
        context.close()


@pytest.mark.parametrize("page_name", ["lobby", "cashier", "history", "tournaments", "tournament"])
def test_stacked_tables_stay_tables_for_screen_readers(
    new_page: Any, room_url: str, player: Player, page_name: str
) -> None:
    """On a phone the rows are drawn as cards, but the accessibility tree still has the table: column headers,
    rows and cells, and the cards' visible column names are not read a second time."""
    page = _open(new_page, room_url, player, page_name, (390, 844))
    table = page.locator("main table").first
    assert page.evaluate("(t) => getComputedStyle(t).display", table.element_handle()) == "block"
    tree = table.aria_snapshot()
    assert "columnheader" in tree and "row " in tree and "cell " in tree, tree
    labels = page.locator("main table .cell-label")
    assert labels.count() and labels.first.is_visible()
    assert labels.first.get_attribute("aria-hidden") == "true"
