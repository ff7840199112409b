"""The WebSocket protocol's server side: engine events and table state as protocol messages (docs/server-protocol.md).

Pure functions, no I/O. Every function here takes what the receiver may see (events from ``HandState.view``,
never the engine's full log), so a hidden card can only ever be ``null`` on the wire.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import orjson
from typing_extensions import TypedDict

from ..cards import Card
from ..engine import HandState, View, action_words, describe_hand
from ..engine.actions import ActionKind
from ..engine.codec import card_to_json
from ..engine.dealer import dealer_lines
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
from ..engine.words import best_five
from ..evaluation import evaluate_high, evaluate_low8, evaluate_razz
from .protocol import (
    ActionMessage,
    Dealer,
    Dealt,
    DealtCard,
    Error,
    Legal,
    Pot,
    Showdown,
    ToBrowser,
)

__all__ = [
    "betting",
    "dealer_messages",
    "encode",
    "error",
    "event_messages",
    "legal_entries",
    "pot_message",
    "shown_hand",
    "stakes_text",
    "uncalled_show_message",
]

# an action kind's name and whether it is a wager others must answer, looked up at every step without the enum's
# property calls
_KIND_NAMES: dict[ActionKind, str] = {kind: kind.value for kind in ActionKind}
_AGGRESSIVE = frozenset(kind for kind in ActionKind if kind.aggressive)


def encode(message: ToBrowser) -> str:
    """One message as compact JSON text (one WebSocket frame), in UTF-8 as it is (orjson: a tenth of the standard
    library's time, on the hot path of every step; its integer keys written as strings, as ``json.dumps`` does).

    >>> encode({"type": "chat", "id": 1, "account_id": 2, "name": "Åsa", "seat": None, "text": "hej", "at": ""})
    '{"type":"chat","id":1,"account_id":2,"name":"Åsa","seat":null,"text":"hej","at":""}'
    """
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def error(
    code: str, message: str, *, hand: int | None = None, seq: int | None = None, retry_after: float | None = None
) -> Error:
    """An ``error`` message: the request refused, and the turn it named or when to try again."""
    out = Error(type="error", code=code, message=message)
    if hand is not None:
        out["hand"] = hand
    if seq is not None:
        out["seq"] = seq
    if retry_after is not None:
        out["retry_after"] = retry_after
    return out


def stakes_text(rules: Rules) -> str:
    """The sign's stakes as the lobby shows them: ``"10/20, ante 1, bring-in 3"``."""
    text = f"{rules.small_bet}/{rules.big_bet}"
    if rules.ante:
        text += f", ante {rules.ante}"
    return f"{text}, bring-in {rules.bring_in}"


def event_messages(
    events: Iterable[Event], view: View, seats: Sequence[int], hand: int, seqs: Sequence[int], auto: set[int]
) -> list[ToBrowser]:
    """The messages for a run of one viewer's events (``view``: the spectators' view after them, as what is taken
    from it is public: the up cards, the board, the game): ``seats[p]`` is
    player ``p``'s seat, ``seqs`` the turn number of each ``ActionTaken`` in the run (in order), ``auto`` the turn
    numbers the server played for a player whose clock ran out."""
    out: list[ToBrowser] = []
    dealt: Dealt | None = None
    actions = iter(seqs)
    for event in events:
        if isinstance(event, CardDealt):
            if dealt is None or dealt["street"] != event.street:
                dealt = {"type": "dealt", "hand": hand, "street": event.street, "cards": []}
                out.append(dealt)
            card: DealtCard = {"seat": seats[event.player], "card": card_to_json(event.card), "face_up": event.face_up}
            dealt["cards"].append(card)
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
            acted: ActionMessage = {
                "type": "action",
                "hand": hand,
                "seq": seq,
                "seat": seats[event.player],
                "action": _KIND_NAMES[event.action.kind],
                "amount": event.action.amount,
                "added": event.added,
                "label": action_words(event.action, event.added),
                "all_in": event.all_in,
                "street": event.street,
                "auto": seq in auto,
            }
            if event.action.cards:
                acted["cards"] = [str(c) for c in event.action.cards]
            out.append(acted)
        elif isinstance(event, Returned):
            out.append({"type": "returned", "hand": hand, "seat": seats[event.player], "amount": event.amount})
        elif isinstance(event, Shown):
            # the engine logs a show as the down cards then the up cards
            cards = [card_to_json(c) for c in event.cards]
            down = len(cards) - len(view.players[event.player].up)
            # the engine's words for the hand (a community card plays for everyone)
            community = (view.community,) if view.community is not None else ()
            out.append(_showdown(hand, seats[event.player], cards, down, event.cards + community, view.variant))
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


def _showdown(
    hand: int, seat: int, cards: list[str | None], down: int, known: Sequence[Card | None], variant: Variant
) -> Showdown:
    """A ``showdown`` message: ``cards`` shown (the first ``down`` of them face down), ``known`` the cards that
    make the hand (with a community card that plays for everyone)."""
    played = shown_hand(known, variant)
    return {
        "type": "showdown",
        "hand": hand,
        "seat": seat,
        "down": cards[:down],
        "up": cards[down:],
        "description": describe_hand(known, variant),
        "best": played["best"],
        "low": played["low"],
        "high_description": played["high_description"],
        "low_description": played["low_description"],
    }


class ShownHand(TypedDict):
    """What a shown hand plays: the fields :func:`shown_hand` adds to a ``showdown`` message."""

    best: list[str]
    low: list[str] | None
    high_description: str | None
    low_description: str | None


def shown_hand(cards: Sequence[Card | None], variant: Variant) -> ShownHand:
    """What a shown hand plays (the ``showdown`` message's ``best``, ``low``, ``high_description`` and
    ``low_description``), by the engine's evaluation of its known cards (a community card among them when one
    was turned): ``best`` the five cards of the high hand (razz: of the razz low), ``low`` the five cards of the
    eight-or-better low in stud hi/lo (``None`` without one, and in the other games). Fewer than five known cards
    (never at a real showdown) give ``[]`` and ``None``.

    >>> from studpoker.cards import parse_cards
    >>> shown_hand(parse_cards("Ah 2c 3d 6s 7h Qd Qh"), Variant.STUD7_HL8)["low"]
    ['7h', '6s', '3d', '2c', 'Ah']
    >>> shown_hand(parse_cards("Ks Kd 9c 7h 2s 3c 4d"), Variant.RAZZ)["low_description"]
    '9-7-4-3-2 low'
    """
    high, low = best_five(cards, variant)
    known = [c for c in cards if c is not None]
    out: ShownHand = {
        "best": [str(c) for c in high],
        "low": None,
        "high_description": None,
        "low_description": None,
    }
    if not high:
        return out
    if variant is Variant.RAZZ:
        out["low_description"] = evaluate_razz(known).description
        return out
    out["high_description"] = evaluate_high(known).description
    if low:
        out["low"] = [str(c) for c in low]
        low_hand = evaluate_low8(known)
        out["low_description"] = low_hand.description if low_hand is not None else None
    return out


class Betting(TypedDict):
    """The street's raises and the cap: the fields :func:`betting` adds to ``pot``, ``your_turn`` and a snapshot's
    hand."""

    raises: int
    raise_cap: int | None
    capped: bool
    uncapped: bool


def betting(state: HandState) -> Betting:
    """The street's raises, the table's cap (``None``: no cap), whether it now bars a raise, and whether it is
    off because the betting is heads-up (``uncapped``, R6.6)."""
    return {
        "raises": state.raises,
        "raise_cap": state.rules.raise_cap,
        "capped": state.capped,
        "uncapped": state.uncapped,
    }


def legal_entries(state: HandState) -> list[Legal]:
    """``your_turn``'s ``legal``: each legal action (``amount`` the street total to send back), ``cost`` the chips
    it puts in, its words as the player reads them (:func:`~studpoker.engine.action_words`: ``call 7``, ``complete
    to 10``) and ``cap``, True for a wager after which the cap bars another raise this street (its label ends in
    ``" (cap)"``). Whether it is that wager is found by making it on a copy of the hand (the cap's heads-up rules
    included), when it can be: a wager adds at most one raise, so below ``raise_cap - 1`` raises none caps."""
    out: list[Legal] = []
    cap_at = state.rules.raise_cap
    for action in state.legal_actions():
        cap = False
        if cap_at is not None and state.raises + 1 >= cap_at and action.kind in _AGGRESSIVE:
            after = state.copy()
            after.apply(action)
            cap = after.street == state.street and after.capped
        cost = state.cost(action)
        words = action_words(action, cost)
        label = f"{words} (cap)" if cap else words
        out.append(
            {"action": _KIND_NAMES[action.kind], "amount": action.amount, "cost": cost, "label": label, "cap": cap}
        )
    return out


def pot_message(view: View, seats: Sequence[int], hand: int, state: HandState) -> Pot:
    """The chips after a step, as everyone sees them (stacks, bets, totals, folds: public information), and the
    street's raises and cap (:func:`betting`)."""
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
        **betting(state),
    }


def dealer_messages(
    events: Sequence[Event], start: int, view: View, names: Sequence[str], rules: Rules, hand: int
) -> list[Dealer]:
    """The dealer's lines (:func:`~studpoker.engine.dealer.dealer_lines`) for ``events[start:]`` as ``dealer``
    messages of hand ``hand``."""
    return [{"type": "dealer", "hand": hand, "text": line} for line in dealer_lines(events, start, view, names, rules)]


def uncalled_show_message(hand: int, seat: int, cards: Sequence[Card], down: int, rules: Rules) -> Showdown:
    """The ``showdown`` message of a hand its winner shows after nobody called (``voluntary``), as a showdown's:
    the down cards, the up cards, the hand in words and what it plays."""
    message = _showdown(hand, seat, [card_to_json(c) for c in cards], down, cards, rules.variant)
    message["voluntary"] = True
    return message
