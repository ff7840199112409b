"""A tournament's table, as its actor's part: the level's stakes before each deal, no deal during a break or before
the hand-for-hand round allows it, the players with no chips out after each hand (:class:`TournamentSide`).

The table is otherwise a card-room table: its actor deals, the clock acts, the books write each hand. What differs
is said where it happens: its chips are the tournament's (``chips:<id>`` in the ledger, never money), no one buys
in, tops up, leaves with chips, sits out or joins a waiting list there (the tournament seats and moves players), and
a player who is away is dealt in, posts his ante and bring-in, and is folded when his turn comes (the WSOP and TDA
rule), at once: his clock does not run.
"""

from __future__ import annotations

import math
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..table import Table
from ..tournament import Structure
from .db import EntryRow, Runner, SeatRow, TableRow, TournamentRow
from .errors import ApiError
from .tournaments import clock_seconds, paid_places

__all__ = ["BREAK_LOOK", "HAND_FOR_HAND_LOOK", "TournamentSide", "not_at_a_tournament"]

#: How often (seconds) a table on a break, or waiting for the next hand-for-hand round, looks again.
BREAK_LOOK, HAND_FOR_HAND_LOOK = 1.0, 0.1


def not_at_a_tournament(what: str) -> ApiError:
    """409 ``conflict``: what a player may do at a cash table but not at a tournament's."""
    return ApiError(409, "conflict", f"{what} at a tournament's table: the tournament seats, moves and pays players")


class TournamentSide:
    """Tournament ``tournament_id``'s part of one of its tables' actor; ``time_scale`` speeds its clock (the room's
    ``tournament_time_scale``: 1 in play, more in tests and demonstrations)."""

    def __init__(
        self,
        tournament_id: int,
        structure: Structure,
        variant: str,
        started_at: datetime,
        time_scale: float,
        db: Runner,
    ) -> None:
        self.id = tournament_id
        self.structure = structure
        self.variant = variant
        self.started_at = started_at
        self.time_scale = time_scale
        self.db = db
        self.last_round = 0  # the hand-for-hand round this table last dealt
        self.dealt_round: int | None = None  # the round of the hand dealt last (None: not hand-for-hand)

    @classmethod
    def of(cls, row: TournamentRow, time_scale: float, db: Runner) -> TournamentSide:
        assert row.started_at is not None, "a tournament has tables once it has started"
        return cls(row.id, Structure.from_json(row.structure), row.variant, row.started_at, time_scale, db)

    def elapsed(self) -> float:
        """Seconds on the tournament's clock since the start."""
        return clock_seconds(self.started_at, self.time_scale)

    async def before_deal(self, table: Table, table_id: int) -> float | None:
        """``None``: deal now, at the level's stakes (set on ``table``); else the seconds to wait before looking
        again (a break, players to move from this table first, or the other tables still playing this
        hand-for-hand round)."""
        clock = self.structure.at(self.elapsed())
        if clock.level is None:  # a break
            return min(BREAK_LOOK, max(HAND_FOR_HAND_LOOK, clock.seconds_left / self.time_scale))
        rules = self.structure.rules(clock.level, self.variant)
        if table.rules != rules:
            table.change_rules(rules)
        tournament = self.id

        def read(session: Session) -> tuple[int | None, list[int] | None, bool]:
            found = session.execute(
                select(TournamentRow.hand_round, TournamentRow.paused).where(TournamentRow.id == tournament)
            ).one()
            statuses = session.execute(select(EntryRow.status).where(EntryRow.tournament_id == tournament)).all()
            left = sum(1 for (status,) in statuses if status != "out")
            seated = session.execute(
                select(SeatRow.table_id, func.count())
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(TableRow.tournament_id == tournament, TableRow.status == "open")
                .group_by(SeatRow.table_id)
            ).all()
            playing = sum(1 for _, players in seated if players >= 2)  # as the runner counts them
            row = session.get(TournamentRow, tournament)
            assert row is not None
            bubble = left == paid_places(row, len(statuses)) + 1 and playing >= 2
            return found[0], found[1], bubble

        round_, paused, bubble = await self.db.run(read)
        if paused and table_id in paused:  # players are to move from here first
            return HAND_FOR_HAND_LOOK
        if bubble and round_ is None:  # on the bubble: no hand until the runner has begun hand-for-hand
            return HAND_FOR_HAND_LOOK
        if round_ is not None:
            if self.last_round >= round_:
                return HAND_FOR_HAND_LOOK
            self.last_round = round_
        self.dealt_round = round_  # players out in this hand go out in this round (the places: the runner)
        return None

    @staticmethod
    def busted(table: Table) -> list[int]:
        """The seats with no chip left after a hand: out of the tournament."""
        return [s.number for s in table.occupied if s.stack + s.queued == 0]

    def seconds_to_next(self) -> float | None:
        """Real seconds until the next level (``None``: the last level)."""
        clock = self.structure.at(self.elapsed())
        if clock.next_level is None:
            return None
        return math.ceil(clock.seconds_left / self.time_scale * 10) / 10
