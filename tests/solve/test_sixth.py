"""Sixth street and the river: the river hands dealt from the sixth-street hands, the deal's weights, the range
equity against the equity module's exact count, and the answer."""

from __future__ import annotations

import json

import numpy as np
import pytest

from studpoker.cards import parse_cards
from studpoker.equity import equity
from studpoker.solve import SixthSpot, SolveError, river, solve
from studpoker.solve.game import DenseShowdown

SPOTS = {
    "7stud": ("(AA),(KK),(A8) Ah Kd 8c 3s", "(QQ),(99),(Q9) Qs Qd 9h 4c", "2c 7h"),
    "7stud8": ("(A2),(A3),(KK),(45) Ah 4d 8c Ks", "(A2),(34),(99) 6c 5h 9d 2s", "7c"),
    "razz": ("(32),(A2),(KK) 8s 7d Qc 4h", "(A3),(34),(QQ) 6c 5h 9d 2s", "Jd"),
}


def test_each_river_hand_is_a_sixth_street_hand_and_a_card_left() -> None:
    spot = SixthSpot.parse("7stud", list(SPOTS["7stud"][:2]), pot=60, bet=20, dead=SPOTS["7stud"][2])
    seen = {c.index for c in parse_cards("Ah Kd 8c 3s Qs Qd 9h 4c 2c 7h")}
    assert spot.cards_left == 42
    for player in (0, 1):
        parents, rows = spot.river_hands(player)
        sixth = spot.hand_cards(player)
        assert len(rows) == len(sixth) * 40  # every card left but his own two down cards
        assert np.array_equal(rows[:, :2], sixth[parents, :2]) and np.array_equal(rows[:, 3:], sixth[parents, 2:])
        assert not set(rows[:, 2].tolist()) & seen
        assert np.all(rows[:, 2] != rows[:, 0]) and np.all(rows[:, 2] != rows[:, 1])


def test_every_pair_that_can_meet_is_dealt_the_same_number_of_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(river, "DENSE_PAIRS", 10**9)
    spot = SixthSpot.parse("7stud", list(SPOTS["7stud"][:2]), pot=60, bet=20, dead=SPOTS["7stud"][2])
    game = spot.game()
    assert game.deal is not None and isinstance(game.deal.showdown, DenseShowdown)
    assert game.deal.outcomes == 38 * 37  # 42 cards less the four down cards, two of them dealt in order
    sixth = game.compatible
    river_pairs = game.deal.showdown.compatible
    p0, p1 = game.deal.parents
    counts = np.zeros_like(sixth)
    np.add.at(counts, (p0[:, None].repeat(len(p1), 1), p1[None, :].repeat(len(p0), 0)), river_pairs)
    assert np.array_equal(counts, sixth * game.deal.outcomes)


@pytest.mark.parametrize("variant", sorted(SPOTS))
def test_the_range_equity_is_the_equity_modules_exact_count(variant: str) -> None:
    mine, theirs, dead = SPOTS[variant]
    spot = SixthSpot.parse(variant, [mine, theirs], pot=10, bet=2, dead=dead)
    counted = equity([mine, theirs], variant=variant, dead=dead, method="exact")
    assert spot.game().range_equity()[0] == pytest.approx(counted.players[0].equity, abs=1e-9)


@pytest.mark.parametrize("variant", sorted(SPOTS))
def test_sixth_street_is_solved_to_the_target(variant: str) -> None:
    mine, theirs, dead = SPOTS[variant]
    spot = SixthSpot.parse(variant, [mine, theirs], pot=30, bet=10, raises=1, dead=dead)
    answer = solve(spot, target=0.001)
    assert answer.exploitability <= 0.001 * 30
    assert answer.ev(0) + answer.ev(1) == pytest.approx(30, abs=1e-3)
    game = answer.game
    assert game.deal is not None
    for node in game.tree.nodes:
        if node.kind == "decision":
            assert node.player is not None
            sigma = answer.strategy[node.index]
            assert sigma.shape == (game.size(node.player, node.street), len(node.actions))
            assert np.allclose(sigma.sum(axis=1), 1)
    # The river's decisions after each line of sixth street add up to that line's share of the deals.
    for deal in (node for node in game.tree.nodes if node.kind == "deal"):
        root = game.tree.nodes[deal.children[0]]
        if root.kind == "decision":
            assert answer.reached[root.index] <= 1 + 1e-9
    data = json.loads(answer.to_json())
    streets = {node["street"] for node in data["nodes"]}
    assert streets == {"sixth", "river"}
    assert all("hands" not in node for node in data["nodes"] if node["street"] == "river")
    assert "the river card" in answer.table(min_reach=0)


def test_a_short_stack_all_in_on_sixth_street_sees_the_river_without_bets() -> None:
    spot = SixthSpot.parse("7stud", list(SPOTS["7stud"][:2]), pot=60, bet=20, stacks=(20, 100), raises=None)
    tree = spot.tree
    deal = tree.node("b c")
    assert deal.kind == "deal" and tree.nodes[deal.children[0]].kind == "showdown"
    answer = solve(spot)
    assert answer.exploitability_pot <= 0.001


@pytest.mark.parametrize(
    ("variant", "ranges", "kwargs", "message"),
    [
        ("5stud", ["(A) Ah Kd 8c", "(X) Qs Qd 9h"], {}, "sixth street is a street of the seven-card games"),
        ("7stud", ["(AAX) Ah Kd 8c 3s", "(QQ) Qs Qd 9h 4c"], {}, "player 1's range"),
        ("7stud", ["(AA) Ah Kd 8c", "(QQ) Qs Qd 9h 4c"], {}, "on sixth street of seven-card stud a player has 6"),
        ("7stud", ["(XX) Ah Kd 8c 3s", "(QQ) Qs Qd 9h 4c"], {}, "with the river card: at most 12,000"),
        ("7stud", ["(AA) Ah Kd 8c 3s", "(QQ) Qs Qd 9h 4c"], {"dead": "Qs"}, "Qs is in player 2's up cards"),
    ],
)
def test_a_sixth_street_question_that_cannot_be_asked_is_refused(
    variant: str, ranges: list[str], kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(SolveError, match=message):
        SixthSpot.parse(variant, ranges, pot=10, bet=2, **kwargs)  # type: ignore[arg-type]
