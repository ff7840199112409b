"""The HUD's bodies (docs/server.md "HUD"): the statistics an account may choose, the chosen keys as a preference
holds them (bounded and checked against :data:`studpoker.tracker.stats.STATS`), and a table's HUD."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from ..tracker.stats import STATS

__all__ = [
    "DEFAULT_HUD_STATS",
    "MAX_HUD_STATS",
    "Hud",
    "HudPlayer",
    "HudStat",
    "HudStats",
    "HudValue",
    "StatKey",
    "chosen_stats",
    "known_stats",
]

#: The most statistics the HUD shows a player.
MAX_HUD_STATS = 6
#: A statistic's key in a request (the keys' alphabet; unknown keys are refused by :func:`chosen_stats`).
StatKey = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z0-9_]+$", examples=["vpip"])]
#: The HUD's statistics until the account chooses: the tracker's first three.
DEFAULT_HUD_STATS: list[str] = list(STATS)[:3]


def chosen_stats(keys: list[str]) -> list[str]:
    """``keys`` without repeats; :class:`ValueError` naming the first that is not a statistic."""
    out: list[str] = []
    for key in keys:
        if key not in STATS:
            raise ValueError(f"{key!r} is not a statistic: choose among {', '.join(STATS)}")
        if key not in out:
            out.append(key)
    return out


def known_stats(keys: list[str]) -> list[str]:
    """A stored choice as it can be shown now: the keys that are still statistics, without repeats."""
    return [k for i, k in enumerate(keys) if k in STATS and k not in keys[:i]][:MAX_HUD_STATS]


class HudStat(BaseModel):
    """A statistic one may choose: its key, its label (the HUD's column head), whether it is a percentage."""

    key: str
    label: str
    percent: bool
    doc: str


class HudStats(BaseModel):
    """Every statistic the HUD offers, and how many one may choose."""

    stats: list[HudStat]
    max: int = Field(description="the most statistics one account may choose")
    default: list[str] = Field(description="the statistics shown until the account chooses")


class HudValue(BaseModel):
    key: str
    value: float | None = Field(description="the statistic (a fraction for a percentage); null: not seen yet")
    text: str = Field(description="as the HUD shows it: '34%', '1.5' or '-' when not seen yet")


class HudPlayer(BaseModel):
    """An account seated at the table (not the asker), by seat and the name the table shows."""

    seat: int
    name: str
    hands: int = Field(description="the hands of his counted in this game (n)")
    stats: list[HudValue]


class Hud(BaseModel):
    """A table's HUD as the asker sees it: nothing when his HUD is off (``on`` false)."""

    table_id: int
    variant: str = Field(description="the game the statistics are of: the table's game now")
    on: bool
    stats: list[HudStat] = Field(description="the statistics chosen, in order (the columns)")
    players: list[HudPlayer]
