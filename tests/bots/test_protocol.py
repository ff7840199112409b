"""The external-bot protocol's pure half: views, rules and events as JSON, and replies read back as actions."""

from __future__ import annotations

import json
import random

import pytest

from studpoker.bots import BotError
from studpoker.bots.protocol import (
    PROTOCOL_VERSION,
    act_message,
    action_from_json,
    action_to_json,
    decode_line,
    encode_message,
    event_to_json,
    hello_message,
    rules_to_json,
    view_to_json,
)
from studpoker.cards import parse_card
from studpoker.engine import Action, ActionKind, HandState, Phase, Rules, Variant
from studpoker.engine.events import ActionTaken, Awarded, CardDealt, Shown

RULES = {
    Variant.STUD7: Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20),
    Variant.STUD7_HL8: Rules(Variant.STUD7_HL8, ante=1, bring_in=3, small_bet=10, big_bet=20),
    Variant.STUD5: Rules(Variant.STUD5, ante=1, bring_in=3, small_bet=10, big_bet=20),
    Variant.RAZZ: Rules(Variant.RAZZ, ante=1, bring_in=3, small_bet=10, big_bet=20),
}


# -- replies ------------------------------------------------------------------------------------------------

EVERY_KIND = [
    Action.fold(),
    Action.check(),
    Action.call(10),
    Action.bring_in(3),
    Action.complete(10),
    Action.bet(20),
    Action.raise_to(40),
    Action.show(),
    Action.muck(),
]


@pytest.mark.parametrize("action", EVERY_KIND, ids=str)
def test_every_kind_round_trips(action: Action) -> None:
    legal = (action,)
    encoded = action_to_json(action)
    assert json.loads(json.dumps(encoded)) == encoded
    assert action_from_json(encoded, legal) == action  # a legal entry may be sent back as it is
    assert action_from_json({"action": action.kind.value}, legal) == action  # the amount may be left out
    assert action_from_json(action.kind.value, legal) == action  # or just the name
    assert action_from_json({"action": action.kind.value, "amount": action.amount}, legal) == action


def test_the_legal_action_is_chosen_among_many() -> None:
    legal = (Action.fold(), Action.call(10), Action.raise_to(20))
    assert action_from_json({"action": "call", "amount": 10}, legal) is legal[1]
    assert action_from_json({"type": "action", "action": "raise", "amount": 20, "comment": "pair"}, legal) is legal[2]
    assert action_from_json({"action": "raise", "amount": 20.0}, legal) is legal[2]
    assert action_from_json({"action": "FOLD"}, legal) is legal[0]
    assert action_from_json({"action": "bring_in"}, (Action.bring_in(3), Action.complete(10))) == Action.bring_in(3)


def test_two_sizes_of_one_kind_need_the_amount() -> None:
    legal = (Action.fold(), Action.check(), Action.bet(10), Action.bet(20))  # the open-pair double bet
    assert action_from_json({"action": "bet", "amount": 20}, legal) == Action.bet(20)
    with pytest.raises(BotError, match=r"bet needs an amount here .*legal: fold, check, bet 10, bet 20"):
        action_from_json("bet", legal)


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ({"action": "check"}, r'check is not legal now \(received \{"action": "check"\}\); legal: fold, call 10'),
        ("check", r'check is not legal now \(received "check"\); legal: fold, call 10, raise to 20'),
        ({"action": "raise", "amount": 30}, r"raise 30 is not legal now .*legal: .*raise to 20 \(amounts are"),
        ({"action": "call", "amount": 5}, r"call 5 is not legal now"),
        ({"action": "rase"}, r"unknown action 'rase' .*actions are fold, check, call, bring-in"),
        ({"action": "call", "amount": "10"}, r"the amount must be a whole number of chips; received"),
        ({"action": "call", "amount": True}, r"the amount must be a whole number"),
        ({"action": "call", "amount": 10.5}, r"the amount must be a whole number"),
        ({"amount": 10}, r'a reply needs an "action" key'),
        ({"action": 3}, r'the action must be a name such as "call"'),
        ({"type": "ready"}, r'expected an action, received a "ready" message'),
        (42, r"a reply must be an object .*received 42; legal: fold, call 10, raise to 20"),
        (["call"], r'received \["call"\]'),
        (None, r"received null"),
    ],
)
def test_bad_replies_are_clear_errors(reply: object, message: str) -> None:
    legal = (Action.fold(), Action.call(10), Action.raise_to(20))
    with pytest.raises(BotError, match=message):
        action_from_json(reply, legal)


def test_nothing_is_legal_out_of_turn() -> None:
    with pytest.raises(BotError, match=r"legal: nothing \(nobody may act now\)"):
        action_from_json("call", ())


def test_lines() -> None:
    line = encode_message({"type": "quit", "name": "Zoë"})
    assert line == '{"type":"quit","name":"Zo\\u00eb"}' and "\n" not in line
    assert decode_line(line + "\n") == {"type": "quit", "name": "Zoë"}
    with pytest.raises(BotError, match=r"not JSON: 'fold please'"):
        decode_line("fold please\n")


# -- views --------------------------------------------------------------------------------------------------


def test_a_view_field_by_field() -> None:
    hand = HandState(RULES[Variant.STUD7], [201, 201, 201], seed=11)
    data = view_to_json(hand.view(1), seat_names=["Ann", "Bob", "Cid"])
    assert json.loads(json.dumps(data)) == data
    assert list(data) == [
        "variant",
        "street",
        "phase",
        "viewer",
        "actor",
        "pot",
        "to_call",
        "community",
        "players",
        "legal_actions",
        "events",
    ]
    assert (data["variant"], data["street"], data["phase"], data["viewer"], data["actor"]) == ("STUD7", 3, "bet", 1, 1)
    assert (data["pot"], data["to_call"], data["community"]) == (3, 0, None)
    assert data["players"][1] == {
        "player": 1,
        "name": "Bob",
        "stack": 200,
        "bet": 0,
        "total": 1,
        "folded": False,
        "all_in": False,
        "up": ["3c"],
        "down": ["8d", "Ks"],
    }
    assert data["players"][0]["down"] == [None, None]
    assert data["legal_actions"] == [{"action": "bring-in", "amount": 3}, {"action": "complete", "amount": 10}]
    assert data["events"][0] == {"type": "AntePosted", "player": 0, "amount": 1, "all_in": False}
    assert data["events"][3] == {"type": "StreetStarted", "street": 3}
    assert {"type": "CardDealt", "player": 0, "card": None, "face_up": False, "street": 3} in data["events"]
    assert {"type": "CardDealt", "player": 1, "card": "8d", "face_up": False, "street": 3} in data["events"]
    with pytest.raises(ValueError, match="2 seat names for 3 players"):
        view_to_json(hand.view(1), seat_names=["Ann", "Bob"])


def test_events_and_rules() -> None:
    assert event_to_json(ActionTaken(2, Action.raise_to(40), 5, True, 30)) == {
        "type": "ActionTaken",
        "player": 2,
        "action": "raise",
        "amount": 40,
        "street": 5,
        "all_in": True,
        "added": 30,
    }
    assert event_to_json(Shown(0, (parse_card("As"), None))) == {"type": "Shown", "player": 0, "cards": ["As", None]}
    assert event_to_json(Awarded(1, 30, 0, "high")) == {
        "type": "Awarded",
        "player": 1,
        "amount": 30,
        "pot": 0,
        "share": "high",
    }
    assert event_to_json(CardDealt(1, None, False, 7))["card"] is None
    shown = action_to_json(Action.show((parse_card("As"), parse_card("Kd"))))
    assert shown == {"action": "show", "amount": 0, "cards": ["As", "Kd"]}
    rules = rules_to_json(RULES[Variant.RAZZ].replace(raise_cap=None))
    assert rules["variant"] == "RAZZ" and rules["raise_cap"] is None and rules["open_pair_double_bet"] is False
    assert (rules["ante"], rules["bring_in"], rules["small_bet"], rules["big_bet"]) == (1, 3, 10, 20)
    assert rules["headsup_uncap"] == "WHEN_HEADSUP_BEFORE_CAP" and rules["preset"] == "casino"
    hello = hello_message("Ann", RULES[Variant.STUD5], seed=7)
    assert (hello["type"], hello["protocol"], hello["name"], hello["seed"]) == ("hello", PROTOCOL_VERSION, "Ann", 7)
    assert hello["rules"]["variant"] == "STUD5" and hello_message(None, None)["rules"] is None


@pytest.mark.parametrize("variant", list(Variant), ids=lambda v: v.value)
def test_views_never_show_a_hidden_card(variant: Variant) -> None:
    """At every decision of random hands, no viewer's JSON holds a card of another player's that is still
    face down (each card is in the deck once, so its text anywhere would be a leak)."""
    chooser = random.Random(variant.value)
    for seed in range(12):
        hand = HandState(RULES[variant], [chooser.choice([30, 100, 400]) for _ in range(5)], seed=seed)
        while not hand.is_over:
            assert hand.phase is Phase.BET
            public = hand.view(None)
            for viewer in [None, *range(hand.n)]:
                text = json.dumps(act_message(hand.view(viewer)))
                for other in range(hand.n):
                    if other == viewer:
                        continue
                    for card, seen in zip(hand.down_cards(other), public.players[other].down, strict=True):
                        if seen is None:
                            assert f'"{card}"' not in text, (viewer, other, card)
                if viewer is not None:
                    mine = [str(c) for c in hand.down_cards(viewer)]
                    assert json.loads(text)["view"]["players"][viewer]["down"] == mine
            hand.apply(chooser.choice(hand.legal_actions()))
        assert sum(hand.stacks) == sum(hand.starting_stacks)


def test_every_action_kind_of_a_real_hand_reads_back() -> None:
    """Every legal action met in random hands survives the trip through JSON text."""
    chooser, seen = random.Random(5), set()
    for seed in range(30):
        hand = HandState(RULES[Variant.STUD7], [60, 200, 200], seed=seed)
        while not hand.is_over:
            legal = hand.legal_actions()
            for action in legal:
                assert action_from_json(json.loads(json.dumps(action_to_json(action))), legal) == action
                seen.add(action.kind)
            hand.apply(chooser.choice(legal))
    assert seen >= {ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN, ActionKind.RAISE}
