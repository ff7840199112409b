"""Seating, balancing and breaking tables: pure functions of the seating chart and an injected ``random.Random``.

A seating chart maps each table number to its occupied seats (seat number -> player). The rules follow [TDA]'s
rules on breaking and balancing tables and [WSOP-T]'s high-card draw for stud (docs/tournaments.md says where
each comes from and what was decided where they are silent):

* **Breaking.** When the players left fit in one table fewer, a table is broken: the highest-numbered first.
  Its players, in an order drawn at random, go one at a time to the table with the fewest players (the
  lowest-numbered of those), each to a seat drawn at random among that table's free seats.
* **Balancing.** While the fullest table has two players or more than the shortest, one player moves from the
  fullest (the lowest-numbered of those) to the shortest (the lowest-numbered of those), to a free seat drawn at
  random. Stud has no button to say who moves, so the player is chosen by a **high-card draw**: each player at
  the table is dealt one card from a shuffled deck and the highest card moves, by rank, then by suit (clubs <
  diamonds < hearts < spades, the stud order).
* **The final table** is the one table left; its seats are not drawn again.

>>> import random
>>> chart = {1: {1: "Ann", 2: "Bob", 3: "Cid", 4: "Dan"}, 2: {1: "Eve", 3: "Fay"}}
>>> moves = plan_moves(chart, seats_per_table=4, rng=random.Random(3))
>>> [(m.player, m.from_table, m.to_table, m.reason) for m in moves]
[('Bob', 1, 2, 'balance')]
>>> sorted(apply_moves(chart, moves)[2].values())
['Bob', 'Eve', 'Fay']
>>> tables_to_break({1: {1: "Ann", 2: "Bob"}, 2: {1: "Cid"}, 3: {4: "Dan"}}, seats_per_table=4)
(3, 2)
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..cards import Card
from .errors import BalancingError

__all__ = [
    "Draw",
    "Move",
    "SeatingChart",
    "apply_moves",
    "check_chart",
    "draw_seats",
    "final_table",
    "high_card_draw",
    "plan_moves",
    "seat_new_player",
    "tables_to_break",
]

#: Table number -> seat number -> player.
SeatingChart = Mapping[int, Mapping[int, str]]


@dataclass(frozen=True, slots=True)
class Move:
    """One player's move: from a seat at one table to a seat at another. ``reason`` is ``"break"`` (his table was
    broken) or ``"balance"``."""

    player: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class Draw:
    """A high-card draw: the card each player was dealt, in the order given, and the player with the highest."""

    cards: tuple[tuple[str, Card], ...]
    high: str


def high_card_draw(players: Sequence[str], rng: random.Random) -> Draw:
    """Deal each of ``players`` one card from a deck shuffled by ``rng``; the highest card by rank, then by suit
    (clubs < diamonds < hearts < spades) wins the draw. At most 52 players; :class:`BalancingError` otherwise.

    >>> draw = high_card_draw(["Ann", "Bob", "Cid"], random.Random(1))
    >>> draw.cards, draw.high
    ((('Ann', Card('4c')), ('Bob', Card('Jc')), ('Cid', Card('As'))), 'Cid')
    """
    if not players or len(players) > 52 or len(set(players)) != len(players):
        raise BalancingError(f"a high-card draw deals one card to each of 1 to 52 different players, got {players!r}")
    dealt = rng.sample(range(52), len(players))
    cards = tuple((player, Card.from_index(index)) for player, index in zip(players, dealt, strict=True))
    high = max(cards, key=lambda pair: pair[1].index)[0]  # the index orders by rank, then suit
    return Draw(cards, high)


def check_chart(tables: SeatingChart, seats_per_table: int) -> None:
    """:class:`BalancingError` unless every seat is in 1..``seats_per_table`` and every player is seated once."""
    if type(seats_per_table) is not int or not 2 <= seats_per_table <= 10:
        raise BalancingError(f"a stud table has 2 to 10 seats, got {seats_per_table!r}")
    seen: set[str] = set()
    for table, seats in tables.items():
        if type(table) is not int or table < 1:
            raise BalancingError(f"tables are numbered from 1, got {table!r}")
        for seat, player in seats.items():
            if type(seat) is not int or not 1 <= seat <= seats_per_table:
                raise BalancingError(f"table {table} has no seat {seat!r}: seats are 1 to {seats_per_table}")
            if player in seen:
                raise BalancingError(f"{player!r} is seated twice")
            seen.add(player)


def tables_to_break(tables: SeatingChart, seats_per_table: int) -> tuple[int, ...]:
    """The tables to break now, in the order they break (highest-numbered first): as many as the players left
    allow, one fewer table at a time, never the last one."""
    check_chart(tables, seats_per_table)
    players = sum(len(seats) for seats in tables.values())
    needed = max(1, math.ceil(players / seats_per_table))
    return tuple(sorted(tables, reverse=True)[: max(0, len(tables) - needed)])


def final_table(tables: SeatingChart) -> int | None:
    """The final table's number once only one table is left, else ``None``."""
    return next(iter(tables)) if len(tables) == 1 else None


def plan_moves(tables: SeatingChart, seats_per_table: int, rng: random.Random) -> tuple[Move, ...]:
    """Every move that breaks the tables :func:`tables_to_break` names and then balances the rest, in the order
    they are made (see the module's rules). An empty tuple when the tables are balanced."""
    broken = tables_to_break(tables, seats_per_table)
    chart = _copy(tables)
    moves: list[Move] = []
    for number in broken:
        leaving = chart.pop(number)
        order = sorted(leaving)
        rng.shuffle(order)
        for seat in order:
            to = _shortest(chart)
            moves.append(_move(chart, leaving[seat], number, seat, to, seats_per_table, rng, "break"))
    while len(chart) > 1:
        fullest = min(chart, key=lambda t: (-len(chart[t]), t))
        to = _shortest(chart)
        if len(chart[fullest]) - len(chart[to]) < 2:
            break
        seats = sorted(chart[fullest])
        mover = high_card_draw([chart[fullest][s] for s in seats], rng).high
        seat = next(s for s in seats if chart[fullest][s] == mover)
        del chart[fullest][seat]
        moves.append(_move(chart, mover, fullest, seat, to, seats_per_table, rng, "balance"))
    return tuple(moves)


def apply_moves(tables: SeatingChart, moves: Sequence[Move]) -> dict[int, dict[int, str]]:
    """A new chart with ``moves`` made in order (a table left empty is gone). :class:`BalancingError` for a move
    whose player is not in his seat or whose new seat is taken; ``tables`` is not changed."""
    chart = _copy(tables)
    for move in moves:
        if chart.get(move.from_table, {}).get(move.from_seat) != move.player:
            raise BalancingError(f"{move.player!r} is not in seat {move.from_seat} of table {move.from_table}")
        del chart[move.from_table][move.from_seat]
        target = chart.setdefault(move.to_table, {})
        if move.to_seat in target:
            raise BalancingError(f"seat {move.to_seat} of table {move.to_table} is taken by {target[move.to_seat]!r}")
        target[move.to_seat] = move.player
    return {table: seats for table, seats in chart.items() if seats}


def draw_seats(players: Sequence[str], seats_per_table: int, rng: random.Random) -> dict[int, dict[int, str]]:
    """The starting seat draw: as few tables as hold everyone (numbered from 1), the players in an order drawn
    at random dealt round the tables one at a time so that no two differ by more than one, each to a seat drawn
    at random among his table's free seats."""
    if len(set(players)) != len(players):
        raise BalancingError("a player is in the seat draw twice")
    check_chart({}, seats_per_table)
    order = list(players)
    rng.shuffle(order)
    count = max(1, math.ceil(len(order) / seats_per_table))
    chart: dict[int, dict[int, str]] = {number: {} for number in range(1, count + 1)}
    for i, player in enumerate(order):
        seats = chart[i % count + 1]
        seats[rng.choice(_free(seats, seats_per_table))] = player
    return {table: seats for table, seats in chart.items() if seats}


def seat_new_player(tables: SeatingChart, seats_per_table: int, rng: random.Random) -> tuple[int, int]:
    """The (table, seat) of a late entry: a seat drawn at random at the table with the fewest players (the
    lowest-numbered of those); a new table, numbered one above the highest, when every table is full."""
    check_chart(tables, seats_per_table)
    open_tables = {t: s for t, s in tables.items() if len(s) < seats_per_table}
    if not open_tables:
        return max(tables, default=0) + 1, rng.randint(1, seats_per_table)
    table = _shortest(open_tables)
    return table, rng.choice(_free(open_tables[table], seats_per_table))


def _copy(tables: SeatingChart) -> dict[int, dict[int, str]]:
    return {table: dict(seats) for table, seats in sorted(tables.items())}


def _shortest(chart: Mapping[int, Mapping[int, str]]) -> int:
    return min(chart, key=lambda t: (len(chart[t]), t))


def _free(seats: Mapping[int, str], seats_per_table: int) -> list[int]:
    return [s for s in range(1, seats_per_table + 1) if s not in seats]


def _move(
    chart: dict[int, dict[int, str]],
    player: str,
    from_table: int,
    from_seat: int,
    to: int,
    seats_per_table: int,
    rng: random.Random,
    reason: str,
) -> Move:
    free = _free(chart[to], seats_per_table)
    if not free:
        raise BalancingError(f"table {to} has no free seat for {player!r}")
    seat = rng.choice(free)
    chart[to][seat] = player
    return Move(player, from_table, from_seat, to, seat, reason)
