"""What the room sends a browser on the table socket, the closed set (docs/server-protocol.md).

One :class:`~typing.TypedDict` per ``type`` (:data:`ToBrowser`): the table code builds these and
nothing else, so mypy holds every message to its fields, and at no cost on the hot path (a ``TypedDict`` is a plain
``dict`` at run time, encoded once per step by :func:`studpoker.server.wire.encode`). :data:`TO_BROWSER` checks a
decoded message against the set (strict, no field more or less): the test suite runs it on every frame a test
socket receives, so a message the room sends and this module does not name fails the suite.

What a browser may send is :mod:`studpoker.server.clientmessages`'s.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypeAlias

from pydantic import ConfigDict, Field, JsonValue, TypeAdapter, with_config
from typing_extensions import TypedDict

from ..rotation import MAX_GAMES

__all__ = [
    "TO_BROWSER",
    "ActionMessage",
    "Ante",
    "Award",
    "Awarded",
    "CashOut",
    "ChatLine",
    "Clock",
    "Closed",
    "Closing",
    "Community",
    "Dealer",
    "Dealt",
    "DealtCard",
    "Error",
    "HandNow",
    "HandOver",
    "HandSeat",
    "HandStarted",
    "Left",
    "Legal",
    "MovedTo",
    "Muck",
    "Offer",
    "Pong",
    "Pot",
    "PotPlayer",
    "Reshuffled",
    "Returned",
    "SeatChanged",
    "SeatStack",
    "SeatState",
    "Seated",
    "Showdown",
    "Snapshot",
    "Stakes",
    "Street",
    "TableSummary",
    "ToBrowser",
    "Turn",
    "VoidedHand",
    "You",
    "YourTurn",
]

#: The strict shape every server-to-browser message is checked against (:data:`TO_BROWSER`): no field more, none
#: of the wrong type (no ``true`` for a number).
_STRICT = ConfigDict(extra="forbid", strict=True)

# -- the parts messages share --------------------------------------------------------------------------------


@with_config(_STRICT)
class Clock(TypedDict):
    """What is left of a clock: the action's seconds, then the time bank's."""

    action: float
    bank: float


@with_config(_STRICT)
class SeatState(TypedDict):
    """A seat as everyone sees it (the API's table seat; ``time_bank`` in the snapshot and ``seat`` messages)."""

    seat: int
    name: str
    stack: int
    bot: bool
    sitting_out: bool
    leaving: bool
    queued: int
    connected: bool
    time_bank: NotRequired[float]


@with_config(_STRICT)
class HandSeat(TypedDict):
    """A player of a hand and the stack he started it with (``hand_started``, a voided hand's players)."""

    seat: int
    name: str
    stack: int


@with_config(_STRICT)
class Stakes(TypedDict):
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int


@with_config(_STRICT)
class MixGame(TypedDict):
    """One game of a mixed table's rotation."""

    variant: str
    variant_name: str
    stakes: Stakes
    stakes_text: str


@with_config(_STRICT)
class Mix(TypedDict):
    """A mixed table's rotation: its games, how long each lasts (``every`` hands; 0: an orbit), the game ``now`` (the
    hand in play's, else the next hand's) and ``next`` (indexes into ``games``), and the hands of the game now still
    to be dealt (``None``: an orbit not yet begun)."""

    name: str
    every: int
    games: Annotated[list[MixGame], Field(max_length=MAX_GAMES)]
    now: int
    next: int
    hands_left: int | None


@with_config(_STRICT)
class TableSummary(TypedDict):
    """The table object of the API (``TableInfo``), as the snapshot carries it."""

    id: int
    name: str
    variant: str
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
    status: str
    created_by: int | None
    clock: Clock
    showdown_seconds: float
    training: bool
    waiting: int
    mix: Mix | None
    tournament_id: int | None


@with_config(_STRICT)
class Offer(TypedDict):
    """A seat held for an account from the waiting list, and the seconds left to take it."""

    seat: int
    seconds: float


@with_config(_STRICT)
class You(TypedDict):
    """Who the socket speaks for: its seat (``None``: a spectator) and its place on the waiting list."""

    account_id: int
    username: str | None
    seat: int | None
    waiting: int | None
    offer: Offer | None


@with_config(_STRICT)
class HandNow(TypedDict):
    """The hand in play as the snapshot carries it; ``view`` is the bot protocol's view (docs/bot-protocol.md)."""

    hand: int
    seq: int
    street: int
    pot: int
    seats: list[int]
    actor_seat: int | None
    clock: Clock
    raises: int
    raise_cap: int | None
    capped: bool
    uncapped: bool
    view: dict[str, JsonValue]


@with_config(_STRICT)
class VoidedHand(TypedDict):
    """A hand a stop cut short and the server voided: every player got back the stack he started it with."""

    hand: int
    at: str
    players: list[HandSeat]


@with_config(_STRICT)
class DealtCard(TypedDict):
    seat: int
    card: str | None  # None: a face-down card of someone else
    face_up: bool


@with_config(_STRICT)
class PotPlayer(TypedDict):
    seat: int
    stack: int
    bet: int
    total: int
    folded: bool
    all_in: bool


@with_config(_STRICT)
class Legal(TypedDict):
    """One legal action of ``your_turn``: ``amount`` the round total to send back, ``cost`` the chips it puts in."""

    action: str
    amount: int
    cost: int
    label: str
    cap: bool


@with_config(_STRICT)
class Award(TypedDict):
    """Chips from pot ``pot`` (0: the main pot) to a seat; ``share``: ``pot``, ``high``, ``low`` or ``split``."""

    seat: int
    amount: int
    pot: int
    share: str


@with_config(_STRICT)
class SeatStack(TypedDict):
    seat: int
    stack: int


@with_config(_STRICT)
class CashOut(TypedDict):
    seat: int
    name: str
    amount: int


@with_config(_STRICT)
class MovedTo(TypedDict):
    """Where the floor moved a player, with his chips."""

    table: int
    name: str
    seat: int


# -- server to browser: seats and the table ---------------------------------------------------------------


@with_config(_STRICT)
class Snapshot(TypedDict):
    """The full state for one socket (what its seat may see): the first message, and again on asking."""

    type: Literal["snapshot"]
    table: TableSummary
    you: You | None
    seats: list[SeatState]
    hand: HandNow | None
    chat: list[ChatLine]
    voided: list[VoidedHand]


@with_config(_STRICT)
class Seated(TypedDict):
    type: Literal["seated"]
    seat: int
    name: str
    stack: int
    bot: bool


@with_config(_STRICT)
class SeatChanged(SeatState):
    """A seat's state changed between events (``"seat"``)."""

    type: Literal["seat"]


@with_config(_STRICT)
class Left(TypedDict):
    type: Literal["left"]
    seat: int
    name: str
    cashed_out: int
    moved_to: NotRequired[MovedTo]


@with_config(_STRICT)
class Closing(TypedDict):
    type: Literal["closing"]
    table_id: int


@with_config(_STRICT)
class Closed(TypedDict):
    type: Literal["closed"]
    table_id: int
    cashed_out: list[CashOut]


@with_config(_STRICT)
class ChatLine(TypedDict):
    """A chat line as broadcast and kept in the table's history (``seat`` ``None``: a spectator's)."""

    type: Literal["chat"]
    id: int
    account_id: int
    name: str | None
    seat: int | None
    text: str
    at: str


# -- server to browser: a hand ----------------------------------------------------------------------------


@with_config(_STRICT)
class HandStarted(TypedDict):
    type: Literal["hand_started"]
    hand: int
    players: list[HandSeat]
    table: NotRequired[TableSummary]  # at a mixed table: the sign as the hand is dealt (its game, the next)


@with_config(_STRICT)
class Ante(TypedDict):
    type: Literal["ante"]
    hand: int
    seat: int
    amount: int
    all_in: bool


@with_config(_STRICT)
class Street(TypedDict):
    type: Literal["street"]
    hand: int
    street: int


@with_config(_STRICT)
class Dealt(TypedDict):
    type: Literal["dealt"]
    hand: int
    street: int
    cards: list[DealtCard]


@with_config(_STRICT)
class Community(TypedDict):
    type: Literal["community"]
    hand: int
    card: str | None


@with_config(_STRICT)
class Reshuffled(TypedDict):
    type: Literal["reshuffled"]
    hand: int
    cards: int


@with_config(_STRICT)
class ActionMessage(TypedDict):
    """A player acted (``"action"``); ``cards`` the cards a showdown's ``show`` names."""

    type: Literal["action"]
    hand: int
    seq: int
    seat: int
    action: str
    amount: int
    cards: NotRequired[list[str]]
    added: int
    label: str
    all_in: bool
    street: int
    auto: bool


@with_config(_STRICT)
class Returned(TypedDict):
    type: Literal["returned"]
    hand: int
    seat: int
    amount: int


@with_config(_STRICT)
class Pot(TypedDict):
    type: Literal["pot"]
    hand: int
    pot: int
    to_call: int
    street: int
    players: list[PotPlayer]
    raises: int
    raise_cap: int | None
    capped: bool
    uncapped: bool


@with_config(_STRICT)
class Showdown(TypedDict):
    """A hand shown at the showdown, or (``voluntary``) by the winner of a hand nobody called."""

    type: Literal["showdown"]
    hand: int
    seat: int
    down: list[str | None]
    up: list[str | None]
    description: str
    best: list[str]
    low: list[str] | None
    high_description: str | None
    low_description: str | None
    voluntary: NotRequired[bool]


@with_config(_STRICT)
class Muck(TypedDict):
    type: Literal["muck"]
    hand: int
    seat: int


@with_config(_STRICT)
class Awarded(TypedDict):
    type: Literal["awarded"]
    hand: int
    seat: int
    amount: int
    pot: int
    share: str


@with_config(_STRICT)
class HandOver(TypedDict):
    type: Literal["hand_over"]
    hand: int
    pot: int
    stacks: list[SeatStack]
    winners: list[Award]
    next_in: float | None


@with_config(_STRICT)
class Dealer(TypedDict):
    type: Literal["dealer"]
    hand: int
    text: str


@with_config(_STRICT)
class Turn(TypedDict):
    type: Literal["turn"]
    hand: int
    seq: int
    seat: int
    clock: Clock


@with_config(_STRICT)
class YourTurn(TypedDict):
    type: Literal["your_turn"]
    hand: int
    seq: int
    seat: int
    street: int
    legal: list[Legal]
    to_call: int
    bet: int
    stack: int
    pot: int
    raises: int
    raise_cap: int | None
    capped: bool
    uncapped: bool
    clock: Clock


# -- server to browser: answers -----------------------------------------------------------------------------


@with_config(_STRICT)
class Pong(TypedDict):
    type: Literal["pong"]


@with_config(_STRICT)
class Error(TypedDict):
    """A request refused, nothing changed; ``hand``/``seq`` the turn it named, ``retry_after`` when to chat again."""

    type: Literal["error"]
    code: str
    message: str
    hand: NotRequired[int]
    seq: NotRequired[int]
    retry_after: NotRequired[float]


#: Every message the room sends a browser.
ToBrowser: TypeAlias = (
    Snapshot
    | Seated
    | SeatChanged
    | Left
    | Closing
    | Closed
    | ChatLine
    | HandStarted
    | Ante
    | Street
    | Dealt
    | Community
    | Reshuffled
    | ActionMessage
    | Returned
    | Pot
    | Showdown
    | Muck
    | Awarded
    | HandOver
    | Dealer
    | Turn
    | YourTurn
    | Pong
    | Error
)

#: Checks a decoded message against :data:`ToBrowser` (``validate_python``): for tests and clients in Python.
TO_BROWSER: TypeAdapter[ToBrowser] = TypeAdapter(Annotated[ToBrowser, Field(discriminator="type")])
