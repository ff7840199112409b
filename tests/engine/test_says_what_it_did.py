"""The engine says what it did (issue 28, item 1): ``apply`` and ``deal`` return the events they logged,
``parse_action`` reads what a player says into the legal action it means, ``is_legal`` asks without raising, and
the JSON codec sits in the engine (``studpoker.engine.codec``)."""

from __future__ import annotations

import random

import pytest

from studpoker.engine import (
    Action,
    ActionError,
    HandState,
    IllegalActionError,
    Phase,
    Rules,
    Variant,
    codec,
)
from studpoker.engine.events import ActionTaken, Awarded, CardDealt, StreetStarted

RULES = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20)


def _snapshot(hand: HandState) -> tuple[object, ...]:
    return (hand.events, hand.stacks, hand.actor, hand.street, hand.phase, hand.legal_actions())


@pytest.mark.parametrize("variant", list(Variant))
def test_apply_returns_exactly_the_events_it_logged(variant: Variant) -> None:
    """Over random hands, the events ``apply`` returns are the log's new tail, in order, starting with the action."""
    rng = random.Random(5)
    for seed in range(40):
        hand = HandState(Rules(variant, ante=1, bring_in=3, small_bet=10, big_bet=20), [150] * 4, seed=seed)
        while not hand.is_over:
            before = len(hand.events)
            action = rng.choice(hand.legal_actions())
            returned = hand.apply(action)
            assert returned == hand.events[before:]
            first = returned[0]
            assert isinstance(first, ActionTaken) or action.kind.value in ("show", "muck")
        assert any(isinstance(e, Awarded) for e in hand.events)


def test_the_last_call_of_a_street_returns_the_next_street_dealt() -> None:
    hand = HandState(RULES, [200, 200], seed=3)
    hand.apply(hand.parse_action("bring in"))
    events = hand.apply(hand.parse_action("call"))
    assert isinstance(events[0], ActionTaken) and isinstance(events[1], StreetStarted)
    assert [e.player for e in events if isinstance(e, CardDealt)] == [0, 1]


def test_deal_returns_the_card_and_what_followed() -> None:
    hand = HandState(RULES, [200, 200], manual=True)
    cards = iter(["As", "Kd", "2c", "Qh", "Jh", "7s", "Td", "9c", "8c", "6d", "5d", "4d", "3h", "3s"])
    seen = 0
    while hand.phase is Phase.DEAL:
        returned = hand.deal(next(cards))
        assert returned == hand.events[seen + len(hand.events) - seen - len(returned) :]
        assert any(isinstance(e, CardDealt) for e in returned)
        seen = len(hand.events)
    assert hand.actor is not None  # the third street is dealt: someone brings in


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("bring in", Action.bring_in(3)),
        ("Bring-In", Action.bring_in(3)),
        ("bring in 3", Action.bring_in(3)),
        ("complete", Action.complete(10)),
        ("complete to 10", Action.complete(10)),
        ("  COMPLETE  10 ", Action.complete(10)),
    ],
)
def test_parse_action_reads_what_a_player_says(said: str, meant: Action) -> None:
    hand = HandState(RULES, [200, 200, 200], seed=7)
    assert hand.parse_action(said) == meant
    assert hand.is_legal(meant)


def test_parse_action_resolves_call_check_and_raise_to_the_legal_amounts() -> None:
    hand = HandState(RULES, [200, 200, 200], seed=7)
    hand.apply(hand.parse_action("complete"))
    assert hand.parse_action("call") == Action.call(10)
    assert hand.parse_action("raise") == Action.raise_to(20)
    assert hand.parse_action("raise to 20") == Action.raise_to(20)
    assert hand.parse_action("fold") == Action.fold()


@pytest.mark.parametrize(
    ("said", "error", "message"),
    [
        ("check", IllegalActionError, "check is not legal now (received 'check'); legal: bring in 3, complete to 10"),
        ("raise to 40", IllegalActionError, "raise is not legal now"),
        ("complete to 11", IllegalActionError, "complete 11 is not legal now"),
        ("holler", ActionError, "not an action: 'holler'"),
        ("", ActionError, "not an action: ''"),
        ("call " + "9" * 100, ActionError, "not an action"),
        ("raise to -5", ActionError, "not an action"),
    ],
)
def test_parse_action_refuses_and_changes_nothing(said: str, error: type[Exception], message: str) -> None:
    hand = HandState(RULES, [200, 200, 200], seed=7)
    before = _snapshot(hand)
    with pytest.raises(error) as caught:
        hand.parse_action(said)
    assert message in str(caught.value)
    assert _snapshot(hand) == before


def test_parse_action_takes_only_text() -> None:
    hand = HandState(RULES, [200, 200, 200], seed=7)
    with pytest.raises(ActionError, match="an action is text"):
        hand.parse_action(3)


def test_is_legal_never_raises_and_matches_legal_actions() -> None:
    hand = HandState(RULES, [200, 200, 200], seed=7)
    assert [
        a for a in (Action.check(), Action.bring_in(3), Action.call(3), Action.complete(10)) if hand.is_legal(a)
    ] == [
        Action.bring_in(3),
        Action.complete(10),
    ]
    assert not hand.is_legal("call")  # type: ignore[arg-type]


def test_the_codec_lives_in_the_engine_and_the_bot_protocol_wraps_it() -> None:
    from studpoker.bots import BotError, protocol

    legal = (Action.fold(), Action.call(10), Action.raise_to(20))
    assert protocol.action_to_json is codec.action_to_json and protocol.view_to_json is codec.view_to_json
    assert codec.action_from_json("call", legal) == Action.call(10)
    with pytest.raises(IllegalActionError, match="check is not legal now"):
        codec.action_from_json({"action": "check"}, legal)
    with pytest.raises(ActionError, match="unknown action 'shout'"):
        codec.action_from_json({"action": "shout"}, legal)
    with pytest.raises(BotError, match="check is not legal now"):
        protocol.action_from_json({"action": "check"}, legal)
