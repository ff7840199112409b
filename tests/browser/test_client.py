"""The table page as a player uses it, in Debian's chromium: advance actions, the showdown's time, a restart
mid-hand, chat, preferences and several tables at once (docs/client.md); and the measures of a decision on screen
that test_layout.py applies at every size.

Each test opens its own tables with its own accounts in one room served for the module (a long action clock, so a
test's decisions are never played by the clock; quick bots). Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.server.live import free_port, serve

from .conftest import ARTIFACTS, TIMEOUT

PASSWORD = "correct horse battery"
SHOWDOWN_SECONDS = 2.5  # the showdown time of the tables these tests open
_names = itertools.count(1)


def _settings(db: Path) -> Any:
    from studpoker.server.config import Settings

    return Settings(
        db_url=f"sqlite:///{db}",
        action_seconds=30.0,
        time_bank=5.0,
        bank_refill=0.0,
        bot_delay=0.05,
        between_hands=0.3,
        default_table=False,
        seed=13,
        password_time_cost=1,
        password_memory_kib=1024,
        signups_per_address=10_000,
        signup_failures_per_address=10_000,
        login_failures_per_address=10_000,
        max_connections_per_address=10_000,  # every browser context connects from 127.0.0.1
    )


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(_settings(tmp_path_factory.mktemp("client") / "room.db")) as url:
        yield url


#: The test's own API calls close their connection: Playwright's request context does not retry a request sent on a
#: kept-alive connection the room is closing as idle (uvicorn's five seconds), which a slow step between two calls
#: makes a race (ECONNRESET on a POST, seen once in CI on a busy machine). The browser's pages keep their own.
FRESH = {"Connection": "close"}


def player(browser: Any, base: str, viewport: tuple[int, int] = (1280, 800)) -> Any:
    """A new browser context signed in as a fresh account (signed up through the API); its first page."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    name = f"p{next(_names)}x{viewport[0]}"
    answer = context.request.post(
        f"{base}/api/signup", data={"username": name, "password": PASSWORD}, headers={"Origin": base, **FRESH}
    )
    assert answer.ok, answer.text()
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.name = name  # type: ignore[attr-defined]
    return page


def call_api(page: Any, base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    answer = page.context.request.fetch(
        f"{base}{path}",
        method=method,
        data=body or {},
        headers={"Origin": base, "Content-Type": "application/json", **FRESH},
    )
    assert answer.ok, f"{method} {path}: {answer.status} {answer.text()}"
    return answer.json()


def open_table(page: Any, base: str, variant: str = "STUD7", bots: int = 0, **extra: Any) -> int:
    table = call_api(
        page,
        base,
        "POST",
        "/api/tables",
        {
            "name": f"{variant} {next(_names)}",
            "variant": variant,
            "small_bet": 10,
            "bots": bots,
            "showdown_seconds": SHOWDOWN_SECONDS,
            **extra,
        },
    )
    return int(table["id"])


def sit(page: Any, base: str, table_id: int, seat: int | None = None) -> None:
    body: dict[str, Any] = {"buy_in": 400}
    if seat is not None:
        body["seat"] = seat
    call_api(page, base, "POST", f"/api/tables/{table_id}/sit", body)


def go(page: Any, base: str, table_id: int) -> None:
    page.goto(f"{base}/table/{table_id}")
    page.locator("#conn", has_text="Connected").wait_for(state="attached", timeout=TIMEOUT)


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"client-{name}.png"))


#: Boxes and scroll of what must be on screen at a decision.
MEASURE = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {
    width: innerWidth, height: innerHeight,
    scrollWidth: document.documentElement.scrollWidth, bodyScrollWidth: document.body.scrollWidth,
    buttons: [...document.querySelectorAll('#actions button.act')].map(box),
    myCards: [...document.querySelectorAll('#my-cards .card')].map(box),
    seats: [...document.querySelectorAll('#seats > .seat')].map((e) => [e.dataset.seat, ...box(e)]),
    call: (() => {
      const b = document.querySelector('#actions button.act[data-action="call"]');
      return b ? { words: b.querySelector('.words').textContent, amount: Number(b.dataset.amount) } : null;
    })(),
    prompt: document.getElementById('prompt')?.textContent ?? '',
    center: document.getElementById('center')?.innerText ?? '',
    mine: (() => {
      const s = document.querySelector('#seats > .seat.me');
      if (!s) return null;
      const chip =
        document.querySelector(`#bets .bet-chips[data-seat="${s.dataset.seat}"] .amount`) ??
        s.querySelector('.seat-bet');
      return { bet: chip ? chip.textContent : '0', stack: s.querySelector('.stack')?.textContent ?? '' };
    })(),
  };
}"""


def _chips(text: str) -> int:
    return int("".join(c for c in text if c.isdigit()) or 0)


def check_call_words(m: dict[str, Any], where: str) -> None:
    """Issue 26, item 1: "Call N" is what calling costs (the chips added: the street's total less what the player
    has in front of him, or his stack for an all-in call), and the prompt says the same N."""
    call = m["call"]
    if call is None or m["mine"] is None:
        return
    cost = int(call["words"].removeprefix("Call "))
    assert call["words"] == f"Call {cost}", f"{where}: {call}"
    expected = min(call["amount"] - _chips(m["mine"]["bet"]), _chips(m["mine"]["stack"]))
    assert cost == expected, f"{where}: the call button says {call['words']!r}; calling costs {expected} ({m})"
    assert f"{cost} to call" in m["prompt"], f"{where}: the prompt {m['prompt']!r} and the button disagree"


def check_betting_line(m: dict[str, Any], where: str) -> None:
    """Issue 26, item 2: the centre never shows a cap the betting has passed (heads-up it says the cap is off)."""
    for raises, cap in re.findall(r"(\d+) raises? \(cap (\d+) raises?\)", m["center"]):
        assert int(raises) <= int(cap), f"{where}: {m['center']!r} shows a cap it has passed: say it is off"


def check_on_screen(m: dict[str, Any], where: str) -> None:
    width, height = m["width"], m["height"]
    assert m["scrollWidth"] <= width and m["bodyScrollWidth"] <= width, f"{where}: the page scrolls sideways: {m}"
    assert m["buttons"], f"{where}: no action button"
    for name, boxes in (("action button", m["buttons"]), ("own card", m["myCards"])):
        for left, top, right, bottom in boxes:
            assert left >= 0 and top >= 0 and right <= width + 0.5 and bottom <= height + 0.5, (
                f"{where}: an {name} is outside the {width}x{height} viewport: {(left, top, right, bottom)}"
            )
    assert m["myCards"], f"{where}: the player's own cards are not shown"
    seats = m["seats"]
    for _, left, top, right, bottom in seats:
        on_screen = left >= 0 and right <= width + 0.5 and top >= 0 and bottom <= height + 0.5
        assert on_screen, f"{where}: a seat is off-screen: {(left, top, right, bottom)} in {width}x{height}"
    for a, b in itertools.combinations(seats, 2):  # seat boxes never cover each other
        overlap_x = min(a[3], b[3]) - max(a[1], b[1])
        overlap_y = min(a[4], b[4]) - max(a[2], b[2])
        assert overlap_x <= 1 or overlap_y <= 1, f"{where}: seats {a[0]} and {b[0]} overlap: {a} {b}"


def decide(page: Any, prefer: tuple[str, ...] = ("check", "call", "bring-in")) -> str:
    """Clicks the first offered action of the preferred kinds (a check/call line reaches the showdown)."""
    buttons = page.locator("#actions button.act")
    kinds = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
    for kind in prefer:
        if kind in kinds:
            buttons.nth(kinds.index(kind)).click(timeout=2000)
            return kind
    buttons.first.click(timeout=2000)
    return kinds[0] or ""


def _heads_up(browser: Any, room: str) -> tuple[Any, Any, int]:
    ann, bob = player(browser, room), player(browser, room)
    table_id = open_table(ann, room, "STUD7")
    go(ann, room, table_id)
    go(bob, room, table_id)
    sit(ann, room, table_id, 1)
    sit(bob, room, table_id, 5)
    return ann, bob, table_id


def _my_turn(pages: tuple[Any, Any], timeout: float = 120) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for page in pages:
            if page.locator("#actions button.act").count():
                return page
        time.sleep(0.05)
    raise AssertionError("nobody got a turn")


def _log(page: Any) -> str:
    return str(page.locator("#log").inner_text())


def test_advance_actions_fire_once_and_clear_when_the_bet_changes(browser: Any, room: str) -> None:
    """Heads-up: the player waiting picks Check, the bring-in completes (the bet changes): the choice is cleared
    and he decides himself. Next street the one who acts second picks Check: it is sent for him exactly once when
    his turn comes, and the street after he is asked again."""
    ann, bob = _heads_up(browser, room)[:2]
    first = _my_turn((ann, bob))  # the bring-in
    other = bob if first is ann else ann
    choice = other.locator('#advance button[data-advance="check"]')
    choice.wait_for(timeout=TIMEOUT)
    choice.click()
    assert choice.get_attribute("aria-pressed") == "true"
    first.locator('#actions button.act[data-action="complete"]').click()  # a bet comes in: Check no longer holds
    other.locator("#actions button.act").first.wait_for(timeout=TIMEOUT)
    expect(other.locator('#advance button[aria-pressed="true"]')).to_have_count(0)
    assert other.locator('#actions button.act[data-action="call"]').count() == 1, "he decides the call himself"
    shot(other, "advance-cleared")
    # He calls with the keyboard: C is the call button's shortcut.
    assert other.locator('#actions button.act[data-action="call"] kbd').inner_text() == "C"
    other.keyboard.press("c")
    other.locator("#center .street", has_text="4th street").wait_for(timeout=TIMEOUT)
    # 4th street: whoever acts second chooses Check while the first one thinks.
    first = _my_turn((ann, bob))
    second = bob if first is ann else ann
    check = second.locator('#advance button[data-advance="check"]')
    check.wait_for(timeout=TIMEOUT)
    check.click()
    name = second.name  # type: ignore[attr-defined]
    before = _log(first).count(f"{name}: check")
    first.locator('#actions button.act[data-action="check"]').click()
    first.locator("#center .street", has_text="5th street").wait_for(timeout=TIMEOUT)
    time.sleep(0.3)
    assert _log(first).count(f"{name}: check") == before + 1, "the advance check was sent exactly once"
    expect(second.locator('#advance button[aria-pressed="true"]')).to_have_count(0)  # a choice serves one turn
    # 5th street: nobody chose anything; the player whose turn it is gets his buttons and nothing is sent for him.
    turn = _my_turn((ann, bob))
    time.sleep(0.5)
    assert turn.locator("#actions button.act").count() >= 2
    for page in (ann, bob):
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_the_showdown_stays_for_the_tables_time(browser: Any, room: str) -> None:
    """Checked and called down to the showdown: the result box, the hands in words and the winning cards marked,
    is on screen for at least the table's showdown time (measured in the page)."""
    ann, bob, _ = _heads_up(browser, room)
    for page in (ann, bob):  # record, in the page, when the showdown box appears and goes
        page.evaluate(
            """() => {
              window.showdownTimes = [];
              const box = document.getElementById('showdown');
              new MutationObserver(() => window.showdownTimes.push([box.hidden, performance.now()]))
                .observe(box, { attributes: true, attributeFilter: ['hidden'] });
            }"""
        )
    deadline = time.monotonic() + 300  # a bound for a hung table: a busy machine is slow
    while not ann.locator("#showdown:not([hidden]) h2").count():
        assert time.monotonic() < deadline, "the hand did not reach a showdown"
        for page in (ann, bob):
            if page.locator("#actions button.act").count():
                with contextlib.suppress(PlaywrightError):  # the turn moved on: read again
                    decide(page, ("check", "call", "bring-in"))
        time.sleep(0.05)
    box = ann.locator("#showdown")
    text = box.inner_text()
    assert "wins" in text and "result" in text, text
    assert ann.locator("#seats .card.best").count() >= 5, "the winning five cards are marked"
    shot(ann, "showdown-held")
    ann.wait_for_function("() => document.getElementById('showdown').hidden", timeout=TIMEOUT)
    times = ann.evaluate("() => window.showdownTimes")
    shown = [t for hidden, t in times if not hidden]
    gone = [t for hidden, t in times if hidden and shown and t > shown[0]]
    assert shown and gone, times
    held = (gone[0] - shown[0]) / 1000
    assert held >= SHOWDOWN_SECONDS - 0.1, f"the showdown was on screen {held:.2f} s, less than {SHOWDOWN_SECONDS} s"
    for page in (ann, bob):
        page.context.close()


def test_a_chat_line_sent_while_the_table_is_away_stays_in_the_box(browser: Any, room: str) -> None:
    """While the page's socket is down a chat line is not dropped unseen: it stays in the box, the page says it was
    not sent, and once the table is back the same line goes."""
    ann = player(browser, room)
    table_id = open_table(ann, room, "STUD7")
    routes: list[Any] = []
    down = False

    def route(socket: Any) -> None:  # between the page and the room: passed through, or refused while "down"
        if down:
            socket.close(code=1012, reason="away")
            return
        routes.append(socket)
        socket.connect_to_server()

    ann.route_web_socket(re.compile(r"/ws/table/"), route)
    go(ann, room, table_id)
    down = True
    routes[-1].close(code=1012, reason="away")
    expect(ann.locator("#conn")).to_have_text("Reconnecting…")
    ann.locator("#chat-text").fill("anyone?")
    ann.locator("#chat-send").click()
    expect(ann.locator("#chat-error")).to_contain_text("Not connected")
    assert ann.locator("#chat-text").input_value() == "anyone?"
    # back: the next attempt goes through; the line is sent once the room has answered it (a routed socket is
    # open to the page a moment before the room's end is)
    answered: list[str] = []

    def heard(frame: str) -> None:  # Playwright calls a function of ours, not a bound builtin
        answered.append(frame)

    ann.on("websocket", lambda socket: socket.on("framereceived", heard))
    down = False
    deadline = time.monotonic() + TIMEOUT / 1000
    while not answered:
        assert time.monotonic() < deadline, "the page did not reconnect"
        ann.wait_for_timeout(50)  # not time.sleep: Playwright delivers the page's events while it waits
    expect(ann.locator("#conn")).to_have_text("Connected")
    ann.locator("#chat-send").click()
    ann.locator("#log li.chat .text", has_text="anyone?").wait_for(timeout=TIMEOUT)
    expect(ann.locator("#chat-error")).to_have_text("")
    assert ann.locator("#chat-text").input_value() == ""
    ann.context.close()


def say(page: Any, text: str) -> None:
    """Sends a chat line from ``page`` and waits for it in its own log. A line the page could not send (its socket
    down on a busy machine) or the room refused (one line per 0.5 s: a fast machine gets to the next line sooner)
    stays in, or comes back to, the box with the reason: sent again, as a player would."""
    page.locator("#chat-text").fill(text)
    line = page.locator("#log li.chat .text", has_text=text)
    refused = page.locator("#chat-error.error")
    deadline = time.monotonic() + TIMEOUT / 1000
    while True:
        page.locator("#chat-send").click()
        line.or_(refused).first.wait_for(timeout=TIMEOUT)
        if line.count():
            return
        why = refused.inner_text()
        assert "Not connected" in why or "Slow down" in why, why
        assert time.monotonic() < deadline, f"{text!r} not sent: {why}"
        assert page.locator("#chat-text").input_value() == text
        expect(page.locator("#conn")).to_have_text("Connected")
        page.wait_for_timeout(500)  # the room's least time between two lines of one player


def test_a_chat_line_the_room_refuses_comes_back_to_the_box(browser: Any, room: str) -> None:
    """Lines sent faster than the room takes them (five in ten seconds, one per half second): the refused line is
    back in the box, and the page says to slow down."""
    ann = player(browser, room)
    go(ann, room, open_table(ann, room, "STUD7"))
    refused = ann.locator("#chat-error.error")
    for n in range(20):  # the sixth line within ten seconds is refused at the latest
        text = f"line {n}"
        ann.locator("#chat-text").fill(text)
        ann.locator("#chat-send").click()
        line = ann.locator("#log li.chat .text", has_text=re.compile(f"^{text}$"))
        line.or_(refused).first.wait_for(timeout=TIMEOUT)
        if refused.count():
            break
    else:
        raise AssertionError("twenty lines in a row, none refused")
    expect(refused).to_contain_text("Slow down")
    assert ann.locator("#chat-text").input_value() == text
    assert not line.count()
    ann.context.close()


def test_chat_is_text_and_a_player_can_mute_another(browser: Any, room: str) -> None:
    """HTML in a chat line is shown as text (no element is made of it); a muted player's lines disappear and the
    mute, like the four-colour deck, is kept on the account (a reload keeps both); a visitor cannot chat."""
    ann, bob, table_id = _heads_up(browser, room)
    hostile = '<img src=x onerror="window.pwned=1"><b>bold</b> & <script>window.pwned=2</script>'
    say(ann, hostile)
    line = bob.locator("#log li.chat .text").last
    line.wait_for(timeout=TIMEOUT)
    assert line.text_content() == hostile
    assert bob.locator("#log img, #log b, #log script").count() == 0
    assert bob.evaluate("() => window.pwned") is None
    # Bob mutes Ann (from her name in the log, shown chat only so that the dealer's lines do not scroll it under
    # the pointer), then turns on the four-colour deck.
    bob.locator("#log-filter button", has_text="Chat only").click()
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.locator("#log li.chat .who").last.click()
    bob.locator("#muted button", has_text=ann.name).wait_for()  # type: ignore[attr-defined]
    expect(bob.locator("#log li.chat")).to_have_count(0)
    with bob.expect_response(lambda answer: answer.url.endswith("/api/me/preferences")) as saved:
        bob.locator("#deck-toggle").click()
    assert saved.value.ok, "the preferences are saved to the account"
    expect(bob.locator("html")).to_have_class(re.compile("four-color"))
    bob.reload()
    bob.locator("#conn", has_text="Connected").wait_for(state="attached", timeout=TIMEOUT)
    bob.locator("#muted button").first.wait_for(timeout=TIMEOUT)
    assert bob.locator("#deck-toggle").get_attribute("aria-pressed") == "true"
    say(ann, "still there?")
    time.sleep(0.5)
    assert "still there?" not in _log(bob), "a muted player's chat is hidden"
    # a visitor's chat box is disabled (and the server would refuse him anyway: tests/server)
    visitor = browser.new_page()
    visitor.goto(f"{room}/table/{table_id}")
    visitor.locator("#conn", has_text="Connected").wait_for(state="attached", timeout=TIMEOUT)
    expect(visitor.locator("#chat-text")).to_be_disabled()
    expect(visitor.locator("#log")).to_contain_text(hostile)  # a visitor reads the chat as text too
    visitor.close()
    for page in (ann, bob):
        page.context.close()


def test_two_tables_in_two_tabs(browser: Any, room: str) -> None:
    """One player at two tables, each in its own tab: each tab shows its own table and plays its own hands;
    closing one tab leaves the other connected and playing."""
    first = player(browser, room)
    one = open_table(first, room, "STUD7", bots=2)
    two = open_table(first, room, "RAZZ", bots=2)
    sit(first, room, one)
    sit(first, room, two)
    go(first, room, one)
    second = first.context.new_page()
    second.errors = []
    go(second, room, two)
    for page, name in ((first, "Seven-card stud"), (second, "Razz")):
        expect(page.locator(".sign")).to_contain_text(name)
    played = {id(first): 0, id(second): 0}
    deadline = time.monotonic() + 300  # a bound for a hung table: a busy machine is slow
    while min(played.values()) < 3:
        assert time.monotonic() < deadline, played
        for page in (first, second):
            if page.locator("#actions button.act").count():
                with contextlib.suppress(PlaywrightError):  # the turn moved on: read again
                    decide(page)
                    played[id(page)] += 1
        time.sleep(0.05)
    expect(second.locator(".sign")).to_contain_text("Razz")
    first.close()
    second.locator("#actions button.act").first.wait_for()
    expect(second.locator("#conn")).to_have_text("Connected")
    expect(second.locator("#banner")).to_be_hidden()
    second.context.close()


def test_a_restart_mid_hand_says_the_hand_was_voided(browser: Any, tmp_path: Path) -> None:
    """The server stops mid-hand: the page says the connection is lost and stops the clock; the server comes back:
    the page says which hand was voided and that every stack went back to what it was when the hand was dealt."""
    db = tmp_path / "restart.db"
    port = free_port()
    settings = _settings(db)
    with serve(settings, port=port) as base:
        page = player(browser, base)
        table_id = open_table(page, base, "STUD7", bots=2)
        sit(page, base, table_id)
        go(page, base, table_id)
        page.locator("#actions button.act").first.wait_for(timeout=TIMEOUT)  # a hand is in play: it is his turn
        number = page.locator("#center .street").inner_text().split("#")[1].split()[0]
    # stopped mid-hand
    banner = page.locator("#banner .banner-item.connection")
    banner.wait_for(timeout=TIMEOUT)
    expect(banner).to_contain_text("Connection lost")
    expect(page.locator("#conn")).to_have_text(re.compile("^(Reconnecting…|Disconnected)$"))
    shot(page, "connection-lost")
    with serve(settings, port=port):
        voided = page.locator("#banner .banner-item", has_text="void")
        voided.wait_for(timeout=TIMEOUT)
        text = voided.inner_text()
        assert f"Hand #{number}" in text and "400" in text, text
        expect(page.locator("#banner .banner-item.connection")).to_have_count(0)
        shot(page, "hand-voided")
        page.locator("#banner button", has_text="OK").click()
        expect(page.locator("#banner")).to_be_hidden()
        page.context.close()
