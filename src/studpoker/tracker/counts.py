"""One player's counts in one hand: what a tracker stores per hand and per player, so that every statistic is a sum
of a numerator over a sum of a denominator (:mod:`studpoker.tracker.stats`).

The contract (the store, the reports and the card room's HUD rely on it):

* :class:`PlayerHand` is a frozen dataclass: ``player`` (the name), ``seat``, ``door_card`` (a card string or
  ``""``), then only ``int`` and ``float`` count fields, each summable over hands;
* :func:`player_hands` gives the rows of one replayed hand, one per player dealt in, in the record's order;
* :data:`COUNT_FIELDS` names the count fields in order (``dataclasses.fields`` after the three above).

THIS FILE IS A PLACEHOLDER being written now: the field list below is the first proposal.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..history.model import HandRecord
from ..history.replay import ReplayResult

__all__ = ["COUNT_FIELDS", "PlayerHand", "player_hands"]


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One player's counts in one hand (flags are 0 or 1; amounts in chips)."""

    player: str
    seat: int
    door_card: str
    hands: int = 1
    vpip: int = 0
    net: int = 0
    net_bb: float = 0.0
    # Added on the tracker-reports branch only, so that the reports and graphs can be tested before the real
    # fields arrive (all zero here but allin_ev, which equals net without a shown all-in, and street_reached):
    saw4: int = 0
    showdown: int = 0
    won_showdown: int = 0
    allin: int = 0
    allin_ev: float = 0.0
    street_reached: int = 3
    bring_in_position: int = 0
    third_raise_chance: int = 0
    third_raise: int = 0
    steal_chance: int = 0
    steal: int = 0
    bets: int = 0
    raises: int = 0
    calls: int = 0


IDENTITY = ("player", "seat", "door_card")
COUNT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(PlayerHand) if f.name not in IDENTITY)


def player_hands(record: HandRecord, result: ReplayResult) -> list[PlayerHand]:
    """The rows of one verified hand (placeholder: hands and net only)."""
    out = []
    state = result.state
    for p in range(record.n):
        net = state.stacks[p] - record.starting_stacks[p]
        name = record.players[p] if p < len(record.players) else f"p{p + 1}"
        seat = record.seats[p] if p < len(record.seats) else p + 1
        out.append(PlayerHand(name, seat, "", net=net, net_bb=net / max(1, record.rules.big_bet), allin_ev=float(net)))
    return out
