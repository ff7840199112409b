"""The state of one tournament: entries, seats, stacks, who is out and in what place, the prizes.

:class:`Tournament` runs no hand and keeps no clock. A server or a simulation deals the hands on
:class:`~studpoker.table.Table` objects at the level's rules (:meth:`Tournament.rules`), tells the tournament
each finished hand's stacks (:meth:`Tournament.record_hand`), then asks it which players move
(:meth:`Tournament.rebalance`). Time, where it matters (late registration), is passed in as seconds since the
start. Every request is checked first and refused with a :class:`~studpoker.tournament.errors.TournamentError`
saying why, changing nothing; the chips are conserved: the stacks always sum to entries x starting chips.

A sit-and-go of three, one hand played:

>>> import random
>>> from studpoker.tournament import Structure
>>> sng = Tournament(Structure.turbo(), buy_in=10, rng=random.Random(2), max_entries=3)
>>> for name in ("Ann", "Bob", "Cid"):
...     _ = sng.register(name)
>>> sng.is_full, sng.start()
(True, {1: {2: 'Bob', 4: 'Cid', 3: 'Ann'}})
>>> sng.record_hand(1, {"Ann": 4_000, "Bob": 2_000, "Cid": 0})      # Cid is out in 3rd place
(Bust(player='Cid', entry=1, starting_stack=2000),)
>>> sng.record_hand(1, {"Ann": 6_000, "Bob": 0})
(Bust(player='Bob', entry=1, starting_stack=2000),)
>>> sng.is_over, sng.winner, sng.prize_pool, sng.prizes()
(True, 'Ann', 30, {'Ann': 30})
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from ..engine import Rules
from ..variant import Variant
from .balancing import Move, apply_moves, draw_seats, plan_moves, seat_new_player
from .errors import TournamentError
from .payouts import PayoutTable, payouts, shared_prize
from .places import Bust, Finish, finishing_places
from .structure import Level, Structure

__all__ = ["Entry", "Stage", "Tournament"]


class Stage(Enum):
    """Where a tournament is: taking registrations, playing, or over."""

    REGISTERING = "REGISTERING"
    RUNNING = "RUNNING"
    FINISHED = "FINISHED"


@dataclass(frozen=True, slots=True)
class Entry:
    """One buy-in: the player and which of his entries it is (1, then 2 after a re-entry...)."""

    player: str
    number: int


class Tournament:
    """One tournament: a :class:`Structure`, a buy-in (every entry's contribution to the prize pool, in whole
    chips of money), ``seats_per_table`` (at most the game's seats: 8, or 10 in five-card stud), the game, and
    a ``random.Random`` for every draw (seats, moves). ``max_entries`` caps the field (a sit-and-go: one table,
    started when full); ``payout_table`` replaces the standard one (:mod:`studpoker.tournament.payouts`).
    """

    def __init__(
        self,
        structure: Structure,
        *,
        buy_in: int,
        rng: random.Random,
        seats_per_table: int = 8,
        variant: Variant | str = Variant.STUD7,
        max_entries: int | None = None,
        payout_table: PayoutTable | None = None,
    ) -> None:
        if not isinstance(structure, Structure):
            raise TournamentError(f"structure must be a Structure, got {type(structure).__name__}")
        if type(buy_in) is not int or buy_in < 0:
            raise TournamentError(f"the buy-in must be a whole number of at least 0, got {buy_in!r}")
        if not isinstance(rng, random.Random):
            raise TournamentError(f"rng must be a random.Random, got {type(rng).__name__}")
        try:
            game = Variant.parse(variant)
        except ValueError as error:
            raise TournamentError(str(error)) from None
        if type(seats_per_table) is not int or not 2 <= seats_per_table <= game.max_seats:
            raise TournamentError(
                f"a {game.title.lower()} table has 2 to {game.max_seats} seats, got {seats_per_table!r}"
            )
        if max_entries is not None and (type(max_entries) is not int or max_entries < 2):
            raise TournamentError(f"max_entries must be a whole number of at least 2, got {max_entries!r}")
        self.structure = structure
        self.buy_in = buy_in
        self.variant = game
        self.seats_per_table = seats_per_table
        self.max_entries = max_entries
        self.payout_table = payout_table
        self._rng = rng
        self._stage = Stage.REGISTERING
        self._entries: list[Entry] = []
        self._live: dict[str, Entry] = {}  # players in the tournament (registered, or seated and not out)
        self._stacks: dict[str, int] = {}
        self._chart: dict[int, dict[int, str]] = {}
        self._busts: list[tuple[Bust, ...]] = []

    # -- reading -----------------------------------------------------------------------------------

    @property
    def stage(self) -> Stage:
        return self._stage

    @property
    def is_over(self) -> bool:
        return self._stage is Stage.FINISHED

    @property
    def entries(self) -> int:
        """Buy-ins taken so far, re-entries included."""
        return len(self._entries)

    @property
    def is_full(self) -> bool:
        return self.max_entries is not None and self.entries >= self.max_entries

    @property
    def prize_pool(self) -> int:
        return self.buy_in * self.entries

    @property
    def players(self) -> tuple[str, ...]:
        """The players still in (registered, or seated with chips), in order of entry."""
        return tuple(self._live)

    @property
    def stacks(self) -> dict[str, int]:
        """Each seated player's chips (a copy)."""
        return dict(self._stacks)

    @property
    def chart(self) -> dict[int, dict[int, str]]:
        """The seating chart (a copy): table number -> seat number -> player."""
        return {table: dict(seats) for table, seats in self._chart.items()}

    @property
    def total_chips(self) -> int:
        """The chips in play: always entries x starting chips once play has started."""
        return sum(self._stacks.values())

    @property
    def winner(self) -> str | None:
        return next(iter(self._live)) if self.is_over else None

    def seat_of(self, player: str) -> tuple[int, int]:
        """The (table, seat) of a seated player; :class:`TournamentError` if he is not seated."""
        for table, seats in self._chart.items():
            for seat, name in seats.items():
                if name == player:
                    return table, seat
        raise TournamentError(f"{player!r} is not seated")

    def rules(self, level: Level | int) -> Rules:
        """The engine's rules of a hand at ``level`` in this tournament's game (the tournament preset)."""
        return self.structure.rules(level, self.variant)

    def finishes(self) -> list[Finish]:
        """The places of the entries out so far (and the winner's once it is over), best first. Places count from
        the bottom of the field, so they are final once registration has closed."""
        winner = None
        if self.is_over:
            entry = next(iter(self._live.values()))
            winner = (entry.player, entry.number)
        return finishing_places(self._busts, self.entries, winner)

    def prizes(self) -> dict[str, int]:
        """Each player's prize money, by player (a player with several entries gets what they won together); only
        those who won something. :class:`TournamentError` before the tournament is over."""
        if not self.is_over:
            raise TournamentError("prizes are paid when the tournament is over")
        table = payouts(self.prize_pool, self.entries, self.payout_table) if self.entries >= 2 else (self.prize_pool,)
        won: dict[str, int] = {}
        finishes = self.finishes()
        for finish in finishes:
            tied = [f for f in finishes if f.place == finish.place]  # in order of entry: odd chips to the first
            amount = shared_prize(table, finish.place, finish.tied)[tied.index(finish)]
            if amount:
                won[finish.player] = won.get(finish.player, 0) + amount
        return won

    def check_conservation(self) -> None:
        """:class:`AssertionError` unless the stacks sum to entries x starting chips (after the start)."""
        if self._stage is Stage.REGISTERING:
            return
        expected = self.entries * self.structure.starting_chips
        if self.total_chips != expected:
            raise AssertionError(
                f"{self.total_chips} chips in play, expected {self.entries} x starting chips = {expected}"
            )

    # -- registration ------------------------------------------------------------------------------

    def register(self, player: str, elapsed_seconds: float = 0) -> Entry:
        """Take ``player``'s first entry: before the start, or during late registration (``elapsed_seconds`` since
        the start on the structure's clock), when he is seated at once (:meth:`seat_of`)."""
        name = _name(player)
        if name in self._live or any(e.player == name for e in self._entries):
            raise TournamentError(f"{name!r} has already entered (a player who is out may re-enter, if allowed)")
        self._check_open(elapsed_seconds)
        return self._enter(name, 1)

    def reenter(self, player: str, elapsed_seconds: float) -> Entry:
        """A new entry for ``player``, who is out, while registration is open and his re-entries allow."""
        name = _name(player)
        if name in self._live:
            raise TournamentError(f"{name!r} is still in the tournament: only a player who is out may re-enter")
        used = sum(1 for e in self._entries if e.player == name)
        if not used:
            raise TournamentError(f"{name!r} has not entered: register first")
        if used - 1 >= self.structure.reentries:
            raise TournamentError(f"{name!r} has used the {self.structure.reentries} re-entries the structure allows")
        self._check_open(elapsed_seconds)
        return self._enter(name, used + 1)

    def unregister(self, player: str) -> None:
        """Take back ``player``'s entry before the start (the buy-in is returned, the prize pool shrinks)."""
        name = _name(player)
        if self._stage is not Stage.REGISTERING:
            raise TournamentError("a player may unregister only before the start")
        if name not in self._live:
            raise TournamentError(f"{name!r} is not registered")
        entry = self._live.pop(name)
        self._entries.remove(entry)

    def _check_open(self, elapsed_seconds: float) -> None:
        if self.is_full:
            raise TournamentError(f"the tournament is full ({self.max_entries} entries)")
        if self._stage is Stage.FINISHED:
            raise TournamentError("the tournament is over")
        if self._stage is Stage.RUNNING:
            clock = self.structure.at(elapsed_seconds)
            if not self.structure.registration_open(clock):
                late = self.structure.late_registration_level
                when = "it started" if late is None else f"the end of level {late}"
                raise TournamentError(f"registration closed at {when}")

    def _enter(self, name: str, number: int) -> Entry:
        """Take the entry (everything is checked): seated at once if play has started."""
        seat = None
        if self._stage is Stage.RUNNING:
            seat = seat_new_player(self._chart, self.seats_per_table, self._rng)
        entry = Entry(name, number)
        self._entries.append(entry)
        self._live[name] = entry
        if seat is not None:
            self._chart.setdefault(seat[0], {})[seat[1]] = name
            self._stacks[name] = self.structure.starting_chips
            self.check_conservation()
        return entry

    # -- play ---------------------------------------------------------------------------------------

    def start(self) -> dict[int, dict[int, str]]:
        """Draw the seats (:func:`~studpoker.tournament.balancing.draw_seats`), give everyone the starting chips,
        and return the seating chart. Needs two entries or more."""
        if self._stage is not Stage.REGISTERING:
            raise TournamentError("the tournament has already started")
        if self.entries < 2:
            raise TournamentError(f"a tournament needs two entries or more to start, has {self.entries}")
        self._chart = draw_seats(list(self._live), self.seats_per_table, self._rng)
        self._stacks = dict.fromkeys(self._live, self.structure.starting_chips)
        self._stage = Stage.RUNNING
        self.check_conservation()
        return self.chart

    def record_hand(self, table: int, stacks: Mapping[str, int]) -> tuple[Bust, ...]:
        """Record the stacks of every player at ``table`` after a hand; those with no chips are out (returned,
        the larger starting stack first). :class:`TournamentError` (nothing changes) unless the players are
        exactly the table's and their chips are the same as before the hand."""
        return self.record_hands({table: stacks})

    def record_hands(self, results: Mapping[int, Mapping[str, int]]) -> tuple[Bust, ...]:
        """Record hands at several tables as one hand for places (hand-for-hand play, as [TDA] has it: players out
        at different tables in the same hand share its places by their starting stacks)."""
        if self._stage is not Stage.RUNNING:
            raise TournamentError(f"hands are recorded while the tournament runs; it is {self._stage.value.lower()}")
        if not results:
            raise TournamentError("no hand to record")
        for table, stacks in results.items():
            self._check_hand(table, stacks)
        order = {entry: i for i, entry in enumerate(self._entries)}
        out: list[Bust] = []
        for stacks in results.values():
            for player, chips in stacks.items():
                if chips == 0:
                    out.append(Bust(player, self._live[player].number, self._stacks[player]))
        out.sort(key=lambda b: (-b.starting_stack, order[Entry(b.player, b.entry)]))
        for stacks in results.values():
            self._stacks.update(stacks)
        for bust in out:
            del self._stacks[bust.player], self._live[bust.player]
            table, seat = self.seat_of(bust.player)
            del self._chart[table][seat]
        self._chart = {table: seats for table, seats in self._chart.items() if seats}
        if out:
            self._busts.append(tuple(out))
        if len(self._live) == 1:
            self._stage = Stage.FINISHED
        self.check_conservation()
        return tuple(out)

    def _check_hand(self, table: int, stacks: Mapping[str, int]) -> None:
        if table not in self._chart:
            raise TournamentError(f"there is no table {table!r}: tables are {sorted(self._chart)}")
        seated = set(self._chart[table].values())
        given = set(stacks)
        if given != seated:
            missing, extra = sorted(seated - given), sorted(given - seated)
            raise TournamentError(f"table {table} seats {sorted(seated)}: missing {missing}, not there {extra}")
        for player, chips in stacks.items():
            if type(chips) is not int or chips < 0:
                raise TournamentError(f"{player!r} has {chips!r} chips: a stack is a whole number of at least 0")
        before = sum(self._stacks[p] for p in seated)
        after = sum(stacks.values())
        if after != before:
            raise TournamentError(
                f"table {table} had {before} chips before the hand and {after} after: chips are conserved"
            )

    def rebalance(self) -> tuple[Move, ...]:
        """Break and balance the tables (:func:`~studpoker.tournament.balancing.plan_moves`) and return the moves
        made, for the tables to carry out between hands; an empty tuple when nothing moves."""
        if self._stage is not Stage.RUNNING:
            return ()
        moves = plan_moves(self._chart, self.seats_per_table, self._rng)
        self._chart = apply_moves(self._chart, moves)
        return moves


def _name(player: object) -> str:
    if not isinstance(player, str) or not player.strip():
        raise TournamentError(f"a player needs a name, got {player!r}")
    return player.strip()
