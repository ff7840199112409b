"""Bots through tournaments: sit-and-gos (``stud simulate --sit-and-go N``) and multi-table tournaments, in-process.

:func:`play_tournament` plays a started :class:`~studpoker.tournament.Tournament` to its end, each hand on a
:class:`~studpoker.table.Table` at the level's rules, with hand-counted levels: play goes in rounds, every table
dealing one hand a round, the level is the structure's at that many rounds (:meth:`Structure.at_hand`), and a
round counts as one hand for places (hand-for-hand: players out at different tables in the same round are
ordered by the chips they started it with). After each round the players out leave their tables and the
tournament breaks and balances the tables (:meth:`Tournament.rebalance`); the moves are carried out on the
tables. :func:`simulate_sit_and_goes` plays many one-table sit-and-gos of the same bots and reports each bot's
finishing places and return on investment.

>>> result = simulate_sit_and_goes(["tag", "calling-station", "random"], 4, seed=1)
>>> result.sit_and_gos, [round(sum(row)) for row in result.places]      # every bot finished each of the 4
(4, [4, 4, 4])
>>> sum(result.prizes) == 4 * 3 * result.buy_in                           # every buy-in was paid out
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import Bot, make_bot
from ..bots.base import play_hand
from ..table import Table
from ..tournament import Structure, Tournament, TournamentError
from ..variant import Variant
from .spec import SimulateError, _bot_tag

__all__ = ["SitAndGoResult", "play_tournament", "simulate_sit_and_goes"]

#: A tournament still running after this many rounds is stopped (the turbo structure ends long before).
MAX_ROUNDS = 100_000
#: The most sit-and-gos one run plays.
MAX_SIT_AND_GOS = 1_000_000


def play_tournament(tournament: Tournament, bots: Mapping[str, Bot], *, seed: int) -> int:
    """Play ``tournament`` (started, with hand-counted levels) to its end with ``bots`` (by player name); returns
    the rounds played. Checks after every round that the tables' stacks are the tournament's and that both
    conserve their chips (``AssertionError`` otherwise)."""
    if tournament.structure.hands_per_level is None:
        raise SimulateError("a simulated tournament counts its levels in hands: give the structure hands_per_level")
    tables: dict[int, Table] = {}
    first = tournament.rules(1)
    for number, seats in tournament.chart.items():
        tables[number] = Table(first, seed=seed * 1_000 + number, name=f"table {number}")
        for seat, player in seats.items():
            tables[number].seat_moved(player, tournament.stacks[player], seat=seat)
    rounds = 0
    while not tournament.is_over:
        if rounds >= MAX_ROUNDS:
            raise SimulateError(f"the tournament was still running after {MAX_ROUNDS:,} rounds")
        rules = tournament.rules(tournament.structure.at_hand(rounds))
        results: dict[int, dict[str, int]] = {}
        for number, table in sorted(tables.items()):
            if len(table.occupied) < 2:
                continue  # a table left with one player waits for the balancing to bring company
            if table.rules != rules:
                table.change_rules(rules)
            play_hand(table, {seat.number: bots[seat.name] for seat in table.occupied})
            results[number] = {seat.name: seat.stack for seat in table.occupied}
        rounds += 1
        tournament.record_hands(results)
        for table in tables.values():
            for out in table.occupied:
                if out.stack == 0:
                    table.leave(out.number)
        for move in tournament.rebalance():
            stack = tables[move.from_table].leave(move.from_seat)
            assert stack is not None
            tables[move.to_table].seat_moved(move.player, stack, seat=move.to_seat)
        tables = {number: table for number, table in tables.items() if table.occupied}
        _check(tournament, tables)
    return rounds


def _check(tournament: Tournament, tables: Mapping[int, Table]) -> None:
    tournament.check_conservation()
    seated = {number: {seat.number: seat.name for seat in table.occupied} for number, table in tables.items()}
    assert seated == tournament.chart, f"the tables seat {seated}, the tournament {tournament.chart}"
    stacks = {seat.name: seat.stack for table in tables.values() for seat in table.occupied}
    assert stacks == tournament.stacks, "the tables' stacks are not the tournament's"


@dataclass(frozen=True, slots=True)
class SitAndGoResult:
    """What :func:`simulate_sit_and_goes` measured, by bot (in the order given).

    ``places[i][k]`` counts bot ``i``'s finishes in place ``k + 1`` (a place shared by ``n`` tied players counts
    ``1/n`` in each of them); ``prizes[i]`` is the prize money it won in all, ``buy_in`` what each sit-and-go
    cost it.
    """

    names: tuple[str, ...]
    structure: str
    variant: str
    seed: int
    sit_and_gos: int
    buy_in: int
    hands: int
    places: tuple[tuple[float, ...], ...]
    prizes: tuple[int, ...]

    def roi(self, bot: int) -> float:
        """Return on investment: (prizes - buy-ins) / buy-ins; 0.0 is break-even, -1.0 never cashing."""
        paid = self.buy_in * self.sit_and_gos
        return (self.prizes[bot] - paid) / paid if paid else 0.0

    def average_place(self, bot: int) -> float:
        played = sum(self.places[bot])
        return sum((k + 1) * count for k, count in enumerate(self.places[bot])) / played if played else 0.0

    def summary(self) -> str:
        """A heading, then one line per bot: the share of each finishing place, the average place and the ROI."""
        count = len(self.names)
        lines = [
            f"{self.sit_and_gos:,} sit-and-gos of {count} bots, {self.variant}, {self.structure};"
            f" buy-in {self.buy_in}, seed {self.seed}; {self.hands:,} hands",
            "",
            f"{'bot':<24}" + "".join(f"{_ordinal(k + 1):>7}" for k in range(count)) + f"{'avg':>7}{'ROI':>9}",
        ]
        for i, name in enumerate(self.names):
            shares = "".join(f"{100 * c / self.sit_and_gos:>6.1f}%" for c in self.places[i])
            lines.append(f"{name:<24}{shares}{self.average_place(i):>7.2f}{100 * self.roi(i):>+8.1f}%")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "sit_and_gos": self.sit_and_gos,
            "variant": self.variant,
            "structure": self.structure,
            "seed": self.seed,
            "buy_in": self.buy_in,
            "hands": self.hands,
            "bots": [
                {
                    "name": name,
                    "places": list(self.places[i]),
                    "average_place": self.average_place(i),
                    "prizes": self.prizes[i],
                    "roi": self.roi(i),
                }
                for i, name in enumerate(self.names)
            ],
        }


def simulate_sit_and_goes(
    bots: Sequence[str],
    count: int,
    *,
    seed: int,
    variant: Variant | str = "7stud",
    hands_per_level: int = 10,
    buy_in: int = 100,
) -> SitAndGoResult:
    """Play ``count`` sit-and-gos of ``bots`` (2 to 8 tags, one entry each; 10 in five-card stud) on the turbo
    structure (:meth:`Structure.turbo`) with ``hands_per_level`` hands a level and the standard payouts.
    Sit-and-go ``n`` draws its seats and deals its hands from ``seed`` and ``n`` alone. :class:`SimulateError`
    for what cannot be played."""
    tags = [_bot_tag(tag) for tag in bots]
    try:
        game = Variant.parse(variant)
    except ValueError as error:
        raise SimulateError(str(error)) from None
    if any(tag.startswith("external:") for tag in tags):
        raise SimulateError("sit-and-gos take built-in bots only: an external bot is told one set of stakes")
    if type(count) is not int or not 1 <= count <= MAX_SIT_AND_GOS:
        raise SimulateError(f"the number of sit-and-gos must be from 1 to {MAX_SIT_AND_GOS:,}, got {count!r}")
    if type(hands_per_level) is not int or hands_per_level < 1:
        raise SimulateError(f"hands per level must be a whole number of at least 1, got {hands_per_level!r}")
    structure = Structure.turbo(hands_per_level)
    names = tuple(f"{i + 1}:{tag}" for i, tag in enumerate(tags))
    places = [[0.0] * len(names) for _ in names]
    prizes = [0] * len(names)
    hands = 0
    for n in range(count):
        try:
            tournament = Tournament(
                structure,
                buy_in=buy_in,
                rng=random.Random(seed * 1_000_003 + n),
                seats_per_table=len(names),
                variant=game,
                max_entries=len(names),
            )
        except TournamentError as error:
            raise SimulateError(f"{len(names)} bots: {error}") from None
        for name in names:
            tournament.register(name)
        tournament.start()
        players = {
            name: make_bot(tag, seed * 1_000_003 + n * 16 + i)
            for i, (name, tag) in enumerate(zip(names, tags, strict=True))
        }
        hands += play_tournament(tournament, players, seed=seed * 1_000_003 + n)
        for finish in tournament.finishes():
            for place in finish.places:
                places[names.index(finish.player)][place - 1] += 1 / finish.tied
        for name, won in tournament.prizes().items():
            prizes[names.index(name)] += won
    return SitAndGoResult(
        names=names,
        structure=f"turbo, {hands_per_level} hands a level",
        variant=game.title,
        seed=seed,
        sit_and_gos=count,
        buy_in=buy_in,
        hands=hands,
        places=tuple(tuple(row) for row in places),
        prizes=tuple(prizes),
    )


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
