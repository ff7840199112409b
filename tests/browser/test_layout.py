"""The table page's layout measured at every screen size (issue 26, item 3; docs/client.md).

Each case fills a table with calling stations (they never fold, so every hand goes to the showdown with six or
seven cards in the seven-card games) and one tight-aggressive bot, seats the player, who bets or raises whenever
he may (so every seat has chips in front of it on every street, and the betting line reaches the raise cap), and
plays two hands. At every poll of the page (every 50 ms) and every decision it checks, by bounding boxes:

* every bet is shown: as chips in front of the seat that cover neither the centre's lines (street, pot, side pots,
  betting, who acts) nor any seat box (their own included) nor each other, stay on the felt and are nearer their
  own seat than any other; or, where the felt has no room for them (always on a portrait phone), in the seat's box;
* every card's index (rank over suit) is whole: inside its card and clear of the next card (and of the rings and
  outlines that card draws), a ten written "10";
* the showdown box covers no seat that shows cards, and is read whole (on the felt, nothing scrolled away);
* on phones every tap target is at least 44x44 CSS px (actions, advance toggles, header links and tools, the seat
  and table menu, the side panel's controls, a watcher's Sit here buttons);
* "Leave table" and "Close table" are at least 44 px from every action button and advance toggle;
* on a phone on its side, the sign is read up to the bring-in;
* at 1920x1080 the seat boxes and cards grow with the felt.

On phones the seat and table menu is also opened and closed by keyboard (the focus goes into it, Escape brings it
back), and axe-core checks the table with the menu open and at the first showdown.

The existing guarantees (tests/browser/test_client.py's ``check_on_screen``) are checked at every decision too.
Screenshots: ``test-artifacts/layout-WxH-VARIANT-*.png``.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.server.live import serve

from .axe import assert_accessible
from .conftest import ARTIFACTS, TIMEOUT
from .test_client import (
    MEASURE,
    _settings,
    call_api,
    check_betting_line,
    check_call_words,
    check_on_screen,
    go,
    open_table,
    player,
    sit,
)

PHONES = {(360, 640), (390, 844), (844, 390)}
#: The smallest tap target on a phone (CSS px; WCAG 2.5.5, Apple's and Android's guides).
TAP = 44
#: The least distance between a destructive seat control and the action bar (one tap target).
GAP = 44
#: (viewport, variant, calling stations): a full table unless said; the three-way hi/lo showdown at 844x390 is the
#: case the review saw. Each variant is seen on a phone and on a desktop (a case takes 15-30 s of the CI's time:
#: the desktop hi/lo showdown at 1920x1080 was left out, as the 1280x800 and phone cases draw the same boxes).
CASES = [
    ((360, 640), "STUD5", 8),
    ((360, 640), "STUD7", 6),
    ((390, 844), "STUD7_HL8", 6),
    ((844, 390), "STUD7_HL8", 2),
    ((844, 390), "STUD7", 6),
    ((1280, 800), "STUD7_HL8", 6),
    ((1920, 1080), "STUD5", 8),
]


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(_settings(tmp_path_factory.mktemp("layout") / "room.db")) as url:
        yield url


#: Everything the checks need, read in one go (boxes in CSS px of the viewport).
LAYOUT = r"""() => {
  const box = (r) => [r.left, r.top, r.right, r.bottom];
  const rect = (e) => box(e.getBoundingClientRect());
  const shown = (e) => {
    // checkVisibility: not in a closed <details> (its content is content-visibility: hidden, yet has boxes)
    if (!e.getClientRects().length || !e.checkVisibility()) return false;
    const style = getComputedStyle(e);
    return style.visibility === 'visible' && Number(style.opacity) > 0;
  };
  const textBox = (node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return box(range.getBoundingClientRect());
  };
  // how far past its border box an element paints solid rings (box-shadow spread without blur) and outlines
  const rings = (e) => {
    const style = getComputedStyle(e);
    let out = 0;
    for (const shadow of style.boxShadow === 'none' ? [] : style.boxShadow.split(/,(?![^(]*\))/)) {
      if (shadow.includes('inset')) continue;
      const n = [...shadow.replace(/rgba?\([^)]*\)/g, '').matchAll(/(-?[\d.]+)px/g)].map((m) => Number(m[1]));
      if (n.length >= 4 && n[2] === 0) out = Math.max(out, Math.max(Math.abs(n[0]), Math.abs(n[1])) + n[3]);
    }
    if (style.outlineStyle !== 'none') {
      out = Math.max(out, parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset));
    }
    return out;
  };
  // how far inside its border box an element's own outline paints (over its own content)
  const inner = (e) => {
    const style = getComputedStyle(e);
    const border = parseFloat(style.borderLeftWidth);
    if (style.outlineStyle === 'none') return border;
    return Math.max(border, -parseFloat(style.outlineOffset));
  };
  const center = document.getElementById('center');
  const cards = [];
  for (const group of document.querySelectorAll('#seats .cards, #my-cards .cards')) {
    const list = [...group.querySelectorAll(':scope > .card')];
    list.forEach((card, i) => {
      const rank = card.querySelector('.rank');
      const suit = card.querySelector('.suit');
      if (!rank || !suit || !shown(card)) return;
      const next = list[i + 1];
      cards.push({
        code: card.dataset.card, where: group.getAttribute('aria-label'), seat: Boolean(group.closest('#seats')),
        card: rect(card), inner: inner(card), rank: rank.textContent,
        index: [textBox(rank), textBox(suit)],
        next: next ? [...rect(next), rings(next)] : null,
      });
    });
  }
  const seats = [...document.querySelectorAll('#seats > .seat')].map((e) => ({
    seat: e.dataset.seat, box: rect(e), cards: e.querySelectorAll('.cards .card').length,
    empty: e.classList.contains('empty'), ring: rings(e),
  }));
  const wrap = document.getElementById('felt-wrap');
  const sd = document.getElementById('showdown');
  const targets = [...document.querySelectorAll(
    'button, a[href], summary, input:not([type=hidden]), select, [role="tab"]')]
    .filter((e) => shown(e) && !e.closest('#log, dialog'))
    .map((e) => {
      const r = e.getBoundingClientRect();
      const label = (e.getAttribute('aria-label') || e.textContent || e.id || e.tagName).trim().replace(/\s+/g, ' ');
      return { label, box: box(r) };
    })
    .filter(({ box: [l, t, r, b] }) => r > 0 && b > 0 && l < innerWidth && t < innerHeight);
  const short = document.getElementById('sign-short');
  let sign = null;
  if (shown(short) && short.firstChild) {
    const text = short.textContent;
    const at = text.search(/bring-in \d+/);
    if (at >= 0) {
      const end = at + text.slice(at).match(/bring-in \d+/)[0].length;
      const range = document.createRange();
      range.setStart(short.firstChild, 0);
      range.setEnd(short.firstChild, end);
      let clip = [0, 0, innerWidth, innerHeight];
      for (let e = short; e; e = e.parentElement) {
        const style = getComputedStyle(e);
        if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
          const r = rect(e);
          clip = [Math.max(clip[0], r[0]), Math.max(clip[1], r[1]), Math.min(clip[2], r[2]), Math.min(clip[3], r[3])];
        }
      }
      const style = getComputedStyle(short);
      sign = {
        text: text.slice(0, end), rects: [...range.getClientRects()].map(box), clip,
        ellipsis: style.textOverflow === 'ellipsis' && short.scrollWidth > short.clientWidth + 1,
        em: parseFloat(style.fontSize),
      };
    }
  }
  return {
    width: innerWidth, height: innerHeight,
    wrap: rect(wrap),
    center: center.hidden ? [] : [...center.children].filter(shown).map((e) => [e.className, ...rect(e)]),
    chips: [...document.querySelectorAll('#bets .bet-chips')].filter(shown).map((e) => [e.dataset.seat, ...rect(e)]),
    bets: [...document.querySelectorAll('#bets .bet-chips')].map((e) => e.dataset.seat),
    seatBets: [...document.querySelectorAll('#seats .seat-bet')].filter(shown)
      .map((e) => [e.closest('.seat').dataset.seat, ...rect(e)]),
    seats, cards, targets, sign,
    showdown: sd.hidden ? null : {
      box: rect(sd), scroll: [sd.scrollWidth, sd.clientWidth, sd.scrollHeight, sd.clientHeight],
    },
    actions: [...document.querySelectorAll('#actions button.act, #advance button')].filter(shown).map(rect),
    destructive: [...document.querySelectorAll('#seat-controls .danger')].filter(shown)
      .map((e) => [e.textContent.trim(), ...rect(e)]),
  };
}"""


def _overlap(a: list[float], b: list[float], margin: float = 0.0) -> bool:
    """Whether boxes [left, top, right, bottom] overlap by more than ``margin`` px both ways."""
    return min(a[2], b[2]) - max(a[0], b[0]) > margin and min(a[3], b[3]) - max(a[1], b[1]) > margin


def _distance(a: list[float], b: list[float]) -> float:
    dx = max(0.0, a[0] - b[2], b[0] - a[2])
    dy = max(0.0, a[1] - b[3], b[1] - a[3])
    return float((dx * dx + dy * dy) ** 0.5)


def check_chips(m: dict[str, Any], where: str) -> None:
    """Every bet is shown, in front of its seat or (a portrait phone) in its box. The chips in front of the seats
    cover no centre line, no seat box, no other chips; they are on the felt, each nearer its own seat than any
    other."""
    seats = {s["seat"]: s for s in m["seats"]}
    wrap = m["wrap"]
    shown = [seat for seat, *_ in m["chips"]] + [seat for seat, *_ in m.get("seatBets", [])]
    assert sorted(shown) == sorted(m.get("bets", shown)), f"{where}: bets {m.get('bets')} shown as {shown}"
    for seat, *badge in m.get("seatBets", []):
        box = seats[seat]["box"]
        inside = badge[0] >= box[0] and badge[1] >= box[1] and badge[2] <= box[2] and badge[3] <= box[3]
        assert inside, f"{where}: seat {seat}'s bet {badge} is not inside its box {box}"
    for seat, *chip in m["chips"]:
        inside = chip[0] >= wrap[0] - 0.5 and chip[1] >= wrap[1] - 0.5 and chip[2] <= wrap[2] + 0.5
        assert inside and chip[3] <= wrap[3] + 0.5, f"{where}: seat {seat}'s chips leave the felt: {chip} {wrap}"
        for name, *line in m["center"]:
            assert not _overlap(chip, line), f"{where}: seat {seat}'s chips {chip} cover the centre's {name} {line}"
        for other in m["seats"]:
            grown = [other["box"][0] - other["ring"], other["box"][1] - other["ring"]]
            grown += [other["box"][2] + other["ring"], other["box"][3] + other["ring"]]
            assert not _overlap(chip, grown), f"{where}: seat {seat}'s chips {chip} cover seat {other['seat']} {grown}"
        own = _distance(chip, seats[seat]["box"])
        for other in m["seats"]:
            if other["seat"] != seat and not other["empty"]:
                assert own < _distance(chip, other["box"]), (
                    f"{where}: seat {seat}'s chips {chip} are nearer seat {other['seat']} than their own"
                )
    for (a, *one), (b, *two) in itertools.combinations(m["chips"], 2):
        assert not _overlap(one, two), f"{where}: the chips of seats {a} and {b} overlap: {one} {two}"


def check_indices(m: dict[str, Any], where: str) -> None:
    """Every card's rank and suit are whole: inside the card (clear of its own outline) and of the next card."""
    for c in m["cards"]:
        left, top, right, bottom = c["card"]
        name = f"{where}: {c['code']} in {c['where']}"
        if c["code"] and c["code"][0] == "T":
            assert c["rank"] == "10", f"{name}: a ten is written {c['rank']!r}"
        for glyph in c["index"]:
            assert glyph[0] >= left + c["inner"] - 0.5 and glyph[1] >= top - 0.5, f"{name}: index {glyph} {c}"
            assert glyph[2] <= right - c["inner"] + 0.5 and glyph[3] <= bottom + 0.5, f"{name}: index {glyph} {c}"
            if c["next"]:
                cover = c["next"][0] - c["next"][4]
                assert glyph[2] <= cover + 0.5, f"{name}: its index {glyph} is under the next card (from {cover:.1f})"


def check_showdown(m: dict[str, Any], where: str) -> None:
    """The result box covers no seat with cards on the felt and is read whole."""
    sd = m["showdown"]
    if sd is None:
        return
    wrap = m["wrap"]
    box = sd["box"]
    assert box[0] >= wrap[0] - 0.5 and box[1] >= wrap[1] - 0.5, f"{where}: the showdown box leaves the felt: {box}"
    assert box[2] <= wrap[2] + 0.5 and box[3] <= wrap[3] + 0.5, f"{where}: the showdown box leaves the felt: {box}"
    width, client_width, height, client_height = sd["scroll"]
    assert width <= client_width + 1 and height <= client_height + 1, f"{where}: the showdown box is cut: {sd}"
    for s in m["seats"]:
        if s["cards"]:
            assert not _overlap(box, s["box"]), f"{where}: the showdown box {box} covers seat {s['seat']} {s['box']}"


def check_targets(m: dict[str, Any], where: str) -> None:
    small = [(t["label"], round(t["box"][2] - t["box"][0]), round(t["box"][3] - t["box"][1])) for t in m["targets"]]
    small = [t for t in small if t[1] < TAP - 0.5 or t[2] < TAP - 0.5]
    assert not small, f"{where}: tap targets under {TAP}x{TAP} px: {small}"


def check_destructive(m: dict[str, Any], where: str) -> None:
    for name, *box in m["destructive"]:
        for action in m["actions"]:
            gap = _distance(box, action)
            assert gap >= GAP, f"{where}: {name!r} {box} is {gap:.0f} px from an action button {action}"


def check_sign(m: dict[str, Any], where: str) -> None:
    sign = m["sign"]
    assert sign and sign["rects"], f"{where}: the sign does not say the bring-in: {sign}"
    left, top, right, bottom = sign["clip"]
    edge = right - (1.5 * sign["em"] if sign["ellipsis"] else 0)
    for r in sign["rects"]:
        inside = r[0] >= left - 0.5 and r[1] >= top - 0.5 and r[2] <= edge + 0.5 and r[3] <= bottom + 0.5
        assert inside, f"{where}: the sign is cut before the bring-in ({sign['text']!r}): {r} outside {sign['clip']}"


def check_scale(m: dict[str, Any], where: str, seats: int) -> None:
    """At 1920x1080 the seat boxes and cards take the share of the felt area's width they have on a 1280x800 laptop
    (15.5% and 2.5% a card with eight seats, 13.5% and 2.1% with ten), rather than stopping at a fixed size."""
    wrap_width = m["wrap"][2] - m["wrap"][0]
    least, card = (0.13, 0.02) if seats > 8 else (0.15, 0.024)
    for s in m["seats"]:
        if not s["empty"]:
            width = s["box"][2] - s["box"][0]
            assert width >= least * wrap_width, f"{where}: seat {s['seat']} is {width:.0f} px wide on {wrap_width:.0f}"
    for c in m["cards"]:
        if c["seat"]:
            width = c["card"][2] - c["card"][0]
            assert width >= card * wrap_width, f"{where}: a card is {width:.0f} px wide on {wrap_width:.0f}"


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"layout-{name}.png"))


def decide(page: Any) -> str:
    """Bets or raises when he may (chips in front of every caller), else calls or checks."""
    buttons = page.locator("#actions button.act")
    kinds = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
    for kind in ("raise", "bet", "complete", "call", "check", "bring-in"):
        if kind in kinds:
            buttons.nth(kinds.index(kind)).click(timeout=2000)
            return kind
    buttons.first.click(timeout=2000)
    return kinds[0] or ""


def _wait_shown(page: Any, selector: str) -> None:
    page.wait_for_function(
        """(s) => { const e = document.querySelector(s);
                    return e && getComputedStyle(e).visibility === 'visible' && e.getClientRects().length > 0; }""",
        arg=selector,
        timeout=TIMEOUT,
    )


def _open_menus(page: Any, tag: str) -> None:
    """On a phone: the seat and table menu (with Manage table open) and the side panel, their targets measured."""
    page.locator("#menu-toggle").click()
    _wait_shown(page, "#seat-controls")
    page.locator("#seat-controls summary").click()
    _wait_shown(page, "#close-table")
    m = page.evaluate(LAYOUT)
    shot(page, f"{tag}-menu")
    check_targets(m, f"{tag} seat and table menu")
    check_destructive(m, f"{tag} seat and table menu")
    assert_accessible(page, f"layout-{tag}-menu")
    page.locator("#seat-controls summary").click()
    page.locator("#menu-toggle").click()
    # by keyboard: Enter on the toggle opens the menu with the focus in it, Escape closes it and gives it back
    page.locator("#menu-toggle").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('seat-controls').contains(document.activeElement)")
    page.keyboard.press("Escape")
    page.wait_for_function("() => document.activeElement?.id === 'menu-toggle'")
    assert page.locator("#menu-toggle").get_attribute("aria-expanded") == "false"
    assert not page.locator("#seat-controls").is_visible()
    page.locator("#side-toggle").click()
    page.wait_for_function(
        "() => document.getElementById('side').getBoundingClientRect().right <= innerWidth + 1", timeout=TIMEOUT
    )
    check_targets(page.evaluate(LAYOUT), f"{tag} side panel")
    shot(page, f"{tag}-side")
    page.locator("#side-close").click()


@pytest.mark.parametrize(
    ("viewport", "variant", "stations"), CASES, ids=[f"{w}x{h}-{v}-{n + 2}p" for (w, h), v, n in CASES]
)
def test_layout_at_every_size(browser: Any, room: str, viewport: tuple[int, int], variant: str, stations: int) -> None:
    """A hand and its showdown (till the box goes) with chips in front of every seat on every street: chips clear of
    the centre and the seats, card indices whole, the showdown box clear of the shown seats, tap targets of 44 px on
    phones, the destructive seat controls away from the action bar, the landscape sign, seats that scale on a big
    screen; axe-core at the first decision and showdown."""
    width, height = viewport
    tag = f"{width}x{height}-{variant}"
    phone = viewport in PHONES
    page = player(browser, room, viewport)
    table_id = open_table(page, room, variant)
    sit(page, room, table_id)
    if phone:  # a watcher's Sit here buttons and Sit down, at a table with free seats
        watcher = player(browser, room, viewport)
        go(watcher, room, table_id)
        watcher.locator("#seats .sit-here").first.wait_for(timeout=TIMEOUT)
        check_targets(watcher.evaluate(LAYOUT), f"{tag} watcher")
        shot(watcher, f"{tag}-watcher")
        watcher.context.close()
    call_api(page, room, "POST", f"/api/tables/{table_id}/bots", {"count": stations, "tag": "calling-station"})
    call_api(page, room, "POST", f"/api/tables/{table_id}/bots", {"count": 1, "tag": "tight-aggressive"})
    seats = 10 if variant == "STUD5" else 8
    go(page, room, table_id)
    decisions = 0
    hands: set[str] = set()
    betting: set[str] = set()  # the seats seen with a bet (the chips were put to the test)
    shown_bets = 0  # the most at a decision (a picture)
    deadline = time.monotonic() + 600  # a few hands on a busy machine
    while True:
        assert time.monotonic() < deadline, f"{tag}: the hands were not played in time ({decisions} decisions)"
        m = page.evaluate(LAYOUT)
        # the showdown was measured at every poll while it was shown; play on (four hands at most) until three seats
        # were seen with chips in front of them: a poll every 50 ms can miss the bots' bets of a street under load
        if hands and not m["showdown"] and (len(betting) >= 3 or len(hands) >= 4):
            break
        where = f"{tag} poll {decisions}"
        check_chips(m, where)
        betting.update(m["bets"])
        check_indices(m, where)
        if m["showdown"]:
            title = page.evaluate("() => document.querySelector('#showdown h2')?.textContent ?? ''")
            check_showdown(m, f"{tag} showdown {title}")
            if title and title not in hands:
                hands.add(title)
                shot(page, f"{tag}-showdown-{len(hands)}")
                if len(hands) == 1:
                    assert_accessible(page, f"layout-{tag}-showdown")
        if phone:
            check_targets(m, where)
        if m["actions"]:
            check_destructive(m, where)
        if page.locator("#actions button.act").count():
            where = f"{tag} decision {decisions + 1}"
            m = page.evaluate(LAYOUT)  # again: the turn (or the first snapshot) may have come since the poll's read
            if len(m["bets"]) > shown_bets:
                shown_bets = len(m["bets"])
                shot(page, f"{tag}-chips")
            measured = page.evaluate(MEASURE)
            check_on_screen(measured, where)
            check_call_words(measured, where)  # item 1: "Call N" is the cost, at every size
            check_betting_line(measured, where)  # item 2: no cap shown that the betting has passed
            if (width, height) == (844, 390):
                check_sign(m, where)
            if width == 1920:
                check_scale(m, where, seats)
            if decisions == 0:
                shot(page, f"{tag}-decision")
                assert_accessible(page, f"layout-{tag}-decision")
                if phone:
                    _open_menus(page, tag)
            try:
                decide(page)
                decisions += 1
            except PlaywrightError:  # the turn moved on between the read and the click: read again
                pass
        time.sleep(0.05)
    assert decisions >= 2, decisions
    assert len(betting) >= 3, f"{tag}: only seats {betting} had a bet"
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_the_measures_catch_what_they_should() -> None:
    """The checks themselves fail on made-up layouts with each fault (so a passing run means something)."""
    seat = {"seat": "2", "box": [0, 0, 100, 60], "cards": 3, "empty": False, "ring": 3}
    base: dict[str, Any] = {
        "wrap": [0, 0, 400, 300],
        "center": [["pot", 150, 140, 250, 160]],
        "seats": [seat],
        "chips": [],
        "cards": [],
        "targets": [],
        "showdown": None,
        "actions": [],
        "destructive": [],
    }
    faults = [
        ("chips", [["2", 160, 150, 190, 165]], check_chips),  # over the pot
        ("chips", [["2", 90, 40, 120, 55]], check_chips),  # half under its own seat
        ("showdown", {"box": [50, 30, 300, 200], "scroll": [250, 250, 170, 170]}, check_showdown),
        ("targets", [{"label": "Lobby", "box": [0, 0, 40, 19]}], check_targets),
        (
            "cards",
            [
                {
                    "code": "Th",
                    "where": "x",
                    "card": [0, 0, 17, 25],
                    "inner": 1,
                    "rank": "10",
                    "index": [[2, 1, 15, 10], [2, 10, 10, 20]],
                    "next": [13, 0, 30, 25, 0],
                }
            ],
            check_indices,
        ),
    ]
    for key, value, check in faults:
        with pytest.raises(AssertionError):
            check({**base, key: value}, "made up")
    check_chips({**base, "chips": [["2", 130, 20, 160, 35]]}, "clear")  # in front of its seat, clear of all
