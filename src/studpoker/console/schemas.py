"""The request bodies of the dealer's web console (``stud dealer``), as Pydantic models with bounds.

Every field is bounded (seats 1 to 10, chips 1 to 10**9, names up to 40 characters, cards up to 3 characters and
readable as cards) and no other field is taken, so a body that does not fit is refused with 422 before the session
sees it. Whether an entry is allowed where the hand stands is the session's business (409).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StringConstraints, field_validator

from ..cards import parse_card
from .irregularities import CASES

__all__ = [
    "MAX_BODY",
    "MAX_CHIPS",
    "ActionIn",
    "BuyIn",
    "CardIn",
    "Empty",
    "IrregularityIn",
    "Leave",
    "ReaderIn",
    "RevealIn",
    "SignIn",
    "TopUp",
]

#: The largest request body taken, in bytes (a larger one is answered 413).
MAX_BODY = 16 * 1024
#: The most chips any one figure may be.
MAX_CHIPS = 10**9
#: The unknown down card, as the journal writes it.
UNKNOWN = "??"

Seat = Annotated[StrictInt, Field(ge=1, le=10)]
Chips = Annotated[StrictInt, Field(ge=1, le=MAX_CHIPS)]
SomeChips = Annotated[StrictInt, Field(ge=0, le=MAX_CHIPS)]
CardText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=2, max_length=3)]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
Word = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=20)]


def _card(text: str, *, unknown: bool = False) -> str:
    """``text`` if it reads as a card (or ``??`` where an unknown card is allowed); else a ValueError."""
    if unknown and text == UNKNOWN:
        return text
    try:
        parse_card(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a card (a rank 2-9, T, J, Q, K, A and a suit c, d, h, s: 'Ah')") from None
    return text


class _Body(BaseModel):
    """A request body: only the fields named, no others."""

    model_config = ConfigDict(extra="forbid")


class Empty(_Body):
    """A body with nothing in it (``/api/start``, ``/api/undo``)."""


class SignIn(_Body):
    """The table's sign: a new session (``/api/sign``)."""

    game: Word
    small_bet: Chips
    big_bet: Chips
    ante: SomeChips
    bring_in: Chips
    min_buy_in: Chips | None = None
    odd_chip: Word | None = None
    seventh_card: Word | None = None  # the house's ruling on a last card exposed: "replace" (R13.3) or "face up"


class BuyIn(_Body):
    seat: Seat
    name: Name
    chips: Chips


class TopUp(_Body):
    seat: Seat
    chips: Chips


class Leave(_Body):
    seat: Seat


class CardIn(_Body):
    """The card the hand asks for; ``null`` (or ``"??"``): a down card the dealer did not see."""

    card: CardText | None

    @field_validator("card")
    @classmethod
    def _is_card(cls, value: str | None) -> str | None:
        return None if value is None else _card(value, unknown=True)


class ActionIn(_Body):
    """An action as ``actions`` lists it: its kind and the round total (which may be left out when only one legal
    action has that kind)."""

    action: Word
    amount: SomeChips | None = None


class RevealIn(_Body):
    seat: Seat
    cards: Annotated[list[CardText], Field(min_length=1, max_length=7)]

    @field_validator("cards")
    @classmethod
    def _are_cards(cls, value: list[str]) -> list[str]:
        return [_card(text) for text in value]


class IrregularityIn(_Body):
    """A reported irregularity: one of :data:`~studpoker.console.irregularities.CASES`."""

    case: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
    seat: Seat | None = None
    card: CardText | None = None

    @field_validator("case")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in CASES:
            raise ValueError(f"unknown irregularity {value!r}: the cases are {', '.join(CASES)}")
        return value

    @field_validator("card")
    @classmethod
    def _is_card(cls, value: str | None) -> str | None:
        return None if value is None else _card(value)


class ReaderIn(_Body):
    """Cards from a card reader or shoe, dealt in turn (the reader sees every card: no unknown ones)."""

    cards: Annotated[list[CardText], Field(min_length=1, max_length=16)]

    @field_validator("cards")
    @classmethod
    def _are_cards(cls, value: list[str]) -> list[str]:
        return [_card(card) for card in value]
