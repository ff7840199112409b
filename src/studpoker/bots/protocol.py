"""The external-bot protocol: what studpoker sends to a bot in another process and how it reads the reply.

Pure functions, no I/O (:class:`~studpoker.bots.external.ExternalBot` does the talking): the messages around
the engine's JSON codec (:mod:`studpoker.engine.codec`, re-exported here), which turns a
:class:`~studpoker.engine.View`, the :class:`~studpoker.engine.Rules` and the events into JSON-ready
dicts, and a bot's reply into one of the legal :class:`~studpoker.engine.Action` s. Every message is one
JSON object on one line; docs/bot-protocol.md describes them field by field.

A reply the codec refuses is a :class:`~studpoker.bots.base.BotError` here, with the codec's message:

>>> from studpoker.engine import Action
>>> legal = (Action.fold(), Action.call(10), Action.raise_to(20))
>>> action_from_json({"action": "check"}, legal)
Traceback (most recent call last):
    ...
studpoker.bots.base.BotError: check is not legal now (received {"action": "check"}); legal: fold, call 10, raise to 20
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .. import __version__
from ..engine import Action, EngineError, Rules, View, codec
from ..engine.codec import action_to_json, card_to_json, event_to_json, rules_to_json, view_to_json
from .base import BotError

__all__ = [
    "PROTOCOL_VERSION",
    "act_message",
    "action_from_json",
    "action_to_json",
    "card_to_json",
    "decode_line",
    "encode_message",
    "event_to_json",
    "hand_over_message",
    "hello_message",
    "new_hand_message",
    "quit_message",
    "rules_to_json",
    "view_to_json",
]

#: The version of the protocol described in docs/bot-protocol.md; sent in ``hello``.
PROTOCOL_VERSION = 1

# -- studpoker to the bot -------------------------------------------------------------------------


def hello_message(name: str | None, rules: Rules | None, seed: int | None = None) -> dict[str, Any]:
    """The first message: the protocol version, the bot's name at the table, the rules (``None`` if the host
    did not give them) and a seed for a bot that wants to be reproducible."""
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "studpoker": __version__,
        "name": name,
        "seed": seed,
        "rules": None if rules is None else rules_to_json(rules),
    }


def new_hand_message(view: View, seat_names: Sequence[str] | None = None) -> dict[str, Any]:
    """A hand starts with the bot dealt in (no reply)."""
    return {"type": "new_hand", "view": view_to_json(view, seat_names)}


def act_message(view: View, seat_names: Sequence[str] | None = None) -> dict[str, Any]:
    """The bot is to act; it replies with one action."""
    return {"type": "act", "view": view_to_json(view, seat_names)}


def hand_over_message(view: View, seat_names: Sequence[str] | None = None) -> dict[str, Any]:
    """The final view of a hand the bot was dealt into (no reply)."""
    return {"type": "hand_over", "view": view_to_json(view, seat_names)}


def quit_message() -> dict[str, Any]:
    """The last message: the bot should exit."""
    return {"type": "quit"}


def encode_message(message: Mapping[str, Any]) -> str:
    """One message as one line of compact JSON (ASCII only, no newline inside; the caller adds ``\\n``)."""
    return json.dumps(message, separators=(",", ":"))


# -- the bot to studpoker -------------------------------------------------------------------------


def decode_line(line: str) -> Any:
    """A line the bot wrote, parsed as JSON; :class:`BotError` quoting the line if it is not JSON."""
    try:
        return json.loads(line)
    except ValueError:
        shown = line.strip()
        shown = shown if len(shown) <= 200 else shown[:197] + "..."
        raise BotError(f"the bot wrote a line that is not JSON: {shown!r}") from None


def action_from_json(obj: object, legal: Sequence[Action]) -> Action:
    """The legal action a bot's reply names (:func:`studpoker.engine.codec.action_from_json`: ``{"action": "raise",
    "amount": 20}``, ``{"action": "call"}`` or just ``"call"``); anything else is a :class:`BotError` that quotes
    the reply and lists the legal actions."""
    try:
        return codec.action_from_json(obj, legal)
    except EngineError as error:
        raise BotError(str(error)) from None
