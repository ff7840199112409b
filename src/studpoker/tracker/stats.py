"""The tracker's statistics: each one a sum of :mod:`~studpoker.tracker.counts` fields over a sum of others.

A report sums the :data:`~studpoker.tracker.counts.COUNT_FIELDS` of the rows it selects (a player, a game, stakes,
dates...) and :func:`ratios` turns the totals into every statistic of :data:`STATS`. docs/tracker.md lists them with
fpdb-3's definitions.

>>> totals = {"hands": 4, "vpip_chance": 4, "vpip": 1, "net_bb": -1.5, "bets_s4": 3, "calls_s4": 2}
>>> values = ratios(totals)
>>> values["vpip"], values["bb100"], values["af_s4"], values["three_bet"]
(0.25, -37.5, 1.5, None)
>>> STATS["vpip"].percent, STATS["af"].percent
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["STATS", "Stat", "ratios"]


@dataclass(frozen=True, slots=True)
class Stat:
    """One statistic: ``numerator`` over ``denominator``, each a count field or a tuple of fields summed
    (``"hands"`` is the count field of hands played). A ``denominator`` of ``None`` makes the statistic a total (the
    numerator alone). ``percent``: the value is a fraction shown as a percentage; otherwise it is shown as it is,
    after multiplying by ``scale`` (100 for big bets per 100 hands). ``doc``: what is counted, in one line."""

    key: str
    label: str
    numerator: str | tuple[str, ...]
    denominator: str | tuple[str, ...] | None
    percent: bool
    doc: str
    scale: float = 1.0


def _streets(prefix: str, streets: range) -> tuple[str, ...]:
    return tuple(f"{prefix}_s{s}" for s in streets)


_ORDINAL = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}


def _build() -> dict[str, Stat]:
    stats = [
        Stat(
            "vpip",
            "VPIP",
            "vpip",
            "vpip_chance",
            True,
            "called, completed or raised on 3rd street, of the hands with a decision there",
        ),
        Stat(
            "raise3",
            "3rd raise",
            "raise3",
            "vpip_chance",
            True,
            "completed, bet or raised on 3rd street, of the hands with a decision there",
        ),
        Stat(
            "three_bet",
            "3-bet",
            "three_bet",
            "three_bet_chance",
            True,
            "re-raised on 3rd street when facing a completion and one raise",
        ),
        Stat(
            "steal_seat",
            "Steal (seat)",
            "steal_seat",
            "steal_seat_chance",
            True,
            "completed an unopened pot from the last three seats before the bring-in",
        ),
        Stat(
            "steal_seat_success",
            "Steal success (seat)",
            "steal_seat_success",
            "steal_seat",
            True,
            "seat steals that everyone else folded to on 3rd street",
        ),
        Stat(
            "steal_door",
            "Steal (door card)",
            "steal_door",
            "steal_door_chance",
            True,
            "completed an unopened pot with a door card beating every live door card",
        ),
        Stat(
            "steal_door_success",
            "Steal success (door card)",
            "steal_door_success",
            "steal_door",
            True,
            "door-card steals that everyone else folded to on 3rd street",
        ),
        Stat(
            "bring_in_complete",
            "Bring-in completes",
            "bring_in_completed",
            "bring_in",
            True,
            "completed instead of posting the bring-in, of the hands he had it",
        ),
        Stat(
            "bring_in_fold",
            "Bring-in folds to completion",
            "bring_in_folded_to_completion",
            "bring_in_faced_completion",
            True,
            "the bring-in folded when someone completed (or raised) after his post",
        ),
        Stat(
            "bring_in_defend",
            "Bring-in defends",
            "bring_in_defended",
            "bring_in_faced_completion",
            True,
            "the bring-in called or raised when someone completed (or raised) after his post",
        ),
    ]
    for s in (4, 5, 6, 7):
        stats.append(Stat(f"saw{s}", f"Saw {_ORDINAL[s]}", f"saw{s}", "hands", True, f"was dealt {_ORDINAL[s]} street"))
    stats += [
        Stat("wtsd", "WTSD", "showdown", "saw4", True, "went to showdown, of the hands he saw 4th street"),
        Stat(
            "wsd",
            "W$SD",
            "won_showdown",
            "showdown",
            True,
            "won chips (a whole pot or any share) at showdown, of his showdowns",
        ),
        Stat("won_saw4", "Won when saw 4th", "won_saw4", "saw4", True, "won chips, of the hands he saw 4th street"),
        Stat(
            "af",
            "AF",
            _streets("bets", range(4, 8)),
            _streets("calls", range(4, 8)),
            False,
            "bets, raises and completions over calls, 4th to 7th street",
        ),
    ]
    for s in range(3, 8):
        stats.append(
            Stat(
                f"af_s{s}",
                f"Aggression {_ORDINAL[s]}",
                f"bets_s{s}",
                f"calls_s{s}",
                False,
                f"bets, raises and completions over calls on {_ORDINAL[s]} street",
            )
        )
    for s in range(3, 8):
        stats.append(
            Stat(
                f"fold_to_bet_s{s}",
                f"Fold to bet {_ORDINAL[s]}",
                f"fold_to_bet_s{s}",
                f"faced_bet_s{s}",
                True,
                f"folded, of the hands he faced a bet, completion or raise on {_ORDINAL[s]} street",
            )
        )
    stats += [
        Stat(
            "scoop",
            "Scoop",
            "scoop",
            "scoop_chance",
            True,
            "stud hi/lo: took every pot he was in alone, of his showdowns",
        ),
        Stat(
            "sd_after_call5",
            "Showdown after calling 5th",
            "showdown_after_call5",
            "called5",
            True,
            "went to showdown, of the hands he called a bet on 5th street",
        ),
        Stat("bb100", "BB/100", "net_bb", "hands", False, "net won in big bets per 100 hands", 100.0),
        Stat(
            "ev_bb100",
            "EV BB/100",
            "allin_ev_bb",
            "hands",
            False,
            "net won in big bets per 100 hands, all-ins counted at their equity",
            100.0,
        ),
        Stat("net", "Net", "net", None, False, "chips won less chips put in, after rake (a total)"),
        Stat(
            "expected",
            "EV net",
            "allin_ev",
            None,
            False,
            "net won with each shown all-in counted at its equity (a total)",
        ),
        Stat(
            "allin", "Shown all-ins", "allin", None, False, "hands he was all-in with every live hand shown (a total)"
        ),
    ]
    return {stat.key: stat for stat in stats}


#: Every statistic, by key, in the order a report shows them.
STATS: dict[str, Stat] = _build()


def _total(totals: Mapping[str, float], names: str | tuple[str, ...]) -> float:
    if isinstance(names, str):
        return totals.get(names, 0)
    return sum(totals.get(name, 0) for name in names)


def ratios(totals: Mapping[str, float]) -> dict[str, float | None]:
    """Every statistic of :data:`STATS` from the totals of the count fields (a missing field counts 0): the
    numerator over the denominator, times the statistic's ``scale`` (a percentage stays a fraction: 0.25 is 25 %);
    ``None`` where the denominator is 0."""
    out: dict[str, float | None] = {}
    for key, stat in STATS.items():
        top = _total(totals, stat.numerator)
        if stat.denominator is None:
            out[key] = top * stat.scale
            continue
        bottom = _total(totals, stat.denominator)
        out[key] = top * stat.scale / bottom if bottom else None
    return out
