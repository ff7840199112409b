"""What a browser may send on the table socket (docs/server-protocol.md, "Client → server messages").

:func:`decode` reads the text of one frame as one of :class:`Ping`, :class:`AskSnapshot`, :class:`Act`,
:class:`Show`, :class:`Chat` (:data:`FromBrowser`), or :class:`Refused` saying what is wrong, with the ``error`` code
to answer and whether the socket is closed for it. An ``act`` is held to :class:`ActFields`, of which the bus's
:class:`studpoker.server.messages.Act` is made too: what a gateway accepts from a browser, a worker accepts from
the gateway. What the room sends back is :mod:`studpoker.server.protocol`'s.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Annotated, Any, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .limits import MAX_CHIPS, MAX_ID, MAX_JSON_DEPTH, json_depth

__all__ = [
    "MAX_ACTION",
    "Act",
    "ActFields",
    "AskSnapshot",
    "Chat",
    "FromBrowser",
    "Ping",
    "Refused",
    "Show",
    "act_fields",
    "decode",
    "show_hand",
]

#: The longest action name a browser may send.
MAX_ACTION = 20

#: A player's action as the browser sends it (docs/server-protocol.md, ``act``): the one definition of what is
#: fit to pass on, for the socket (:func:`act_fields`, :func:`show_hand`) and the bus
#: (:class:`studpoker.server.messages.Act`) alike.
Hand = Annotated[int, Field(ge=0, le=MAX_ID)]
Seq = Annotated[int, Field(ge=0, le=MAX_ID)]
ActionName = Annotated[str, Field(max_length=MAX_ACTION)]
Amount = Annotated[int, Field(ge=0, le=MAX_CHIPS)]


class ActFields(BaseModel):
    """The fields of a player's ``act``: strict (no ``true`` for a number, no ``"3"`` for a ``3``), nothing more."""

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    hand: Hand
    seq: Seq
    action: ActionName
    amount: Amount | None = None


def act_fields(hand: object, seq: object, action: object, amount: object) -> ActFields | None:
    """A player's ``act`` if its fields are fit to send to the table (:class:`ActFields`), else ``None``: the one
    rule for the socket and the bus."""
    try:
        return ActFields(hand=hand, seq=seq, action=action, amount=amount)  # type: ignore[arg-type]
    except ValidationError:
        return None


_HAND: TypeAdapter[int] = TypeAdapter(Hand, config=ConfigDict(strict=True))


def show_hand(hand: object) -> int | None:
    """``hand`` if it is a hand number fit to send to the table (``show``), else ``None``."""
    try:
        return _HAND.validate_python(hand)
    except ValidationError:
        return None


@dataclass(frozen=True, slots=True)
class Ping:
    """``{"type": "ping"}``: answered ``pong``."""


@dataclass(frozen=True, slots=True)
class AskSnapshot:
    """``{"type": "snapshot"}``: a fresh snapshot, at most one a second."""


@dataclass(frozen=True, slots=True)
class Act:
    """The seat's action for turn ``seq`` of hand ``hand`` (``amount`` the round total; ``None`` for none)."""

    hand: int
    seq: int
    action: str
    amount: int | None


@dataclass(frozen=True, slots=True)
class Show:
    """The winner of hand ``hand``, which nobody called, shows it."""

    hand: int


@dataclass(frozen=True, slots=True)
class Chat:
    """A chat line as sent: still to be cleaned (:func:`studpoker.server.chat.clean_text`), which says what is
    wrong with it."""

    text: object


FromBrowser: TypeAlias = Ping | AskSnapshot | Act | Show | Chat


@dataclass(frozen=True, slots=True)
class Refused:
    """A frame refused: the ``error`` to answer (``code``, ``message``), and whether the socket is closed for it
    (``close``: the WebSocket close code)."""

    code: str
    message: str
    close: int | None = None


_NOT_AN_OBJECT = Refused(
    "bad_json",
    f'a message is a JSON object with a "type", nested at most {MAX_JSON_DEPTH} deep, e.g. {{"type":"ping"}}',
    1008,
)
_BAD_ACT = Refused("bad_message", 'act needs integers "hand" and "seq", an "action" name and an integer "amount"')
_BAD_SHOW = Refused("bad_message", 'show needs the integer "hand" to show')


def decode(text: str) -> FromBrowser | Refused:
    """The message in the text of one frame from a browser (its size already checked), or why it is refused.

    >>> decode('{"type":"act","hand":4,"seq":2,"action":"call","amount":10}')
    Act(hand=4, seq=2, action='call', amount=10)
    >>> decode('{"type":"act","hand":true,"seq":2,"action":"call"}').code
    'bad_message'
    >>> decode('[1]').close
    1008
    """
    data: Any = None
    if json_depth(text) <= MAX_JSON_DEPTH:
        with contextlib.suppress(ValueError, RecursionError):
            data = json.loads(text)
    if type(data) is not dict or type(data.get("type")) is not str:
        return _NOT_AN_OBJECT
    kind: str = data["type"]
    if kind == "act":
        fields = act_fields(data.get("hand"), data.get("seq"), data.get("action"), data.get("amount"))
        return _BAD_ACT if fields is None else Act(fields.hand, fields.seq, fields.action, fields.amount)
    if kind == "ping":
        return Ping()
    if kind == "snapshot":
        return AskSnapshot()
    if kind == "show":
        hand = show_hand(data.get("hand"))
        return _BAD_SHOW if hand is None else Show(hand)
    if kind == "chat":
        return Chat(data.get("text"))
    return Refused("unknown_type", f"unknown message type {kind[:40]!r}")
