"""The hand state beyond the SPEC scenarios: set-up errors, manual dealing, reveals, views, copies."""

from __future__ import annotations

import pytest

from studpoker.cards import CARDS, parse_card, parse_cards
from studpoker.engine import (
    Action,
    ActionKind,
    CardSupplyError,
    HandState,
    IllegalActionError,
    Phase,
    RulesError,
    Variant,
)
from studpoker.engine.events import ActionTaken, AntePosted, Awarded, HandEnded, Returned

from .helpers import Table, rules


def call_down(t: Table) -> None:
    """Call or check until the betting is over."""
    while t.state.phase is Phase.BET and t.state.actor is not None:
        legal = {a.kind: a for a in t.state.legal_actions()}
        t.state.apply(legal.get(ActionKind.BRING_IN) or legal.get(ActionKind.CHECK) or legal[ActionKind.CALL])
        t.feed()


def test_set_up_errors() -> None:
    with pytest.raises(RulesError, match="2 to 8 players, got 9"):
        HandState(rules(), [100] * 9)
    with pytest.raises(RulesError, match="2 to 8 players, got 1"):
        HandState(rules(), [100])
    with pytest.raises(RulesError, match="player 1's stack must be a whole number of chips >= 1, got 0"):
        HandState(rules(), [100, 0])
    with pytest.raises(RulesError, match="not a multiple of chip_unit 5"):
        HandState(rules(chip_unit=5, ante=5, bring_in=5, small_bet=10, big_bet=20), [100, 101])
    with pytest.raises(RulesError, match="either a deck or manual"):
        HandState(rules(), [100, 100], manual=True, deck=list(CARDS))
    with pytest.raises(RulesError, match="distinct Card objects"):
        HandState(rules(), [100, 100], deck=[CARDS[0]] * 52)
    with pytest.raises(RulesError, match="rules must be a Rules"):
        HandState("STUD7", [100, 100])  # type: ignore[arg-type]


def test_short_ante_is_all_in() -> None:
    state = HandState(rules(ante=5, bring_in=5), [3, 100, 100], seed=1)
    antes = [e for e in state.events if isinstance(e, AntePosted)]
    assert antes[0] == AntePosted(0, 3, True) and antes[1] == AntePosted(1, 5, False)


def test_stacked_deck_is_dealt_in_order() -> None:
    deck = list(parse_cards("2c 3c 4c 5c 6c 7c")) + [c for c in CARDS if c.rank > 5]
    state = HandState(rules(), [100, 100], deck=deck, seed=0)
    # Down to each, down to each, then the door cards.
    assert state.down_cards(0) == (parse_card("2c"), parse_card("4c"))
    assert state.down_cards(1) == (parse_card("3c"), parse_card("5c"))
    assert state.up_cards(0) == (parse_card("6c"),) and state.actor == 0  # 6♣ < 7♣ brings in


def test_manual_dealing_errors_change_nothing() -> None:
    state = HandState(rules(), [100, 100], manual=True)
    request = state.card_needed
    assert request is not None and request.player == 0 and not request.face_up
    state.deal("As")
    with pytest.raises(CardSupplyError, match="As has already been dealt"):
        state.deal("As")
    with pytest.raises(IllegalActionError, match="nobody is to act: the hand is waiting for a card"):
        state.apply(Action.fold())
    state.deal(None)
    state.deal("Kd")
    state.deal("Qd")
    assert state.card_needed is not None and state.card_needed.face_up
    with pytest.raises(CardSupplyError, match="expected a Card"):
        state.deal(7)  # type: ignore[arg-type]
    state.deal("2c")
    state.deal("3c")
    assert state.phase is Phase.BET and state.actor == 0
    with pytest.raises(CardSupplyError, match="no card is needed now"):
        state.deal("4c")


def test_an_unknown_door_card_leaves_the_bring_in_to_the_caller() -> None:
    # A hand history that does not show player 1's door: who brings in is not guessed.
    t = Table(rules(), [100, 100, 100], {0: "?? ?? 5c", 1: "?? ?? ??", 2: "?? ?? 9d"})
    state = t.state
    assert state.first_actor_needed and state.actor is None and state.legal_actions() == ()
    with pytest.raises(IllegalActionError, match=r"R5\.3: player 0 shows 5c, so player 2 does not bring in"):
        state.set_first_actor(2)
    state.set_first_actor(1)
    assert not state.first_actor_needed and state.actor == 1
    assert [str(a) for a in state.legal_actions()] == ["bring in 3", "complete to 10"]
    with pytest.raises(IllegalActionError, match="already known"):
        state.set_first_actor(0)


def test_reveal_fills_unknown_up_cards_in_dealing_order() -> None:
    t = Table(rules(), [100, 100], {0: "?? ?? ??", 1: "2c 3c 9d"})
    state = t.state
    state.set_first_actor(0)
    state.reveal(0, parse_cards("Ah Kh 4c"))  # the whole hand so far, in dealing order
    assert state.up_cards(0) == (parse_card("4c"),) and state.down_cards(0) == parse_cards("Ah Kh")
    with pytest.raises(CardSupplyError, match="card 3 is 4c, not 5c"):
        state.reveal(0, parse_cards("Ah Kh 5c"))


def test_unknown_cards_are_revealed_not_guessed() -> None:
    t = Table(rules(), [21, 21], {0: "?? ?? 2c 3d 4h 5s ??", 1: "?? ?? 9c 9d Jh Qs ??"})
    call_down(t)
    state = t.state
    assert state.phase is Phase.REVEAL and state.unknown == (0, 1) and state.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="waiting for unknown cards of players"):
        state.apply(Action.check())
    with pytest.raises(CardSupplyError, match="has 3 unknown card"):
        state.reveal(0, parse_cards("Ah Kh"))
    with pytest.raises(CardSupplyError, match="9c is already in another hand"):
        state.reveal(0, parse_cards("Ah Kh 9c"))
    state.reveal(0, parse_cards("Ah Kh 7c"))
    assert state.phase is Phase.REVEAL and state.unknown == (1,)
    state.reveal(1, ["Ad", "Kd", "Tc"])
    assert state.is_over
    assert state.stacks == (17, 25)  # 9-9 beats ace high: the pot of 8 (antes, bring-in, call)


def test_show_can_carry_the_cards() -> None:
    t = Table(rules(), [31, 31], {0: "?? ?? 2c 3d 4h 5s ??", 1: "7d 8d 9c 9d Jh Qs 2d"}, auto_show=False)
    call_down(t)
    state = t.state
    assert state.phase is Phase.SHOWDOWN  # nobody is all-in: each decides in turn
    first = state.actor
    assert first is not None
    if first == 0:
        state.apply(Action.show(parse_cards("Ah 6d 3h")))  # 2-3-4-5-6 straight
        state.apply(Action.show())
    else:
        state.apply(Action.show())
        state.apply(Action.show(parse_cards("Ah 6d 3h")))
    assert state.is_over and state.stacks == (35, 27)  # the 6-high straight wins the 8


def test_nobody_can_bet_into_all_in_opponents() -> None:
    # Player 1 is all-in after calling the bring-in: nobody is left to bet against, so the
    # hand runs out to showdown without another action.
    t = Table(rules(), [100, 4], {0: "Ah Ad 2c 5s 6s 7s 8s", 1: "Kh Kd 9d Ts Js Qs Ks"})
    t.act("bring-in 3", "call 3")
    assert t.state.is_over
    assert [e.street for e in t.state.events if isinstance(e, ActionTaken)] == [3, 3]


def test_uncalled_bring_in_is_returned_when_everyone_folds() -> None:
    t = Table(rules(), [101, 101, 101], {0: "?? ?? 2c", 1: "?? ?? 9d", 2: "?? ?? Ks"})
    t.play([(0, "bring-in 3"), (1, "fold"), (2, "fold")])
    state = t.state
    assert state.is_over and Returned(0, 3) in state.events
    assert state.stacks == (103, 100, 100)  # the antes
    assert state.awards[0].amount == 3 and isinstance(state.events[-1], HandEnded)
    assert [e for e in state.events if isinstance(e, Awarded)] == [Awarded(0, 3, 0, "pot")]


def test_illegal_actions_name_the_legal_ones() -> None:
    state = HandState(rules(), [100, 100], seed=3)
    with pytest.raises(IllegalActionError, match=r"may not fold now \(R5\.4: .*\); legal: bring in 3, complete to 10"):
        state.apply(Action.fold())
    with pytest.raises(IllegalActionError, match="expected an Action"):
        state.apply("fold")  # type: ignore[arg-type]
    state.apply(Action(ActionKind.BRING_IN, 3))  # an equal Action built by hand works too
    assert isinstance(state.events[-1], ActionTaken)


def test_why_illegal_names_the_rule() -> None:
    t = Table(rules(), [201] * 3, {0: "?? ?? 2c", 1: "?? ?? 9d", 2: "?? ?? Ks"})
    state = t.state
    assert state.why_illegal(Action.check()).startswith("R5.4")
    t.act("bring-in 3")
    assert state.why_illegal(Action.check()).startswith("R6.8: there is a bet to call")
    assert state.why_illegal(Action.raise_to(6)).startswith("R6.3, R6.8: the wager here is complete to 10")
    assert state.why_illegal(Action.complete(7)).startswith("R6.2")
    assert state.why_illegal(Action.bring_in(3)).startswith("R5.3")
    assert state.why_illegal(Action.call(3)) == "legal"
    t.play([(1, "complete 10"), (2, "raise 20"), (0, "raise 30"), (1, "raise 40")])
    assert state.why_illegal(Action.raise_to(50)).startswith("R6.4, R6.6: the betting is capped")


def test_view_of_a_player_and_of_a_spectator() -> None:
    state = HandState(rules(), [100, 100, 100], seed=5)
    mine = state.view(0)
    assert mine.players[0].down == state.down_cards(0)
    assert mine.players[1].down == (None, None) and mine.players[1].up == state.up_cards(1)
    spectator = state.view(None)
    assert all(c is None for p in spectator.players for c in p.down)
    assert spectator.legal_actions == state.legal_actions() and spectator.actor == state.actor
    with pytest.raises(IllegalActionError, match="no player 3"):
        state.view(3)


def test_copy_and_replay() -> None:
    a = HandState(rules(Variant.RAZZ), [60] * 4, seed=9)
    b = a.copy()
    while not a.is_over:
        a.apply(a.legal_actions()[-1])  # always the most aggressive option
    assert not b.is_over and b.events != a.events
    while not b.is_over:
        b.apply(b.legal_actions()[-1])
    assert b.events == a.events and b.stacks == a.stacks
