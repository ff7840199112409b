"""A tournament's structure: the starting chips, the levels and breaks in order, late registration, re-entries.

A level is a fixed-limit stud stake (ante, bring-in, small and big bet) played for some minutes; a break stops
play. The clock is not kept here: :meth:`Structure.at` reads the structure at a number of seconds since the
start, and :meth:`Structure.at_hand` at a number of hands, for simulations, which have no clock.

>>> structure = Structure.standard()
>>> structure.starting_chips, len(structure.levels), structure.late_registration_level
(25000, 22, 8)
>>> clock = structure.at(125 * 60)                  # two levels of 60 minutes, then a 20-minute break
>>> clock.current, clock.seconds_left, clock.next_level.number
(Break(minutes=20), 900, 3)
>>> structure.rules(3, "razz").small_bet, structure.rules(3, "razz").raise_cap
(400, 4)
>>> fast = Structure.turbo(hands_per_level=5)
>>> fast.at_hand(0).number, fast.at_hand(5).number, fast.at_hand(10_000).number   # the last level never ends
(1, 2, 15)
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, Final

from ..engine import Rules
from ..engine.errors import RulesError, RulesWarning
from ..variant import Variant
from .errors import StructureError

__all__ = ["MAX_PERIODS", "Break", "Clock", "Level", "Structure"]

#: The most levels and breaks a structure read from data may have (a bound for what a client sends).
MAX_PERIODS = 100


@dataclass(frozen=True, slots=True)
class Level:
    """One level: its number (from 1), the stakes of every hand dealt in it, and how long it lasts."""

    number: int
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    minutes: int = 60

    def __str__(self) -> str:
        return f"level {self.number}: ante {self.ante}, bring-in {self.bring_in}, {self.small_bet}/{self.big_bet}"


@dataclass(frozen=True, slots=True)
class Break:
    """A break between two levels: no hands are dealt for ``minutes``."""

    minutes: int


@dataclass(frozen=True, slots=True)
class Clock:
    """What a tournament clock shows: the level (or break) in play, the seconds left in it, and the next level.

    On the last level ``seconds_left`` counts down its minutes and then stays at 0: the last level is played
    until the tournament ends, and ``next_level`` is ``None``.
    """

    current: Level | Break
    seconds_left: int
    next_level: Level | None

    @property
    def on_break(self) -> bool:
        return isinstance(self.current, Break)

    @property
    def level(self) -> Level | None:
        """The level in play, or ``None`` during a break."""
        return self.current if isinstance(self.current, Level) else None


@dataclass(frozen=True, slots=True)
class Structure:
    """Starting chips and the levels and breaks in order (a break never first, last or twice in a row).

    ``late_registration_level``: new entries are taken until the end of that level (and the break after it);
    ``None``: only before the start. ``reentries``: how many times a player who is out may buy in again
    while registration is open (0: a freeze-out). ``hands_per_level``: the structure can also be played by
    hands (:meth:`at_hand`), each level lasting that many hands and the breaks skipped; a multi-table
    simulation counts hands in rounds, every table dealing one hand a round.

    Checked when made (:class:`~studpoker.tournament.errors.StructureError` says what is wrong): levels
    numbered 1, 2, 3..., no stake falling from one level to the next and the small bet rising, stakes the
    engine accepts under the tournament preset (SPEC 12b), positive minutes, starting chips of at least
    one big bet of the first level.
    """

    starting_chips: int
    periods: tuple[Level | Break, ...]
    late_registration_level: int | None = None
    reentries: int = 0
    hands_per_level: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "periods", tuple(self.periods))
        _check_whole("starting chips", self.starting_chips, 1)
        _check_whole("re-entries", self.reentries, 0)
        if self.hands_per_level is not None:
            _check_whole("hands per level", self.hands_per_level, 1)
        if not self.periods or not isinstance(self.periods[0], Level):
            raise StructureError("a structure starts with a level")
        if isinstance(self.periods[-1], Break):
            raise StructureError("a structure ends with a level, not a break")
        previous: Level | Break | None = None
        for period in self.periods:
            if isinstance(period, Break):
                _check_whole("a break's minutes", period.minutes, 1)
                if isinstance(previous, Break):
                    raise StructureError("two breaks in a row: make them one")
            elif isinstance(period, Level):
                _check_level(period, previous_level=_last_level(self.periods, period))
            else:
                raise StructureError(f"a structure holds levels and breaks, got {period!r}")
            previous = period
        if self.starting_chips < self.levels[0].big_bet:
            raise StructureError(
                f"starting chips {self.starting_chips} are less than one big bet of level 1 ({self.levels[0].big_bet})"
            )
        late = self.late_registration_level
        if late is not None:
            _check_whole("the late registration level", late, 1)
            if late > len(self.levels):
                raise StructureError(f"late registration until level {late}, but there are {len(self.levels)} levels")

    # -- reading -----------------------------------------------------------------------------------

    @property
    def levels(self) -> tuple[Level, ...]:
        return tuple(p for p in self.periods if isinstance(p, Level))

    def level(self, number: int) -> Level:
        """Level ``number`` (from 1); :class:`StructureError` if there is none."""
        levels = self.levels
        if type(number) is not int or not 1 <= number <= len(levels):
            raise StructureError(f"there is no level {number!r}: levels are 1 to {len(levels)}")
        return levels[number - 1]

    def at(self, elapsed_seconds: float) -> Clock:
        """The clock ``elapsed_seconds`` after the start (breaks included); :class:`StructureError` if negative.

        A period ends on the second its time is up: at exactly 3600 seconds level 1 is over.
        """
        if isinstance(elapsed_seconds, bool) or not isinstance(elapsed_seconds, (int, float)) or elapsed_seconds < 0:
            raise StructureError(f"elapsed seconds must be a number of at least 0, got {elapsed_seconds!r}")
        if math.isnan(elapsed_seconds) or math.isinf(elapsed_seconds):
            raise StructureError(f"elapsed seconds must be finite, got {elapsed_seconds!r}")
        start = 0
        last = len(self.periods) - 1
        for i, period in enumerate(self.periods):
            end = start + 60 * period.minutes
            if elapsed_seconds < end or i == last:
                return Clock(period, max(0, math.ceil(end - elapsed_seconds)), self._next_level(i))
            start = end
        raise AssertionError("unreachable: the last period is returned in the loop")

    def at_hand(self, hands_played: int) -> Level:
        """The level of the next hand after ``hands_played`` hands (or rounds), in hand-counted play: level ``n``
        is played for hands ``(n - 1) * hands_per_level`` to ``n * hands_per_level - 1``, the last level to the
        end. :class:`StructureError` if the structure has no ``hands_per_level``."""
        if self.hands_per_level is None:
            raise StructureError("this structure is played by the clock: give it hands_per_level to count hands")
        _check_whole("hands played", hands_played, 0)
        levels = self.levels
        return levels[min(hands_played // self.hands_per_level, len(levels) - 1)]

    def registration_open(self, clock: Clock) -> bool:
        """Whether late registration (and re-entry) is open at ``clock``: until the end of level
        :attr:`late_registration_level` and the break that follows it."""
        late = self.late_registration_level
        if late is None:
            return False
        if clock.level is not None:
            return clock.level.number <= late
        return clock.next_level is not None and clock.next_level.number <= late + 1

    def rules(self, level: Level | int, variant: Variant | str) -> Rules:
        """The engine's rules for a hand of ``variant`` at ``level`` (a :class:`Level` or its number): the
        tournament preset of SPEC 12b (raise cap 4, never uncapped heads-up, no open-pair big bet) at the
        level's stakes. :class:`StructureError` for a game the engine does not know or stakes it refuses."""
        if not isinstance(level, Level):
            level = self.level(level)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RulesWarning)  # the rules are made once and remembered
                return Rules.from_preset(
                    "tournament", variant, level.ante, level.bring_in, level.small_bet, level.big_bet
                )
        except RulesError as error:
            raise StructureError(f"{level}: {error}") from None

    def _next_level(self, index: int) -> Level | None:
        for period in self.periods[index + 1 :]:
            if isinstance(period, Level):
                return period
        return None

    # -- as data --------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The structure as JSON-ready data (what a card room stores): :meth:`from_json` reads it back.

        >>> Structure.from_json(Structure.turbo().to_json()) == Structure.turbo()
        True
        """
        periods: list[dict[str, int]] = []
        for p in self.periods:
            if isinstance(p, Level):
                periods.append(
                    {"ante": p.ante, "bring_in": p.bring_in, "small_bet": p.small_bet, "big_bet": p.big_bet}
                    | {"minutes": p.minutes}
                )
            else:
                periods.append({"break": p.minutes})
        data: dict[str, Any] = {"starting_chips": self.starting_chips, "periods": periods}
        data |= {"late_registration_level": self.late_registration_level, "reentries": self.reentries}
        data["hands_per_level"] = self.hands_per_level
        return data

    @classmethod
    def from_json(cls, data: object) -> Structure:
        """A structure from :meth:`to_json`'s data, levels numbered in order; :class:`StructureError` says what is
        wrong (at most :data:`MAX_PERIODS` periods)."""
        if not isinstance(data, dict) or not isinstance(data.get("periods"), list):
            raise StructureError("a structure is an object with a list of periods")
        if len(data["periods"]) > MAX_PERIODS:
            raise StructureError(f"a structure has at most {MAX_PERIODS} levels and breaks")
        periods: list[Level | Break] = []
        for i, period in enumerate(data["periods"]):
            if not isinstance(period, dict):
                raise StructureError(f"period {i + 1} is not an object")
            try:
                if "break" in period:
                    periods.append(Break(period["break"]))
                else:
                    number = sum(1 for p in periods if isinstance(p, Level)) + 1
                    ante, bring_in = period["ante"], period["bring_in"]
                    small, big = period["small_bet"], period["big_bet"]
                    periods.append(Level(number, ante, bring_in, small, big, period.get("minutes", 60)))
            except KeyError as error:
                raise StructureError(f"period {i + 1} has no {error.args[0]}") from None
        try:
            return cls(
                data.get("starting_chips"),  # type: ignore[arg-type]  # checked by the constructor
                tuple(periods),
                data.get("late_registration_level"),
                data.get("reentries", 0),
                data.get("hands_per_level"),
            )
        except TypeError as error:
            raise StructureError(f"not a structure: {error}") from None

    # -- the two shipped structures ------------------------------------------------------------------

    @classmethod
    def standard(cls) -> Structure:
        """A structure in the spirit of a big live stud event: 25,000 chips, 60-minute levels, a 20-minute break
        every two levels, the ante about an eighth of the small bet and the bring-in about a quarter (never
        less than twice the ante, as stud hi/lo wants), late registration until the end of level 8, no
        re-entry. Our own numbers, not any event's."""
        periods: list[Level | Break] = []
        for number, (ante, bring_in, small) in enumerate(_STANDARD, start=1):
            periods.append(Level(number, ante, bring_in, small, 2 * small, 60))
            if number % 2 == 0 and number < len(_STANDARD):
                periods.append(Break(20))
        return cls(25_000, tuple(periods), late_registration_level=8)

    @classmethod
    def turbo(cls, hands_per_level: int | None = 10, *, starting_chips: int = 2_000) -> Structure:
        """A fast structure for tests and simulations: 2,000 chips (25 big bets of level 1), 15 levels of 10
        minutes or ``hands_per_level`` hands, no breaks, no late registration."""
        levels = tuple(
            Level(number, ante, bring_in, small, 2 * small, 10)
            for number, (ante, bring_in, small) in enumerate(_TURBO, start=1)
        )
        return cls(starting_chips, levels, hands_per_level=hands_per_level)


#: (ante, bring-in, small bet) of the standard structure's levels; the big bet is twice the small bet.
_STANDARD: Final = (
    (25, 50, 200),
    (25, 75, 300),
    (50, 100, 400),
    (75, 150, 600),
    (100, 200, 800),
    (100, 300, 1_000),
    (200, 400, 1_500),
    (250, 500, 2_000),
    (300, 700, 3_000),
    (500, 1_000, 4_000),
    (500, 1_500, 5_000),
    (1_000, 2_000, 6_000),
    (1_000, 2_500, 8_000),
    (1_500, 3_000, 10_000),
    (2_000, 4_000, 15_000),
    (2_500, 5_000, 20_000),
    (4_000, 8_000, 30_000),
    (5_000, 10_000, 40_000),
    (6_000, 15_000, 50_000),
    (8_000, 20_000, 60_000),
    (10_000, 25_000, 80_000),
    (15_000, 30_000, 100_000),
)

#: (ante, bring-in, small bet) of the turbo structure's levels.
_TURBO: Final = (
    (5, 10, 40),
    (10, 20, 60),
    (10, 25, 80),
    (15, 30, 100),
    (20, 50, 150),
    (25, 75, 200),
    (50, 100, 300),
    (75, 150, 400),
    (100, 200, 600),
    (150, 300, 800),
    (200, 400, 1_000),
    (300, 600, 1_500),
    (400, 800, 2_000),
    (500, 1_000, 3_000),
    (1_000, 2_000, 5_000),
)


def _check_whole(what: str, value: object, least: int) -> None:
    if type(value) is not int or value < least:
        raise StructureError(f"{what} must be a whole number of at least {least}, got {value!r}")


def _last_level(periods: tuple[Level | Break, ...], level: Level) -> Level | None:
    """The level before ``level`` in ``periods`` (by identity of position), or ``None`` for the first."""
    before: Level | None = None
    for period in periods:
        if period is level:
            return before
        if isinstance(period, Level):
            before = period
    return before


def _check_level(level: Level, previous_level: Level | None) -> None:
    for name in ("number", "ante", "bring_in", "small_bet", "big_bet", "minutes"):
        _check_whole(f"level {level.number!r}'s {name.replace('_', ' ')}", getattr(level, name), 1)
    expected = 1 if previous_level is None else previous_level.number + 1
    if level.number != expected:
        raise StructureError(f"levels are numbered in order from 1: expected level {expected}, got {level.number}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RulesWarning)
            Rules.tournament(Variant.STUD7, level.ante, level.bring_in, level.small_bet, level.big_bet)
    except RulesError as error:
        raise StructureError(f"{level}: {error}") from None
    if previous_level is None:
        return
    for name in ("ante", "bring_in", "small_bet", "big_bet"):
        if getattr(level, name) < getattr(previous_level, name):
            raise StructureError(
                f"{level}: the {name.replace('_', '-' if name == 'bring_in' else ' ')} falls from"
                f" {getattr(previous_level, name)} at level {previous_level.number}; stakes only rise"
            )
    if level.small_bet == previous_level.small_bet:
        raise StructureError(f"{level}: the small bet does not rise from level {previous_level.number}")
