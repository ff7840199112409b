"""The terminal game on a headless screen, driven by Textual's pilot: clicks and keys, and what the screen shows.

Each test runs its app with ``asyncio.run`` (no pytest plugin needed); bots act at once (``delay=0``) except
in the test of the delay; the seeds are fixed.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

pytest.importorskip("textual")

from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Button, Static

from studpoker.bots import CallingStation
from studpoker.engine import Rules, Variant
from studpoker.table import Table
from studpoker.tui.app import WINNING_STYLE, HandLog, StudApp
from studpoker.tui.game import Game, PlayOptions
from studpoker.tui.render import describe_hand, shown_hands, winning_cards

Script = Callable[[Pilot[None]], Awaitable[None]]


def make_app(
    *, seed: int = 3, players: int = 4, variant: str = "7stud", save_path: Path | None = None, delay: float = 0
) -> tuple[StudApp, list[Path]]:
    game = Game.create(PlayOptions(seed=seed, players=players, variant=variant, bots=("calling-station",)))
    saved: list[Path] = []
    return StudApp(game, delay=delay, save_path=save_path, save=lambda _table, path: saved.append(path)), saved


def run(app: StudApp, script: Script, size: tuple[int, int] = (120, 40)) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def text(app: StudApp, selector: str) -> str:
    return str(app.query_one(selector, Static).content)


def stack_shown(app: StudApp, seat: int) -> int:
    """The stack on a seat's row (``Stack 196``; the numbers are right-aligned)."""
    found = re.search(r"Stack +(\d+)", text(app, f"#seat-{seat}"))
    assert found is not None, text(app, f"#seat-{seat}")
    return int(found.group(1))


def log_text(app: StudApp) -> str:
    """The hand log, one line an event (as written; the panel wraps the long ones)."""
    return "\n".join(app.query_one("#log", HandLog).history)


def screen_text(app: StudApp) -> str:
    """Everything the screen says: panels, log and button labels."""
    statics = [str(w.content) for w in app.query(Static) if not isinstance(w, Button)]
    labels = [str(b.label) for b in app.query(Button) if b.display]
    return "\n".join([*statics, log_text(app), *labels])


def action_buttons(app: StudApp) -> dict[str, str]:
    """Visible action buttons: label -> id."""
    return {str(b.label): b.id or "" for b in app.query("#actions Button").results(Button) if b.display}


async def click_action(pilot: Pilot[None], *words: str) -> str:
    """Click the first action button whose label has one of ``words`` (in the order given); its label."""
    buttons = action_buttons(pilot.app)  # type: ignore[arg-type]
    for word in words:
        for label, ident in buttons.items():
            if word in label:
                await pilot.click(f"#{ident}")
                return label
    raise AssertionError(f"no button with {words} among {list(buttons)}")


async def play_out_by_clicks(pilot: Pilot[None], check: Callable[[], None] | None = None) -> None:
    """Check, call or bring in by clicking the buttons until the hand is over (clicks are slow: 0.5 s each)."""
    app: StudApp = pilot.app  # type: ignore[assignment]
    for _ in range(60):
        if not app.game.in_hand:
            return
        if check is not None:
            check()
        await click_action(pilot, "Check", "Call", "Bring in")
    raise AssertionError("the hand did not end")


async def play_out_by_keys(pilot: Pilot[None], check: Callable[[], None] | None = None) -> None:
    """Check or call (c), or bring in (b), by key until the hand is over."""
    app: StudApp = pilot.app  # type: ignore[assignment]
    for _ in range(60):
        if not app.game.in_hand:
            return
        if check is not None:
            check()
        labels = " ".join(action_buttons(app))
        await pilot.press("c" if "(c)" in labels else "b")
    raise AssertionError("the hand did not end")


def test_own_down_cards_shown_opponents_hidden_until_showdown() -> None:
    app, _ = make_app(seed=3)

    def no_leak() -> None:
        hand = app.game.table.hand
        assert hand is not None
        screen = screen_text(app)
        for p, seat in enumerate(app.game.table.players):
            if seat != 1:
                for card in hand.view(p).players[p].down:  # what only that opponent may see
                    assert card is not None and card.symbol not in screen, f"{card} of seat {seat} leaked"

    async def script(pilot: Pilot[None]) -> None:
        assert "press n" in text(app, "#status")
        await pilot.click("#deal")
        await pilot.pause()
        view = app.game.table.view(1)
        assert view is not None
        mine = " ".join(c.symbol for c in view.players[0].down if c is not None)
        assert f"Down {mine}" in text(app, "#seat-1")
        for seat in (2, 3, 4):
            assert "Down ## ##" in text(app, f"#seat-{seat}")
        assert f"[{mine}]" in log_text(app)
        await play_out_by_clicks(pilot, no_leak)
        assert "Winner: " in text(app, "#showdown")
        assert "##" not in "".join(text(app, f"#seat-{s}") for s in (1, 2, 3, 4))  # all shown now

    run(app, script)


def test_bring_in_and_door_cards_are_marked() -> None:
    app, _ = make_app(seed=3)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("n")
        await pilot.pause()
        status = text(app, "#status")
        assert "Bring-in: " in status and "Door cards: You " in status
        brought = status.split("Bring-in: ")[1].split("\n")[0]
        marked = [s for s in (1, 2, 3, 4) if "BRING-IN" in text(app, f"#seat-{s}")]
        assert len(marked) == 1 and text(app, f"#seat-{marked[0]}").startswith(f"{marked[0]} {brought} ")
        doors = status.split("Door cards: ")[1].split(", ")
        for seat, door in zip((1, 2, 3, 4), doors, strict=True):
            name, card = door.split()
            assert text(app, f"#seat-{seat}").startswith(f"{seat} {name} ")
            assert f"Up {card}" in text(app, f"#seat-{seat}")  # the door card comes first

    run(app, script)


def test_fold_by_click_and_call_by_key_show_in_the_log() -> None:
    app, _ = make_app(seed=3)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("n")
        await pilot.pause()
        assert app.game.human_to_act
        labels = list(action_buttons(app))
        assert labels[0] == "1 Fold (f)" and labels[1].startswith("2 Call ")
        await pilot.press("c")
        await pilot.pause()
        assert "You call 3" in log_text(app)
        while app.game.in_hand and not any("Fold" in label for label in action_buttons(app)):
            await click_action(pilot, "Check", "Call")
        if app.game.in_hand:
            await click_action(pilot, "Fold")
            assert "You fold" in log_text(app)
        assert not app.game.in_hand  # calling stations play on alone
        assert app.query_one("#between").display and not app.query_one("#actions").display

    run(app, script)


def test_showdown_names_every_hand_and_the_winner() -> None:
    app, _ = make_app(seed=11, players=3)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.click("#deal")
        await pilot.pause()
        await play_out_by_keys(pilot)
        showdown = text(app, "#showdown")
        view = app.game.view()
        assert view is not None
        for seat, player in zip(app.game.hand_seats, view.players, strict=True):
            assert player.down and None not in player.down  # all shown at the end
            words = describe_hand([*player.down[:2], *player.up, *player.down[2:]], Variant.STUD7)
            assert words in text(app, f"#seat-{seat}")  # each hand in words on its seat's row
        assert "Winner: " in showdown and "from the main pot" in showdown
        assert "won " in "".join(text(app, f"#seat-{s}") for s in (1, 2, 3))

    run(app, script)


def test_hi_lo_showdown_names_high_and_low() -> None:
    app, _ = make_app(seed=1, players=4, variant="7stud8")

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("n")
        await pilot.pause()
        await play_out_by_keys(pilot)
        showdown = text(app, "#showdown")
        assert "High: " in showdown and " · Low: " in showdown
        view = app.game.view()
        assert view is not None
        shown = shown_hands(view)
        assert shown and all("; low: " in words for words in shown.values())
        for player, words in shown.items():  # both halves in words on the seat's row
            assert words in text(app, f"#seat-{app.game.hand_seats[player]}")

    run(app, script)


def test_top_up_between_hands_and_queued_during_a_hand() -> None:
    app, _ = make_app(seed=3)

    async def script(pilot: Pilot[None]) -> None:
        assert stack_shown(app, 1) == 200
        await pilot.click("#top-up")
        await pilot.pause()
        assert stack_shown(app, 1) == 400
        assert "Added 200" in text(app, "#message")
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        assert "queued" in text(app, "#message")
        assert "+200 queued" in text(app, "#seat-1")
        await play_out_by_keys(pilot)
        stack = app.game.table.seat(1).stack
        assert stack_shown(app, 1) == stack and "queued" not in text(app, "#seat-1")
        assert stack > 400 - 200  # the queued chips arrived

    run(app, script)


def test_sit_out_and_back_in() -> None:
    app, _ = make_app(seed=3)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.click("#sit")
        await pilot.pause()
        assert str(app.query_one("#sit", Button).label) == "Sit in (o)"
        await pilot.click("#deal")
        await pilot.pause()
        assert not app.game.in_hand  # the bots played it out
        assert "sitting out" in text(app, "#seat-1")
        assert "===== Hand #1 =====" in log_text(app) and "You" not in log_text(app)
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert app.game.in_hand and 1 in app.game.table.players

    run(app, script)


def test_leaving_saves_the_session(tmp_path: Path) -> None:
    pytest.importorskip("studpoker.history.session")
    from studpoker.history.session import load_session, save_session

    path = tmp_path / "session.phhs"
    game = Game.create(PlayOptions(seed=3, players=3, bots=("calling-station",)))
    app = StudApp(game, delay=0, save_path=path, save=save_session)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("n")
        await pilot.pause()
        await play_out_by_keys(pilot)
        await pilot.click("#leave")
        await pilot.pause()

    run(app, script)
    assert app.saved_path == path and app.save_error is None
    table = load_session(path)
    assert len(table.hands) == 1 and table.seat(1).name == "You"


def test_leaving_during_a_hand_asks_again_then_folds() -> None:
    app, saved = make_app(seed=3, save_path=Path("unused.phhs"))

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert "Press q again" in text(app, "#message")
        assert app.game.in_hand
        await pilot.press("q")
        await pilot.pause()

    run(app, script)
    assert not app.game.in_hand and len(app.game.table.hands) == 1
    assert saved == [Path("unused.phhs")]


def _short_stack_game(seed: int) -> Game:
    rules = Rules.from_preset("casino", Variant.STUD7, 1, 3, 10, 20, min_buy_in=4)
    table = Table(rules, seed=seed)
    table.sit("You", 4)  # the ante and the bring-in: all-in on 3rd street
    table.sit("Bob", 2000)
    table.sit("Cid", 2000)
    return Game(table, {2: CallingStation(), 3: CallingStation()})


def test_busted_human_is_offered_a_rebuy() -> None:
    for seed in range(100):  # a seed where the short stack loses it all in the first hand
        game = _short_stack_game(seed)
        game.deal()
        while game.in_hand:
            if game.human_to_act:
                kinds = {a.kind.value: a for a in game.table.legal_actions()}
                game.act(kinds.get("check") or kinds.get("call") or kinds["bring-in"])
            else:
                game.step_bot()
        if game.busted:
            break
    app = StudApp(_short_stack_game(seed), delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("n")
        await pilot.pause()
        await play_out_by_keys(pilot)
        assert app.game.busted
        assert stack_shown(app, 1) == 0 and "busted" in text(app, "#seat-1")
        assert "out of chips" in text(app, "#message")
        assert app.query_one("#deal", Button).disabled
        assert str(app.query_one("#top-up", Button).label) == "Rebuy 4 (t)"
        await pilot.press("n")
        await pilot.pause()
        assert not app.game.in_hand
        await pilot.press("t")
        await pilot.pause()
        assert stack_shown(app, 1) == 4
        assert not app.query_one("#deal", Button).disabled

    run(app, script)


def test_bots_act_after_the_delay() -> None:
    app, _ = make_app(seed=3, delay=0.01)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        for _ in range(200):
            if app.game.human_to_act or not app.game.in_hand:
                break
            await pilot.pause(0.02)
        assert app.game.human_to_act or not app.game.in_hand
        assert "You call 3\n*** 4th street ***" in log_text(app)  # the bots answered, one by one

    run(app, script)


@pytest.mark.parametrize("variant", ["razz", "5stud"])
def test_razz_and_five_card_stud_on_screen(variant: str) -> None:
    game = Game.create(PlayOptions(seed=6, players=5, variant=variant, bots=("random", "calling-station")))
    app = StudApp(game, delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("n")
        await pilot.pause()
        first = "2nd street" if variant == "5stud" else "3rd street"
        assert first in text(app, "#status") and "Bring-in: " in text(app, "#status")
        down = "Down ##  " if variant == "5stud" else "Down ## ##  "
        assert all(down in text(app, f"#seat-{s}") for s in (2, 3, 4, 5))
        await play_out_by_keys(pilot)
        showdown = text(app, "#showdown")
        assert "from the main pot" in showdown
        if "Winner: " in showdown and variant == "razz":
            assert any(" low" in text(app, f"#seat-{s}") for s in (1, 2, 3, 4, 5))

    run(app, script)


async def wait_until(pilot: Pilot[None], condition: Callable[[], bool], what: str, timeout: float = 60) -> None:
    """Let the app run until ``condition()`` holds (an event-driven wait with a generous bound, not a guess)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        await pilot.pause(0.02)


def test_auto_deal_deals_the_next_hands_by_itself_and_the_a_key_turns_it_off() -> None:
    game = Game.create(PlayOptions(seed=5, players=3, bots=("calling-station",)))
    app = StudApp(game, delay=0, save=lambda _table, _path: None, auto_deal=0.05)

    async def fold_out(pilot: Pilot[None], hand: int) -> None:
        """Fold hand ``hand`` (bringing in first when that is the only choice) until it is over."""
        while app.game.table.hand_number == hand and app.game.in_hand:
            await wait_until(pilot, lambda: app.game.human_to_act or not app.game.in_hand, "your turn")
            if app.game.in_hand:
                await pilot.press("f" if "(f)" in " ".join(action_buttons(app)) else "b")

    async def script(pilot: Pilot[None]) -> None:
        for hand in (1, 2):  # each dealt by itself: the player only folds
            await wait_until(pilot, lambda h=hand: app.game.table.hand_number == h and app.game.in_hand, f"hand {hand}")
            await fold_out(pilot, hand)
        await wait_until(pilot, lambda: app.game.table.hand_number == 3 and app.game.human_to_act, "hand 3")
        await pilot.press("a")  # off during hand 3: nothing is planned when it ends
        assert app.auto_deal is None and "Auto-deal off" in text(app, "#message")
        await fold_out(pilot, 3)
        await pilot.pause()
        assert not app.game.in_hand and app.game.table.hand_number == 3 and app._deal_timer is None
        assert str(app.query_one("#auto-deal", Button).label) == "Auto-deal off (a)"
        await pilot.press("a")  # on again, with the same pause: the next hand comes by itself
        assert str(app.query_one("#auto-deal", Button).label) == "Auto-deal 0.05 s (a)"
        await wait_until(pilot, lambda: app.game.table.hand_number == 4, "a hand after turning it on again")

    run(app, script)


def test_the_winning_cards_are_marked_and_the_first_actor_is_named() -> None:
    app, _ = make_app(seed=11, players=3)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("n")
        await pilot.pause()
        said_first: list[str] = []

        def note() -> None:  # on your turn: said on the status line when you are first to act
            said_first.extend(line for line in text(app, "#status").splitlines() if line.endswith(" act first"))

        await play_out_by_keys(pilot, note)
        view = app.game.view()
        assert view is not None
        # every street after the first says in the log who is high on board and acts first
        firsts = [line for line in log_text(app).splitlines() if re.search(r" acts? first$", line)]
        assert len(firsts) == 4 and all(
            re.match(r"\w+ (is|are) high with .+ showing and acts? first$", f) for f in firsts
        )
        assert all(line in firsts for line in said_first)
        won = winning_cards(view)
        assert won
        for player, cards in won.items():
            seat = app.game.hand_seats[player]
            panel = app.query_one(f"#seat-{seat}", Static).content
            assert isinstance(panel, Text)
            marked = {panel.plain[s.start : s.end] for s in panel.spans if str(s.style) == WINNING_STYLE}
            assert marked == {c.symbol for c in cards}

    run(app, script)
