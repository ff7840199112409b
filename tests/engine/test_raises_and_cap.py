"""``HandState.raises`` and ``HandState.capped``: the raise count of the street and whether the cap bars a raise
(the card room shows both). Setups of SPEC section 15 (10/20, ante 1, bring-in 3, raise_cap 3)."""

from __future__ import annotations

import random

import pytest

from studpoker.engine import ActionKind, HandState, HeadsUpUncap

from .helpers import Table, rules

S1, S2, S3, S4, S5 = range(5)


def five_players(**overrides: object) -> Table:
    doors = {S1: "?? ?? Kh", S2: "?? ?? Qd", S3: "?? ?? 2c", S4: "?? ?? 9s", S5: "?? ?? Ah"}
    return Table(rules(**overrides), [201] * 5, doors)


def sixth_street(n: int, **overrides: object) -> Table:
    doors = {S1: "?? ?? As Ah Kd Kc", S2: "?? ?? 5d 6c 8s 9h", S3: "?? ?? 4c Tc 2s 3d"}
    t = Table(rules(**overrides), [504] * n, {p: doors[p] for p in range(n)})
    t.passive_until(6)
    assert t.actor == S1
    return t


def aggressive(state: HandState) -> set[ActionKind]:
    return {a.kind for a in state.legal_actions() if a.kind.aggressive}


def test_a_capped_third_street() -> None:
    t = five_players()
    state = t.state
    assert (state.raises, state.capped) == (0, False)
    t.act("bring-in 3")  # the bring-in is no raise
    assert (state.raises, state.capped) == (0, False)
    t.act("complete 10")  # nor is the completion
    assert (state.raises, state.capped) == (0, False)
    t.act("raise 20")
    t.act("raise 30")
    assert (state.raises, state.capped) == (2, False) and ActionKind.RAISE in aggressive(state)
    t.act("raise 40")
    assert (state.raises, state.capped) == (3, True)
    assert t.legal() == {"fold", "call 40"}  # what legal_actions says, too
    t.play([(S3, "call 40"), (S4, "call 40"), (S5, "call 40"), (S1, "call 40")])
    assert state.street == 4 and (state.raises, state.capped) == (0, False)  # a new street starts afresh


def test_the_cap_counts_raises_after_the_completion_by_the_bring_in() -> None:
    t = five_players(raise_cap=2)
    state = t.state
    t.act("complete 10")
    assert (state.raises, state.capped) == (0, False)
    t.play([(S4, "raise 20"), (S5, "raise 30")])
    assert (state.raises, state.capped) == (2, True)


def test_no_cap_never_caps() -> None:
    t = five_players(raise_cap=None)
    state = t.state
    t.act("complete 10")
    for total in (20, 30, 40, 50, 60):
        t.act(f"raise {total}")
    assert state.raises == 5 and not state.capped and ActionKind.RAISE in aggressive(state)


@pytest.mark.parametrize(
    ("mode", "capped"),
    [
        (HeadsUpUncap.WHEN_HEADSUP_BEFORE_CAP, False),
        (HeadsUpUncap.ROUND_BEGINS_HEADSUP, False),
        (HeadsUpUncap.NEVER, True),
    ],
)
def test_heads_up_from_the_start_of_the_round(mode: HeadsUpUncap, capped: bool) -> None:
    t = sixth_street(2, headsup_uncap=mode)
    state = t.state
    assert state.uncapped is not capped  # heads-up from the start: the cap is off, and a table says so
    t.play([(S1, "bet 20"), (S2, "raise 40"), (S1, "raise 60"), (S2, "raise 80")])
    assert state.raises == 3 and state.capped is capped and state.uncapped is not capped
    assert (ActionKind.RAISE in aggressive(state)) is not capped


@pytest.mark.parametrize(
    ("mode", "capped"),
    [
        (HeadsUpUncap.WHEN_HEADSUP_BEFORE_CAP, False),
        (HeadsUpUncap.ROUND_BEGINS_HEADSUP, True),
        (HeadsUpUncap.NEVER, True),
    ],
)
def test_heads_up_before_the_cap(mode: HeadsUpUncap, capped: bool) -> None:
    t = sixth_street(3, headsup_uncap=mode)
    state = t.state
    assert not state.uncapped  # three players: the cap applies
    t.play([(S1, "bet 20"), (S2, "raise 40"), (S3, "fold"), (S1, "raise 60"), (S2, "raise 80")])
    assert state.raises == 3 and state.capped is capped and state.uncapped is not capped
    assert (ActionKind.RAISE in aggressive(state)) is not capped


def test_capped_then_heads_up_stays_capped() -> None:
    t = sixth_street(3)  # WHEN_HEADSUP_BEFORE_CAP: three players were in when the cap was reached
    state = t.state
    t.play([(S1, "bet 20"), (S2, "raise 40"), (S3, "raise 60"), (S1, "raise 80")])
    assert (state.raises, state.capped) == (3, True)
    t.act("fold")
    assert state.capped and not state.uncapped and t.legal() == {"fold", "call 80"}


@pytest.mark.parametrize("seed", range(40))
def test_capped_agrees_with_legal_actions_in_random_hands(seed: int) -> None:
    """Whenever ``capped`` is True, nobody to act is offered a raise; and the count never passes the cap while
    the cap applies."""
    chooser = random.Random(seed)
    mode = chooser.choice(list(HeadsUpUncap))
    cap = chooser.choice([1, 2, 3, 4])
    players = chooser.randint(2, 6)
    state = HandState(rules(raise_cap=cap, headsup_uncap=mode), [chooser.choice([60, 300, 2000])] * players, seed=seed)
    while not state.is_over:
        legal = state.legal_actions()
        if state.capped:
            assert state.raises >= cap and ActionKind.RAISE not in {a.kind for a in legal}
        weights = [5 if a.kind.aggressive else 1 if a.kind is ActionKind.FOLD else 3 for a in legal]
        state.apply(chooser.choices(legal, weights)[0])
