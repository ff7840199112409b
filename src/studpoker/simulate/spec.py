"""What a simulation is: :class:`SimulationSpec`, a frozen value checked when made, and the rules and bots it builds.

The spec is all a chunk of hands depends on (with the chunk's number), so it is what travels to worker processes
and Ray tasks: plain numbers and strings, no engine objects.
"""

from __future__ import annotations

import math
import shlex
import shutil
from dataclasses import dataclass, fields
from typing import Any

from ..bots import BOT_TAGS, Bot, make_bot
from ..engine import Rules, RulesError, Variant

__all__ = [
    "BOT_ALIASES",
    "DEFAULT_STACK_BIG_BETS",
    "MAX_CHUNKS",
    "MAX_HANDS",
    "MAX_SAVED_HANDS",
    "SimulateError",
    "SimulationSpec",
]


#: Short names accepted for built-in bots.
BOT_ALIASES = {"tag": "tight-aggressive", "station": "calling-station"}

#: The most hands one simulation may play.
MAX_HANDS = 10**10

#: The most chunks (``hands / chunk``): each is a task with its own bots and its own point of the curve.
MAX_CHUNKS = 1_000_000

#: The most hands whose histories may be saved in one run (a ``.phhs`` of about a gigabyte).
MAX_SAVED_HANDS = 1_000_000

#: Every hand starts every bot with this many big bets (100: deep enough that stacks rarely limit the betting).
DEFAULT_STACK_BIG_BETS = 100


class SimulateError(ValueError):
    """A simulation that cannot be run as asked (an unknown bot or variant, a bad number of hands...)."""


def _bot_tag(text: str) -> str:
    """A bot's tag as :func:`~studpoker.bots.make_bot` takes it (aliases resolved), or :class:`SimulateError`."""
    tag = text.strip()
    if tag.startswith("external:"):
        command = tag.removeprefix("external:").strip()
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise SimulateError(f"cannot read the external bot command {command!r}: {error}") from None
        if not argv:
            raise SimulateError("external: needs a command, e.g. 'external:python examples/bots/caller.py'")
        if shutil.which(argv[0]) is None:
            raise SimulateError(f"external bot {command!r}: there is no program {argv[0]!r}")
        return f"external:{command}"
    tag = BOT_ALIASES.get(tag, tag)
    if tag not in BOT_TAGS:
        known = ", ".join([*BOT_TAGS, *BOT_ALIASES])
        raise SimulateError(f"unknown bot {text.strip()!r}: choose from {known}, or external:COMMAND")
    return tag


@dataclass(frozen=True, slots=True)
class SimulationSpec:
    """A bot-against-bot simulation: the game, the bots (one per seat, 2 to the table's seats), how many hands.

    Every hand starts every bot with ``stack`` big bets, so hands are independent deals. ``chunk`` hands make a
    unit of work; chunk ``k`` is played from ``seed`` and ``k`` alone. ``duplicate`` replays every deal once per
    seat rotation (``hands`` and ``chunk`` are then rounded up to whole deals: multiples of the number of bots).
    ``sample`` is the share of hands whose histories are kept (0: none). ``seed`` ``None`` is resolved to a
    random seed by :func:`~studpoker.simulate.simulate`, which reports it.
    """

    bots: tuple[str, ...]
    hands: int
    variant: str | Variant = "7stud"
    preset: str = "casino"
    ante: int = 1
    bring_in: int = 3
    small_bet: int = 10
    big_bet: int = 20
    seed: int | None = None
    chunk: int = 10_000
    duplicate: bool = False
    stack: int = DEFAULT_STACK_BIG_BETS
    sample: float = 0.0

    def __post_init__(self) -> None:
        if isinstance(self.bots, str):
            raise SimulateError("bots must be a list of tags, e.g. ['tight-aggressive', 'random']")
        object.__setattr__(self, "bots", tuple(_bot_tag(str(tag)) for tag in self.bots))
        try:  # any name of the game (Variant.parse); kept as the short name results and JSON show
            object.__setattr__(self, "variant", Variant.parse(self.variant).short_name)
        except ValueError as error:
            raise SimulateError(str(error)) from None
        for name in ("hands", "ante", "bring_in", "small_bet", "big_bet", "chunk", "stack"):
            value = getattr(self, name)
            if type(value) is not int:
                raise SimulateError(f"{name} must be a whole number, got {value!r}")
        rules = self.rules()  # refuses an unknown variant or preset and stakes the engine does not take
        seats = rules.max_seats or rules.variant.max_seats
        if not 2 <= len(self.bots) <= seats:
            raise SimulateError(f"{rules.variant.title} seats 2 to {seats} bots, got {len(self.bots)}")
        object.__setattr__(self, "duplicate", bool(self.duplicate))
        if not 1 <= self.hands <= MAX_HANDS:
            raise SimulateError(f"hands must be 1 to {MAX_HANDS:,}, got {self.hands:,}")
        if self.seed is not None and (type(self.seed) is not int or not 0 <= self.seed < 2**63):
            raise SimulateError(f"seed must be a whole number from 0 to 2**63-1, got {self.seed!r}")
        if not 1 <= self.chunk <= MAX_HANDS:
            raise SimulateError(f"chunk must be 1 to {MAX_HANDS:,} hands, got {self.chunk:,}")
        if self.chunks > MAX_CHUNKS:
            least = math.ceil(self.hands / MAX_CHUNKS)
            raise SimulateError(
                f"a chunk of {self.chunk:,} hands cuts {self.hands:,} hands into {self.chunks:,} chunks, more than"
                f" {MAX_CHUNKS:,}: use chunks of at least {least:,} hands"
            )
        if not 1 <= self.stack <= 10**6:
            raise SimulateError(f"stack must be 1 to 1,000,000 big bets, got {self.stack:,}")
        sample = self.sample
        if isinstance(sample, bool) or not isinstance(sample, int | float) or not 0.0 <= sample <= 1.0:
            raise SimulateError(f"the sample rate must be a number from 0 to 1, got {sample!r}")
        object.__setattr__(self, "sample", float(sample))
        if self.sample == 1.0 and self.played_hands > MAX_SAVED_HANDS:
            raise SimulateError(
                f"saving every one of {self.played_hands:,} hands (a sample rate of 1, the default) is more than"
                f" {MAX_SAVED_HANDS:,} histories: lower the sample rate (--sample) to"
                f" {MAX_SAVED_HANDS / self.played_hands:.6g} or less"
            )
        if math.ceil(self.played_hands * self.sample) > MAX_SAVED_HANDS:
            raise SimulateError(
                f"saving {self.sample:g} of {self.played_hands:,} hands is about"
                f" {math.ceil(self.played_hands * self.sample):,} histories, more than {MAX_SAVED_HANDS:,}:"
                f" lower the sample rate to {MAX_SAVED_HANDS / self.played_hands:.6g} or less"
            )

    # -- derived values ------------------------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Bots at the table (one per seat)."""
        return len(self.bots)

    @property
    def chunk_hands(self) -> int:
        """Hands per chunk: ``chunk``, rounded up to whole deals in duplicate mode."""
        n = len(self.bots)
        return -(-self.chunk // n) * n if self.duplicate else self.chunk

    @property
    def played_hands(self) -> int:
        """Hands played: ``hands``, rounded up to whole deals in duplicate mode."""
        n = len(self.bots)
        return -(-self.hands // n) * n if self.duplicate else self.hands

    @property
    def chunks(self) -> int:
        """How many chunks the hands are cut into."""
        return -(-self.played_hands // self.chunk_hands)

    @property
    def stack_chips(self) -> int:
        """Each bot's stack at the start of every hand, in chips."""
        return self.stack * self.big_bet

    def chunk_range(self, k: int) -> range:
        """The (0-based) hand numbers of chunk ``k``."""
        start = k * self.chunk_hands
        return range(start, min(start + self.chunk_hands, self.played_hands))

    @property
    def names(self) -> tuple[str, ...]:
        """Each bot's name in results: its number (from 1) and tag, e.g. ``1:tight-aggressive`` (``2:external`` for
        an external bot, whose command is in :attr:`bots`)."""
        return tuple(f"{i + 1}:{tag.partition(':')[0]}" for i, tag in enumerate(self.bots))

    def rules(self) -> Rules:
        """The table's rules (:class:`SimulateError` for an unknown variant or preset, or stakes refused)."""
        variant = Variant.parse(self.variant)  # checked by __post_init__
        if self.preset not in ("casino", "tournament"):
            raise SimulateError(f"unknown preset {self.preset!r}: choose from casino, tournament")
        try:
            return Rules.from_preset(self.preset, variant, self.ante, self.bring_in, self.small_bet, self.big_bet)
        except RulesError as error:
            raise SimulateError(str(error)) from None

    def make_bots(self, seeds: tuple[int, ...], rules: Rules) -> list[Bot]:
        """Fresh bots, bot ``i`` seeded with ``seeds[i]`` (an external bot starts its program now)."""
        bots: list[Bot] = []
        try:
            for tag, seed in zip(self.bots, seeds, strict=True):
                bots.append(make_bot(tag, seed, rules=rules))
        except BaseException:
            for bot in bots:
                bot.close()
            raise
        return bots

    def replace(self, **changes: Any) -> SimulationSpec:
        """A copy with some fields changed (checked again)."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        return SimulationSpec(**values)

    def to_dict(self) -> dict[str, Any]:
        """The spec as JSON-ready data."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values["bots"] = list(self.bots)
        return values
