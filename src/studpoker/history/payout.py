"""Paying pots after a room's rake: the engine pays whole pots; a room takes its rake first.

:func:`rake_shares` says what each pot pays of the rake, :func:`net_of_rake` shares out what is left of a pot
as the engine shared out the whole of it (same winners, halves and odd chips); :func:`raked_pots` does both for a
finished hand, pot by pot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..engine import HandState
from ..engine.pots import Pot, build_pots, split

__all__ = ["RakedPots", "net_of_rake", "rake_shares", "raked_pots"]


class RakedPots(NamedTuple):
    """A finished hand's pots, pot by pot (0 the main pot): as the engine built them (``pots``, with who can win
    each), what it paid from each (``gross``, ``awards``: (player, chips, share)), the rake each pays
    (``shares``) and what each winner takes once it is off (``payouts``: (player, chips), one per player)."""

    pots: list[Pot]
    gross: list[int]
    awards: list[list[tuple[int, int, str]]]
    shares: list[int]
    payouts: list[list[tuple[int, int]]]


def raked_pots(
    state: HandState,
    rake: int,
    *,
    odd_chip_low: bool = False,
    from_main: bool = False,
    shares: Sequence[int] | None = None,
) -> RakedPots:
    """The pots of the finished ``state`` with ``rake`` taken from them (:func:`rake_shares`, :func:`net_of_rake`;
    ``from_main``: the whole rake from the main pot, as Full Tilt takes it; ``shares``: what each pot pays, as a
    file says it)."""
    live = [not state.folded(p) for p in range(state.n)]
    pots = build_pots(state.totals, live)
    count = max([len(pots), 1, *(a.pot + 1 for a in state.awards)])
    gross = [0] * count
    awards: list[list[tuple[int, int, str]]] = [[] for _ in range(count)]
    for award in state.awards:
        gross[award.pot] += award.amount
        awards[award.pot].append((award.player, award.amount, award.share))
    if shares is None:
        shares = rake_shares(gross, rake, from_main=from_main)
    else:
        shares = [shares[i] if i < len(shares) else 0 for i in range(count)]
    unit = state.rules.chip_unit
    payouts = [
        net_of_rake(entries, g - r, unit, odd_chip_low=odd_chip_low)
        for entries, g, r in zip(awards, gross, shares, strict=True)
    ]
    return RakedPots(pots, gross, awards, shares, payouts)


def rake_shares(gross: Sequence[int], rake: int, *, from_main: bool = False) -> list[int]:
    """The rake taken from each pot: in proportion to the pots, the cents left over to the largest
    remainders, the main pot first on a tie (PokerStars' way; the default of every room that shows no other);
    ``from_main``: from the main pot, then the side pots in order should it be larger than the main pot.

    >>> rake_shares([8510, 1000], 300), rake_shares([8510, 1000], 300, from_main=True)
    ([268, 32], [300, 0])
    """
    total = sum(gross)
    if not total or not rake:
        return [0] * len(gross)
    if from_main:
        shares, left = [], rake
        for g in gross:
            shares.append(min(g, left))
            left -= shares[-1]
        return shares
    shares = [rake * g // total for g in gross]
    order = sorted(range(len(gross)), key=lambda i: (-(rake * gross[i] % total), i))
    for i in order[: rake - sum(shares)]:
        shares[i] += 1
    return shares


def net_of_rake(
    entries: Sequence[tuple[int, int, str]], net: int, unit: int, *, odd_chip_low: bool = False
) -> list[tuple[int, int]]:
    """Share out what is left of a pot after its rake as the engine shared out the whole pot: the same
    winners, halves (the odd chip high, R11.5; low for a room that does so, ``odd_chip_low``) and odd-chip
    order (R11.6); one entry per player."""
    high = [p for p, _, share in entries if share == "high"]
    low = [p for p, _, share in entries if share == "low"]
    if high and low:
        units = net // unit
        high_half = (units // 2 if odd_chip_low else units - units // 2) * unit + net % unit
        parts = split(high_half, high, unit) + split(net - high_half, low, unit)
    elif entries:
        parts = split(net, [p for p, _, _ in entries], unit)
    else:
        parts = []
    out: dict[int, int] = {}
    for player, chips in parts:
        out[player] = out.get(player, 0) + chips
    return list(out.items())
