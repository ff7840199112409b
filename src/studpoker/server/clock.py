"""A table's clocks: the action clock and the players' time banks, the pause between hands, and the timers that
wake the actor (a turn running out, a bot's move, the next deal).

The clock only measures and schedules: a timer that fires calls what it was given (the actor posts a job to its
inbox), so the table is still changed by the actor alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..engine import Action, ActionKind, HandState
from ..engine.events import Shown
from .context import SeatMeta, TableContext
from .protocol import Clock as Left

__all__ = ["Clock", "timed_out_action"]


def timed_out_action(legal: Sequence[Action]) -> Action:
    """What the room plays for a player whose time ran out: a muck when it asks about a hand at the showdown
    (a hand it asks about cannot win), else a check, else a fold (else the smallest legal action)."""
    kinds = {a.kind: a for a in legal}
    return (
        kinds.get(ActionKind.MUCK)
        or kinds.get(ActionKind.CHECK)
        or kinds.get(ActionKind.FOLD)
        or min(legal, key=lambda a: a.amount)
    )


class Clock:
    """The clocks of the table of ``context``; ``showdown_seconds`` is its pause after a showdown."""

    def __init__(self, context: TableContext, showdown_seconds: float) -> None:
        self.context = context
        self.settings = context.settings
        self.showdown_seconds = showdown_seconds
        self.turn_started = 0.0  # the event loop's time when the player to act was told
        self.turn_timer: asyncio.TimerHandle | None = None
        self.bot_timer: asyncio.TimerHandle | None = None
        self.start_timer: asyncio.TimerHandle | None = None
        self.not_before = 0.0  # the event loop's time before which no hand is dealt (the pause after a hand)

    @staticmethod
    def now() -> float:
        return asyncio.get_running_loop().time()

    # -- the turn ------------------------------------------------------------------------------------------

    def left(self) -> Left:
        """What is left of the clock of the player to act now (action time, then time bank)."""
        seat = self.context.table.actor_seat
        if seat is None:
            return {"action": 0.0, "bank": 0.0}
        meta = self.context.seats[seat]
        elapsed = self.now() - self.turn_started
        action = self.settings.action_seconds - elapsed
        bank = meta.time_bank + min(action, 0.0)
        return {"action": round(max(action, 0.0), 2), "bank": round(max(bank, 0.0), 2)}

    def start_turn(self) -> None:
        """The player to act was just told: the action clock starts now."""
        self.turn_started = self.now()

    def arm_turn(self, meta: SeatMeta, callback: Callable[..., Any], *args: Any) -> None:
        """Call ``callback(*args)`` when the player's action time and time bank have run out."""
        budget = self.settings.action_seconds + meta.time_bank
        self.turn_timer = asyncio.get_running_loop().call_later(budget, callback, *args)

    def arm_bot(self, delay: float, callback: Callable[..., Any], *args: Any) -> None:
        """Call ``callback(*args)`` in ``delay`` seconds: a bot's move."""
        self.bot_timer = asyncio.get_running_loop().call_later(delay, callback, *args)

    def end_turn(self, meta: SeatMeta, *, auto: bool) -> None:
        """The turn is played: its timers stop, and a player (not a bot) pays from his time bank the time he took
        beyond the action clock, or all of it when the clock ran out (``auto``)."""
        for timer in (self.turn_timer, self.bot_timer):
            if timer is not None:
                timer.cancel()
        self.turn_timer = self.bot_timer = None
        if meta.bot is None:
            elapsed = self.now() - self.turn_started
            meta.time_bank = max(0.0, meta.time_bank - max(0.0, elapsed - self.settings.action_seconds))
            if auto:
                meta.time_bank = 0.0

    def hand_over(self, players: Iterable[int], auto_seats: set[int]) -> list[int]:
        """After a hand: the time banks of its players (not bots) refill, and each counts the hands in a row the
        server acted for him (``auto_seats``). Returns the seats that timed out too often, to sit out."""
        out = []
        for seat in players:
            meta = self.context.seats.get(seat)
            if meta is None or meta.bot is not None:
                continue
            meta.time_bank = min(self.settings.time_bank, meta.time_bank + self.settings.bank_refill)
            meta.timeouts = meta.timeouts + 1 if seat in auto_seats else 0
            if meta.timeouts >= self.settings.timeouts_to_sit_out:
                out.append(seat)
        return out

    # -- between hands -------------------------------------------------------------------------------------

    def pause_after(self, state: HandState) -> float:
        """The pause before the next deal: longer after a showdown, so that the hands shown can be read. It starts
        now: a deal asked for during the hand (someone sat down) waits for it."""
        pause = self.settings.between_hands
        if any(isinstance(e, Shown) for e in state.events):
            pause = max(pause, self.showdown_seconds)
        self.cancel_start()
        self.not_before = self.now() + pause
        return pause

    def too_soon(self) -> bool:
        """Whether the pause after the last hand is still running."""
        return self.now() < self.not_before - 0.001

    def schedule_start(self, delay: float, callback: Callable[..., Any], *args: Any) -> None:
        """Call ``callback(*args)`` in ``delay`` seconds, and not before the pause after the last hand is over
        (nothing if a deal is already scheduled)."""
        if self.start_timer is None:
            wait = max(delay, self.not_before - self.now())
            self.start_timer = asyncio.get_running_loop().call_later(wait, callback, *args)

    def cancel_start(self) -> None:
        if self.start_timer is not None:
            self.start_timer.cancel()
            self.start_timer = None

    def cancel_all(self) -> None:
        """Stop every timer (the table stops or closes)."""
        for timer in (self.turn_timer, self.bot_timer, self.start_timer):
            if timer is not None:
                timer.cancel()
