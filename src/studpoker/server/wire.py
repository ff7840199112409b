"""The WebSocket protocol's server side: engine events and table state as protocol messages (docs/server-protocol.md).

Pure functions, no I/O. Every function here takes what the receiver may see (events from ``HandState.view``,
never the engine's full log), so a hidden card can only ever be ``null`` on the wire.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from ..bots.protocol import action_to_json, card_to_json
from ..engine import View, describe_hand
from ..engine.events import (
    ActionTaken,
    AntePosted,
    Awarded,
    CardDealt,
    CommunityCard,
    Event,
    Mucked,
    Reshuffled,
    Returned,
    Shown,
    StreetStarted,
)
from ..engine.rules import Rules, Variant

__all__ = ["VARIANT_NAMES", "encode", "error", "event_messages", "pot_message", "stakes_text"]

VARIANT_NAMES = {v: v.title for v in Variant}


def encode(message: dict[str, Any]) -> str:
    """One message as compact JSON text (one WebSocket frame)."""
    return json.dumps(message, separators=(",", ":"))


def error(code: str, message: str, **fields: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, **fields}


def stakes_text(rules: Rules) -> str:
    """The sign's stakes as the lobby shows them: ``"10/20, ante 1, bring-in 3"``."""
    text = f"{rules.small_bet}/{rules.big_bet}"
    if rules.ante:
        text += f", ante {rules.ante}"
    return f"{text}, bring-in {rules.bring_in}"


def event_messages(
    events: Iterable[Event], view: View, seats: Sequence[int], hand: int, seqs: Sequence[int], auto: set[int]
) -> list[dict[str, Any]]:
    """The messages for a run of one viewer's events (``view``: that viewer's view after them): ``seats[p]`` is
    player ``p``'s seat, ``seqs`` the turn number of each ``ActionTaken`` in the run (in order), ``auto`` the turn
    numbers the server played for a player whose clock ran out."""
    out: list[dict[str, Any]] = []
    dealt: dict[str, Any] | None = None
    actions = iter(seqs)
    for event in events:
        if isinstance(event, CardDealt):
            if dealt is None or dealt["street"] != event.street:
                dealt = {"type": "dealt", "hand": hand, "street": event.street, "cards": []}
                out.append(dealt)
            dealt["cards"].append(
                {"seat": seats[event.player], "card": card_to_json(event.card), "face_up": event.face_up}
            )
            continue
        dealt = None
        if isinstance(event, AntePosted):
            out.append(
                {
                    "type": "ante",
                    "hand": hand,
                    "seat": seats[event.player],
                    "amount": event.amount,
                    "all_in": event.all_in,
                }
            )
        elif isinstance(event, StreetStarted):
            out.append({"type": "street", "hand": hand, "street": event.street})
        elif isinstance(event, ActionTaken):
            seq = next(actions)
            out.append(
                {
                    "type": "action",
                    "hand": hand,
                    "seq": seq,
                    "seat": seats[event.player],
                    **action_to_json(event.action),
                    "all_in": event.all_in,
                    "street": event.street,
                    "auto": seq in auto,
                }
            )
        elif isinstance(event, Returned):
            out.append({"type": "returned", "hand": hand, "seat": seats[event.player], "amount": event.amount})
        elif isinstance(event, Shown):
            # the engine logs a show as the down cards then the up cards
            cards = [card_to_json(c) for c in event.cards]
            down = len(cards) - len(view.players[event.player].up)
            # the engine's words for the hand (a community card plays for everyone)
            community = (view.community,) if view.community is not None else ()
            out.append(
                {
                    "type": "showdown",
                    "hand": hand,
                    "seat": seats[event.player],
                    "down": cards[:down],
                    "up": cards[down:],
                    "description": describe_hand(event.cards + community, view.variant),
                }
            )
        elif isinstance(event, Mucked):
            out.append({"type": "muck", "hand": hand, "seat": seats[event.player]})
        elif isinstance(event, Awarded):
            out.append(
                {
                    "type": "awarded",
                    "hand": hand,
                    "seat": seats[event.player],
                    "amount": event.amount,
                    "pot": event.pot,
                    "share": event.share,
                }
            )
        elif isinstance(event, CommunityCard):
            out.append({"type": "community", "hand": hand, "card": card_to_json(event.card)})
        elif isinstance(event, Reshuffled):
            out.append({"type": "reshuffled", "hand": hand, "cards": event.cards})
        # Burned (never shown) and HandEnded (hand_over says it) have no message of their own
    return out


def pot_message(view: View, seats: Sequence[int], hand: int) -> dict[str, Any]:
    """The chips after a step, as everyone sees them (stacks, bets, totals, folds: public information)."""
    return {
        "type": "pot",
        "hand": hand,
        "pot": view.pot,
        "to_call": view.to_call,
        "street": view.street,
        "players": [
            {
                "seat": seats[p.player],
                "stack": p.stack,
                "bet": p.bet,
                "total": p.total,
                "folded": p.folded,
                "all_in": p.all_in,
            }
            for p in view.players
        ],
    }
