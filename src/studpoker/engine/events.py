"""The hand's event log: every ante, card, action, return and award, in order.

Events are small immutable records (named tuples, cheap to create: a hand logs
a few hundred). Hand histories, the terminal UI and the server are all driven
from this log. A card the engine does not know (dealt as unknown) is ``None``;
so is every card a viewer may not see in :meth:`HandState.view`.
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import Card
from .actions import Action

__all__ = [
    "ActionTaken",
    "AntePosted",
    "Awarded",
    "Burned",
    "CardDealt",
    "CommunityCard",
    "Event",
    "HandEnded",
    "Mucked",
    "Reshuffled",
    "Returned",
    "Shown",
    "StreetStarted",
]


class AntePosted(NamedTuple):
    player: int
    amount: int
    all_in: bool


class StreetStarted(NamedTuple):
    """A new street: its number (3..7, or 2..5 in five-card stud)."""

    street: int


class CardDealt(NamedTuple):
    player: int
    card: Card | None
    face_up: bool
    street: int


class Burned(NamedTuple):
    card: Card | None


class Reshuffled(NamedTuple):
    """The stub and the burn cards were scrambled and cut for the last street (R8.2, R8.4)."""

    cards: int


class CommunityCard(NamedTuple):
    """The short-deck community card, face up in the centre, part of every live hand (R8.3)."""

    card: Card | None


class ActionTaken(NamedTuple):
    """A player's action; ``all_in`` when it put his last chip in; ``added``: the chips it put in (a call of
    ``Action.call(10)`` by a player who had brought in for 3 adds 7: what "call 7" says at a table)."""

    player: int
    action: Action
    street: int
    all_in: bool
    added: int = 0


class Returned(NamedTuple):
    """Uncalled chips given back (R11.2)."""

    player: int
    amount: int


class Shown(NamedTuple):
    player: int
    cards: tuple[Card | None, ...]


class Mucked(NamedTuple):
    player: int


class Awarded(NamedTuple):
    """Chips from pot ``pot`` (0 = main) to ``player``; ``share``: pot, high, low or split."""

    player: int
    amount: int
    pot: int
    share: str


class HandEnded(NamedTuple):
    """The hand is over; ``stacks`` are the players' final stacks."""

    stacks: tuple[int, ...]


Event = (
    AntePosted
    | StreetStarted
    | CardDealt
    | Burned
    | Reshuffled
    | CommunityCard
    | ActionTaken
    | Returned
    | Shown
    | Mucked
    | Awarded
    | HandEnded
)
