"""The tracker's statistics, each a sum of a numerator over a sum of a denominator.

TEMPORARY, on the tracker-reports branch only: a minimal stand-in that follows the contract the reports rely on
(:class:`Stat` and :data:`STATS`, :func:`ratios`), replaced at merge by the real module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["STATS", "Stat", "ratios"]


@dataclass(frozen=True, slots=True)
class Stat:
    """One statistic: ``numerator`` over ``denominator`` (a count field's name, or a tuple of names summed)."""

    key: str
    label: str
    numerator: str | tuple[str, ...]
    denominator: str | tuple[str, ...]
    percent: bool
    doc: str


STATS: dict[str, Stat] = {
    stat.key: stat
    for stat in (
        Stat("vpip", "VPIP", "vpip", "hands", True, "hands with money put in voluntarily, of hands dealt"),
        Stat("third_raise", "3rd raise", "third_raise", "third_raise_chance", True, "raises on 3rd street"),
        Stat("steal_door", "steal", "steal", "steal_chance", True, "steal attempts by the door card"),
        Stat("wtsd", "WTSD", "showdown", "saw4", True, "showdowns, of hands that saw 4th street"),
        Stat("wsd", "W$SD", "won_showdown", "showdown", True, "showdowns won, of showdowns"),
        Stat("af", "AF", ("bets", "raises"), "calls", False, "bets and raises per call"),
        Stat("bb100", "BB/100", "net_bb", "hands", False, "big bets won per 100 hands"),
    )
}
_SCALE = {"bb100": 100.0}


def _sum(totals: Mapping[str, float], names: str | tuple[str, ...]) -> float:
    return float(totals[names]) if isinstance(names, str) else float(sum(totals[name] for name in names))


def ratios(totals: Mapping[str, float]) -> dict[str, float | None]:
    """Every statistic of one row of summed counts (``None`` where its denominator is 0)."""
    out: dict[str, float | None] = {}
    for key, stat in STATS.items():
        below = _sum(totals, stat.denominator)
        out[key] = None if not below else _sum(totals, stat.numerator) / below * _SCALE.get(key, 1.0)
    return out
