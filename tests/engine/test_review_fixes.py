"""Regression tests for the engine findings of the outside review (issue 12, items 1 to 5): a short bring-in equal
to the small bet, copies after a misdesignated bring-in, duplicate legal actions, value types and read-only state,
and the stud hi/lo bring-in warning."""

from __future__ import annotations

import warnings

import pytest

from studpoker.cards import CARDS, Card, CardError, Rank, Suit
from studpoker.engine import (
    Action,
    ActionError,
    ActionKind,
    HandState,
    IllegalActionError,
    Phase,
    Rules,
    RulesWarning,
    Variant,
)
from studpoker.engine.events import ActionTaken, Burned, CardDealt

from .helpers import Table


def full_bring_in_rules(**overrides: object) -> Rules:
    return Rules(Variant.STUD7, ante=1, bring_in=10, small_bet=10, big_bet=20, **overrides)  # type: ignore[arg-type]


def words(state: HandState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


# -- 1. a bring-in of the small bet, posted short ---------------------------------------------------------


def test_a_short_bring_in_of_the_small_bet_brings_no_completion_back() -> None:
    # S1 has the low door (2c) and 5 chips behind after the ante: he brings in for 5, all in (R5.5)
    doors = {0: "?? ?? 2c", 1: "?? ?? Kh", 2: "?? ?? 9s"}
    t = Table(full_bring_in_rules(), [6, 100, 100], doors)
    assert t.actor == 0 and words(t.state) == ["bring in 5"]
    t.act("bring in 5")
    # R5.7: the bring-in is the small bet, so there is no completion; R6.10: the others owe the full 10
    assert words(t.state) == ["fold", "call 10", "raise to 20"]
    t.act("call 10")
    assert words(t.state) == ["fold", "call 10", "raise to 20"]  # after a plain call the next may still raise
    t.act("raise to 20")
    assert words(t.state) == ["fold", "call 20", "raise to 30"]


def test_a_full_bring_in_of_the_small_bet_is_the_same() -> None:
    t = Table(full_bring_in_rules(), [100, 100, 100], {0: "?? ?? 2c", 1: "?? ?? Kh", 2: "?? ?? 9s"})
    t.act("bring in 10")
    assert words(t.state) == ["fold", "call 10", "raise to 20"]


# -- 2. copies after a misdesignated bring-in ----------------------------------------------------------------


def test_a_copy_made_while_a_misdesignation_is_pending_is_independent() -> None:
    doors = {0: "?? ?? Kh", 1: "?? ?? 5d", 2: "?? ?? 9s", 3: "?? ?? Qd", 4: "?? ?? 2c"}
    t = Table(Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20), [201] * 5, doors)
    t.state.misdesignate_bring_in(1)
    twin = t.state.copy()
    t.state.correct_bring_in()
    twin.correct_bring_in()
    before = (t.state.stacks, t.state.totals, t.state.bets, t.state.actor, t.state.events)
    twin.apply(twin.legal_actions()[0])  # the true low card brings in on the copy...
    while twin.actor is not None:
        twin.apply(twin.legal_actions()[-1])  # ...and the copy raises on
    assert (t.state.stacks, t.state.totals, t.state.bets, t.state.actor, t.state.events) == before
    t.act("bring in 3")  # and the original plays on by itself
    assert twin.stacks != t.state.stacks


def test_the_true_bring_in_is_said_after_a_wrong_one_is_corrected() -> None:
    """R13.2: the wrong bring-in taken back is no wager, so the low card's bring-in is still the street's first."""
    from studpoker.engine.dealer import dealer_lines

    doors = {0: "?? ?? Kh", 1: "?? ?? 5d", 2: "?? ?? 2c"}
    rules = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20)
    t = Table(rules, [201] * 3, doors)
    names = ("ann", "bob", "cy")
    t.state.misdesignate_bring_in(1)
    t.state.correct_bring_in()
    start = len(t.state.events_seen_by(None))
    t.act("bring in 3")
    lines = dealer_lines(t.state.events_seen_by(None), start, t.state.view(None), names, rules)
    assert lines == ["cy brings in for 3"]


# -- 3. duplicate legal actions ----------------------------------------------------------------------------


def test_the_open_pair_option_with_equal_bets_offers_each_wager_once() -> None:
    rules = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=10, open_pair_double_bet=True)
    t = Table(rules, [200, 200], {0: "?? ?? 2c 7d", 1: "?? ?? Kh Ks"})  # 4th street: Kh Ks, an open pair
    t.act("bring in 3")
    t.act("call 3")
    assert t.state.street == 4
    legal = t.state.legal_actions()
    assert len(set(legal)) == len(legal), legal
    assert [str(a) for a in legal] == ["fold", "check", "bet 10"]  # once each (it was: fold, check, bet 10, bet 10)


# -- 4. value types, reprs, read-only state -----------------------------------------------------------------


def test_actions_are_checked_when_made_and_their_repr_pastes_back() -> None:
    assert Action("call", 10) == Action.call(10) and Action("call", 10).kind is ActionKind.CALL
    assert Action("bring_in", 3) == Action("bring-in", 3) == Action.bring_in(3)
    for action in (Action.fold(), Action.call(10), Action.raise_to(40), Action.show((CARDS[0], CARDS[51]))):
        assert eval(repr(action)) == action, repr(action)
    with pytest.raises(ActionError, match="kind is an ActionKind or one of fold, check"):
        Action("jump", 10)  # type: ignore[arg-type]
    with pytest.raises(ActionError, match="amount is a whole number of chips >= 0, got '10'"):
        Action(ActionKind.CALL, "10")  # type: ignore[arg-type]
    with pytest.raises(ActionError, match="got True"):
        Action(ActionKind.CALL, True)
    with pytest.raises(ActionError, match="cards are Card objects"):
        Action(ActionKind.SHOW, 0, ("As",))  # type: ignore[arg-type]


def test_action_parse_reads_what_str_writes() -> None:
    for action in (
        Action.fold(),
        Action.check(),
        Action.call(10),
        Action.bring_in(3),
        Action.complete(10),
        Action.bet(20),
        Action.raise_to(30),
        Action.show(),
        Action.muck(),
    ):
        assert Action.parse(str(action)) == action, str(action)
    assert Action.parse("  Raise 30 ") == Action.raise_to(30) and Action.parse("bring-in 3") == Action.bring_in(3)
    for bad, why in (("raise", "needs an amount"), ("fold 3", "takes no amount"), ("jump 3", "say fold, check")):
        with pytest.raises(ActionError, match=why):
            Action.parse(bad)


def test_cards_paste_back_and_refuse_nonsense() -> None:
    for card in CARDS:
        assert eval(repr(card)) == card and Card(str(card)) is not None
    assert Card("As") == Card(Rank.ACE, Suit.SPADES) and Card("10h").index == Card("Th").index
    with pytest.raises(CardError, match="is not a card"):
        Card("Xx")
    with pytest.raises(CardError, match="needs a Rank and a Suit"):
        Card(3, 4)  # type: ignore[arg-type]


def test_the_state_hands_out_read_only_views() -> None:
    hand = HandState(Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20), [100, 100], seed=1)
    for name in ("stacks", "events", "awards", "totals", "bets"):
        value = getattr(hand, name)
        assert isinstance(value, tuple), name
        with pytest.raises(TypeError):
            value[0] = 10**6  # type: ignore[index]
        with pytest.raises(AttributeError):
            setattr(hand, name, [10**6])
    assert hand.stacks == (99, 99)


# -- 5. the stud hi/lo bring-in warning ---------------------------------------------------------------------


def test_a_hi_lo_bring_in_below_twice_the_ante_warns() -> None:
    with pytest.warns(RulesWarning, match="twice the ante or more: 3 is less than 2 x 2"):
        Rules(Variant.STUD7_HL8, ante=2, bring_in=3, small_bet=10, big_bet=20)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Rules(Variant.STUD7_HL8, ante=2, bring_in=4, small_bet=10, big_bet=20)  # twice the ante: fine
        Rules(Variant.STUD7, ante=2, bring_in=3, small_bet=10, big_bet=20)  # the warning is stud hi/lo's (seed C)


# -- the review's surviving mutants in the state machine ------------------------------------------------------


def play_with_folds(rules: Rules, n: int, folds: dict[int, int]) -> HandState:
    """Everyone calls, but on street ``s`` the first ``folds[s]`` players to act fold."""
    state = HandState(rules, [500] * n, seed=1)
    folded: dict[int, int] = {}
    while not state.is_over:
        legal = {a.kind: a for a in state.legal_actions()}
        if folded.get(state.street, 0) < folds.get(state.street, 0) and ActionKind.FOLD in legal:
            folded[state.street] = folded.get(state.street, 0) + 1
            state.apply(legal[ActionKind.FOLD])
            continue
        for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN, ActionKind.SHOW):
            if kind in legal:
                state.apply(legal[kind])
                break
    return state


@pytest.mark.parametrize("burn_first", [False, True])
def test_rrop_burns_again_when_that_leaves_just_enough_cards(burn_first: bool) -> None:
    """RRoP (R8.4): after the scramble the dealer burns again unless that leaves too few cards. With eight players,
    one fold on 4th street and one on 5th, the scrambled cards are exactly one more than the players still to be
    dealt: the second burn is made, and every live player still gets his seventh card."""
    rules = Rules(
        Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20, short_deck_procedure="RRoP",
        burn_before_first_deal=burn_first,
    )  # fmt: skip
    state = play_with_folds(rules, 8, {4: 1, 5: 1})
    names = [type(e).__name__ for e in state.events]
    at = names.index("Reshuffled")
    assert names[at + 1] == "Burned"  # the second burn
    seventh = [e for e in state.events if type(e).__name__ == "CardDealt" and e.street == 7]  # type: ignore[union-attr]
    assert len(seventh) == 6 and state.community_card is None
    # dealt by hand, the same cards make the same hand: the same burns, the same reshuffle count, the same chips
    manual = HandState(rules, [500] * 8, manual=True)
    dealt = iter(e.card for e in state.events if isinstance(e, CardDealt))
    actions = iter(e.action for e in state.events if isinstance(e, ActionTaken))
    while not manual.is_over:
        if manual.phase is Phase.DEAL:
            manual.deal(next(dealt))
        else:
            manual.apply(next(actions))
    unseen = [Burned(None) if isinstance(e, Burned) else e for e in state.events]
    assert list(manual.events) == unseen
    assert manual.stacks == state.stacks


def test_set_first_actor_refuses_a_board_that_a_known_board_beats() -> None:
    """R7.2 on a later street where player 1's up card is unknown: the caller names who acts first, but not player
    2, whose known board loses to player 0's pair of kings; player 0 (the best known board) or player 1 may be."""
    rules = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20)
    cards = {0: "?? ?? Kc Kd", 1: "?? ?? 2h ??", 2: "?? ?? 2c 7d"}
    for choice, refused in ((2, True), (0, False), (1, False)):
        t = Table(rules, [100, 100, 100], cards)
        t.act("bring in 3", "call 3", "call 3")  # player 2 (2c) brings in; 4th street: player 1's card unknown
        assert t.state.first_actor_needed
        if refused:
            with pytest.raises(IllegalActionError, match=r"R7\.2: player 0's board is better than player 2's"):
                t.state.set_first_actor(choice)
            assert t.state.first_actor_needed  # nothing changed
        else:
            t.state.set_first_actor(choice)
            assert t.state.actor == choice


def test_declare_open_pair_when_unknown_up_cards_may_hide_it() -> None:
    """R6.14 with a history that does not show the 4th-street up cards: the caller may declare the open pair,
    and then the big bet is legal; not where every up card is known, nor on another street, nor without the rule."""
    rules = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20)
    t = Table(rules, [100, 100], {0: "?? ?? 2c Kd", 1: "?? ?? 9h ??"})
    with pytest.raises(IllegalActionError, match=r"R6\.14"):
        t.state.declare_open_pair()  # 3rd street
    t.act("bring in 3", "call 3")
    t.state.set_first_actor(0)
    assert [a.amount for a in t.state.legal_actions() if a.kind.aggressive] == [10]
    t.state.declare_open_pair()
    assert [a.amount for a in t.state.legal_actions() if a.kind.aggressive] == [10, 20]
    known = Table(rules, [100, 100], {0: "?? ?? 2c Kd", 1: "?? ?? 9h 8h"})
    known.act("bring in 3", "call 3")
    with pytest.raises(IllegalActionError, match="every live up card is known"):
        known.state.declare_open_pair()
    assert [a.amount for a in known.state.legal_actions() if a.kind.aggressive] == [10]  # nothing changed
    hilo = Table(
        rules.replace(variant=Variant.STUD7_HL8, open_pair_double_bet=False),
        [100, 100],
        {0: "?? ?? 2c Kd", 1: "?? ?? 9h ??"},
    )
    hilo.act("bring in 3", "call 3")
    hilo.state.set_first_actor(0)
    with pytest.raises(IllegalActionError, match=r"R6\.14"):
        hilo.state.declare_open_pair()
