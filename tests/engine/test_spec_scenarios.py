"""Every scenario of SPEC section 15, named after its TC number. Player i is seat S(i+1).

Common setup (SPEC): STUD7, fixed limit 10/20, A = 1, b = 3, raise_cap = 3, casino defaults.
"Behind" is the stack after the ante, so "200 behind" is a starting stack of 201.
"""

from __future__ import annotations

import pytest

from studpoker.engine import (
    ActionKind,
    CommunityFirstActor,
    HandState,
    HeadsUpUncap,
    IllegalActionError,
    Phase,
    ShortDeckProcedure,
    Stud5Opening,
    Tiebreak,
    Variant,
)
from studpoker.engine.events import Burned, CardDealt, CommunityCard, Reshuffled, Returned, Shown

from .helpers import Table, rules

S1, S2, S3, S4, S5, S6, S7, S8 = range(8)

# ---------------------------------------------------------------------------------------------
# Bring-in and 3rd street


def test_tc01_lowest_door_brings_in_suit_breaks_the_tie() -> None:
    t = Table(rules(), [201] * 5, {S1: "?? ?? Kh", S2: "?? ?? 4d", S3: "?? ?? 4c", S4: "?? ?? 9s", S5: "?? ?? Ah"})
    assert t.actor == S3  # 4♣ < 4♦


def test_tc02_stud8_ace_is_high_for_the_bring_in() -> None:
    t = Table(rules(Variant.STUD7_HL8), [201] * 4, {S1: "?? ?? Ac", S2: "?? ?? Kc", S3: "?? ?? Qd", S4: "?? ?? Qs"})
    assert t.actor == S3


def five_players(**overrides: object) -> Table:
    doors = {S1: "?? ?? Kh", S2: "?? ?? Qd", S3: "?? ?? 2c", S4: "?? ?? 9s", S5: "?? ?? Ah"}
    return Table(rules(**overrides), [201] * 5, doors)


def test_tc03_bring_in_options() -> None:
    t = five_players()
    assert t.actor == S3
    assert t.legal(with_check_fold=True) == {"bring-in 3", "complete 10"}  # no fold, no check
    t.act("bring-in 3")
    assert t.actor == S4
    assert t.legal() == {"fold", "call 3", "complete 10"}  # no "raise to 6"


@pytest.mark.parametrize(("cap", "expected"), [(3, {"fold", "call 40"}), (4, {"fold", "call 40", "raise 50"})])
def test_tc04_completion_is_not_a_raise(cap: int, expected: set[str]) -> None:
    t = five_players(raise_cap=cap)
    t.play([(S3, "bring-in 3"), (S4, "complete 10"), (S5, "raise 20"), (S1, "raise 30"), (S2, "raise 40")])
    assert t.actor == S3
    assert t.legal() == expected


def test_tc05_no_option_for_the_bring_in() -> None:
    t = five_players()
    t.play([(S3, "bring-in 3"), (S4, "call 3"), (S5, "call 3"), (S1, "call 3"), (S2, "call 3")])
    assert t.state.street == 4  # the round ended after S2's call: S3 did not act again
    assert t.state.pot == 5 + 5 * 3 == 20


def test_tc06_bring_in_player_completes() -> None:
    t = five_players()
    t.act("complete 10")
    assert t.actor == S4
    assert t.legal() == {"fold", "call 10", "raise 20"}
    t.play([(S4, "raise 20"), (S5, "raise 30"), (S1, "raise 40")])
    assert t.legal() == {"fold", "call 40"}  # three raises after the completion: capped at 40


def test_tc07_bring_in_player_all_in_for_the_ante() -> None:
    cards = {S1: "?? ?? 9h", S2: "?? ?? 2c", S3: "?? ?? Kd", S4: "?? ?? Qs"}
    t = Table(rules(), [51, 1, 51, 51], cards)
    assert t.actor == S3
    assert t.legal(with_check_fold=True) == {"fold", "bring-in 3", "complete 10"}  # no check
    t.act("fold")
    assert t.actor == S4 and t.legal(with_check_fold=True) == {"fold", "bring-in 3", "complete 10"}
    t.act("bring-in 3")
    assert t.actor == S1 and t.legal() == {"fold", "call 3", "complete 10"}
    t.act("call 3")
    pots = t.state.pots
    assert pots[0].amount == 4 and S2 in pots[0].eligible  # S2 can win only the antes
    assert all(S2 not in pot.eligible for pot in pots[1:])


def test_tc07_everybody_folds_to_the_all_in_bring_in() -> None:
    t = Table(rules(), [51, 1, 51], {S1: "?? ?? 9h", S2: "?? ?? 2c", S3: "?? ?? Kd"})
    t.play([(S3, "fold"), (S1, "fold")])
    assert t.state.is_over
    assert t.state.stacks == (50, 3, 50)


# ---------------------------------------------------------------------------------------------
# Later streets: first actor and limits


def tc09_table(variant: Variant = Variant.STUD7) -> Table:
    cards = {S1: "?? ?? Ah Kd", S2: "?? ?? 7c 7h", S3: "?? ?? Qs Qd", S4: "?? ?? 2c 2d"}
    t = Table(rules(variant), [204] * 4, cards)
    t.passive_until(4)
    return t


def test_tc09_fourth_street_first_actor() -> None:
    t = tc09_table()
    assert t.actor == S3
    assert t.state._open_pair  # an open pair shows: the STUD7 option is in effect


def test_tc10_open_pair_double_bet() -> None:
    t = tc09_table()
    assert t.legal() == {"check", "bet 10", "bet 20"}
    t.act("bet 10")
    assert t.actor == S4 and t.legal() == {"fold", "call 10", "raise 20", "raise 30"}
    t.act("raise 30")  # a raise by B
    assert t.actor == S1 and t.legal() == {"fold", "call 30", "raise 50"}  # not 40
    t.play([(S1, "raise 50"), (S2, "raise 70")])
    assert t.actor == S3 and t.legal() == {"fold", "call 70"}  # capped: raises 30, 50, 70


def test_tc11_no_double_bet_in_stud8() -> None:
    t = tc09_table(Variant.STUD7_HL8)
    assert t.actor == S3
    assert t.legal() == {"check", "bet 10"}


def test_tc12_paired_player_all_in() -> None:
    t = Table(rules(), [4, 204, 204], {S1: "?? ?? 7c 7h", S2: "?? ?? Ks Qd", S3: "?? ?? 4s 9d"})
    t.play([(S3, "bring-in 3"), (S1, "call 3"), (S2, "call 3")])
    assert t.state.street == 4 and t.state.all_in(S1)
    assert t.actor == S2  # S1 has the high board but is all-in (R7.5)
    assert t.legal() == {"check", "bet 10", "bet 20"}  # the pair still shows


def tc13_table(tiebreak: Tiebreak) -> Table:
    cards = {S1: "?? ?? Kc Qd", S2: "?? ?? Ah 7c", S3: "?? ?? Jh 9s", S4: "?? ?? 2c", S5: "?? ?? As 7d"}
    t = Table(rules(later_street_tiebreak=tiebreak), [201] * 5, cards)
    t.play([(S4, "bring-in 3"), (S5, "complete 10"), (S1, "call 10"), (S2, "call 10"), (S3, "call 10"), (S4, "fold")])
    assert t.state.street == 4
    return t


def test_tc13_tie_between_boards() -> None:
    assert tc13_table(Tiebreak.POSITION).actor == S2
    assert tc13_table(Tiebreak.HIGH_CARD_BY_SUIT).actor == S5  # A♠ > A♥


def tc14_table() -> Table:
    cards = {
        S1: "?? ?? 9h 9d 5c 5s ??",
        S2: "?? ?? 3c 3d 3h Ks ??",
        S3: "?? ?? 2d 8c",
        S4: "?? ?? 5h 6h 7h 8h ??",
        S5: "?? ?? Ac Kc Qc Jd ??",
    }
    t = Table(rules(), [201] * 5, cards)
    t.passive_until(5, fold=[S3])
    return t


def test_tc14_board_ranking_ignores_straights_and_flushes() -> None:
    t = tc14_table()
    t.passive_until(6)
    assert t.actor == S2  # trips > two pair > A-K-Q-J > 8-high


def test_tc17_seventh_street_first_actor_is_the_sixth_street_one() -> None:
    t = tc14_table()
    t.passive_until(6)
    sixth = t.actor
    t.passive_until(7)
    assert t.actor == sixth == S2


def test_tc15_high_board_all_in() -> None:
    cards = {S1: "?? ?? Kc Kd 2h", S2: "?? ?? Ac Ad 7s", S3: "?? ?? Qh Qs 3c", S4: "?? ?? Jd 9d 4s"}
    t = Table(rules(), [204, 4, 204, 204], cards)
    t.play([(S4, "bring-in 3"), (S1, "call 3"), (S2, "call 3"), (S3, "call 3")])
    t.passive_until(5)
    assert t.state.all_in(S2)
    order = []
    while t.state.street == 5:
        order.append(t.actor)
        t.act("check")
    assert order == [S3, S4, S1]  # next clockwise after the all-in high board, not S1


def test_tc16_stud8_first_actor_is_the_high_board() -> None:
    t = Table(rules(Variant.STUD7_HL8), [201] * 3, {S1: "?? ?? As 2s", S2: "?? ?? Kc Kd", S3: "?? ?? 4h 3h"})
    assert t.actor == S3  # 4♥ is the lowest door (ace high)
    t.passive_until(4)
    assert t.actor == S2  # the pair, not the best low board


# ---------------------------------------------------------------------------------------------
# All-in and raise caps


def fifth_street(behind: list[int], n: int = 4) -> Table:
    """n players reach 5th street with 3 each in; S1 shows a pair of aces and acts first; S3 brings in."""
    doors = {S1: "?? ?? As Ah Kd", S2: "?? ?? 5d 6c 8s", S3: "?? ?? 4c Tc 2s", S4: "?? ?? 6h 7s 9c"}
    t = Table(rules(), [b + 4 for b in behind], {p: doors[p] for p in range(n)})
    t.passive_until(5)
    assert t.actor == S1 and [t.state.stacks[p] for p in range(n)] == behind
    return t


def test_tc18_all_in_for_less_than_half_a_bet() -> None:
    t = fifth_street([200, 200, 28, 200])
    t.play([(S1, "bet 20"), (S2, "call 20"), (S3, "raise 28")])  # all in for 28: 8 more, < half of 20
    assert t.state._raises == 0
    assert t.actor == S4 and t.legal() == {"fold", "call 28", "raise 40"}
    calls = fifth_street([200, 200, 28, 200])
    calls.play([(S1, "bet 20"), (S2, "call 20"), (S3, "raise 28"), (S4, "call 28")])
    assert calls.actor == S1 and calls.legal() == {"fold", "call 28"}  # not re-opened
    calls.act("call 28")
    assert calls.actor == S2 and calls.legal() == {"fold", "call 28"}
    calls.act("call 28")
    assert calls.state.street == 6
    assert calls.state.totals == (32, 32, 32, 32)  # 4 before 5th street, 28 on it


def test_tc18b_the_raise_re_opens() -> None:
    t = fifth_street([200, 200, 28, 200])
    t.play([(S1, "bet 20"), (S2, "call 20"), (S3, "raise 28"), (S4, "raise 40")])
    assert t.actor == S1 and t.legal() == {"fold", "call 40", "raise 60"}


def test_tc19_all_in_of_half_a_bet_or_more_is_a_full_bet() -> None:
    t = fifth_street([200, 15, 200], n=3)
    t.play([(S1, "check"), (S2, "bet 15")])  # all in for 15 (>= 10)
    assert t.actor == S3 and t.legal() == {"fold", "call 15", "raise 35"}
    t.act("call 15")
    assert t.actor == S1 and t.legal() == {"fold", "call 15", "raise 35"}


def test_tc19_all_in_bet_kind() -> None:
    t = fifth_street([200, 15, 200], n=3)
    t.act("check")
    assert t.legal() == {"check", "bet 15"}  # S2 may bet all-in for 15 (below the full 20)


def test_tc20_short_all_in_into_an_unopened_pot() -> None:
    t = fifth_street([200, 8, 200], n=3)
    t.play([(S1, "check"), (S2, "bet 8")])  # all in for 8 (< 10)
    assert t.actor == S3 and t.legal() == {"fold", "call 8", "complete 20"}
    t.act("call 8")
    assert t.actor == S1 and t.legal() == {"fold", "call 8"}  # 8 < half a bet: not re-opened
    t.act("call 8")
    assert t.state.street == 6


def sixth_street(n: int, **overrides: object) -> Table:
    doors = {S1: "?? ?? As Ah Kd Kc", S2: "?? ?? 5d 6c 8s 9h", S3: "?? ?? 4c Tc 2s 3d"}
    t = Table(rules(**overrides), [504] * n, {p: doors[p] for p in range(n)})
    t.passive_until(6)
    assert t.actor == S1
    return t


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        (HeadsUpUncap.WHEN_HEADSUP_BEFORE_CAP, {"fold", "call 80", "raise 100"}),
        (HeadsUpUncap.NEVER, {"fold", "call 80"}),
    ],
)
def test_tc21_heads_up_unlimited_raises(mode: HeadsUpUncap, expected: set[str]) -> None:
    t = sixth_street(2, headsup_uncap=mode)
    t.play([(S1, "bet 20"), (S2, "raise 40"), (S1, "raise 60"), (S2, "raise 80")])
    assert t.actor == S1 and t.legal() == expected
    if mode is HeadsUpUncap.WHEN_HEADSUP_BEFORE_CAP:
        t.play([(S1, "raise 100"), (S2, "raise 120")])
        assert t.legal() == {"fold", "call 120", "raise 140"}  # and so on until all-in


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        (HeadsUpUncap.WHEN_HEADSUP_BEFORE_CAP, {"fold", "call 80", "raise 100"}),
        (HeadsUpUncap.ROUND_BEGINS_HEADSUP, {"fold", "call 80"}),
    ],
)
def test_tc22_becomes_heads_up_before_the_cap(mode: HeadsUpUncap, expected: set[str]) -> None:
    t = sixth_street(3, headsup_uncap=mode)
    t.play([(S1, "bet 20"), (S2, "raise 40"), (S3, "fold"), (S1, "raise 60"), (S2, "raise 80")])
    assert t.actor == S1 and t.legal() == expected


def test_tc23_capped_then_heads_up() -> None:
    t = sixth_street(3)
    t.play([(S1, "bet 20"), (S2, "raise 40"), (S3, "raise 60"), (S1, "raise 80"), (S2, "fold")])
    assert t.actor == S3 and t.legal() == {"fold", "call 80"}


# ---------------------------------------------------------------------------------------------
# Short deck and community card

TC25_BOARDS = [
    "Kh Kd 7c 2s", "Ah Qc 9d 4h", "Jc Jd 5s 3h", "Tc 8s 6d 2h",
    "9h 9s Qd 4c", "8c 7d 5h 3c", "Qh Js 6s 4d", "7h 6h 5d 3d",
]  # fmt: skip


@pytest.mark.parametrize(
    ("first_actor", "expected"),
    [(CommunityFirstActor.AS_ON_6TH, S1), (CommunityFirstActor.HIGH_WITH_COMMUNITY, S2)],
)
def test_tc25_eight_players_reach_seventh_street(first_actor: CommunityFirstActor, expected: int) -> None:
    cards = {p: "?? ?? " + board for p, board in enumerate(TC25_BOARDS)}
    t = Table(rules(community_first_actor=first_actor), [501] * 8, cards, community="Ad")
    t.passive_until(7)
    state = t.state
    assert state.community_card is not None and str(state.community_card) == "Ad"
    assert any(isinstance(e, Reshuffled) and e.cards == 4 for e in state.events)  # stub 1 + 3 burns
    assert not any(isinstance(e, CardDealt) and e.street == 7 for e in state.events)  # no individual 7th cards
    assert t.actor == expected
    assert {"check", "bet 20"} <= t.legal()  # a 7th-street betting round at 20 follows
    assert 52 - state._used == 2


def test_tc25_no_betting_after_the_community_card_option() -> None:
    cards = {p: "?? ?? " + board for p, board in enumerate(TC25_BOARDS)}
    t = Table(rules(community_card_betting=False), [501] * 8, cards, community="Ad")
    t.passive_until(7)
    assert t.state.phase is Phase.REVEAL  # straight to showdown: the unknown hole cards must be revealed


def deck_hand(n: int, seed: int, **overrides: object) -> HandState:
    return HandState(rules(**overrides), [501] * n, seed=seed)


def call_down(state: HandState, folds: dict[int, int] | None = None) -> None:
    """Check or call to the end; ``folds`` maps player -> street on which he folds."""
    folds = folds or {}
    while not state.is_over:
        p = state.actor
        legal = {a.kind: a for a in state.legal_actions()}
        if p in folds and folds[p] == state.street and ActionKind.FOLD in legal:
            state.apply(legal[ActionKind.FOLD])
        else:
            state.apply(legal.get(ActionKind.BRING_IN) or legal.get(ActionKind.CHECK) or legal[ActionKind.CALL])


def seventh_street_events(state: HandState) -> list[object]:
    start = max(i for i, e in enumerate(state.events) if type(e).__name__ == "StreetStarted")
    return [e for e in state.events[start:] if isinstance(e, (Burned, Reshuffled, CardDealt, CommunityCard))]


def test_tc26_seven_players_reach_seventh_street() -> None:
    state = deck_hand(7, seed=26)
    call_down(state)
    events = seventh_street_events(state)
    assert isinstance(events[0], Reshuffled) and events[0].cards == 7 + 3
    assert isinstance(events[1], Burned)
    assert sum(isinstance(e, CardDealt) for e in events) == 7
    assert not any(isinstance(e, CommunityCard) for e in events)
    assert len(state._deck) == 2  # two cards remain


@pytest.mark.parametrize("procedure", [ShortDeckProcedure.TDA, ShortDeckProcedure.RRoP])
def test_tc27_eight_start_one_folds_on_third_street(procedure: ShortDeckProcedure) -> None:
    state = deck_hand(8, seed=27, short_deck_procedure=procedure)
    folder = (state.actor + 1) % 8  # whoever acts after the bring-in
    call_down(state, folds={folder: 3})
    events = seventh_street_events(state)
    community = [e for e in events if isinstance(e, CommunityCard)]
    own = [e for e in events if isinstance(e, CardDealt)]
    if procedure is ShortDeckProcedure.TDA:
        assert len(community) == 1 and not own  # stub 4 + 3 burns < 9, stub >= 3: burn, community card
        assert isinstance(events[0], Burned) and not any(isinstance(e, Reshuffled) for e in events)
    else:
        assert not community and len(own) == 7  # everyone gets his own 7th card
        assert any(isinstance(e, Reshuffled) for e in events)
    dealt = [e.card for e in state.events if isinstance(e, (CardDealt, CommunityCard))]
    assert len(set(dealt)) == len(dealt)  # no card dealt twice after the scramble


# ---------------------------------------------------------------------------------------------
# Pots, showdown, uncalled bets


def test_tc39_uncalled_bet_returned() -> None:
    cards = {S1: "2c 3c As Ah Kd Kc 4d", S2: "5d 6d 7s 8c 9h Td Jh"}
    t = Table(rules(), [400, 113], cards)
    t.play([(S2, "bring-in 3"), (S1, "complete 10"), (S2, "call 10")])  # 11 each
    t.play([(S1, "bet 10"), (S2, "call 10")])  # 21
    t.play([(S1, "bet 20"), (S2, "call 20")])  # 41
    t.play([(S1, "bet 20"), (S2, "raise 40"), (S1, "raise 60"), (S2, "call 60")])  # 101
    assert t.state.street == 7 and t.state.totals == (101, 101)
    t.play([(S1, "bet 20"), (S2, "call 12")])  # S2 all in for 12
    returned = [e for e in t.state.events if isinstance(e, Returned)]
    assert returned == [Returned(S1, 8)]
    assert sum(a.amount for a in t.state.awards) == 226


def tc40_table(auto_show: bool = True) -> Table:
    cards = {
        S1: "2c 3c 5d 6d 8h 9h 4c",
        S2: "?? ?? 2h",
        S3: "?? ?? 3h",
        S4: "Ac Ad As Ah Kc Ks Td",
        S5: "?? ?? 4h",
        S6: "7c 7d 8c 8d Jc Jd 9c",
    }
    t = Table(rules(), [501] * 6, cards, auto_show=auto_show)
    t.passive_until(7, fold=[S2, S3, S5])
    assert t.actor == S4  # the high board
    return t


def shown_order(t: Table) -> list[int]:
    return [e.player for e in t.state.events if isinstance(e, Shown)]


def test_tc40a_last_aggressor_shows_first() -> None:
    t = tc40_table()
    t.play([(S4, "bet 20"), (S6, "raise 40"), (S1, "call 40"), (S4, "call 40")])
    assert shown_order(t) == [S6, S1, S4]


def test_tc40b_no_bet_high_board_shows_first() -> None:
    t = tc40_table()
    t.play([(S4, "check"), (S6, "check"), (S1, "check")])
    assert shown_order(t) == [S4, S6, S1]


def test_tc40_players_may_muck_in_turn() -> None:
    t = tc40_table(auto_show=False)
    t.play([(S4, "check"), (S6, "check"), (S1, "check")])
    assert t.state.phase is Phase.SHOWDOWN and t.actor == S4
    assert t.legal() == {"show", "muck"}
    t.play([(S4, "show"), (S6, "muck"), (S1, "muck")])
    assert t.state.is_over
    assert shown_order(t) == [S4]
    assert {a.player for a in t.state.awards} == {S4}


def test_tc40_all_muck_but_one_wins_unseen() -> None:
    t = tc40_table(auto_show=False)
    t.play([(S4, "check"), (S6, "check"), (S1, "check"), (S4, "muck"), (S6, "muck")])
    assert t.state.is_over and shown_order(t) == []
    assert {a.player for a in t.state.awards} == {S1}


# ---------------------------------------------------------------------------------------------
# Five-card stud


def test_tc41_stud5_flow() -> None:
    cards = {
        S1: "?? 7c Ac 2d 3d", S2: "?? Kd Qs 4c 5c", S3: "?? 3h 8h 6c 7d",
        S4: "?? 3s 4d 8c 9h", S5: "?? Jc Jd Tc Th", S6: "?? 9d 2s Qc Qd",
    }  # fmt: skip
    t = Table(rules(Variant.STUD5), [201] * 6, cards)
    assert t.actor == S3  # 3♥ < 3♠
    assert t.legal(with_check_fold=True) == {"bring-in 3", "complete 10"}
    t.passive_until(3)
    assert t.actor == S5 and t.legal() == {"check", "bet 10", "bet 20"}  # open pair: 10 or 20
    t.passive_until(4)
    assert "bet 20" in t.legal()  # rounds 3 and 4 at 20
    t.passive_until(5)
    assert "bet 20" in t.legal()
    fifth = [e for e in t.state.events if isinstance(e, CardDealt) and e.street == 5]
    assert fifth and all(e.face_up for e in fifth)  # the 5th card is dealt face up


def test_tc42_stud5_ten_players_to_the_last_card() -> None:
    state = HandState(rules(Variant.STUD5), [501] * 10, seed=42)
    call_down(state)
    events = seventh_street_events(state)
    assert isinstance(events[0], Reshuffled) and events[0].cards == 10 + 2
    assert isinstance(events[1], Burned)
    assert sum(isinstance(e, CardDealt) and e.face_up for e in events) == 10
    assert not any(isinstance(e, CommunityCard) for e in events)
    assert len(state._deck) == 1


def test_tc43_stud5_high_card_opens() -> None:
    t = Table(
        rules(Variant.STUD5, stud5_opening=Stud5Opening.HIGH_CARD_OPENS),
        [201] * 3,
        {S1: "?? Ah", S2: "?? As", S3: "?? 5c"},
    )
    assert t.actor == S1  # tie by position, suits not used
    assert t.legal() == {"check", "bet 10"}  # no bring-in


# ---------------------------------------------------------------------------------------------
# Irregularities (live-dealer mode)


def tc45_table() -> Table:
    doors = {S1: "?? ?? Kh", S2: "?? ?? 5d", S3: "?? ?? 9s", S4: "?? ?? Qd", S5: "?? ?? 2c"}
    t = Table(rules(), [201] * 5, doors)
    assert t.actor == S5  # the true low card
    t.state.misdesignate_bring_in(S2)
    assert t.state.stacks[S2] == 197 and t.actor == S3
    return t


def test_tc45_wrong_bring_in_corrected_before_the_next_player_acts() -> None:
    t = tc45_table()
    t.state.correct_bring_in()
    assert t.state.stacks[S2] == 200  # S2 takes back 3
    assert t.actor == S5 and t.legal(with_check_fold=True) == {"bring-in 3", "complete 10"}
    assert isinstance(t.state.events[-1], Returned) and t.state.events[-1] == Returned(S2, 3)


def test_tc45_wrong_bring_in_stands_once_the_next_player_acted() -> None:
    t = tc45_table()
    t.act("call 3")
    with pytest.raises(IllegalActionError, match="already acted"):
        t.state.correct_bring_in()
    t.play([(S4, "call 3"), (S5, "call 3")])  # S5 has no obligation: an ordinary call (or fold)
    t.play([(S1, "call 3")])
    assert t.state.street == 4 and t.state.stacks[S2] == 197


def test_tc45_misdesignation_only_before_the_bring_in() -> None:
    t = tc45_table()
    with pytest.raises(IllegalActionError, match="before the bring-in is posted"):
        t.state.misdesignate_bring_in(S1)


# TC-44 (buy-ins and top-ups between hands) is a table-session scenario: it is tested with the
# table (issue 5), not with the single-hand state machine.
