"""The external-bot protocol: what studpoker sends to a bot in another process and how it reads the reply.

Pure functions, no I/O (:class:`~studpoker.bots.external.ExternalBot` does the talking): a
:class:`~studpoker.engine.View`, the :class:`~studpoker.engine.Rules` and the events become JSON-ready
dicts, and a bot's reply becomes one of the legal :class:`~studpoker.engine.Action` s. Every message is one
JSON object on one line; docs/bot-protocol.md describes them field by field.

>>> from studpoker.engine import Action
>>> legal = (Action.fold(), Action.call(10), Action.raise_to(20))
>>> action_from_json({"action": "raise", "amount": 20}, legal), action_from_json("call", legal)
(Action('raise', 20), Action('call', 10))
>>> [action_to_json(a) for a in legal]
[{'action': 'fold', 'amount': 0}, {'action': 'call', 'amount': 10}, {'action': 'raise', 'amount': 20}]
>>> action_from_json({"action": "check"}, legal)
Traceback (most recent call last):
    ...
studpoker.bots.base.BotError: check is not legal now (received {"action": "check"}); legal: fold, call 10, raise to 20
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from .. import __version__
from ..cards import Card
from ..engine import Action, ActionKind, Rules, View
from ..engine.events import Event
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

_KINDS: dict[str, ActionKind] = {kind.value: kind for kind in ActionKind}


# -- studpoker to the bot -------------------------------------------------------------------------


def card_to_json(card: Card | None) -> str | None:
    """A card as text (``"As"``, ``"Td"``), or ``None`` for a card the viewer may not see."""
    return None if card is None else str(card)


def action_to_json(action: Action) -> dict[str, Any]:
    """``{"action": kind, "amount": round total}`` (amount 0 for fold, check, show, muck): the form a bot
    replies with, so an entry of ``legal_actions`` may be sent back as it is."""
    out: dict[str, Any] = {"action": action.kind.value, "amount": action.amount}
    if action.cards:
        out["cards"] = [str(c) for c in action.cards]
    return out


def _plain(value: object) -> Any:
    """A field value as JSON: cards as text, enums by value, tuples as lists."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    raise TypeError(f"no JSON form for {value!r}")  # pragma: no cover - every event field is covered above


def event_to_json(event: Event) -> dict[str, Any]:
    """One event as ``{"type": class name, field: value, ...}``; an ``ActionTaken``'s action is spelt as in a
    reply (``"action": "call", "amount": 10``)."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for name, value in zip(event._fields, event, strict=True):
        if isinstance(value, Action):
            out.update(action_to_json(value))
        else:
            out[name] = _plain(value)
    return out


def rules_to_json(rules: Rules) -> dict[str, Any]:
    """Every field of the rules by name (variant and options by their names, ``null`` for "none")."""
    return {f.name: _plain(getattr(rules, f.name)) for f in dataclasses.fields(rules)}


def view_to_json(view: View, seat_names: Sequence[str] | None = None) -> dict[str, Any]:
    """What ``view`` shows, as a JSON-ready dict: hidden cards are ``None`` (``null``), amounts are chips, and
    ``legal_actions`` (empty unless the viewer is to act) are in the reply's form. ``seat_names``, one per
    player in position order, adds a ``name`` to each player."""
    if seat_names is not None and len(seat_names) != len(view.players):
        raise ValueError(f"{len(seat_names)} seat names for {len(view.players)} players")
    players = []
    for p in view.players:
        player: dict[str, Any] = {"player": p.player}
        if seat_names is not None:
            player["name"] = seat_names[p.player]
        player.update(
            stack=p.stack,
            bet=p.bet,
            total=p.total,
            folded=p.folded,
            all_in=p.all_in,
            up=[card_to_json(c) for c in p.up],
            down=[card_to_json(c) for c in p.down],
        )
        players.append(player)
    return {
        "variant": view.variant.value,
        "street": view.street,
        "phase": view.phase.value,
        "viewer": view.viewer,
        "actor": view.actor,
        "pot": view.pot,
        "to_call": view.to_call,
        "community": card_to_json(view.community),
        "players": players,
        "legal_actions": [action_to_json(a) for a in view.legal_actions],
        "events": [event_to_json(e) for e in view.events],
    }


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


def _shown(value: object, limit: int = 200) -> str:
    """A received value for an error message: as JSON if it is JSON, shortened."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def decode_line(line: str) -> Any:
    """A line the bot wrote, parsed as JSON; :class:`BotError` quoting the line if it is not JSON."""
    try:
        return json.loads(line)
    except ValueError:
        shown = line.strip()
        shown = shown if len(shown) <= 200 else shown[:197] + "..."
        raise BotError(f"the bot wrote a line that is not JSON: {shown!r}") from None


def _legal_text(legal: Sequence[Action]) -> str:
    return ", ".join(str(a) for a in legal) or "nothing (it is not this bot's turn)"


def action_from_json(obj: object, legal: Sequence[Action]) -> Action:
    """The legal action a bot's reply names: ``{"action": "raise", "amount": 20}``, ``{"action": "call"}`` or
    just ``"call"``.

    The kind must be one of ``legal`` exactly (``check`` and ``call`` are different things); the amount (the
    round total, as in ``legal_actions``) may be left out when only one legal action has that kind. Anything
    else raises :class:`BotError` quoting what was received and listing the legal actions.
    """
    received = _shown(obj)
    amount: object = None
    if isinstance(obj, str):
        word: object = obj
    elif isinstance(obj, dict):
        kind_of_message = obj.get("type", "action")
        if kind_of_message != "action":
            raise BotError(f"expected an action, received a {_shown(kind_of_message)} message: {received}")
        if "action" not in obj:
            raise BotError(
                f'a reply needs an "action" key, e.g. {{"action": "call"}}; received {received};'
                f" legal: {_legal_text(legal)}"
            )
        word, amount = obj["action"], obj.get("amount")
    else:
        raise BotError(
            f'a reply must be an object such as {{"action": "raise", "amount": 20}} or an action name such as'
            f' "call"; received {received}; legal: {_legal_text(legal)}'
        )
    if not isinstance(word, str):
        raise BotError(f'the action must be a name such as "call"; received {received}; legal: {_legal_text(legal)}')
    kind = _KINDS.get(word.strip().lower().replace("_", "-").replace(" ", "-"))
    if kind is None:
        raise BotError(
            f"unknown action {word!r} (received {received}): actions are {', '.join(_KINDS)};"
            f" legal now: {_legal_text(legal)}"
        )
    if isinstance(amount, float) and amount.is_integer():
        amount = int(amount)
    if amount is not None and (not isinstance(amount, int) or isinstance(amount, bool)):
        raise BotError(f"the amount must be a whole number of chips; received {received}; legal: {_legal_text(legal)}")
    same_kind = [a for a in legal if a.kind is kind]
    if amount is None:
        if len(same_kind) == 1:
            return same_kind[0]
        if same_kind:
            raise BotError(f"{kind.value} needs an amount here (received {received}): legal: {_legal_text(legal)}")
    else:
        for action in same_kind:
            if action.amount == amount:
                return action
        if same_kind:
            raise BotError(
                f"{kind.value} {amount} is not legal now (received {received}); legal: {_legal_text(legal)}"
                " (amounts are the player's total for the betting round)"
            )
    raise BotError(f"{kind.value} is not legal now (received {received}); legal: {_legal_text(legal)}")
