"""The hand histories' API models: a table's finished hands, one hand as PHH (what the asker may see), and a training
hand's equities street by street. :mod:`studpoker.server.schemas` offers them with the rest."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ..engine import Variant

__all__ = ["EquityPlayer", "EquityStreet", "HandDetail", "HandEquity", "HandList", "HandPlayer", "HandSummary"]


class HandPlayer(BaseModel):
    seat: int
    name: str
    start: int
    end: int | None


class HandSummary(BaseModel):
    number: int
    status: Literal["finished", "voided"]
    started_at: str | None
    finished_at: str | None
    pot: int
    players: list[HandPlayer]
    winners: list[int]


class HandList(BaseModel):
    table_id: int
    hands: list[HandSummary]


class HandDetail(HandSummary):
    table_id: int
    phh: str | None = Field(description="the hand as PHH; cards the asker did not see at the table are ??")
    seen_as: Literal["public", "player", "admin", "training"] = Field(
        description="what the asker sees: the table's view, a player's, an admin's, or everything (a training table)"
    )
    training: bool = Field(False, description="a training table's hand: GET .../equity gives its equities")


class EquityPlayer(BaseModel):
    seat: int
    name: str
    cards: list[str] = Field(description="his cards so far, in dealing order")
    up: list[bool] = Field(description="which of them were dealt face up")
    actual: float = Field(description="his share of the pot against the others' actual cards, 0 to 1")
    ranged: float = Field(description="his share against the others' up cards with any down cards, 0 to 1")


class EquityStreet(BaseModel):
    street: int
    name: str = Field(examples=["4th street"])
    community: str | None = Field(description="the community card, on the street it was dealt")
    players: list[EquityPlayer]


class HandEquity(BaseModel):
    """A training table's hand, street by street: each live player's equity when that street was dealt."""

    table_id: int
    number: int
    variant: Variant
    streets: list[EquityStreet]
