"""Pots: uncalled chips, main and side pots, and splitting a pot with odd chips (SPEC R11).

Pure functions on lists of integers; the hand state calls them at the end of a hand.

>>> uncalled([101 + 20, 101 + 12])            # TC-39: 8 of the 20 were never called
(0, 8)
>>> build_pots([1, 31, 31, 31], live=[True, True, True, False])
[Pot(amount=4, eligible=(0, 1, 2)), Pot(amount=90, eligible=(1, 2))]
>>> pots_in_play([7, 17, 7], live=[True, True, True], all_in=[False, False, False])   # no all-in: one pot
[Pot(amount=31, eligible=(0, 1, 2))]
>>> pots_in_play([5, 20, 12], live=[True, True, True], all_in=[True, False, False])   # player 0 is all-in for 5
[Pot(amount=15, eligible=(0, 1, 2)), Pot(amount=22, eligible=(1, 2))]
>>> split(101, [3, 1], unit=1)                # odd chip to the first in priority order
[(3, 51), (1, 50)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["Pot", "build_pots", "current_pots", "pots_in_play", "split", "uncalled"]


class Pot(NamedTuple):
    """A main or side pot: its chips and the live players who may win it (in position order)."""

    amount: int
    eligible: tuple[int, ...]


def uncalled(totals: Sequence[int]) -> tuple[int, int]:
    """(player, chips) of the part of the largest total that nobody matched, or (-1, 0) (R11.2)."""
    top = second = -1
    who = -1
    for p, t in enumerate(totals):
        if t > top:
            top, second, who = t, top, p
        elif t > second:
            second = t
    excess = top - second
    return (who, excess) if second >= 0 and excess > 0 else (-1, 0)


def build_pots(totals: Sequence[int], live: Sequence[bool], dead: Sequence[int] | None = None) -> list[Pot]:
    """Main pot first, then side pots, by the total contribution levels of the live players (R11.1).

    Each pot holds, from every player (folded players included), the part of his
    total between the previous level and this one; its eligible players are the
    live players whose total reaches the level. Chips above the highest live
    level (folded money that no live player matched) go into the last pot.
    ``dead``: each player's chips that are dead money in the main pot whatever his
    total (antes, when ``Rules.ante_side_pots`` is off); the levels are of the rest.

    >>> build_pots([1, 12, 12], [True, True, True], dead=[1, 2, 2])   # all-in for a short ante: dead money
    [Pot(amount=5, eligible=(0, 1, 2)), Pot(amount=20, eligible=(1, 2))]
    >>> build_pots([1, 12, 12], [True, True, True])                   # R5.2: an ante-level side pot
    [Pot(amount=3, eligible=(0, 1, 2)), Pot(amount=22, eligible=(1, 2))]
    """
    if dead is not None:
        return _with_dead(build_pots([t - d for t, d in zip(totals, dead, strict=True)], live), dead, live)
    levels = sorted({t for t, alive in zip(totals, live, strict=True) if alive and t > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(t, level) - min(t, previous) for t in totals)
        eligible = tuple(p for p, t in enumerate(totals) if live[p] and t >= level)
        pots.append(Pot(amount, eligible))
        previous = level
    extra = sum(max(0, t - previous) for t in totals)
    if extra:
        if pots:
            last = pots[-1]
            pots[-1] = Pot(last.amount + extra, last.eligible)
        else:  # nobody live contributed: the chips go to whoever is live (e.g. everyone else folded)
            pots.append(Pot(extra, tuple(p for p in range(len(totals)) if live[p])))
    return pots


def pots_in_play(
    totals: Sequence[int], live: Sequence[bool], all_in: Sequence[bool], dead: Sequence[int] | None = None
) -> list[Pot]:
    """Main and side pots while the hand is being played: a side pot starts only where an all-in player's
    total caps what he can win (R11.1); a live player who is not all-in may still match any level, so he is
    eligible everywhere. Bets not called yet sit in the last pot. At the end of a hand, once uncalled chips
    are returned, these are the pots :func:`build_pots` makes. ``dead`` as for :func:`build_pots`."""
    if dead is not None:
        wagered = [t - d for t, d in zip(totals, dead, strict=True)]
        return _with_dead(pots_in_play(wagered, live, all_in), dead, live)
    caps = sorted({t for t, alive, out in zip(totals, live, all_in, strict=True) if alive and out and t > 0})
    pots: list[Pot] = []
    previous = 0
    for level in caps:
        amount = sum(min(t, level) - min(t, previous) for t in totals)
        eligible = tuple(p for p, t in enumerate(totals) if live[p] and (t >= level or not all_in[p]))
        pots.append(Pot(amount, eligible))
        previous = level
    rest = sum(max(0, t - previous) for t in totals)
    eligible = tuple(p for p, t in enumerate(totals) if live[p] and not all_in[p])
    if eligible and (rest or not pots):
        pots.append(Pot(rest, eligible))
    elif rest and pots:  # chips above every cap that no live player can contest: folded money, to the last pot
        pots[-1] = Pot(pots[-1].amount + rest, pots[-1].eligible)
    elif rest:
        pots.append(Pot(rest, tuple(p for p in range(len(totals)) if live[p])))
    return pots


def current_pots(
    totals: Sequence[int], live: Sequence[bool], all_in: Sequence[bool], over: bool, dead: Sequence[int] | None = None
) -> list[Pot]:
    """The pots of a hand at any moment: as they were awarded once it is over (:func:`build_pots`; the stacks then
    hold the winnings, so "all-in" means nothing any more), as they stand during it (:func:`pots_in_play`)."""
    return build_pots(totals, live, dead) if over else pots_in_play(totals, live, all_in, dead)


def _with_dead(pots: list[Pot], dead: Sequence[int], live: Sequence[bool]) -> list[Pot]:
    """``pots`` with the dead money in front: every live player may win it, so it joins the main pot when all of
    them may win that too, else it is a pot of its own before it (a player all-in for his ante alone)."""
    chips = sum(dead)
    if not chips:
        return pots
    everyone = tuple(p for p, alive in enumerate(live) if alive)
    if pots and pots[0].eligible == everyone:
        return [Pot(pots[0].amount + chips, everyone), *pots[1:]]
    return [Pot(chips, everyone), *pots]


def split(amount: int, winners: Sequence[int], unit: int) -> list[tuple[int, int]]:
    """Divide ``amount`` among ``winners`` (listed in odd-chip priority order), in chips of ``unit``.

    Everyone gets the same whole number of units; the leftover units go one each
    to the first winners in the list (R11.4, R11.6).
    """
    units, rest = divmod(amount, unit)
    share, odd = divmod(units, len(winners))
    out = [(p, (share + (1 if i < odd else 0)) * unit) for i, p in enumerate(winners)]
    if rest:  # an amount that is not a whole number of units: the remainder follows the first odd chip
        p, chips = out[0]
        out[0] = (p, chips + rest)
    return out
