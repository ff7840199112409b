"""The bot interface and the simple built-in bots."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from ..engine import Action, ActionKind, Rules, View

if TYPE_CHECKING:
    from ..table import Table

__all__ = ["BOT_TAGS", "Bot", "BotError", "CallingStation", "RandomBot", "make_bot", "play_hand"]


class BotError(RuntimeError):
    """A bot that failed to answer, or answered with an action that is not legal."""


class Bot:
    """A player program. :meth:`act` gets the acting seat's :class:`~studpoker.engine.View` (its own down cards,
    everyone's up cards, chips, the legal actions) and returns one of ``view.legal_actions``.

    Subclasses set ``tag`` (a short name for menus and ``stud play --bots``). :meth:`new_hand` and
    :meth:`hand_over` are optional hooks; :meth:`close` releases resources (external processes).
    """

    tag = "bot"

    def act(self, view: View) -> Action:
        raise NotImplementedError

    def new_hand(self, view: View) -> None:
        """Called when a hand starts with this bot dealt in (default: nothing)."""

    def hand_over(self, view: View) -> None:
        """Called with the final view of a hand this bot was dealt into (default: nothing)."""

    def close(self) -> None:
        """Release what the bot holds (default: nothing)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.tag!r}>"


class RandomBot(Bot):
    """Picks uniformly among the legal actions (reproducible with ``seed``)."""

    tag = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def act(self, view: View) -> Action:
        return self._random.choice(view.legal_actions)


class CallingStation(Bot):
    """Never folds, never raises: brings in, checks or calls to the end (shows at showdown)."""

    tag = "calling-station"

    def act(self, view: View) -> Action:
        by_kind = {a.kind: a for a in view.legal_actions}
        for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN, ActionKind.SHOW):
            if kind in by_kind:
                return by_kind[kind]
        return view.legal_actions[0]  # e.g. a completion forced on a short bring-in (R5.6)


def _tight_aggressive(seed: int | None) -> Bot:
    from .tag import TightAggressive

    return TightAggressive(seed=seed)


#: Bot tags and their factories (each takes a seed, or ``None``).
BOT_TAGS: Mapping[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "calling-station": lambda seed: CallingStation(),
    "tight-aggressive": _tight_aggressive,
}


def make_bot(tag: str, seed: int | None = None, *, rules: Rules | None = None) -> Bot:
    """A built-in bot by tag, or ``external:COMMAND`` for a program speaking the JSON-lines protocol
    (:class:`~studpoker.bots.external.ExternalBot`, told ``rules`` in its greeting); :class:`BotError`
    names the tags for an unknown one."""
    if tag.startswith("external:"):
        from .external import ExternalBot

        return ExternalBot(tag.removeprefix("external:").strip(), seed=seed, rules=rules)
    try:
        factory = BOT_TAGS[tag]
    except KeyError:
        raise BotError(f"unknown bot {tag!r}: choose from {', '.join(BOT_TAGS)}, or external:COMMAND") from None
    return factory(seed)


def play_hand(table: Table, bots: Mapping[int, Bot]) -> None:
    """Start the table's next hand and let the bots (by seat number) play it to the end.

    A bot that returns an action that is not legal raises :class:`BotError` naming the bot, the seat and
    the action (the hand is left as it was before that action).
    """
    table.start_hand()
    for seat in table.players:
        view = table.view(seat)
        if view is not None:
            bots[seat].new_hand(view)
    players = table.players
    while table.hand is not None:
        actor = table.actor_seat
        assert actor is not None
        now = table.view(actor)
        assert now is not None
        action = bots[actor].act(now)
        if action not in now.legal_actions:
            raise BotError(
                f"{bots[actor]!r} in seat {actor} chose {action}, which is not legal;"
                f" legal: {', '.join(str(a) for a in now.legal_actions)}"
            )
        table.act(action)
    last = table.hands[-1].state
    for p, seat in enumerate(players):
        bots[seat].hand_over(last.view(p))
