"""A stud river as the solver's game: the hands, card removal, how each showdown splits the pot, who acts first;
and the answer for real stud spots."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from studpoker.cards import parse_cards
from studpoker.evaluation import high_value, low8_value, razz_value
from studpoker.solve import RiverSpot, SolveError, river, solve
from studpoker.solve.game import DenseShowdown
from studpoker.solve.sweep import CardShowdown


def reference_share(variant: str, mine: list[str], theirs: list[str]) -> float:
    """Player 0's share of the pot, from the scalar evaluators and the rules (SPEC R9: hi/lo halves, quartering)."""
    a, b = parse_cards(" ".join(mine)), parse_cards(" ".join(theirs))

    def half(x: int, y: int) -> float:
        return 1.0 if x > y else 0.5 if x == y else 0.0

    if variant == "razz":
        return half(razz_value(a), razz_value(b))
    high = half(high_value(a), high_value(b))
    if variant == "7stud":
        return high
    low_a, low_b = low8_value(a), low8_value(b)
    if low_a == 0 and low_b == 0:
        return high
    low = 1.0 if low_b == 0 else 0.0 if low_a == 0 else half(low_a, low_b)
    return high / 2 + low / 2


SPOTS = {
    "7stud": ("(AKX),(AAX),(88X),(A3X) Ah Kd 8c 3s", "(QXX),(99X),(44X) Qs Qd 9h 4c", "2c 7h"),
    "7stud8": ("(A2X),(A3X),(KKX),(23X) Ah 4d 8c Ks", "(A2X),(34X),(99X) 6c 5h 9d 2s", "7c"),
    "razz": ("(32A),(54A),(KKX),(27X) 8s 7d Qc 4h", "(A2X),(A3X),(34X),(QQX) 6c 5h 9d 2s", ""),
}


@pytest.mark.parametrize("variant", sorted(SPOTS))
def test_every_showdown_splits_the_pot_as_the_rules_say(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    mine, theirs, dead = SPOTS[variant]
    spot = RiverSpot.parse(variant, [mine, theirs], pot=10, bet=2, dead=dead)
    monkeypatch.setattr(river, "DENSE_PAIRS", 10**9)  # the matrices, to read pair by pair
    game = spot.game()
    assert isinstance(game.showdown, DenseShowdown)
    rng = random.Random(7)
    up = [[str(c) for c in r.up] for r in spot.ranges]
    checked = 0
    while checked < 400:
        i, j = rng.randrange(len(spot.combos[0])), rng.randrange(len(spot.combos[1]))
        a, b = spot.combos[0][i][0], spot.combos[1][j][0]
        if set(a) & set(b):
            assert game.compatible[i, j] == 0
            continue
        assert game.compatible[i, j] == 1
        expected = reference_share(variant, [*map(str, a), *up[0]], [*map(str, b), *up[1]])
        assert game.share[i, j] == expected, (a, b)
        checked += 1


@pytest.mark.parametrize("variant", sorted(SPOTS))
def test_large_ranges_are_valued_from_their_cards_as_the_matrices_say(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine, theirs, dead = SPOTS[variant]
    spot = RiverSpot.parse(variant, [mine, theirs], pot=10, bet=2, dead=dead)
    monkeypatch.setattr(river, "DENSE_PAIRS", 10**9)
    dense = spot.game().showdown
    monkeypatch.setattr(river, "DENSE_PAIRS", 0)
    cards = spot.game().showdown
    assert isinstance(dense, DenseShowdown) and isinstance(cards, CardShowdown)
    rng = np.random.default_rng(3)
    for player in (0, 1):
        reach = rng.random((len(spot.combos[1 - player]), 4))
        for want, got in zip(dense.sums(player, reach), cards.sums(player, reach), strict=True):
            assert np.allclose(want, got, rtol=1e-5, atol=1e-4)  # the matrices' products are single precision


def test_the_hands_leave_out_every_card_seen() -> None:
    spot = RiverSpot.parse("7stud", ["(XXX) Ah Kd 8c 3s", "(QQX) Qs Qd 9h 4c"], pot=10, bet=2, dead="2c 7h")
    seen = set(parse_cards("Ah Kd 8c 3s Qs Qd 9h 4c 2c 7h"))
    assert len(spot.combos[0]) == 11_480  # C(42, 3): 52 less 8 up cards and 2 dead
    for hands in spot.combos:
        assert not any(set(cards) & seen for cards, _ in hands)
    assert all(any(c.rank == parse_cards("Qh")[0].rank for c in cards) for cards, _ in spot.combos[1])


@pytest.mark.parametrize(
    ("variant", "boards", "first"),
    [
        ("7stud", ("Ah Kd 8c 3s", "Qs Qd 9h 4c"), 1),  # a pair of queens showing beats ace-king
        ("7stud", ("Ah Kd 8c 3s", "As Kh 8d 3c"), 0),  # equal boards: the first player (SPEC R7.4, POSITION)
        ("7stud8", ("Ah Kd 8c 3s", "Qs Jd 9h 4c"), 0),  # stud hi/lo: the high board
        ("razz", ("8s 7d Qc 4h", "6c 5h 9d 2s"), 1),  # razz: the lowest board acts first
        ("razz", ("6c 5h 9d 2s", "8s 7d Qc 4h"), 0),
    ],
)
def test_the_board_says_who_acts_first(variant: str, boards: tuple[str, str], first: int) -> None:
    ranges = [f"(22X) {boards[0]}", f"(77X) {boards[1]}"]
    assert RiverSpot.parse(variant, ranges, pot=10, bet=2, raises=0).first == first
    assert RiverSpot.parse(variant, ranges, pot=10, bet=2, first=1 - first).first == 1 - first


def test_five_card_stud_has_one_down_card() -> None:
    spot = RiverSpot.parse("5stud", ["(A),(K),(7) Ah Kd 8c 3s", "(X) Qs Qd 9h 4c"], pot=10, bet=4)
    assert [len(h) for h in spot.combos] == [10, 44]  # three aces and three kings left, four sevens; 52 - 8
    answer = solve(spot)
    assert answer.exploitability_pot <= 0.001


@pytest.mark.parametrize(
    ("ranges", "kwargs", "message"),
    [
        (["(XXX) Ah Kd 8c", "(XXX) Qs Qd 9h 4c"], {}, "has 3 down and 3 up cards"),
        (["(XX) Ah Kd 8c 3s", "(XXX) Qs Qd 9h 4c"], {}, "player 1's range"),
        (["(XXX) Ah Kd 8c 3s", "(XXX) Qs Qd 9h Ah"], {}, "Ah is in player 1's up cards and in player 2's"),
        (["(XXX) Ah Kd 8c 3s", "(XXX) Qs Qd 9h 4c"], {"dead": "Qs"}, "Qs is in player 2's up cards and in the dead"),
        (["(XXX) Ah Kd 8c 3s", "(XXX) Qs Qd 9h 4c"], {"dead": "Zz"}, "the dead cards"),
        (["(AAA) Ah Kd 8c 3s", "(XXX) Qs Qd 9h 4c"], {"dead": "Ac"}, "no hand once the cards seen are taken out"),
        (["(KXX) Ah Kd 8c 3s", "(QXX) Qs Qd 9h 4c"], {"pot": 0}, "the pot must be"),
        (["(KXX) Ah Kd 8c 3s", "(QXX) Qs Qd 9h 4c"], {"bet": -2}, "the bet must be"),
        (["(KXX) Ah Kd 8c 3s", "(QXX) Qs Qd 9h 4c"], {"stacks": (10, "x")}, "player 2's stack"),
        (["(KXX) Ah Kd 8c 3s", "(QXX) Qs Qd 9h 4c"], {"raises": None}, "give the stacks"),
        (["(KXX) Ah Kd 8c 3s"], {}, "give two ranges"),
    ],
)
def test_a_question_that_cannot_be_asked_is_refused(ranges: list[str], kwargs: dict[str, object], message: str) -> None:
    question: dict[str, object] = {"pot": 10, "bet": 2, **kwargs}
    with pytest.raises(SolveError, match=message):
        RiverSpot.parse("7stud", ranges, **question)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def hilo_answer():  # type: ignore[no-untyped-def]
    spot = RiverSpot.parse(
        "7stud8",
        ["(A2X),(A3X),(KKX),(AAX) Ah 4d 8c Ks", "(A2X),(A3X),(34X),(99X) 6c 5h 9d 2s"],
        pot=50,
        bet=10,
        raises=None,
        stacks=(50, 45),
    )
    return spot, solve(spot, target=0.001)


def test_a_hilo_river_is_solved_to_the_target(hilo_answer) -> None:  # type: ignore[no-untyped-def]
    _, answer = hilo_answer
    assert answer.exploitability <= 0.001 * 50
    assert answer.curve[-1][2] <= 0.001 * 50
    # The two ranges' values add up to the pot; each is no better than the best response against the other.
    assert answer.ev(0) + answer.ev(1) == pytest.approx(50, abs=1e-3)
    assert answer.ev(0) <= answer.best[0] + 1e-9 and answer.ev(1) <= answer.best[1] + 1e-9
    for index, sigma in answer.strategy.items():
        assert np.allclose(sigma.sum(axis=1), 1), index
    # The stacks bound the betting: player 2 has 45 behind, so nobody puts in more.
    assert max(node.put[1] for node in answer.game.tree.nodes) <= 45


def test_a_hand_that_cannot_lose_never_folds(hilo_answer) -> None:  # type: ignore[no-untyped-def]
    _, answer = hilo_answer
    game = answer.game
    for player in (0, 1):
        equity = answer.equities[player]
        best = np.flatnonzero(equity >= 1 - 1e-12)
        for node in game.tree.decisions(player):
            if "fold" in node.actions and len(best):
                reach = answer.reach(player)[node.index][best]
                folded = answer.strategy[node.index][best, node.actions.index("fold")]
                assert float((reach * folded).sum()) <= 1e-3 * float(reach.sum()) + 1e-12


def test_the_answer_as_json_and_as_a_table(hilo_answer) -> None:  # type: ignore[no-untyped-def]
    spot, answer = hilo_answer
    data = json.loads(answer.to_json())
    assert data["players"][0]["hands"] == len(spot.combos[0])
    assert len(data["players"][1]["hand"]) == len(spot.combos[1])
    root = data["nodes"][0]
    assert root["line"] == "" and root["actions"] == ["check", "bet"] and root["reached"] == 1
    assert root["street"] == "river"
    # What reaches the decisions after the first adds up to what reaches the first.
    after = [node["reached"] for node in data["nodes"] if node["line"] in ("x", "b")]
    assert sum(after) == pytest.approx(1, abs=1e-4)
    assert sum(c["share"] for c in root["classes"]) == pytest.approx(1, abs=1e-4)
    assert data["exploitability"]["pot"] <= 0.001
    text = answer.table(limit=3)
    assert text.startswith("Seven-card stud hi/lo, river: Ah 4d 8c Ks vs 6c 5h 9d 2s; pot 50, bet 10, no cap")
    assert "Player 1 first to act (reached 100.0%):" in text and "weaker classes" in text
    assert "/ no low" in text
