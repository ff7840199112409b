"""One player's counts in one hand: what a tracker stores per hand and per player, so that every statistic is a sum
of a numerator over a sum of a denominator (:mod:`studpoker.tracker.stats`).

The contract (the store, the reports and the card room's HUD rely on it):

* :class:`PlayerHand` is a frozen dataclass: ``player`` (the name), ``seat``, ``door_card`` (a card string or
  ``""``), then only ``int`` and ``float`` count fields, each summable over hands;
* :func:`player_hands` gives the rows of one replayed hand, one per player dealt in, in the record's order;
  :func:`count_rows` (:mod:`studpoker.tracker.tally`, compiled) the same rows as plain tuples of the fields;
* :data:`COUNT_FIELDS` names the count fields in order (``dataclasses.fields`` after the three above).

Streets are named as in seven-card stud, by betting round: ``_s3`` is the first round (third street; second street
in five-card stud), ``_s4`` the second, and so on; five-card stud's last street (fifth) is ``_s6`` and it never
has a ``_s7``. ``street_reached`` counts the same way (3 to 7; 3 to 6 in five-card stud). docs/tracker.md defines
every count and compares it with fpdb-3's.

A razz hand heads-up: Bob (2h door) brings in, Ann (Ad door) completes and Bob folds. Ann had the door-card steal
chance (her ace beats his two in razz) and took it; she was the first to act after the bring-in (position 1).

>>> from studpoker.engine import Action, HandState, Rules, Variant
>>> from studpoker.history import record_hand, verify
>>> state = HandState(Rules(Variant.RAZZ, ante=1, bring_in=2, small_bet=4, big_bet=8), [50, 50], seed=3)
>>> _ = state.apply(Action.bring_in(2)); _ = state.apply(Action.complete(4)); _ = state.apply(Action.fold())
>>> record = record_hand(state, players=["Ann", "Bob"])
>>> ann, bob = player_hands(record, verify(record))
>>> (ann.door_card, ann.bring_in_position, ann.vpip, ann.raise3, ann.steal_door, ann.steal_door_success, ann.net)
('Ad', 1, 1, 1, 1, 1, 3)
>>> (bob.bring_in, bob.bring_in_faced_completion, bob.bring_in_folded_to_completion, bob.net, bob.net_bb)
(1, 1, 1, -3, -0.375)
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..history.model import HandRecord
from ..history.replay import ReplayResult
from .tally import ALLIN_TRIALS, EXACT_OUTCOMES, allin_equity, count_rows

__all__ = [
    "ALLIN_TRIALS",
    "COUNT_FIELDS",
    "EXACT_OUTCOMES",
    "PlayerHand",
    "allin_equity",
    "count_rows",
    "player_hands",
]


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One player's counts in one hand (flags are 0 or 1; amounts in chips). docs/tracker.md defines each."""

    player: str
    seat: int
    door_card: str
    hands: int = 1
    # the first betting round (third street)
    vpip_chance: int = 0
    vpip: int = 0
    raise3: int = 0
    three_bet_chance: int = 0
    three_bet: int = 0
    steal_seat_chance: int = 0
    steal_seat: int = 0
    steal_seat_success: int = 0
    steal_door_chance: int = 0
    steal_door: int = 0
    steal_door_success: int = 0
    bring_in: int = 0
    bring_in_completed: int = 0
    bring_in_faced_completion: int = 0
    bring_in_folded_to_completion: int = 0
    bring_in_defended: int = 0
    # streets seen, showdown
    saw4: int = 0
    saw5: int = 0
    saw6: int = 0
    saw7: int = 0
    showdown: int = 0
    won_showdown: int = 0
    won_saw4: int = 0
    # betting by street: bets, raises and completions; calls; decisions facing a wager; folds at those
    bets_s3: int = 0
    bets_s4: int = 0
    bets_s5: int = 0
    bets_s6: int = 0
    bets_s7: int = 0
    calls_s3: int = 0
    calls_s4: int = 0
    calls_s5: int = 0
    calls_s6: int = 0
    calls_s7: int = 0
    faced_bet_s3: int = 0
    faced_bet_s4: int = 0
    faced_bet_s5: int = 0
    faced_bet_s6: int = 0
    faced_bet_s7: int = 0
    fold_to_bet_s3: int = 0
    fold_to_bet_s4: int = 0
    fold_to_bet_s5: int = 0
    fold_to_bet_s6: int = 0
    fold_to_bet_s7: int = 0
    scoop_chance: int = 0
    scoop: int = 0
    called5: int = 0
    showdown_after_call5: int = 0
    # all-in equity
    allin: int = 0
    allin_ev: float = 0.0
    allin_ev_bb: float = 0.0
    # where the player sat and how far he went (summed, they give averages)
    bring_in_position: int = 0
    street_reached: int = 3
    # money
    won: int = 0
    net: int = 0
    net_bb: float = 0.0


IDENTITY = ("player", "seat", "door_card")
COUNT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(PlayerHand) if f.name not in IDENTITY)


def player_hands(record: HandRecord, result: ReplayResult) -> list[PlayerHand]:
    """The rows of one verified hand (``result`` is :func:`studpoker.history.verify` of ``record``), one per player
    in the record's order, as :class:`PlayerHand` (:func:`count_rows` gives them as plain tuples, as the store
    takes them)."""
    return [PlayerHand(*row) for row in count_rows(record, result)]
