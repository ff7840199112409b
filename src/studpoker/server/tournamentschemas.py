"""The tournaments' API models (Pydantic): the create form, a tournament in the lobby and on its page, the answers
of registering and unregistering. Every number a client sends is bounded."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from ..engine import Variant
from ..tournament.structure import MAX_PERIODS
from .limits import MAX_CHIPS, MAX_NAME, MAX_STAKE
from .schemas import AnyVariant, Balance, _Request

__all__ = [
    "MAX_ENTRIES",
    "MAX_START_SECONDS",
    "CreateTournament",
    "EntryInfo",
    "LevelRequest",
    "Registered",
    "TournamentBots",
    "TournamentClock",
    "TournamentDetail",
    "TournamentInfo",
    "TournamentList",
    "TournamentTable",
    "Unregistered",
]

#: The most entries a tournament takes, and the latest a scheduled one may start (seconds from now: a week).
MAX_ENTRIES, MAX_START_SECONDS = 1_000, 7 * 24 * 3600.0


class CreateTournament(_Request):
    """A new tournament: a sit-and-go (one table, dealt when full: ``max_entries`` defaults to ``seats``) or, by an
    admin, a scheduled one (dealt ``starts_in`` seconds from now if two or more have entered, else cancelled)."""

    name: str | None = Field(None, max_length=4 * MAX_NAME)
    variant: AnyVariant = Variant.STUD7
    kind: Literal["sit_and_go", "scheduled"] = "sit_and_go"
    buy_in: int = Field(100, ge=0, le=MAX_CHIPS, description="each entry's price, paid into the prize pool")
    seats: int = Field(8, ge=2, le=10, description="players a table (at most the game's seats: 8, or 10 in 5-stud)")
    max_entries: int | None = Field(None, ge=2, le=MAX_ENTRIES)
    starts_in: float | None = Field(None, ge=0, le=MAX_START_SECONDS, allow_inf_nan=False)
    structure: Literal["standard", "turbo"] = Field(
        "turbo", description="standard: 25,000 chips, 60-minute levels; turbo: 2,000 chips, 10-minute levels"
    )
    bots: int = Field(0, ge=0, le=MAX_ENTRIES, description="bots registered at once (the creator's or an admin's)")
    late_registration_level: int | None = Field(
        None, ge=1, le=100, description="entries taken until the end of this level (standard: 8; turbo: none)"
    )
    reentries: int = Field(0, ge=0, le=10, description="how often a player who is out may buy in again (late)")
    levels: list[LevelRequest] | None = Field(
        None, min_length=1, max_length=MAX_PERIODS, description="a structure of one's own, instead of `structure`"
    )
    starting_chips: int | None = Field(None, ge=1, le=MAX_CHIPS, description="with `levels`: each entry's chips")
    payouts: list[Annotated[float, Field(gt=0, le=100, allow_inf_nan=False)]] | None = Field(
        None,
        min_length=1,
        max_length=100,
        description="per cent of the pool by place, best first, summing to 100 (the standard table by field size if"
        " left out, or when it pays more places than there are entries)",
    )


class LevelRequest(_Request):
    """A level of a structure of one's own (the big bet defaults to twice the small bet), or a break (``pause``)."""

    ante: int | None = Field(None, ge=0, le=MAX_STAKE)
    bring_in: int | None = Field(None, ge=1, le=MAX_STAKE)
    small_bet: int | None = Field(None, ge=1, le=MAX_STAKE)
    big_bet: int | None = Field(None, ge=1, le=MAX_STAKE)
    minutes: int = Field(20, ge=1, le=24 * 60)
    pause: bool = Field(False, description="a break of this many minutes instead of a level")


class TournamentBots(_Request):
    count: int = Field(ge=1, le=MAX_ENTRIES)


class TournamentInfo(BaseModel):
    """A tournament in the lobby."""

    id: int
    name: str
    kind: Literal["sit_and_go", "scheduled"]
    variant: Variant
    variant_name: str
    buy_in: int
    seats: int
    max_entries: int
    entries: int
    players_left: int
    prize_pool: int
    status: Literal["registering", "running", "finished", "cancelled"]
    starts_at: str | None
    started_at: str | None
    finished_at: str | None
    starting_chips: int
    hand_for_hand: bool
    created_by: int | None


class TournamentList(BaseModel):
    tournaments: list[TournamentInfo]


class TournamentClock(BaseModel):
    """The clock now: the level (``None`` on a break) and its stakes, the real seconds to the next period (``None``:
    the last level, played to the end), and the next level."""

    level: int | None
    on_break: bool
    stakes_text: str | None
    seconds_left: float | None
    next_level: int | None
    next_stakes_text: str | None


class TournamentTable(BaseModel):
    table_id: int
    number: int
    name: str
    players: int


class EntryInfo(BaseModel):
    """One entry: still ``registered`` (before the start), ``playing`` (with its stack), or ``out`` (its place and
    prize)."""

    name: str
    bot: bool
    status: Literal["registered", "playing", "out"]
    stack: int | None
    place: int | None
    prize: int


class TournamentDetail(TournamentInfo):
    """A tournament's page: the lobby's fields, the structure, the clock, the stacks, the payouts, the tables and
    the entries (by stack while playing, by place once out)."""

    levels: list[dict[str, int]]
    clock: TournamentClock | None
    average_stack: int | None
    biggest_stack: int | None
    payouts: list[int]
    tables: list[TournamentTable]
    players: Annotated[list[EntryInfo], Field(max_length=MAX_ENTRIES)]


class Registered(BaseModel):
    entries: int
    prize_pool: int
    balance: Balance


class Unregistered(BaseModel):
    entries: int
    refunded: int
    balance: Balance
