"""The card room in a real browser: two players and a bot play hands by clicking, a spectator watches.

One scenario, in order (each step builds on the last): Ann and Bob sign up in their own browser contexts, Ann
opens a table from the lobby, both buy in, Ann adds a bot, a visitor watches; then hands are played by clicking
the action buttons only, Bob reloads his page in the middle of a hand and carries on, and at every poll the test
checks that no page shows a card another player was dealt face down (before that player shows it). It ends with
the hand history replayer, the history page and the cashier. Screenshots of every step go to ``test-artifacts/``.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from .conftest import ARTIFACTS, TIMEOUT

PASSWORD = "correct horse battery"
#: Every label an action button may carry.
LABEL = re.compile(
    r"^(Fold|Check|Call \d+|Bring in \d+|Complete to \d+|Bet \d+|Raise to \d+|Show|Muck|Show your cards)( \(cap\))?$"
)
HAND_NAME = re.compile(r"High card|Pair of|Two pair|Three of a kind|Straight|Flush|Full house|Four of a kind")
SUITS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
HANDS = 4  # hands to play to the end

#: What a table page shows, read in one go from its DOM (seats by number; face-up cards as "As").
READ_TABLE = """() => {
  const street = document.querySelector('#center .street')?.textContent ?? '';
  const number = /Hand #(\\d+)/.exec(street);
  const seats = {};
  for (const s of document.querySelectorAll('#seats .seat[data-seat]:not(.empty)')) {
    seats[s.dataset.seat] = {
      name: s.querySelector('.name').textContent,
      me: s.classList.contains('me'),
      shown: s.dataset.shown === '1',
      faceUp: [...s.querySelectorAll('.card[data-card]')].map((c) => c.dataset.card),
      dealtDown: [...s.querySelectorAll('.card.dealt-down')].map((c) => c.dataset.card),
      backs: s.querySelectorAll('.card.back').length,
      stack: s.querySelector('.stack').textContent,
    };
  }
  return {
    hand: number ? Number(number[1]) : null,
    street,
    over: /is over/.test(street),
    seats,
    faceUp: [...document.querySelectorAll('.card[data-card]')]
      .filter((c) => !c.closest('#panel-history')).map((c) => c.dataset.card),
    // the log spans hands: the lines of the hand on the felt (a card shown in an earlier hand may be dealt again)
    log: [...document.querySelectorAll(`#log li[data-hand="${number ? number[1] : ''}"]`)]
      .map((l) => l.innerText).join('\\n'),
    buttons: [...document.querySelectorAll('#actions button.act .words')].map((b) => b.textContent),
    showdown: document.getElementById('showdown').innerText,
    pot: document.getElementById('pot')?.textContent ?? '',
  };
}"""


def symbol(card: str) -> str:
    """ "Td" -> "10♦", as the hand log writes cards."""
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


@dataclass
class Viewer:
    """One browser context on the table page: a player (with a seat) or the spectator."""

    name: str
    page: Any
    seat: int | None = None
    #: the cards this player's own page showed him dealt face down, by hand number
    downs: dict[int, set[str]] = field(default_factory=dict)

    def shot(self, step: str) -> None:
        self.page.screenshot(path=str(ARTIFACTS / f"{step}-{self.name}.png"), full_page=True)

    def read(self) -> dict[str, Any]:
        return self.page.evaluate(READ_TABLE)


def sign_up(context: Any, base: str, name: str) -> Any:
    page = context.new_page()
    page.goto(f"{base}/signup")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(f"{base}/lobby")
    page.get_by_text(f"Signed in as {name}").wait_for()
    return page


def buy_in(page: Any, amount: int) -> int:
    """Fills and confirms the open buy-in dialog; returns the seat taken (from the page)."""
    dialog = page.get_by_role("dialog", name="Sit down")
    dialog.wait_for()
    dialog.get_by_label("Buy-in (chips)").fill(str(amount))
    dialog.get_by_role("button", name="Buy in and sit down").click()
    page.locator("#seats .seat.me").wait_for(timeout=TIMEOUT)
    return int(page.locator("#seats .seat.me").get_attribute("data-seat"))


def choose(labels: list[str], decision: int) -> str:
    """Mostly check or call (so hands reach the showdown); every fourth decision a wager when one is offered."""
    if decision % 4 == 3:
        for label in labels:
            if label.startswith(("Complete", "Bet", "Raise")):
                return label
    for start in ("Check", "Call", "Bring in"):
        for label in labels:
            if label.startswith(start):
                return label
    return next(label for label in labels if label != "Fold")


def check_no_leak(viewers: list[Viewer], seen: dict[str, dict[str, Any]]) -> None:
    """No page shows a card dealt face down to someone else, unless that player showed his hand."""
    for viewer in viewers:
        state = seen[viewer.name]
        if state["hand"] is None:
            continue
        for owner in viewers:
            if owner is viewer or owner.seat is None:
                continue
            seat = state["seats"].get(str(owner.seat))
            if seat is None or seat["shown"]:
                continue
            hidden = owner.downs.get(state["hand"], set())
            assert not seat["dealtDown"], f"{viewer.name} sees {owner.name}'s down cards {seat['dealtDown']}"
            leaked = hidden & set(state["faceUp"])
            assert not leaked, f"{viewer.name}'s page shows {owner.name}'s hidden cards {leaked} face up"
            in_log = [c for c in hidden if symbol(c) in state["log"]]
            assert not in_log, f"{viewer.name}'s hand log names {owner.name}'s hidden cards {in_log}"


def test_two_players_and_a_bot_play_while_a_spectator_watches(browser: Any, room_url: str) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(3)]
    try:
        _scenario(contexts, room_url)
    finally:
        for context in contexts:
            context.close()


def _scenario(contexts: list[Any], base: str) -> None:
    ann, bob, table_id = _open_and_join(contexts, base)
    spectator = Viewer("spectator", contexts[2].new_page())
    spectator.page.goto(f"{base}/table/{table_id}")
    spectator.page.get_by_text("You are watching. Sign in to play.").wait_for()
    viewers = [ann, bob, spectator]
    for viewer in viewers:
        for name in ("ann", "bob"):
            viewer.page.locator("#seats .seat .name", has_text=re.compile(f"^{name}$")).wait_for(timeout=TIMEOUT)
    spectator.shot("04-spectator")
    _play_hands(ann, bob, spectator)
    _history_and_cashier(ann, spectator, base, table_id)


def _open_and_join(contexts: list[Any], base: str) -> tuple[Viewer, Viewer, int]:
    """Ann signs up and opens a table from the lobby; Bob joins from the lobby; both buy in; Ann adds a bot."""
    ann = Viewer("ann", sign_up(contexts[0], base, "ann"))
    ann.shot("01-lobby")
    page = ann.page
    form = page.locator("#create-form")  # the lobby's filters have a Game and Stakes choice too
    form.get_by_label("Game").select_option(label="Seven-card stud")
    form.get_by_label("Stakes").select_option(label="10/20, ante 1, bring-in 3")
    page.get_by_role("button", name="Open table").click()
    page.wait_for_url(re.compile(r"/table/\d+$"))
    table_id = int(page.url.rsplit("/", 1)[1])
    page.locator("#conn", has_text="Connected").wait_for()
    sign = page.locator(".sign").inner_text()
    for text in ("Seven-card stud", "Limits\n10/20", "Ante\n1", "Bring-in\n3", "Min buy-in\n200"):
        assert text in sign, sign
    ann.shot("02-table-open")

    # Bob joins with the lobby's Join button: the table page opens its buy-in dialog.
    bob = Viewer("bob", sign_up(contexts[1], base, "bob"))
    row = bob.page.locator(f"tr[data-table='{table_id}']")
    assert "10/20, ante 1, bring-in 3" in row.inner_text()
    bob.page.get_by_role("link", name=re.compile("^Join")).click()
    bob.seat = buy_in(bob.page, 400)
    bob.shot("03-bob-seated")

    page.get_by_role("button", name="Sit down", exact=True).click()
    ann.seat = buy_in(page, 400)
    assert ann.seat != bob.seat
    page.locator("#seat-controls summary", has_text="Manage table").click()  # the manager's actions
    page.get_by_role("button", name="Add bot").click()
    page.locator("#seats .seat .tag.bot").first.wait_for(timeout=TIMEOUT)
    return ann, bob, table_id


def _play_hands(ann: Viewer, bob: Viewer, spectator: Viewer) -> None:
    """Ann and Bob click through HANDS hands; Bob reloads mid-hand; every poll checks what each page shows."""
    viewers = [ann, bob, spectator]
    labels_seen: set[str] = set()
    showdowns: dict[int, str] = {}
    decisions = 0
    backs_seen = 0  # the most card backs the spectator saw at one seat
    reloaded = False
    deadline = time.monotonic() + 300  # a bound for a hung table, not a speed test: a busy machine is slow
    while len(showdowns) < HANDS:
        assert time.monotonic() < deadline, f"{HANDS} hands were not played in time (showdowns: {sorted(showdowns)})"
        seen = {viewer.name: viewer.read() for viewer in viewers}
        for player in (ann, bob):  # what each player's own page shows him dealt face down
            state = seen[player.name]
            me = state["seats"].get(str(player.seat))
            if state["hand"] is not None and me is not None:
                assert me["me"]
                player.downs.setdefault(state["hand"], set()).update(me["dealtDown"])
        check_no_leak(viewers, seen)
        assert not seen["spectator"]["buttons"], "a spectator is offered actions"
        backs_seen = max([backs_seen, *(seat["backs"] for seat in seen["spectator"]["seats"].values())])

        ann_state = seen["ann"]
        if ann_state["over"] and ann_state["hand"] not in showdowns and ann_state["showdown"]:
            showdowns[ann_state["hand"]] = ann_state["showdown"]
            ann.shot(f"10-hand{ann_state['hand']}-showdown")
            spectator.shot(f"10-hand{ann_state['hand']}-showdown")

        for player in (ann, bob):
            state = seen[player.name]
            labels = state["buttons"]
            if not labels:
                continue
            if player is bob and not reloaded and (state["hand"] or 0) >= 2 and "3rd street" not in state["street"]:
                labels = _reload_mid_hand(bob, state)
                reloaded = True
            for label in labels:
                assert LABEL.match(label), f"unexpected button {label!r}"
            labels_seen.update(labels)
            if labels[0] == "Fold":
                assert any(label.startswith(("Call", "Check", "Bring in")) for label in labels), labels
            if decisions == 0:
                player.shot("11-first-decision")
            label = choose(labels, decisions)
            decisions += 1
            # the button's accessible name is its words (the shortcut key on it is aria-hidden)
            button = player.page.locator("#actions").get_by_role("button", name=label, exact=True)
            if button.count():  # gone if the turn moved on since the read (the clock): read again
                button.first.click(timeout=TIMEOUT)
        time.sleep(0.05)

    assert reloaded, "Bob never had a turn after third street of the second hand"
    for player in (ann, bob):  # the leak check had something to look for
        assert sum(len(cards) >= 2 for cards in player.downs.values()) >= HANDS - 1, player.downs
    assert backs_seen >= 2, "the spectator never saw a player's down cards as card backs"
    assert any(label.startswith(("Call", "Check")) for label in labels_seen)
    for label in labels_seen:  # the amounts of the sign: bring-in 3, completion to the small bet 10
        if label.startswith("Bring in"):
            assert label == "Bring in 3"
        if label.startswith("Complete"):
            assert label == "Complete to 10"
    for number, text in showdowns.items():
        assert "wins" in text, f"hand {number}: {text!r}"
        assert HAND_NAME.search(text), f"hand {number} shows no hand name: {text!r}"
    # the log shows the current hand: read just as a hand is dealt, it holds only its header for a moment
    deadline = time.monotonic() + 180
    log = ann.read()["log"]
    while "street" not in log and time.monotonic() < deadline:
        time.sleep(0.1)
        log = ann.read()["log"]
    assert "Hand #" in log and "street" in log
    for viewer in viewers:
        state = viewer.read()
        assert re.fullmatch(r"Pot [\d,]+|Waiting for .*", state["pot"]), state["pot"]
        stacks = [s["stack"] for s in state["seats"].values()]
        assert all(re.fullmatch(r"[\d,]+", s) for s in stacks), stacks
    ann.shot("30-after-hands")


def _reload_mid_hand(bob: Viewer, state: dict[str, Any]) -> list[str]:
    """Bob reloads on his turn: the page reconnects, shows his cards again and offers his actions."""
    before = set(state["seats"][str(bob.seat)]["dealtDown"])
    bob.shot("20-before-reload")
    bob.page.reload()
    bob.page.locator("#conn", has_text="Connected").wait_for(timeout=TIMEOUT)
    bob.page.locator("#actions button.act").first.wait_for(timeout=TIMEOUT)
    after = bob.read()
    assert after["hand"] == state["hand"]
    assert set(after["seats"][str(bob.seat)]["dealtDown"]) == before, "his down cards are back"
    assert "ann" in {s["name"] for s in after["seats"].values()}
    assert "Hand #" in after["log"]
    bob.shot("21-after-reload")
    return list(after["buttons"])


def _history_and_cashier(ann: Viewer, spectator: Viewer, base: str, table_id: int) -> None:
    """The History tab replays a finished hand street by street; the history page; Ann's cashier."""
    page = ann.page
    page.get_by_role("tab", name="History").click()
    page.get_by_role("button", name="Replay hand 1", exact=True).click()
    heading = page.locator(".replayer h3")
    heading.filter(has_text="Hand #1").wait_for()
    page.get_by_role("button", name="Street ▶▶").click()
    assert "3rd street" in heading.inner_text()
    assert page.locator(".replayer .card[data-card]").count() >= 3  # the door cards at least
    page.get_by_role("button", name="Street ▶▶").click()
    assert "4th street" in heading.inner_text()
    ann.shot("40-replayer-4th-street")
    page.get_by_role("button", name="End ▶|").click()
    assert "wins" in page.locator(".replay-now").inner_text()
    ann.shot("41-replayer-end")

    spectator.page.goto(f"{base}/history/{table_id}")
    spectator.page.get_by_role("button", name="Replay hand 2", exact=True).click()
    spectator.page.get_by_role("button", name="Street ▶▶").click()
    assert "3rd street" in spectator.page.locator(".replayer h3").inner_text()
    spectator.shot("42-history-page")

    page.goto(f"{base}/cashier")
    page.locator("#ledger-rows tr", has_text="Buy-in").first.wait_for()
    assert page.locator("#balance").inner_text() == "9,600"
    assert "Seven-card stud 10/20" in page.locator("#seat-rows").inner_text()
    ann.shot("50-cashier")


def test_the_leak_check_catches_a_hidden_card() -> None:
    """The check above is not vacuous: a down card of Bob's on Ann's page, face up or in her log, fails it."""
    ann, bob = Viewer("ann", None, seat=1), Viewer("bob", None, seat=2, downs={7: {"As", "Td"}})
    bob_seat = {"name": "bob", "me": False, "shown": False, "faceUp": ["Kc"], "dealtDown": [], "backs": 2}

    def ann_sees(face_up: list[str], log: str, shown: bool = False) -> dict[str, Any]:
        return {"hand": 7, "seats": {"2": {**bob_seat, "shown": shown}}, "faceUp": face_up, "log": log}

    bob_sees = {"hand": 7, "seats": {}, "faceUp": [], "log": ""}
    check_no_leak([ann, bob], {"ann": ann_sees(["Kc", "2h"], "bob K♣"), "bob": bob_sees})
    check_no_leak([ann, bob], {"ann": ann_sees(["Kc", "As"], "bob shows A♠", shown=True), "bob": bob_sees})
    with pytest.raises(AssertionError, match="hidden cards"):
        check_no_leak([ann, bob], {"ann": ann_sees(["Kc", "As"], ""), "bob": bob_sees})
    with pytest.raises(AssertionError, match="hand log"):
        check_no_leak([ann, bob], {"ann": ann_sees(["Kc"], "bob 10♦"), "bob": bob_sees})
