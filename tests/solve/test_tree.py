"""The betting tree of a fixed-limit street: caps, the heads-up rule, stacks short of a bet."""

from __future__ import annotations

import pytest

from studpoker.solve import BettingTree, SolveError


def lines(tree: BettingTree, kind: str) -> list[str]:
    return [node.line for node in tree.nodes if node.kind == kind]


def test_a_capped_river_has_every_line_of_bet_and_raises() -> None:
    tree = BettingTree.build(bet=20, raises=3)
    # Bet and three raises: four bets at most, then only a call or a fold.
    assert "x b r r r c" in lines(tree, "showdown")
    assert "b r r r c" in lines(tree, "showdown")
    capped = tree.node("b r r r")
    assert capped.actions == ("fold", "call")
    assert capped.put == (60, 80)
    assert tree.node("b r r r c").put == (80, 80)
    assert lines(tree, "fold") == [
        "x b f",
        "x b r f",
        "x b r r f",
        "x b r r r f",
        "b f",
        "b r f",
        "b r r f",
        "b r r r f",
    ]
    assert all(node.index == k for k, node in enumerate(tree.nodes))
    for node in tree.nodes:  # parents before children
        assert all(child > node.index for child in node.children)


def test_no_raise_is_kuhn_betting() -> None:
    tree = BettingTree.build(bet=1, raises=0)
    assert lines(tree, "showdown") == ["x x", "x b c", "b c"]
    assert tree.node("x b").actions == ("fold", "call")


def test_the_second_player_acts_first_when_told() -> None:
    tree = BettingTree.build(bet=10, raises=1, first=1)
    assert tree.nodes[0].player == 1
    assert tree.node("b").player == 0
    assert tree.node("b r").put == (20, 10)


def test_half_street_lets_only_the_first_player_bet() -> None:
    tree = BettingTree.build(bet=1, raises=0, half_street=True)
    assert tree.node("x").actions == ("check",)
    assert lines(tree, "showdown") == ["x x", "b c"]


def test_uncapped_heads_up_betting_stops_at_the_short_stack() -> None:
    tree = BettingTree.build(bet=10, raises=None, stacks=(35, 1000))
    deepest = max(tree.nodes, key=lambda node: len(node.line))
    # 10, 20, 30, then all-in for 35: the raise of 5 is all the short stack has, and the other may only call.
    assert tree.node("b r r").put == (30, 20)
    assert tree.node("b r r r").put == (30, 35)  # a raise no bigger than what the other can call
    assert tree.node("b r r r").actions == ("fold", "call")
    assert deepest.line.count("r") <= 4
    end = [node for node in tree.nodes if node.kind == "showdown"]
    assert max(node.put[0] for node in end) == 35  # nobody puts in more than he has; an uncalled part goes back


def test_a_call_short_of_the_bet_is_all_in_and_the_excess_goes_back() -> None:
    tree = BettingTree.build(bet=20, stacks=(100, 12))
    assert tree.node("b c").put == (12, 12)
    assert tree.node("b").actions == ("fold", "call")  # he cannot raise with less than the bet
    tree = BettingTree.build(bet=20, raises=3, stacks=(0, 100))
    assert [node.kind for node in tree.nodes] == ["showdown"]  # all-in already: nothing to bet


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bet": 0}, "the bet must be"),
        ({"bet": 2.5}, "the bet must be"),
        ({"bet": 2, "raises": -1}, "raises must be"),
        ({"bet": 2, "raises": 64}, "raises must be under 64"),
        ({"bet": 2, "first": 2}, "first must be 0 or 1"),
        ({"bet": 2, "stacks": (5, -1)}, "a stack must be"),
        ({"bet": 2}, "give the stacks"),
        ({"bet": 2, "raises": None, "stacks": (10**9, 10**9)}, "give the stacks"),
    ],
)
def test_a_tree_that_cannot_be_is_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SolveError, match=message):
        BettingTree.build(**kwargs)  # type: ignore[arg-type]


def test_a_line_that_no_node_has_is_refused() -> None:
    with pytest.raises(SolveError, match="no node has the line 'b b'"):
        BettingTree.build(bet=2, raises=1).node("b b")
