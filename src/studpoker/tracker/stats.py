"""The tracker's statistics: each one a sum of a numerator count over a sum of a denominator count
(:mod:`studpoker.tracker.counts`).

THIS FILE IS A PLACEHOLDER of the HUD's branch, to be replaced by the tracker's own: it keeps the contract the
card room's HUD uses (:data:`STATS` by key, each :class:`Stat` with ``key, label, numerator, denominator, percent,
doc``, and :func:`ratios` of summed counts) with two statistics only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["STATS", "Stat", "ratios"]


@dataclass(frozen=True, slots=True)
class Stat:
    """A statistic: ``numerator`` over ``denominator`` (count fields; no denominator: the numerator itself), shown
    as a percentage when ``percent``."""

    key: str
    label: str
    numerator: str
    denominator: str | None
    percent: bool
    doc: str


STATS: dict[str, Stat] = {
    s.key: s
    for s in (
        Stat("vpip", "VPIP", "vpip", "hands", True, "hands in which the player put chips in voluntarily"),
        Stat("hands", "Hands", "hands", None, False, "hands dealt to the player"),
    )
}


def ratios(totals: Mapping[str, float]) -> dict[str, float | None]:
    """Every statistic of summed counts ``totals``: a fraction (``None`` when its denominator is 0)."""
    out: dict[str, float | None] = {}
    for key, stat in STATS.items():
        top = float(totals.get(stat.numerator, 0))
        if stat.denominator is None:
            out[key] = top
            continue
        bottom = float(totals.get(stat.denominator, 0))
        out[key] = top / bottom if bottom else None
    return out
