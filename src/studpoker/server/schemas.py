"""The HTTP API's bodies as Pydantic models: requests with their bounds, responses as they are sent.

Requests are strict (``"400"`` is not a number, ``true`` is not 1) and closed (an unknown field is an error), and
every number has the documented maximum of :mod:`studpoker.server.limits`, so what reaches the room is already
the right type and size. The models are the OpenAPI schema published at ``/api/openapi.json``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from ..engine import Variant
from ..rotation import MAX_GAMES, MAX_HANDS_PER_GAME
from ..variant import MAX_NAME as MAX_VARIANT_TEXT
from .historyschemas import (
    HandDetail,
    HandList,
    HandSummary,
)
from .hudschemas import DEFAULT_HUD_STATS, MAX_HUD_STATS, StatKey, chosen_stats, known_stats
from .limits import MAX_BALANCE, MAX_CHIPS, MAX_ID, MAX_NAME, MAX_SHOWDOWN_SECONDS, MAX_STAKE

__all__ = [
    "Account",
    "AccountList",
    "AccountSummary",
    "AddBots",
    "Books",
    "BotsAdded",
    "BotsRemoved",
    "Chips",
    "Clock",
    "CloseResult",
    "CreateTable",
    "Credentials",
    "CsrfToken",
    "Empty",
    "ErrorBody",
    "HandDetail",
    "HandList",
    "HandSummary",
    "LeaveResult",
    "Ledger",
    "LedgerLine",
    "Me",
    "MixGameInfo",
    "MixGameRequest",
    "MixInfo",
    "MySeat",
    "Ok",
    "PasswordChange",
    "Preferences",
    "PreferencesChange",
    "Presets",
    "SessionsEnded",
    "Sit",
    "SitResult",
    "SittingOut",
    "Stakes",
    "TableDetail",
    "TableInfo",
    "TableList",
    "TableSeat",
    "TopUp",
    "TopUpResult",
]

#: A whole number of chips in one request.
Chips = Annotated[int, Field(ge=1, le=MAX_CHIPS)]
#: One of a table's stakes.
Stake = Annotated[int, Field(ge=1, le=MAX_STAKE)]
Balance = Annotated[int, Field(ge=0, le=MAX_BALANCE)]
Id = Annotated[int, Field(ge=1, le=MAX_ID)]
SeatNumber = Annotated[int, Field(ge=1, le=10)]
#: A pause after a showdown, in seconds (a JSON number: ``5``, ``2.5``).
ShowdownSeconds = Annotated[float, Field(ge=0, le=MAX_SHOWDOWN_SECONDS, allow_inf_nan=False)]
#: The longest list of muted usernames.
MAX_MUTED = 100
#: A username in a preference (the usernames' alphabet; 1 to 20 characters).
MutedName = Annotated[str, Field(min_length=1, max_length=20, pattern=r"^[A-Za-z0-9_-]+$", examples=["bob"])]
Volume = Annotated[int, Field(ge=0, le=100)]


class _Request(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class Empty(_Request):
    """The body of a change that needs no data: ``{}`` (or none), still sent as ``application/json``."""


# -- errors ------------------------------------------------------------------------------------------------


class FieldProblem(BaseModel):
    field: str
    message: str


class ErrorDetail(BaseModel):
    code: str = Field(examples=["insufficient_funds"])
    message: str = Field(examples=["a buy-in of 5000 chips is more than your balance of 1000"])
    details: list[FieldProblem] | None = None


class ErrorBody(BaseModel):
    """Every error: a code for programs and a sentence for people."""

    error: ErrorDetail


# -- accounts ----------------------------------------------------------------------------------------------


class Credentials(_Request):
    """Sign-up and login. A new username is 3 to 20 letters, digits, ``_`` or ``-``; a new password is 8 to 128
    characters that zxcvbn does not find easy to guess."""

    username: str = Field(min_length=1, max_length=40, examples=["ann"])
    password: str = Field(min_length=1, max_length=128, examples=["correct horse battery"])


class PasswordChange(_Request):
    """A change of the account's password: the current one, and the new one (8 to 128 characters that zxcvbn does
    not find easy to guess, as at sign-up)."""

    current: str = Field(min_length=1, max_length=128, examples=["correct horse battery"])
    new: str = Field(min_length=1, max_length=128, examples=["purple monkey dishwasher"])


class SessionsEnded(BaseModel):
    ended: int = Field(description="how many sessions of the account ended (their table sockets were closed)")


class Account(BaseModel):
    id: int
    username: str
    balance: Balance
    is_admin: bool = False


class MySeat(BaseModel):
    table_id: int
    table: str
    seat: int
    stack: int
    queued: int
    sitting_out: bool


class Me(Account):
    seats: list[MySeat]


class LedgerLine(BaseModel):
    id: int
    at: str | None
    amount: int = Field(description="the change to this account's balance")
    kind: str
    table_id: int | None
    memo: str


class Ledger(BaseModel):
    balance: Balance
    entries: list[LedgerLine]


class Ok(BaseModel):
    ok: bool


class CsrfToken(BaseModel):
    token: str = Field(description="send it back as the X-CSRF-Token header (it is also the studpoker_csrf cookie)")


def _unique_names(names: list[str]) -> list[str]:
    """The names without repeats, ignoring case (the first spelling stays)."""
    seen: set[str] = set()
    out = []
    for name in names:
        if name.casefold() not in seen:
            seen.add(name.casefold())
            out.append(name)
    return out


class Preferences(BaseModel):
    """An account's settings of the browser client, kept by the server so that they follow the account."""

    four_color: bool = Field(False, description="a four-colour deck (clubs green, diamonds blue)")
    sound: bool = Field(True, description="sounds on")
    volume: Volume = Field(70, description="sound volume, 0 to 100")
    auto_muck: bool = Field(
        False, description="muck a hand that cannot win at the showdown without being asked (the page answers)"
    )
    muted: list[MutedName] = Field(
        default_factory=list,
        max_length=MAX_MUTED,
        description="usernames whose chat this account does not want to see (the client hides their lines)",
    )
    hud: bool = Field(False, description="the HUD: statistics of the other players at a table (opt-in)")
    hud_stats: list[str] = Field(
        default_factory=lambda: list(DEFAULT_HUD_STATS),
        max_length=MAX_HUD_STATS,
        description="the statistics the HUD shows, in order (keys of GET /api/hud/stats)",
    )

    @field_validator("muted")
    @classmethod
    def _dedupe(cls, names: list[str]) -> list[str]:
        return _unique_names(names)

    @field_validator("hud_stats")
    @classmethod
    def _known(cls, keys: list[str]) -> list[str]:
        return known_stats(keys)  # a statistic the tracker no longer has is dropped


def _no_defaults(schema: dict[str, Any]) -> None:
    for prop in schema.get("properties", {}).values():
        prop.pop("default", None)


class PreferencesChange(_Request):
    """A change of preferences: only the fields given change (none may be ``null``); ``muted`` replaces the whole
    list (at most 100 usernames; repeats, ignoring case, are dropped)."""

    model_config = ConfigDict(strict=True, extra="forbid", json_schema_extra=_no_defaults)

    four_color: bool | SkipJsonSchema[None] = None
    sound: bool | SkipJsonSchema[None] = None
    volume: Volume | SkipJsonSchema[None] = None
    auto_muck: bool | SkipJsonSchema[None] = None
    muted: Annotated[list[MutedName], Field(max_length=MAX_MUTED)] | SkipJsonSchema[None] = None
    hud: bool | SkipJsonSchema[None] = None
    hud_stats: Annotated[list[StatKey], Field(max_length=MAX_HUD_STATS)] | SkipJsonSchema[None] = None

    @field_validator("four_color", "sound", "volume", "auto_muck", "muted", "hud", "hud_stats", mode="before")
    @classmethod
    def _not_null(cls, value: object) -> object:
        if value is None:
            raise ValueError("may not be null: leave the field out to keep it as it is")
        return value

    @field_validator("muted")
    @classmethod
    def _dedupe(cls, names: list[str] | None) -> list[str] | None:
        return None if names is None else _unique_names(names)

    @field_validator("hud_stats")
    @classmethod
    def _stats(cls, keys: list[str] | None) -> list[str] | None:
        return None if keys is None else chosen_stats(keys)


class Note(BaseModel):
    """A private note on a player (``updated_at`` ``None``: the note was deleted)."""

    name: str
    text: str
    updated_at: str | None


class Notes(BaseModel):
    notes: list[Note]


class NoteChange(_Request):
    """A note's new text (an empty one deletes it): at most 500 characters, line breaks allowed."""

    text: str = Field(max_length=2000, examples=["calls down with any pair; bluffs the river in razz"])


# -- lobby and tables --------------------------------------------------------------------------------------


class Stakes(BaseModel):
    small_bet: int
    big_bet: int
    ante: int
    bring_in: int


class Clock(BaseModel):
    action: float
    bank: float


class MixGameInfo(BaseModel):
    variant: Variant
    variant_name: str
    stakes: Stakes
    stakes_text: str


class MixInfo(BaseModel):
    """A mixed table's games (each ``every`` hands, 0: an orbit), ``now`` and ``next`` (indexes) and ``hands_left``."""

    name: str
    every: int
    games: list[MixGameInfo]
    now: int
    next: int
    hands_left: int | None


class TableInfo(BaseModel):
    id: int
    name: str
    variant: Variant
    variant_name: str
    preset: str
    stakes: Stakes
    stakes_text: str
    min_buy_in: int | None
    max_buy_in: int | None
    max_seats: int
    seats_taken: int
    hands_played: int
    average_pot: int
    playing: bool
    status: Literal["open", "closing"]
    created_by: int | None
    clock: Clock
    showdown_seconds: float = Field(description="the pause after a hand that was shown down, in seconds")
    training: bool = Field(
        False, description="a training table: practice chips, every card of a finished hand public, equities"
    )
    waiting: int = Field(0, description="names on the table's waiting list")
    mix: MixInfo | None = Field(None, description="a mixed table's rotation (null: a table of one game)")
    tournament_id: int | None = Field(None, description="a tournament's table: the tournament (its page's id)")


class TableList(BaseModel):
    tables: list[TableInfo]


class TableSeat(BaseModel):
    seat: int
    name: str
    stack: int
    bot: bool
    sitting_out: bool
    leaving: bool
    queued: int
    connected: bool


class TableDetail(TableInfo):
    seats: list[TableSeat]


class VariantChoice(BaseModel):
    variant: Variant
    name: str


class Presets(BaseModel):
    variants: list[VariantChoice]
    presets: list[str]
    stakes: list[Stakes]
    bots: list[str]


def _any_variant_name(value: object) -> object:
    """A game's name in any spelling :meth:`Variant.parse` takes, as the game; anything else is left to the
    enum's own check (a number, a list, a long string: refused there with the allowed values)."""
    if isinstance(value, str) and len(value) <= MAX_VARIANT_TEXT:
        try:
            return Variant.parse(value)
        except ValueError:
            return value
    return value


AnyVariant = Annotated[
    Variant,
    BeforeValidator(_any_variant_name),
    Field(description="STUD7, STUD7_HL8, STUD5 or RAZZ, or any name Variant.parse takes (7stud, FR...)"),
]


class MixGameRequest(_Request):
    """One game of a mixed table: its stakes are the table's unless given (left out there: set from its small bet)."""

    variant: AnyVariant
    small_bet: Stake | None = None
    big_bet: Stake | None = None
    ante: Stake | None = None
    bring_in: Stake | None = None
    preset: Literal["casino", "tournament"] | None = Field(
        None, description="this game's preset (the table's if left out)"
    )


class CreateTable(_Request):
    """A new table. Only ``variant`` and ``small_bet`` are needed: ``big_bet`` defaults to twice the small bet,
    ``ante`` to a tenth of it (at least 1), ``bring_in`` to a third (at least twice the ante, at most the small
    bet), ``preset`` to casino. A mixed table gives ``games`` instead of ``variant`` (Triple Stud: STUD7, RAZZ,
    STUD7_HL8), each game ``every`` hands (0: an orbit)."""

    variant: AnyVariant | None = None
    games: list[MixGameRequest] | None = Field(
        None,
        min_length=2,
        max_length=MAX_GAMES,
        description="a mixed table's games in turn, each with its own stakes if given (else the table's)",
    )
    every: int = Field(
        8,
        ge=0,
        le=MAX_HANDS_PER_GAME,
        description="at a mixed table, the hands each game lasts (0: an orbit, as many hands as players dealt)",
    )
    small_bet: Stake
    big_bet: Stake | None = None
    ante: Stake | None = None
    bring_in: Stake | None = None
    preset: Literal["casino", "tournament"] = "casino"
    name: str | None = Field(None, max_length=4 * MAX_NAME)
    min_buy_in: Chips | None = None
    max_buy_in: Chips | None = None
    bots: int = Field(0, ge=0, le=9)
    showdown_seconds: ShowdownSeconds | None = Field(
        None, description="the pause after a hand shown down, 0 to 30 seconds (the room's default if left out)"
    )
    training: StrictBool = Field(
        False,
        description=(
            "a training table: practice chips from the house (no balance moves), every card of a finished hand"
            " public, each player's equity street by street in the replayer"
        ),
    )

    @model_validator(mode="after")
    def _one_game_or_a_mix(self) -> CreateTable:
        if (self.variant is None) == (self.games is None):
            raise ValueError("give a variant (a table of one game) or games (a mixed table), not both")
        return self


class Sit(_Request):
    buy_in: Chips = Field(examples=[400])
    seat: SeatNumber | None = Field(None, description="the lowest free seat if left out")


class SitResult(BaseModel):
    seat: int
    stack: int
    balance: Balance


class LeaveResult(BaseModel):
    left: bool
    cashed_out: int
    balance: Balance


class TopUp(_Request):
    amount: Chips = Field(examples=[200])


class TopUpResult(BaseModel):
    queued: bool
    stack: int
    queued_chips: int
    balance: Balance


class SittingOut(BaseModel):
    sitting_out: bool


class WaitingPlace(BaseModel):
    place: int = Field(description="the account's place on the waiting list (1: next)")
    waiting: int = Field(description="names on the list")


class WaitingLeft(BaseModel):
    left: bool = Field(description="whether the account was on the list")
    waiting: int = Field(description="names on the list")


class AddBots(_Request):
    count: int | None = Field(None, ge=0, le=10, description="fill every free seat if left out")
    tag: str | None = Field(None, max_length=40, examples=["tight-aggressive"])


class BotsAdded(BaseModel):
    seats: list[int]


class BotsRemoved(BaseModel):
    removed: list[int]


class CashedOut(BaseModel):
    seat: int
    name: str
    amount: int


class CloseResult(BaseModel):
    closed: bool = Field(description="false while the hand in play is finished; the table closes after it")
    cashed_out: list[CashedOut]


# -- admin -------------------------------------------------------------------------------------------------


class AccountSummary(Account):
    created_at: str | None


class AccountList(BaseModel):
    accounts: list[AccountSummary]


class Books(BaseModel):
    """The invariant of the ledger, checked by the database and in Python."""

    balanced: bool
    problem: str | None
    granted: int
    balances: int
    at_tables: int


class MovePlayer(_Request):
    """A floor's move: the player of ``account_id`` and his chips from one table to another, between his hands."""

    account_id: Annotated[int, Field(ge=1, le=MAX_ID)]
    from_table: Annotated[int, Field(ge=1, le=MAX_ID)]
    to_table: Annotated[int, Field(ge=1, le=MAX_ID)]
    seat: SeatNumber | None = Field(None, description="the lowest free seat if left out")


class SeatHeld(BaseModel):
    """A move's first step: the seat the table it goes to holds for the player."""

    seat: int


class MovedOut(BaseModel):
    """A move's second step: the seat the player left and the chips he took with him."""

    seat: int
    stack: int


class Arrived(BaseModel):
    """A move's last step: the seat the player took (``None``: none, the hold was let go) and his stack."""

    seat: int | None
    stack: int


class PlayerMoved(BaseModel):
    account_id: int
    from_table: int
    from_seat: int
    to_table: int
    seat: int
    stack: int = Field(description="the chips he took with him (his stack and any chips he had queued)")
    seated: bool = Field(description="seated at once (else his seat is taken from the books when its hold ends)")
