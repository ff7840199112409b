"""The terminal game on the classic 80x24 terminal (and a larger one): what the screen really shows, read back from
the rendered screen, not from the widgets' content. Every seat's name, stack, cards and markers; the showdown; the
log's long lines wrapped, not cut; and a terminal too small for the table is told so before the first hand.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot
from textual.widgets import Button, Static

from studpoker.engine import Phase
from studpoker.tui.app import HandLog, StudApp
from studpoker.tui.game import Game, PlayOptions
from studpoker.tui.render import SeatInfo, card_text, result_lines

Script = Callable[[Pilot[None]], Awaitable[None]]


def make_app(*, seed: int, players: int, variant: str = "7stud") -> StudApp:
    game = Game.create(PlayOptions(seed=seed, players=players, variant=variant, bots=("calling-station",)))
    return StudApp(game, delay=0)


def run(app: StudApp, script: Script, size: tuple[int, int]) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def screen(app: StudApp) -> list[str]:
    """The terminal's lines as they are drawn now."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def region_text(app: StudApp, selector: str) -> str:
    """What the screen shows inside a widget's content region, its lines joined by spaces (a wrapped line joins
    up again), spaces squeezed."""
    region = app.query_one(selector).content_region
    lines = screen(app)[region.y : region.bottom]
    return " ".join(" ".join(line[region.x : region.right].split()) for line in lines)


def seat_screen_rows(app: StudApp, info: SeatInfo) -> str:
    """The screen lines of one seat: the line that starts with its number and name, and the next one (the words
    of a shown hand may be there)."""
    lines = screen(app)
    head = re.compile(rf" +{info.number} {re.escape(info.name)} ")  # seat numbers are right-aligned
    starts = [i for i, line in enumerate(lines) if head.match(line)]
    assert len(starts) == 1, f"seat {info.number} ({info.name}) is not on the screen:\n" + "\n".join(lines)
    row = lines[starts[0]]
    following = lines[starts[0] + 1] if starts[0] + 1 < len(lines) else ""
    return row + ("\n" + following if following.startswith("   ") else "")


def check_seats(app: StudApp) -> None:
    """Every seat on the screen with its name, stack, every card it may show, its markers and its shown hand."""
    width = app.size.width
    assert all(len(line) <= width for line in screen(app))
    for info in app.game.seat_infos():
        rows = seat_screen_rows(app, info)
        assert re.search(rf"\b{info.stack}\b", rows.split("\n")[0]), rows
        if info.player is not None:
            for cards in (info.down, info.up):  # each card in the order dealt, '##' for a card not to be seen
                assert " ".join(card_text(c) for c in cards) in rows, (cards, rows)
            assert "##" not in rows or any(c is None for c in info.down)
        for marker, shown in (
            (">> TO ACT", info.to_act),
            ("BRING-IN", info.bring_in),
            ("folded", info.folded),
            (f"won {info.winnings}", info.winnings > 0),
        ):
            assert (marker in rows) is shown, (marker, rows)
        if info.words:
            assert info.words in " ".join(rows.split()), rows


def check_log(app: StudApp) -> None:
    """Every line of the hand log is in the panel whole: wrapped at its width, never wider, nothing cut."""
    log = app.query_one("#log", HandLog)
    width = log.scrollable_content_region.width
    assert all(strip.cell_length <= width for strip in log.lines)
    assert log.max_scroll_x == 0
    rendered = " ".join(" ".join(strip.text.split()) for strip in log.lines)
    for line in log.history:
        assert " ".join(line.split()) in rendered, line
    long_lines = [line for line in log.history if len(line) > width]
    assert long_lines, "the test wants a line longer than the panel"
    visible = region_text(app, "#log")
    last_long = long_lines[-1]
    if log.history.index(last_long) >= len(log.history) - 3:  # near the end: it is on the screen, wrapped
        assert " ".join(last_long.split()) in visible, (last_long, visible)


async def play_to_the_end(pilot: Pilot[None], check: Callable[[], None], fold: bool = False) -> set[int]:
    """Check or call (or fold at the first chance, with ``fold``) until the hand is over, checking the screen at
    every decision; the streets seen."""
    app: StudApp = pilot.app  # type: ignore[assignment]
    streets: set[int] = set()
    for _ in range(80):
        if not app.game.in_hand:
            return streets
        view = app.game.view()
        assert view is not None
        streets.add(view.street)
        check()
        labels = {str(b.label) for b in app.query("#actions Button").results(Button) if b.display}
        keys = " ".join(labels)
        await pilot.press("f" if fold and "(f)" in keys else "c" if "(c)" in keys else "b")
        await pilot.pause()
    raise AssertionError("the hand did not end")


def check_showdown(app: StudApp) -> None:
    view = app.game.view()
    assert view is not None and view.phase is Phase.OVER
    centre = region_text(app, "#centre")
    for line in ["Hand #" + str(app.game.table.hand_number) + " is over", *result_lines(view, app.game.names)]:
        assert " ".join(line.split()) in centre, (line, centre)


def test_the_classic_terminal_shows_every_seat_the_showdown_and_the_log() -> None:
    app = make_app(seed=3, players=6)

    async def script(pilot: Pilot[None]) -> None:
        assert "too small" not in str(app.query_one("#message", Static).content)
        await pilot.press("n")
        await pilot.pause()
        streets = await play_to_the_end(pilot, lambda: check_seats(app))
        assert 7 in streets  # up to 7th street: four up cards and three down on every seat
        assert sum(bool(info.words) for info in app.game.seat_infos()) >= 3  # a showdown of several players
        check_seats(app)
        check_showdown(app)
        check_log(app)
        await pilot.press("n")  # the next hand: you fold, the bots play on
        await pilot.pause()
        await play_to_the_end(pilot, lambda: check_seats(app), fold=True)
        assert app.game.seat_infos()[0].folded
        check_seats(app)
        check_showdown(app)
        check_log(app)

    run(app, script, (80, 24))


@pytest.mark.parametrize(("variant", "players", "seed"), [("7stud8", 8, 5), ("razz", 8, 2), ("5stud", 8, 4)])
def test_the_classic_terminal_holds_eight_players(variant: str, players: int, seed: int) -> None:
    app = make_app(seed=seed, players=players, variant=variant)

    async def script(pilot: Pilot[None]) -> None:
        assert "too small" not in str(app.query_one("#message", Static).content)
        await pilot.press("n")
        await pilot.pause()
        await play_to_the_end(pilot, lambda: check_seats(app))
        check_seats(app)
        check_showdown(app)
        check_log(app)

    run(app, script, (80, 24))


def test_a_large_terminal_shows_the_bots_and_the_labels() -> None:
    app = make_app(seed=3, players=6)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("n")
        await pilot.pause()
        rows = "\n".join(screen(app))
        assert " 2 Bob · calling-station  Stack 199  " in rows and "Down ## ##  Up " in rows
        await play_to_the_end(pilot, lambda: check_seats(app))
        check_seats(app)
        assert all(
            "\n" not in seat_screen_rows(app, info) for info in app.game.seat_infos()
        )  # the words on the seat's own line
        check_showdown(app)
        check_log(app)

    run(app, script, (120, 40))


def test_a_terminal_too_small_is_told_before_play_and_the_log_wraps_again() -> None:
    app = make_app(seed=4, players=10, variant="5stud")

    async def script(pilot: Pilot[None]) -> None:
        message = region_text(app, "#message")
        assert "The terminal is too small: 80x24. 10 players need 80x28" in message
        assert not app.game.table.hands  # before the first hand
        await pilot.press("n")
        await pilot.pause()
        await play_to_the_end(pilot, lambda: None)
        await pilot.resize_terminal(100, 28)
        await pilot.pause()
        assert "too small" not in str(app.query_one("#message", Static).content)
        check_seats(app)
        check_showdown(app)
        check_log(app)  # wrapped again at the new width
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "too small" in str(app.query_one("#message", Static).content)
        check_seats(app)  # laid out again for 80 columns
        check_log(app)

    run(app, script, (80, 24))
