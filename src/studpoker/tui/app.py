"""The Textual application of ``stud play``: the table on one screen, the human in seat 1, bots in the others.

The screen draws only what :class:`~studpoker.tui.game.Game` gives it (the human's view of the hand), as text
made by the pure functions of :mod:`studpoker.tui.render`. Bots act on a timer (``delay`` seconds; 0 acts at
once, as the tests do). With auto-deal on (``auto_deal`` seconds, or the ``a`` key) the next hand is dealt that
long after a hand ends. Leaving plays the current hand out (the human folds), saves the session and exits.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Button, Footer, RichLog, Static

from ..engine import Action, Stud5Opening, Variant
from ..engine.errors import EngineError
from ..table import Table, TableError
from .game import Game
from .render import (
    action_keys,
    button_label,
    card_spans,
    game_title,
    log_lines,
    result_lines,
    screen_size,
    seat_rows,
    status_lines,
)

__all__ = ["AUTO_DEAL_SECONDS", "LOG_LINES", "MAX_BUTTONS", "HandLog", "SaveFunction", "StudApp"]

#: Action buttons on screen (the most legal actions at once is five: fold, call, complete both sizes, raise).
MAX_BUTTONS = 6

#: Lines of the hand log kept (older ones scroll away).
LOG_LINES = 2000

SaveFunction = Callable[[Table, Path], None]

#: The pause before the next hand when auto-deal is turned on with the ``a`` key (time to read the showdown).
AUTO_DEAL_SECONDS = 3.0
#: How the cards that won a pot are marked on their seat's row.
WINNING_STYLE = "bold black on green"

_RED = re.compile(r"[AKQJT2-9][♥♦]|[AKQJT2-9][hd]\b")


def _styled(lines: list[str], marks: list[tuple[int, int]] | None = None) -> Text:
    """Lines as one rich text, hearts and diamonds in red; ``marks``, spans of the first line, in
    :data:`WINNING_STYLE` (the cards that won)."""
    text = Text("\n".join(lines))
    text.highlight_regex(_RED, "bold red")
    for begin, end in marks or ():
        text.stylize(WINNING_STYLE, begin, end)
    return text


class HandLog(RichLog):
    """The hand log: long lines wrap at the panel's width (never cut), and wrap again when the panel is resized."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, max_lines=LOG_LINES, wrap=True, min_width=1)
        self.history: deque[str] = deque(maxlen=LOG_LINES)
        self._width = 0

    def add(self, lines: list[str]) -> None:
        for line in lines:
            self.history.append(line)
            self.write(_styled([line]))

    def on_resize(self, event: events.Resize) -> None:
        if self._width and event.size.width != self._width:  # lines already wrapped at the old width
            self.clear()
            for line in self.history:
                self.write(_styled([line]))
        self._width = event.size.width


def _default_save(table: Table, path: Path) -> None:
    from ..history.session import save_session

    save_session(table, path)


class StudApp(App[None]):
    """The stud table: seats, the pot and whose turn, the hand log, action buttons and between-hands buttons."""

    TITLE = "studpoker"
    # Laid out for 80x24 and up (render.screen_size): a one-line title, a row a seat, the table and the log side
    # by side, one line of buttons and the key line. Nothing is cut: rows and lines wrap; the table scrolls.
    CSS = """
    #title { height: auto; padding: 0 1; background: $panel; text-style: bold; }
    #seats { height: auto; border-bottom: solid $panel-lighten-2; }
    .seat { height: auto; padding: 0 1; }
    .seat.you { text-style: bold; }
    .seat.acting { background: $warning 30%; }
    .seat.folded { color: $text-muted; }
    #middle { height: 1fr; }
    #centre { width: 1fr; height: 1fr; }
    #status { height: auto; padding: 0 1; color: $text-primary; }
    #showdown { height: auto; padding: 0 1; }
    #message { height: auto; padding: 0 1; color: $warning; }
    #log { width: 1fr; height: 1fr; border: round $panel-lighten-2; scrollbar-size-vertical: 1; }
    #actions, #between { height: 1; }
    #actions Button, #between Button { margin: 0 1 0 0; min-width: 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(k, f"shortcut('{k}')", show=False) for k in "fcbrsm123456"),
        Binding("n", "deal", "Deal"),
        Binding("a", "auto_deal", "Auto-deal"),
        Binding("t", "top_up", "Top up"),
        Binding("o", "sit", "Sit out/in"),
        Binding("q", "leave", "Leave"),
    ]

    def __init__(
        self,
        game: Game,
        *,
        delay: float = 0.5,
        save_path: Path | None = None,
        save: SaveFunction | None = None,
        symbols: bool = True,
        auto_deal: float | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.delay = delay
        #: Seconds from the end of a hand to the next deal, or ``None``: the player deals (n).
        self.auto_deal = auto_deal
        self._auto_pause = auto_deal
        self._deal_timer: Timer | None = None
        self.save_path = save_path
        self._save_function = save or _default_save
        self.symbols = symbols
        self.saved_path: Path | None = None
        self.save_error: str | None = None
        self._actions: tuple[Action, ...] = ()
        self._timer: Timer | None = None
        self._logged_hand = 0
        self._logged_lines = 0
        self._leave_armed = False
        self._message = ""
        self._size_note = ""
        self._width = 0
        self._drawn = False

    # -- layout ---------------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static("", id="title", markup=False)
        with Vertical(id="seats"):
            for seat in self.game.table.occupied:
                yield Static("", id=f"seat-{seat.number}", classes="seat", markup=False)
        with Horizontal(id="middle"):
            with VerticalScroll(id="centre"):
                yield Static("", id="status", markup=False)
                yield Static("", id="showdown", markup=False)
                yield Static("", id="message", markup=False)
            yield HandLog(id="log")
        with Horizontal(id="actions"):
            for i in range(1, MAX_BUTTONS + 1):
                yield Button("", id=f"act-{i}", compact=True)
        with Horizontal(id="between"):
            yield Button("Deal (n)", id="deal", variant="primary", compact=True)
            yield Button("Auto-deal off (a)", id="auto-deal", compact=True)
            yield Button("Top up (t)", id="top-up", compact=True)
            yield Button("Sit out (o)", id="sit", compact=True)
            yield Button("Leave (q)", id="leave", variant="error", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        rules = self.game.table.rules
        self.title = game_title(
            rules.variant, rules.small_bet, rules.big_bet, rules.ante, rules.bring_in, self.game.preset
        )
        self._message = "Welcome! Press n (or the Deal button) to deal; q leaves and saves the session."
        if self.auto_deal is not None:
            self._message = (
                f"Welcome! The first hand is dealt in {self.auto_deal:g} s (auto-deal: a turns it off, n deals now);"
                " q leaves and saves the session."
            )
            self._plan_deal()
        self._check_size(*self.size)
        self._refresh()
        self._drawn = True

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(*event.size)
        if self._drawn:
            self._refresh()  # the seat rows are laid out for the new width

    def _check_size(self, width: int, height: int) -> None:
        """Note the terminal's width (the seat rows are laid out for it), and say on the message line, from the
        start, when the terminal is smaller than the table needs."""
        self._width = width
        columns, rows = screen_size(len(self.game.table.occupied))
        if width >= columns and height >= rows:
            self._size_note = ""
        else:
            self._size_note = (
                f"The terminal is too small: {width}x{height}. {len(self.game.table.occupied)} players need "
                f"{columns}x{rows} for every seat and a whole showdown to be sure to fit: enlarge the window "
                "(meanwhile this panel scrolls)."
            )

    # -- drawing ----------------------------------------------------------------------------------------------

    def _refresh(self) -> None:
        game = self.game
        view = game.view()
        names = game.names
        self.query_one("#title", Static).update(self.title)  # the hand number is on the status line
        infos = game.seat_infos()
        for info, lines in zip(infos, seat_rows(infos, max(self._width - 2, 0), self.symbols), strict=True):
            panel = self.query_one(f"#seat-{info.number}", Static)
            after_name = lines[0].find(info.name) + len(info.name)
            panel.update(_styled(lines, card_spans(lines[0], after_name, info.best, self.symbols)))
            panel.set_class(info.you, "you")
            panel.set_class(info.to_act, "acting")
            panel.set_class(info.folded, "folded")
        self.query_one("#status", Static).update(
            _styled(status_lines(view, names, game.table.hand_number, self.symbols))
        )
        showdown = result_lines(view, names) if view is not None and not game.in_hand else []
        self.query_one("#showdown", Static).update(_styled(showdown))
        for notice in game.notices:
            self._message = (self._message + "\n" + notice).strip()
        game.notices.clear()
        self.query_one("#message", Static).update("\n".join(m for m in (self._size_note, self._message) if m))
        self._write_log()
        self._draw_buttons()

    def _write_log(self) -> None:
        game = self.game
        view = game.view()
        if view is None:
            return
        log = self.query_one("#log", HandLog)
        number = game.table.hand_number
        if number != self._logged_hand:
            log.add([f"===== Hand #{number} ====="])
            self._logged_hand, self._logged_lines = number, 0
        rules = game.table.rules
        high_card_opens = rules.variant is Variant.STUD5 and rules.stud5_opening is Stud5Opening.HIGH_CARD_OPENS
        lines = log_lines(view.events, game.names, view.variant, self.symbols, bring_in=not high_card_opens)
        if len(lines) > self._logged_lines:
            log.add(lines[self._logged_lines :])
            self._logged_lines = len(lines)

    def _draw_buttons(self) -> None:
        game = self.game
        in_hand = game.in_hand
        self.query_one("#actions").display = in_hand
        self.query_one("#between").display = not in_hand
        view = game.view() if game.human_to_act else None
        self._actions = view.legal_actions[:MAX_BUTTONS] if view is not None else ()
        keys = action_keys(self._actions)
        for i in range(1, MAX_BUTTONS + 1):
            button = self.query_one(f"#act-{i}", Button)
            if i <= len(self._actions):
                assert view is not None
                action = self._actions[i - 1]
                button.label = button_label(action, view.cost(action), i, keys[i - 1])
                button.display = True
            else:
                button.display = False
        if not in_hand:
            amount = game.top_up_amount()
            top_up = self.query_one("#top-up", Button)
            top_up.label = f"Rebuy {amount} (t)" if game.busted else f"Top up +{amount} (t)"
            top_up.disabled = amount <= 0
            self.query_one("#deal", Button).disabled = not game.can_deal
            self.query_one("#sit", Button).label = "Sit in (o)" if game.sitting_out else "Sit out (o)"
            auto = self.query_one("#auto-deal", Button)
            auto.label = f"Auto-deal {self.auto_deal:g} s (a)" if self.auto_deal is not None else "Auto-deal off (a)"

    def _say(self, message: str) -> None:
        self._message = message
        self._refresh()

    # -- playing ----------------------------------------------------------------------------------------------

    def _advance(self) -> None:
        """Let the bots act until it is the human's turn or the hand is over (one per timer tick if delayed)."""
        game = self.game
        while game.bot_to_act:
            if self.delay > 0:
                if self._timer is None:
                    self._timer = self.set_timer(self.delay, self._bot_tick)
                break
            game.step_bot()
        if not game.in_hand:
            self._after_hand()
        self._refresh()

    def _bot_tick(self) -> None:
        self._timer = None
        self.game.step_bot()
        self._advance()

    def _after_hand(self) -> None:
        game = self.game
        if game.busted:
            self._message = f"You are out of chips: press t to rebuy {game.top_up_amount()}, or q to leave."
        elif game.sitting_out and not game.table.can_start:
            self._message = "You are sitting out: press o to sit in."
        self._plan_deal()

    def _plan_deal(self) -> None:
        """With auto-deal on, deal the next hand ``auto_deal`` seconds from now (once; a deal by hand, turning it
        off or leaving cancels it)."""
        if self.auto_deal is None or self._deal_timer is not None or self.game.in_hand or not self.game.can_deal:
            return
        self._deal_timer = self.set_timer(self.auto_deal, self._auto_deal_tick)

    def _cancel_deal(self) -> None:
        if self._deal_timer is not None:
            self._deal_timer.stop()
            self._deal_timer = None

    def _auto_deal_tick(self) -> None:
        self._deal_timer = None
        if self.auto_deal is not None and not self.game.in_hand and self.game.can_deal:
            self.action_deal()

    def action_auto_deal(self) -> None:
        """Turn auto-deal on (:data:`AUTO_DEAL_SECONDS` unless ``stud play --auto-deal`` chose a pause) or off."""
        if self.auto_deal is None:
            self.auto_deal = self._auto_pause if self._auto_pause is not None else AUTO_DEAL_SECONDS
            self._say(f"Auto-deal on: the next hand is dealt {self.auto_deal:g} s after a hand ends (a turns it off).")
            self._plan_deal()
        else:
            self._auto_pause, self.auto_deal = self.auto_deal, None
            self._cancel_deal()
            self._say("Auto-deal off: press n to deal.")

    def _human_act(self, action: Action) -> None:
        try:
            self.game.act(action)
        except (EngineError, TableError) as error:
            self._say(str(error))
            return
        self._message = ""
        self._leave_armed = False
        self._advance()

    def action_shortcut(self, key: str) -> None:
        """An action key: a digit for the button in that place, or the letter shown on the button."""
        if not self.game.human_to_act:
            return
        if key.isdigit():
            index = int(key) - 1
        else:
            keys = action_keys(self._actions)
            if key not in keys:
                return
            index = keys.index(key)
        if 0 <= index < len(self._actions):
            self._human_act(self._actions[index])

    def on_button_pressed(self, event: Button.Pressed) -> None:
        ident = event.button.id or ""
        if ident.startswith("act-"):
            self.action_shortcut(ident.removeprefix("act-"))
        elif ident == "deal":
            self.action_deal()
        elif ident == "auto-deal":
            self.action_auto_deal()
        elif ident == "top-up":
            self.action_top_up()
        elif ident == "sit":
            self.action_sit()
        elif ident == "leave":
            self.action_leave()

    def action_deal(self) -> None:
        game = self.game
        if game.in_hand:
            return
        self._cancel_deal()
        if game.busted:
            self._say(f"You are out of chips: press t to rebuy {game.top_up_amount()}, or q to leave.")
            return
        try:
            game.deal()
        except TableError as error:
            self._say(str(error))
            return
        self._message = ""
        self._leave_armed = False
        self._advance()

    def action_top_up(self) -> None:
        try:
            self._say(self.game.top_up())
        except TableError as error:
            self._say(str(error))
        self._plan_deal()  # a rebuy lets auto-deal go on

    def action_sit(self) -> None:
        if self.game.in_hand:
            self._say("Sitting out takes effect between hands: press o when this hand is over.")
            return
        self._say(self.game.toggle_sit_out())
        self._plan_deal()

    def action_leave(self) -> None:
        """Leave the table: between hands at once; during a hand on the second press (you fold)."""
        if self.game.in_hand and self.game.human in self.game.table.players and not self._leave_armed:
            self._leave_armed = True
            self._say("Press q again to fold this hand and leave the table.")
            return
        self._leave()

    async def action_quit(self) -> None:
        self._leave()

    def _leave(self) -> None:
        self._cancel_deal()
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        try:
            self.game.finish_hand()
        except (EngineError, TableError) as error:  # pragma: no cover - the engine never refuses a fold
            self.save_error = f"the last hand could not be finished: {error}"
        self.save()
        self.exit()

    def save(self) -> None:
        """Write the session to ``save_path`` (if any, and if a hand was played) between hands; failures are kept
        in ``save_error``."""
        if self.save_path is None or self.game.in_hand or self.saved_path is not None:
            return
        if not self.game.table.hands:  # nothing was played: no file
            return
        try:
            self._save_function(self.game.table, self.save_path)
        except (ImportError, OSError, ValueError) as error:
            self.save_error = f"could not save the session to {self.save_path}: {error}"
        else:
            self.saved_path = self.save_path
