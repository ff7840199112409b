"""Stud tournaments: structures, payouts, places, table balancing and the tournament state (docs/tournaments.md).

Pure and standard-library only: no clock, no I/O, no hands played here. A server or a simulation deals the hands
on :class:`~studpoker.table.Table` objects and tells the :class:`Tournament` what happened
(:mod:`studpoker.simulate.tournament` plays bots through sit-and-gos this way).

* :class:`Structure`, :class:`Level`, :class:`Break`, :class:`Clock`: the levels, the clock, each level's rules.
* :func:`payouts`, :class:`PayoutTable`: prizes in whole chips that sum to the pool.
* :func:`finishing_places`, :class:`Finish`, :class:`Bust`: places, ties by starting stack.
* :func:`plan_moves`, :func:`high_card_draw` and the rest of :mod:`~studpoker.tournament.balancing`: seat draws,
  breaking and balancing tables.
* :class:`Tournament`: registration, re-entry, seating, hands recorded, eliminations, prizes.
"""

from .balancing import (
    Draw,
    Move,
    SeatingChart,
    apply_moves,
    check_chart,
    draw_seats,
    final_table,
    high_card_draw,
    plan_moves,
    seat_new_player,
    tables_to_break,
)
from .errors import BalancingError, PayoutError, StructureError, TournamentError
from .payouts import PayoutTable, payouts, places_paid, shared_prize, standard_shares
from .places import Bust, Finish, finishing_places
from .state import Entry, Stage, Tournament
from .structure import Break, Clock, Level, Structure

__all__ = [
    "BalancingError",
    "Break",
    "Bust",
    "Clock",
    "Draw",
    "Entry",
    "Finish",
    "Level",
    "Move",
    "PayoutError",
    "PayoutTable",
    "SeatingChart",
    "Stage",
    "Structure",
    "StructureError",
    "Tournament",
    "TournamentError",
    "apply_moves",
    "check_chart",
    "draw_seats",
    "final_table",
    "finishing_places",
    "high_card_draw",
    "payouts",
    "places_paid",
    "plan_moves",
    "seat_new_player",
    "shared_prize",
    "standard_shares",
    "tables_to_break",
]
