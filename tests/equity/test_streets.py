"""``hand_streets``: a played hand's equities street by street, checked against equity() asked directly with the
cards and dead cards rebuilt from the players' final hands (not from the event walk the module does)."""

from __future__ import annotations

import random

import pytest

from studpoker.cards import Card
from studpoker.engine import ActionKind, HandState, Rules, Variant
from studpoker.engine.events import ActionTaken, CommunityCard
from studpoker.equity import equity
from studpoker.equity.spot import Spot
from studpoker.equity.streets import EXACT_OUTCOMES, TRIALS, hand_streets
from studpoker.history import phh
from studpoker.history.record import record_hand, seen_by
from studpoker.history.replay import replay

GAMES = [Variant.STUD7, Variant.STUD7_HL8, Variant.RAZZ, Variant.STUD5]


def played(variant: Variant, players: int, seed: int, fold: float) -> HandState:
    """A hand played to its end by random choices: fold with probability ``fold`` when facing a bet, else call."""
    rng = random.Random(seed)
    state = HandState(Rules(variant, ante=1, bring_in=2, small_bet=4, big_bet=8), [400] * players, seed=seed)
    while not state.is_over:
        legal = state.legal_actions()
        kinds = {a.kind: a for a in legal}
        if ActionKind.FOLD in kinds and rng.random() < fold:
            state.apply(kinds[ActionKind.FOLD])
        else:
            state.apply(next(a for a in legal if a.kind is not ActionKind.FOLD))
    return state


def dealt_by(state: HandState, player: int, street: int) -> list[Card]:
    """The player's own cards once ``street`` was dealt, rebuilt from his final down and up cards."""
    variant = state.rules.variant
    order = "duuuu" if variant is Variant.STUD5 else "dduuuud"
    first = 2 if variant is Variant.STUD5 else 3
    down, up = list(state.down_cards(player)), list(state.up_cards(player))
    cards: list[Card] = []
    for kind in order[: street - first + (2 if variant is Variant.STUD5 else 3)]:
        pile = down if kind == "d" else up
        if pile:
            card = pile.pop(0)
            assert card is not None
            cards.append(card)
    return cards


def up_by(state: HandState, player: int, street: int) -> list[Card]:
    down = set(state.down_cards(player))
    return [c for c in dealt_by(state, player, street) if c not in down]


def solve(variant: Variant, hands: list[list[Card]], dead: list[Card], community: object, seed: int) -> list[float]:
    spot = Spot(variant, tuple(tuple(h) for h in hands), tuple(dead), community)  # type: ignore[arg-type]
    if spot.outcomes <= EXACT_OUTCOMES:
        return [p.equity for p in equity(spot, method="exact").players]
    return [p.equity for p in equity(spot, method="montecarlo", trials=TRIALS, seed=seed).players]


@pytest.mark.parametrize("variant", GAMES, ids=lambda v: v.name)
def test_every_street_matches_equity_asked_directly(variant: Variant) -> None:
    rng = random.Random(variant.value)
    checked = 0
    for _ in range(6):
        players = rng.randint(2, 5)
        state = played(variant, players, seed=rng.randrange(10**6), fold=0.25)
        community = next((e.card for e in state.events if isinstance(e, CommunityCard)), None)
        streets = hand_streets(state)
        folds = [
            (e.player, e.street)
            for e in state.events
            if isinstance(e, ActionTaken) and e.action.kind is ActionKind.FOLD
        ]
        for street in streets:
            s = street.street
            live = sorted(p for p in range(players) if not any(f == p and at < s for f, at in folds))
            assert [p.player for p in street.players] == live
            folded = [p for p in range(players) if p not in live]
            hands = [dealt_by(state, p, s) for p in live]
            assert [list(p.cards) for p in street.players] == hands
            dead = [c for p in folded for c in dealt_by(state, p, min(s, max(at for f, at in folds if f == p)))]
            shared = (
                community if (community is not None and s == streets[-1].street == 7) else (True if community else None)
            )
            actual = solve(variant, hands, dead, shared, s * 64)
            assert [p.actual for p in street.players] == pytest.approx(actual, abs=1e-12)
            assert sum(actual) == pytest.approx(1.0, abs=1e-9)
            dead_up = [c for p in folded for c in up_by(state, p, min(s, max(at for f, at in folds if f == p)))]
            for i, p in enumerate(live):
                seen = [hands[i]] + [up_by(state, q, s) for q in live if q != p]
                ranged = solve(variant, seen, dead_up, shared, s * 64 + 1 + p)[0]
                assert street.players[i].ranged == pytest.approx(ranged, abs=1e-12)
            checked += 1
    assert checked >= 6


def test_the_river_is_decided_and_a_hand_folded_on_third_street_has_one_street() -> None:
    state = played(Variant.STUD7, 2, seed=11, fold=0.0)
    last = hand_streets(state)[-1]
    assert last.street == 7 and sorted(p.actual for p in last.players) in ([0.0, 1.0], [0.5, 0.5])
    short = played(Variant.RAZZ, 3, seed=4, fold=1.0)  # everyone facing a bet folds
    assert [s.street for s in hand_streets(short)] == [3]


def test_eight_players_to_the_end_share_the_community_card() -> None:
    for seed in range(40):
        state = played(Variant.STUD7, 8, seed=seed, fold=0.0)
        community = [e.card for e in state.events if isinstance(e, CommunityCard)]
        if community:
            break
    else:
        pytest.fail("no 8-handed hand dealt a community card in 40 seeds")
    last = hand_streets(state)[-1]
    assert last.street == 7 and last.community == community[0]
    assert all(len(p.cards) == 6 for p in last.players)
    assert sum(p.actual for p in last.players) == pytest.approx(1.0)
    assert hand_streets(state) == hand_streets(state)  # seeded: the same answers every time


def test_a_hand_with_unknown_cards_is_refused() -> None:
    state = played(Variant.STUD7, 3, seed=2, fold=0.3)
    public = replay(seen_by(phh.loads_hand(phh.dumps(record_hand(state))), None)).state
    with pytest.raises(ValueError, match="is unknown"):
        hand_streets(public)
