"""Actions, events, rules and views as JSON-ready values, and a reply in that form read back as a legal action.

The one codec every program talking to the engine uses: the external-bot protocol (:mod:`studpoker.bots.protocol`
adds its messages around it), the card room's table socket and anything else that sends a hand over a wire.
Pure functions, no I/O.

>>> from studpoker.engine import Action
>>> legal = (Action.fold(), Action.call(10), Action.raise_to(20))
>>> action_from_json({"action": "raise", "amount": 20}, legal), action_from_json("call", legal)
(Action('raise', 20), Action('call', 10))
>>> [action_to_json(a) for a in legal]
[{'action': 'fold', 'amount': 0}, {'action': 'call', 'amount': 10}, {'action': 'raise', 'amount': 20}]
>>> action_from_json({"action": "check"}, legal)  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
studpoker.engine.errors.IllegalActionError: check is not legal now (received {"action": "check"}); legal: fold, ...
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any

from ..cards import Card
from .actions import Action, ActionKind
from .errors import ActionError, IllegalActionError
from .events import Event

if TYPE_CHECKING:
    from .rules import Rules
    from .state import View

__all__ = [
    "action_from_json",
    "action_to_json",
    "card_to_json",
    "event_to_json",
    "resolve_action",
    "rules_to_json",
    "view_to_json",
]

_KINDS: dict[str, ActionKind] = {kind.value: kind for kind in ActionKind}


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


def _shown(value: object, limit: int = 200) -> str:
    """A received value for an error message: as JSON if it is JSON, shortened."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _legal_text(legal: Sequence[Action]) -> str:
    return ", ".join(str(a) for a in legal) or "nothing (nobody may act now)"


def action_from_json(obj: object, legal: Sequence[Action]) -> Action:
    """The legal action a reply names (a bot's, a browser's): ``{"action": "raise", "amount": 20}``,
    ``{"action": "call"}`` or just ``"call"``.

    The kind must be one of ``legal`` exactly (``check`` and ``call`` are different things); the amount (the
    round total, as in ``legal_actions``) may be left out when only one legal action has that kind. Anything
    else raises :class:`ActionError` (not an action) or :class:`IllegalActionError` (not legal now), quoting
    what was received and listing the legal actions.
    """
    # what was received is quoted only in a refusal: a served hand reads a reply at every turn
    amount: object = None
    if isinstance(obj, str):
        word: object = obj
    elif isinstance(obj, dict):
        kind_of_message = obj.get("type", "action")
        if kind_of_message != "action":
            raise ActionError(f"expected an action, received a {_shown(kind_of_message)} message: {_shown(obj)}")
        if "action" not in obj:
            raise ActionError(
                f'a reply needs an "action" key, e.g. {{"action": "call"}}; received {_shown(obj)};'
                f" legal: {_legal_text(legal)}"
            )
        word, amount = obj["action"], obj.get("amount")
    else:
        raise ActionError(
            f'a reply must be an object such as {{"action": "raise", "amount": 20}} or an action name such as'
            f' "call"; received {_shown(obj)}; legal: {_legal_text(legal)}'
        )
    if not isinstance(word, str):
        raise ActionError(
            f'the action must be a name such as "call"; received {_shown(obj)}; legal: {_legal_text(legal)}'
        )
    kind = _KINDS.get(word.strip().lower().replace("_", "-").replace(" ", "-"))
    if kind is None:
        raise ActionError(
            f"unknown action {word!r} (received {_shown(obj)}): actions are {', '.join(_KINDS)};"
            f" legal now: {_legal_text(legal)}"
        )
    if isinstance(amount, float) and amount.is_integer():
        amount = int(amount)
    if amount is not None and (not isinstance(amount, int) or isinstance(amount, bool)):
        legal_now = _legal_text(legal)
        raise ActionError(f"the amount must be a whole number of chips; received {_shown(obj)}; legal: {legal_now}")
    chosen = _legal_of(kind, amount, legal)
    return chosen if chosen is not None else resolve_action(kind, amount, legal, _shown(obj))


def resolve_action(kind: ActionKind, amount: int | None, legal: Sequence[Action], said: str | None = None) -> Action:
    """The legal action of ``kind`` (and ``amount``, the round total, which may be left out when only one legal
    action has that kind); else :class:`IllegalActionError` saying why and listing the legal actions. ``said`` is
    the input quoted in the message (default: the kind and amount)."""
    chosen = _legal_of(kind, amount, legal)
    if chosen is not None:
        return chosen
    received = said if said is not None else f"{kind.value}{'' if amount is None else f' {amount}'}"
    same_kind = [a for a in legal if a.kind is kind]
    if amount is None:
        if same_kind:
            raise IllegalActionError(
                f"{kind.value} needs an amount here (received {received}): legal: {_legal_text(legal)}"
            )
    elif same_kind:
        raise IllegalActionError(
            f"{kind.value} {amount} is not legal now (received {received}); legal: {_legal_text(legal)}"
            " (amounts are the player's total for the betting round)"
        )
    raise IllegalActionError(f"{kind.value} is not legal now (received {received}); legal: {_legal_text(legal)}")


def _legal_of(kind: ActionKind, amount: int | None, legal: Sequence[Action]) -> Action | None:
    """The legal action of ``kind`` and ``amount`` (``None``: the only one of that kind), if there is one."""
    found: Action | None = None
    for action in legal:
        if action.kind is kind:
            if amount is not None:
                if action.amount == amount:
                    return action
            elif found is None:
                found = action
            else:
                return None  # two of that kind: the amount says which
    return found if amount is None else None
