"""Tables spread over the table workers (studpoker.server.balance): which tables a worker gives up and how many it
claims, and a table stopped at the end of its hand with what it carries to its next worker (its chat's last lines,
its seats' time banks) loaded again as they were. No Redis, no PostgreSQL: the hand-over runs on SQLite."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from sqlalchemy import select

from studpoker.server.balance import MOST_PER_PASS, Load, claim_limit, fair_share, stop_between_hands, surplus
from studpoker.server.connection import Connection
from studpoker.server.db import SeatRow, TableRow
from studpoker.server.room import Room
from studpoker.server.schemas import CreateTable

from .conftest import make_settings


def idle(*ids: int) -> list[Load]:
    return [Load(t, playing=False, viewers=0) for t in ids]


# -- the policy ---------------------------------------------------------------------------------------------------


def test_the_fair_share_is_the_tables_over_the_workers_rounded_up() -> None:
    assert [fair_share(total, 2) for total in (0, 1, 2, 3, 10)] == [0, 1, 1, 2, 5]
    assert fair_share(10, 3) == 4 and fair_share(7, 0) == 7  # no worker counted yet: as if one


def test_one_worker_gives_nothing_up() -> None:
    assert surplus(idle(*range(1, 11)), 10, 1) == []
    assert surplus(idle(*range(1, 11)), 10, 0) == []


def test_a_joining_worker_gets_an_even_spread_a_few_tables_a_pass() -> None:
    """Ten tables on one worker, a second joins: the first gives up MOST_PER_PASS a pass until it holds five, and
    the second claims what is given (its share plus one is more than enough)."""
    mine, theirs = list(range(1, 11)), []
    passes = 0
    while given := surplus(idle(*mine), 10, 2):
        assert len(given) <= MOST_PER_PASS
        mine = [t for t in mine if t not in given]
        taken = given[: claim_limit(len(theirs), 10, 2)]
        assert taken == given
        theirs += taken
        passes += 1
    assert len(mine) == len(theirs) == 5 and passes == 2
    # three workers, ten tables: shares of 4, 3, 3 (nobody above 4 gives anything)
    assert surplus(idle(*range(1, 11)), 10, 3) == [1, 2, 3]
    assert surplus(idle(1, 2, 3, 4), 10, 3) == []


def test_hysteresis_nobody_trades_a_table_back() -> None:
    """Five tables on two workers: 3 and 2 is fair (the share is 3), nobody gives anything up; a worker that has
    just handed tables over claims only up to its share, so it does not take back what it gave."""
    assert surplus(idle(1, 2, 3), 5, 2) == [] and surplus(idle(4, 5), 5, 2) == []
    assert surplus(idle(1, 2, 3, 4), 5, 2) == [1]
    assert claim_limit(3, 5, 2, handed_over_lately=True) == 0
    assert claim_limit(3, 5, 2) == 1  # otherwise one more than the share, for tables without an owner
    assert claim_limit(0, 5, 2, handed_over_lately=True) == 3
    assert claim_limit(9, 5, 2) == 0  # never negative


def test_the_tables_given_up_are_the_quiet_ones_and_ties_go_by_id() -> None:
    loads = [
        Load(1, playing=True, viewers=0),
        Load(2, playing=False, viewers=5),
        Load(3, playing=False, viewers=1),
        Load(4, playing=True, viewers=9),
        Load(5, playing=False, viewers=1),
        Load(6, playing=False, viewers=1),
    ]
    # no hand in play first, then the fewest viewers, then the lowest ids
    assert surplus(loads, 8, 2) == [3, 5]  # a share of 4: two beyond it
    assert surplus(list(reversed(loads)), 8, 2) == [3, 5]  # the order given does not matter
    assert surplus(loads, 6, 6) == [3, 5, 6]  # five beyond a share of one, MOST_PER_PASS a pass
    assert surplus(loads, 6, 6, most=4) == [2, 3, 5, 6]
    assert surplus(loads, 6, 6, most=5) == [1, 2, 3, 5, 6]  # a hand in play, but nobody watching


# -- stopping between hands, and what a table carries -------------------------------------------------------------


def test_a_table_handed_over_stops_between_hands_and_carries_its_chat_time_banks_and_waiting_list(
    tmp_path: Path,
) -> None:
    """Bots play; the table is stopped for a hand-over (as a worker does it): no hand is in play when it stops,
    nothing is voided when it is loaded again, and the chat's lines, each seat's time bank and the waiting list are
    as they were."""
    settings = make_settings(tmp_path, time_bank=30.0, bot_delay=0.001)

    async def check() -> None:
        room = Room(settings)
        await room.open()
        try:
            table = await room.create_table(
                None, CreateTable.model_validate({"name": "Moving", "variant": "STUD7", "small_bet": 10})
            )
            actor = room.actors[table.id]
            await actor.add_bots(4, "calling-station")
            watcher, other = Connection(998, "watcher"), Connection(999, "other")  # one line a second each
            actor.chat(watcher, "first line")
            actor.chat(other, "second line")
            actor.waiting.join(998, "watcher")
            actor.waiting.join(999, "other")
            while actor.hands_played < 2:
                await asyncio.sleep(0.01)
            banks = {1: 12.5, 3: 0.25}
            for seat, bank in banks.items():
                actor.seats[seat].time_bank = bank  # bots' banks are never spent nor refilled: they stay so
            # each hand's end writes the banks with the stacks (a worker killed later loses no more than a hand)
            hands = actor.hands_played
            while actor.hands_played < hands + 2:
                await asyncio.sleep(0.01)
            stored = await room.db.run(lambda s: dict(s.execute(select(SeatRow.seat, SeatRow.time_bank)).all()))
            assert {seat: stored[seat] for seat in banks} == banks
            # and the waiting list, as it changed (a worker killed now would leave it to the next)
            waiting = await room.db.run(lambda s: s.scalar(select(TableRow.waiting).where(TableRow.id == table.id)))
            assert waiting == [[998, "watcher"], [999, "other"]]
            assert await stop_between_hands(actor, lambda: room.actors.pop(table.id))
            assert table.id not in room.actors and actor.stopped and actor.table.hand is None
            chat = list(actor.chat_log)
            assert [line["text"] for line in chat] == ["first line", "second line"]
        finally:
            await room.close()
        again = Room(settings)
        await again.open()
        try:
            assert again.voided == {}  # the hand-over left no hand in play
            moved = again.actors[table.id]
            assert list(moved.chat_log) == chat
            assert {seat: moved.seats[seat].time_bank for seat in banks} == banks
            assert moved.waiting.names == ["watcher", "other"]  # in order; a seat held is offered again
            assert all(moved.seats[s].time_bank == 30.0 for s in moved.seats if s not in banks)
            moved.chat(watcher, "third line")  # a new table's limiter (not carried)
            await moved.call(_nothing)
            assert [line["id"] for line in moved.chat_log] == [1, 2, 3]  # the numbering goes on
        finally:
            await again.close()

    asyncio.run(check())


async def _nothing() -> None:
    """A job that does nothing: once it has run, every job posted before it has."""
