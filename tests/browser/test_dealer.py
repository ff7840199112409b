"""The dealer's console page (``stud dealer``, docs/console.md): a whole hand dealt at the table through the page.

For each screen (a landscape tablet, 1024x768, and a phone held upright, 390x844) a fresh console is served (its
``create_app`` by uvicorn in a thread, on a free port, with a journal in a temporary folder and a card reader's token)
and the dealer, in chromium: sets the sign (a bad one first: refused, with the console's reason); seats Ann, Bob and
Cy by tapping empty seats (a refused top-up shows its reason in the dialog); starts the hand with Enter; deals 3rd
street by tapping the card grid and by typing (``8s`` + Enter), one down card "dealt unseen", a card already out
refused; turns Speak on (each new line goes to speechSynthesis, stubbed to record it; the toggle outlives a reload);
takes the bring-in and the actions with the buttons and with their keys (``b``, ``c``, ``r``, ``f``); undoes a call
(the dialog says what it takes back) and enters it again; reloads the page mid-hand (the same state, from the
journal); reports a premature card through the irregularity dialog (its ruling shown; the dialog keeps the focus
and Escape closes it); plays the later streets, 6th street's cards posted by a card reader (the page picks them
up), shows the unseen card at the showdown, reads the pushes and the report, and has Cy top up and leave. axe-core
checks the sign form, the main screen, the card prompt, the action prompt, the irregularity dialog and the pushes;
on each of them every visible button, link, input and select is at least 44x44 CSS px and nothing scrolls sideways.
The tablet's run also checks the card and action prompts on a phone on its side (844x390). Any script error or
Content-Security-Policy violation on the page fails the test.

Screenshots go to ``test-artifacts/dealer-STEP-WxH.png``, or with ``STUDPOKER_DOC_SHOTS=1`` to
``docs/images/dealer-STEP-WxH.png`` (the walkthrough in docs/console.md shows them).
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.live import free_port

from .axe import assert_accessible
from .conftest import ARTIFACTS

#: The smallest tap target (CSS px; WCAG 2.5.5).
TAP = 44
VIEWPORTS = [(1024, 768), (390, 844)]
#: A phone on its side: the tablet's run checks its card and action prompts too (the page resized, not reloaded).
PHONE_SIDEWAYS = (844, 390)
#: The card reader's token of the console under test (a shoe posts cards with it; the page picks them up).
READER_TOKEN = "shoe-" + "0123456789abcdef"
#: speechSynthesis as the page sees it: what it is asked to say is kept in ``window.spoken``.
SPEECH = """window.spoken = [];
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
Object.defineProperty(window, 'speechSynthesis', {
  value: { speak: (u) => window.spoken.push(u.text), cancel: () => {} }, configurable: true,
});"""
BUSY = re.compile(r"\bbusy\b")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "images"
#: The steps whose phone screenshots the docs show.
PHONE_DOCS = {"card", "bring-in", "pushes"}

#: Every control the dealer may touch that is shown now and smaller than TAP x TAP.
SMALL = """(tap) => [...document.querySelectorAll('button, input, select, a')]
  .filter((e) => e.getClientRects().length && e.checkVisibility({visibilityProperty: true}))
  .filter((e) => !e.closest('dialog') || e.closest('dialog').open)
  .map((e) => [e.id || e.dataset.card || e.textContent.trim().slice(0, 30), e.getBoundingClientRect()])
  .filter(([, r]) => r.width < tap - 0.5 || r.height < tap - 0.5)
  .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""


@pytest.fixture
def console(tmp_path: Path) -> Iterator[str]:
    """A fresh console (no sign yet) served on a free loopback port; yields its base URL."""
    import uvicorn

    from studpoker.console.app import create_app

    port = free_port()
    app = create_app(tmp_path / "journal.jsonl", host="127.0.0.1", port=port, token=READER_TOKEN)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, name="uvicorn-dealer", daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the console did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def shot(page: Any, step: str, size: tuple[int, int]) -> None:
    """A screenshot of the screen as the dealer sees it (not the whole scrolled page): to test-artifacts/, or with
    ``STUDPOKER_DOC_SHOTS=1`` to docs/images/ (every step on the tablet, :data:`PHONE_DOCS` on the phones), in 256
    colours to keep the repository small."""
    name = f"dealer-{step}-{size[0]}x{size[1]}.png"
    if os.environ.get("STUDPOKER_DOC_SHOTS") != "1" or (size != VIEWPORTS[0] and step not in PHONE_DOCS):
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / name))
        return
    from io import BytesIO

    from PIL import Image  # matplotlib's dependency, in the test extra

    image = Image.open(BytesIO(page.screenshot())).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(DOCS / name, optimize=True)


def check(page: Any, name: str, size: tuple[int, int]) -> None:
    """axe-core finds nothing serious, and every control shown is big enough for a finger."""
    assert_accessible(page, f"dealer-{name}-{size[0]}x{size[1]}")
    small = page.evaluate(SMALL, TAP)
    assert not small, f"{name}: controls smaller than {TAP}x{TAP} px: {small}"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size[0], f"{name}: the page scrolls sideways ({width} px wide)"


def settled(page: Any) -> None:
    """The entry just made has its answer (the page is busy from the tap or key until then)."""
    expect(page.locator("body")).not_to_have_class(BUSY)


def key(page: Any, name: str) -> None:
    page.keyboard.press(name)
    settled(page)


def needed(page: Any, text: str) -> None:
    expect(page.locator("#needed")).to_have_text(text)


def tap_card(page: Any, card: str) -> None:
    page.locator(f'#grid button[data-card="{card}"]').click()
    settled(page)


def type_card(page: Any, card: str) -> None:
    page.locator("#card-input").fill(card)
    page.locator("#card-input").press("Enter")
    settled(page)


def act(page: Any, label: str) -> None:
    page.locator("#actions button", has_text=label).click()
    settled(page)


@pytest.mark.parametrize("size", VIEWPORTS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_hand_at_the_table(browser: Any, console: str, size: tuple[int, int]) -> None:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=size[0] < 600)
    context.add_init_script(SPEECH)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # the page runs under the console's CSP (default-src 'self'): nothing it does may be blocked
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(console)

    # The sign
    expect(page.locator("#sign-form")).to_be_visible()
    check(page, "sign", size)
    shot(page, "sign", size)
    page.select_option("#game", "stud")
    for field, value in (("small_bet", 10), ("big_bet", 20), ("ante", 1), ("bring_in", 30), ("min_buy_in", 100)):
        page.fill(f"#{field}", str(value))
    page.locator("#sign-form button[type=submit]").click()  # a bring-in above the small bet: refused, and why
    expect(page.locator("#alert")).to_contain_text("bring_in 30 must be at most small_bet 10")
    expect(page.locator("#sign-form")).to_be_visible()
    page.fill("#bring_in", "3")
    page.locator("#sign-form button[type=submit]").click()
    needed(page, "seat at least two players with chips")
    expect(page.locator("#top")).to_contain_text("Seven-card stud")

    # Three players buy in at empty seats
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        page.locator("#seats button", has_text=f"Seat {seat}: empty").click()
        dialog = page.locator("#seat-dialog")
        expect(dialog).to_be_visible()
        expect(page.locator("#buy-in-chips")).to_have_value("100")
        page.fill("#buy-in-name", name)
        page.fill("#buy-in-chips", "200")
        if seat == 1:
            shot(page, "buy-in", size)
        page.locator("#buy-in-form button[type=submit]").click()
        expect(dialog).to_be_hidden()
        expect(page.locator(f'#seats li[data-seat="{seat}"]')).to_contain_text(f"{name}200 chips")
        expect(page.locator(f"#seat-{seat}-button")).to_be_focused()  # the focus back on the seat
    needed(page, "start hand 1")
    check(page, "main", size)
    shot(page, "seats", size)

    # A refusal changes nothing and says why
    page.locator("#seats button", has_text="Top up or leave").first.click()
    page.fill("#top-up-chips", "0")
    page.evaluate("document.getElementById('top-up-chips').removeAttribute('min')")
    page.locator("#top-up-form button[type=submit]").click()
    expect(page.locator("#seat-dialog .dialog-alert")).to_contain_text("chips")
    page.keyboard.press("Escape")
    expect(page.locator("#seat-dialog")).to_be_hidden()
    expect(page.locator('#seats li[data-seat="1"]')).to_contain_text("200 chips")

    # Start with Enter; 3rd street: two down cards and one up card each, by tapping and typing
    page.locator("#needed").click()  # the focus on the page, not on a button
    key(page, "Enter")
    needed(page, "deal seat 1 (Ann) a card face down (3rd street)")
    expect(page.locator("#burn")).to_be_hidden()  # no burn before the first card of a hand (R4.4)
    expect(page.locator("#burns")).to_have_text("0")
    check(page, "card", size)
    shot(page, "card", size)
    if size == VIEWPORTS[0]:
        page.set_viewport_size({"width": PHONE_SIDEWAYS[0], "height": PHONE_SIDEWAYS[1]})
        expect(page.locator("#grid")).to_be_visible()
        check(page, "card", PHONE_SIDEWAYS)
        shot(page, "card", PHONE_SIDEWAYS)
        page.set_viewport_size({"width": size[0], "height": size[1]})
    tap_card(page, "Kh")
    needed(page, "deal seat 2 (Bob) a card face down (3rd street)")
    expect(page.locator('#grid button[data-card="Kh"]')).to_be_disabled()
    type_card(page, "8s")
    needed(page, "deal seat 3 (Cy) a card face down (3rd street)")
    expect(page.locator("#card-input")).to_have_value("")
    type_card(page, "jc")  # any case
    tap_card(page, "Kd")
    needed(page, "deal seat 2 (Bob) a card face down (3rd street)")
    page.locator("#unseen").click()  # Bob's second down card, not seen by the dealer
    needed(page, "deal seat 3 (Cy) a card face down (3rd street)")
    tap_card(page, "9h")
    needed(page, "deal seat 1 (Ann) a card face up (3rd street)")
    expect(page.locator("#unseen")).to_be_hidden()  # an up card is always seen
    tap_card(page, "Ks")
    # a card already dealt is refused by the backend too: typed, the grid's button being disabled
    type_card(page, "Kd")
    expect(page.locator("#alert")).to_contain_text("Kd")
    needed(page, "deal seat 2 (Bob) a card face up (3rd street)")
    type_card(page, "2c")
    expect(page.locator("#alert")).to_be_empty()
    tap_card(page, "Td")

    # The bring-in: the lowest up card, by its key
    needed(page, "seat 2 (Bob) to act: bring in 3, complete to 10")
    expect(page.locator('#seats li[data-seat="2"]')).to_contain_text("to act")
    expect(page.locator('#seats li[data-seat="2"] .card.unknown')).to_have_count(1)
    expect(page.locator("#actions button", has_text="bring in 3")).to_contain_text("B")
    check(page, "action", size)
    shot(page, "bring-in", size)
    if size == VIEWPORTS[0]:  # a phone on its side: the same prompt fits, its controls as big
        page.set_viewport_size({"width": PHONE_SIDEWAYS[0], "height": PHONE_SIDEWAYS[1]})
        expect(page.locator("#actions button")).to_have_count(2)
        check(page, "action", PHONE_SIDEWAYS)
        shot(page, "bring-in", PHONE_SIDEWAYS)
        page.set_viewport_size({"width": size[0], "height": size[1]})
    page.locator("#speak").click()  # Speak on: each new line is read aloud
    expect(page.locator("#speak")).to_have_attribute("aria-pressed", "true")
    key(page, "b")
    needed(page, "seat 3 (Cy) to act: fold, call 3, complete to 10")
    expect(page.locator("#said li").first).to_have_text("Bob brings in for 3")
    assert page.evaluate("window.spoken") == ["Bob brings in for 3"]
    # a double tap enters one action: its second click (ignored while the first is answered, and as a double
    # click after) does not call for Ann, whose "call 3" is drawn in the same place
    page.locator("#actions button", has_text="call 3").dblclick()
    settled(page)
    needed(page, "seat 1 (Ann) to act: fold, call 3, complete to 10")
    expect(page.locator("#last")).to_have_text("Last entry: seat 3: call 3")

    # Undo the call: the dialog says what it takes back
    page.locator("#undo").click()
    expect(page.locator("#undo-dialog")).to_be_visible()
    expect(page.locator("#undo-dialog button.close")).to_be_focused()  # Enter keeps it
    expect(page.locator("#undo-what")).to_contain_text("seat 3: call 3")
    shot(page, "undo", size)
    page.locator("#undo-confirm").click()
    expect(page.locator("#undo-dialog")).to_be_hidden()
    needed(page, "seat 3 (Cy) to act: fold, call 3, complete to 10")
    key(page, "c")
    needed(page, "seat 1 (Ann) to act: fold, call 3, complete to 10")
    key(page, "r")  # complete to 10
    needed(page, "seat 2 (Bob) to act: fold, call 7, raise to 20")
    expect(page.locator("#pot")).to_have_text("19")  # 3 antes, the bring-in 3, a call of 3, the completion to 10
    key(page, "c")
    needed(page, "seat 3 (Cy) to act: fold, call 7, raise to 20")
    key(page, "f")
    expect(page.locator('#seats li[data-seat="3"]')).to_contain_text("folded")

    # 4th street: burn, then an up card each; the high hand acts first
    needed(page, "deal seat 1 (Ann) a card face up (4th street)")
    expect(page.locator("#burn")).to_be_visible()
    expect(page.locator("#street")).to_have_text("4th street")
    tap_card(page, "Qh")
    type_card(page, "3d")
    needed(page, "seat 1 (Ann) to act: fold, check, bet 10")
    expect(page.locator("#said li").first).to_have_text("Ann is high with king-queen high showing and acts first")
    expect(page.locator('#seats li[data-seat="1"]')).to_contain_text("high on board")
    expect(page.locator("#burns")).to_have_text("1")
    shot(page, "4th-street", size)

    # The page reloaded mid-hand shows the same hand (the console keeps it in its journal)
    page.reload()
    needed(page, "seat 1 (Ann) to act: fold, check, bet 10")
    expect(page.locator('#seats li[data-seat="2"] .card')).to_have_count(4)
    expect(page.locator("#pot")).to_have_text("26")
    expect(page.locator("#speak")).to_have_attribute("aria-pressed", "true")  # remembered

    # An irregularity: a card dealt before the betting was over
    page.locator("#irregularity").click()
    dialog = page.locator("#irregularity-dialog")
    expect(dialog).to_be_visible()
    page.select_option("#case", "premature card")
    expect(page.locator("#case-card")).to_be_visible()
    expect(page.locator("#case-seat")).to_be_hidden()
    page.fill("#case-card", "Qc")
    check(page, "irregularity", size)
    # the focus stays in the dialog: Tab from its last control comes back to its first
    page.locator("#irregularity-dialog button.close").focus()
    page.keyboard.press("Tab")
    expect(page.locator("#case")).to_be_focused()
    page.locator("#irregularity-form button[type=submit]").click()
    expect(page.locator("#ruling")).to_be_visible()
    expect(page.locator("#ruling-ruling")).to_contain_text("does not play")
    expect(page.locator("#ruling-rule")).to_contain_text("R13.3")
    expect(page.locator("#ruling-next")).to_contain_text("finish the betting round")
    shot(page, "irregularity", size)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.locator("#irregularity")).to_be_focused()
    needed(page, "seat 1 (Ann) to act: fold, check, bet 10")

    # 4th to 7th street, checked through; 6th street's cards come from a card reader (the page picks them up)
    for cards in (("7c", "4h"), ("6s", "5d"), ("2h", "Jh")):
        page.locator("#needed").click()
        for _ in range(2):
            key(page, "c")
            expect(page.locator("#alert")).to_be_empty()
        expect(page.locator("#card-entry")).to_be_visible()
        if cards[0] == "6s":
            answer = page.request.post(
                console + "/api/reader",
                data={"cards": list(cards)},
                headers={"Authorization": f"Bearer {READER_TOKEN}"},
            )
            assert answer.ok, answer.text()
            needed(page, "seat 1 (Ann) to act: fold, check, bet 20")
            expect(page.locator('#seats li[data-seat="2"]')).to_contain_text("5♦")
            continue
        tap_card(page, cards[0])
        type_card(page, cards[1])
    expect(page.locator('#seats li[data-seat="1"] .card.down')).to_have_count(3)
    page.locator("#needed").click()
    key(page, "c")
    key(page, "c")

    # The showdown: Bob's unseen card must be shown
    needed(page, "seats 2 must show their cards (reveal)")
    page.locator("#grid button[data-card='8d']").click()  # a tap fills the seat's field
    expect(page.locator("#reveal-2")).to_have_value("8d")
    shot(page, "reveal", size)
    page.locator("#reveal button[type=submit]").click()

    # The pushes
    needed(page, "start hand 2")
    pushes = page.locator("#pushes-section")
    expect(pushes).to_be_visible()
    expect(pushes).to_contain_text("push Ann 26 (main pot)")
    expect(page.locator("#said li").first).to_contain_text("Ann wins 26")
    check(page, "pushes", size)
    shot(page, "pushes", size)

    # The report and the export
    page.locator("#report").click()
    expect(page.locator("#report-text")).to_contain_text("1 hand dealt")
    expect(page.locator("#report-text")).to_contain_text("balanced")
    shot(page, "report", size)
    page.keyboard.press("Escape")
    expect(page.locator("#export")).to_have_attribute("href", "/api/hands.phh")
    phh = page.request.get(console + "/api/hands.phh")
    assert phh.ok and "Ann" in phh.text()

    # Between hands: Cy tops up, then leaves; his seat is free again
    page.locator('#seats li[data-seat="3"] button').click()
    page.fill("#top-up-chips", "50")
    page.locator("#top-up-form button[type=submit]").click()
    expect(page.locator("#seat-dialog")).to_be_hidden()
    expect(page.locator('#seats li[data-seat="3"]')).to_contain_text("246 chips")
    page.locator('#seats li[data-seat="3"] button').click()
    page.locator("#leave").click()
    expect(page.locator("#seats button", has_text="Seat 3: empty")).to_be_visible()
    spoken = page.evaluate("window.spoken")
    assert "Ann wins 26 from the main pot with three of a kind, kings" in spoken, spoken
    page.locator("#speak").click()
    expect(page.locator("#speak")).to_have_attribute("aria-pressed", "false")
    assert not errors, errors
    context.close()
