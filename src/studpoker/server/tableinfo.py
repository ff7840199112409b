"""A table's object in the API (``TableInfo``), made by its actor, or on a gateway from the table's row."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from ..engine import Rules
from ..rotation import Rotation, Turn
from . import wire
from .limits import MAX_SHOWDOWN_SECONDS
from .protocol import Mix, MixGame, Stakes, TableSummary

if TYPE_CHECKING:
    from .config import Settings

__all__ = ["Sign", "mix_info", "showdown_pause", "table_info"]


class Sign(Protocol):
    """What a table's info is made of besides its rules: an actor's fields, or a table row's."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def preset(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def created_by(self) -> int | None: ...
    @property
    def showdown_seconds(self) -> float | None: ...
    @property
    def training(self) -> bool: ...
    @property
    def tournament_id(self) -> int | None: ...


def showdown_pause(stored: float | None, settings: Settings) -> float:
    """A table's pause after a showdown: its stored one, bounded again, or the room's."""
    if stored is not None and math.isfinite(stored):
        return min(max(float(stored), 0.0), MAX_SHOWDOWN_SECONDS)
    return settings.showdown_seconds


def _stakes(rules: Rules) -> Stakes:
    return {"ante": rules.ante, "bring_in": rules.bring_in, "small_bet": rules.small_bet, "big_bet": rules.big_bet}


def mix_info(rotation: Rotation, turn: Turn, *, playing: bool) -> Mix:
    """A mixed table's sign: its games, the game now and next, the hands left of the game now."""
    now, after, left = rotation.standing(turn, in_hand=playing)
    games: list[MixGame] = [
        {
            "variant": game.variant.value,
            "variant_name": game.variant.title,
            "stakes": _stakes(game),
            "stakes_text": wire.stakes_text(game),
        }
        for game in rotation.games
    ]
    return {
        "name": rotation.name,
        "every": rotation.every,
        "games": games,
        "now": now,
        "next": after,
        "hands_left": left,
    }


def table_info(
    sign: Sign,
    rules: Rules | Rotation,
    settings: Settings,
    *,
    seats_taken: int,
    hands_played: int,
    pots: Iterable[int],
    playing: bool,
    waiting: int = 0,
    turn: Turn | None = None,
) -> TableSummary:
    """The table object of the API (``TableInfo``), for an actor or, on a gateway, from a table's row. At a mixed
    table (``rules`` a rotation standing at ``turn``) the variant and stakes are the game now's, and ``mix`` tells
    the rotation."""
    pots = list(pots)
    mix = None
    low: int | None
    high: int | None
    if isinstance(rules, Rotation):
        rotation, turn = rules, turn or rules.start
        mix = mix_info(rotation, turn, playing=playing)
        rules = rotation.games[mix["now"]]
        low, high, seats = rotation.min_buy_in, rotation.max_buy_in, rotation.max_seats
    else:
        low, high, seats = rules.min_buy_in, rules.max_buy_in, rules.max_seats or 0
    return {
        "id": sign.id,
        "name": sign.name,
        "variant": rules.variant.value,
        "variant_name": rules.variant.title,
        "preset": sign.preset,
        "stakes": _stakes(rules),
        "stakes_text": wire.stakes_text(rules),
        "min_buy_in": low,
        "max_buy_in": high,
        "max_seats": seats,  # never None: the rules fill it in from the game
        "seats_taken": seats_taken,
        "hands_played": hands_played,
        "average_pot": round(sum(pots) / len(pots)) if pots else 0,
        "playing": playing,
        "status": sign.status,
        "created_by": sign.created_by,
        "clock": {"action": settings.action_seconds, "bank": settings.time_bank},
        "showdown_seconds": showdown_pause(sign.showdown_seconds, settings),
        "training": bool(sign.training),
        "waiting": waiting,
        "mix": mix,
        "tournament_id": sign.tournament_id,
    }
