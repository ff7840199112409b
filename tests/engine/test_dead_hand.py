"""A hand declared dead by a live dealer (``HandState.declare_dead``: found foul, the wrong number of cards): it
plays on as dealt, is mucked as the showdown begins, before any hand is shown, and cannot win; its chips stay in
the pots. With an all-in every other hand is turned up at once, so this is the one way to kill a hand there."""

from __future__ import annotations

import pytest

from studpoker.engine import Action, ActionKind, HandState, IllegalActionError
from studpoker.engine.events import Awarded, Mucked, Shown
from studpoker.history import phh, record_hand, verify

from .helpers import Table, rules

# Player 1's door 2c brings in; player 0 holds three kings from the start, the best hand by far.
CARDS = {0: "Kh Kd Ks Qh 4c 9c Ah", 1: "9d 8s 2c Td 3d 4d Jh", 2: "7c 7d 5s 6h Jc Qc 3h"}


def complete_then_call(state: HandState) -> Action:
    """Player 2 completes on 3rd street, everyone calls it (player 1, with 11 chips, all in); then checks, and
    shows at the showdown."""
    legal = {a.kind: a for a in state.legal_actions()}
    if state.actor == 2 and ActionKind.COMPLETE in legal:
        return legal[ActionKind.COMPLETE]
    return (
        legal.get(ActionKind.BRING_IN)
        or legal.get(ActionKind.CHECK)
        or legal.get(ActionKind.SHOW)  # a showdown decision (auto_show=False): every live hand shown
        or legal[ActionKind.CALL]
    )


def play(table: Table) -> HandState:
    state = table.state
    while not state.is_over:
        state.apply(complete_then_call(state))
        table.feed()
    return state


@pytest.mark.parametrize("auto_show", [True, False])
def test_a_dead_hand_is_mucked_as_the_showdown_begins_and_wins_nothing(auto_show: bool) -> None:
    table = Table(rules(), [200, 11, 200], CARDS, auto_show=auto_show)
    table.state.declare_dead(0)
    state = play(table)
    assert state.dead_hands == (0,)
    events = state.events
    mucked = next(i for i, e in enumerate(events) if isinstance(e, Mucked))
    assert events[mucked].player == 0 and not any(isinstance(e, Shown) for e in events[:mucked])
    assert not any(isinstance(e, Shown) and e.player == 0 for e in events)
    assert not any(isinstance(e, Awarded) and e.player == 0 for e in events)
    assert state.stacks[0] == 200 - state.totals[0]  # his chips stay in the pots
    assert sum(state.stacks) == 411
    alive = Table(rules(), [200, 11, 200], CARDS, auto_show=auto_show)
    assert play(alive).stacks[0] > 200  # alive, his kings would have won


def test_every_other_hand_dead_the_last_wins_unseen() -> None:
    table = Table(rules(), [200, 11], {0: CARDS[0], 1: CARDS[1]})
    table.state.declare_dead(0)
    state = play(table)
    assert [e.player for e in state.events if isinstance(e, Awarded)] == [1]
    assert not any(isinstance(e, Shown) for e in state.events)


def test_the_record_says_which_hands_were_dead_and_replays() -> None:
    table = Table(rules(), [200, 11, 200], CARDS)
    table.state.declare_dead(0)
    state = play(table)
    text = phh.dumps(record_hand(state))
    assert "_dead_hands = ['p1']" in text
    record = phh.loads_hand(text)
    assert record.dead_hands == (0,)
    assert verify(record).state.stacks == state.stacks
    assert phh.loads_hand(phh.dumps(record)) == record


@pytest.mark.parametrize(
    ("value", "match"),
    [
        ("'p1'", "_dead_hands must list"),
        ("['p4']", "_dead_hands must list"),
        ("['p1', 'p1']", "each once"),
        ("[]", "_dead_hands must list"),
    ],
)
def test_a_bad_dead_hands_field_is_refused(value: str, match: str) -> None:
    table = Table(rules(), [200, 11, 200], CARDS)
    table.state.declare_dead(0)
    text = phh.dumps(record_hand(play(table))).replace("_dead_hands = ['p1']", f"_dead_hands = {value}")
    with pytest.raises(phh.PHHError, match=match):
        phh.loads_hand(text)


def test_declaring_a_hand_dead_is_refused_where_it_does_not_fit() -> None:
    table = Table(rules(), [200, 11, 200], CARDS)
    state = table.state
    with pytest.raises(IllegalActionError, match="no player 3"):
        state.declare_dead(3)
    state.apply(complete_then_call(state))  # player 1 brings in
    state.apply(Action.fold())  # player 2 folds
    with pytest.raises(IllegalActionError, match="has folded"):
        state.declare_dead(2)
    while not state.is_over:
        state.apply(complete_then_call(state))
        table.feed()
    with pytest.raises(IllegalActionError, match="before the showdown"):
        state.declare_dead(0)
    assert state.dead_hands == ()
