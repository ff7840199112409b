"""The exact solve by linear programming: the known answers of the toy games, no exploitability, and CFR's value
matched on random games with card removal, of one street and of two (sixth street and the river)."""

from __future__ import annotations

import itertools
import sys

import numpy as np
import pytest

from studpoker.solve import BettingTree, Game, SolveError, toys
from studpoker.solve.cfr import Strategy, exploitability, hand_values, train
from studpoker.solve.game import Deal, DenseShowdown
from studpoker.solve.lp import solve_lp


def random_game(seed: int, hands: int = 12, deck: int = 8) -> Game:
    """``hands`` two-card hands a side from a ``deck``-card deck (a pair sharing a card cannot be dealt), random
    weights and strengths (equal strengths split the pot), a bet of 2 and two raises into a pot of 3."""
    rng = np.random.default_rng(seed)
    combos = np.array(list(itertools.combinations(range(deck), 2)))
    held = [combos[rng.choice(len(combos), hands, replace=False)] for _ in (0, 1)]
    compatible = np.array([[float(not set(a) & set(b)) for b in held[1]] for a in held[0]])
    strength = [rng.integers(0, 6, hands) for _ in (0, 1)]
    s0, s1 = strength[0][:, None], strength[1][None, :]
    share = np.where(s0 > s1, 1.0, np.where(s0 == s1, 0.5, 0.0))
    weights = (rng.uniform(0.2, 1.0, hands).tolist(), rng.uniform(0.2, 1.0, hands).tolist())
    return Game.of(weights, compatible, share, 3, BettingTree.build(bet=2, raises=2))


def two_street_game(
    seed: int, deck: int = 7, stacks: tuple[int | None, int | None] = (None, None), *, short: bool = False
) -> Game:
    """Sixth street and the river from a ``deck``-card deck: each player holds one card (any; with ``short``
    player 1 never holds the last one, so the players' hands differ), then is dealt a second from the rest. Two
    hands can meet when they share no card; a river hand's strength is random (equal strengths split the pot).
    Random weights, a bet of 2 and one raise a street into a pot of 3."""
    rng = np.random.default_rng(seed)
    cards = [list(range(deck)), list(range(deck - 1 if short else deck))]
    river = [[(a, b) for a in held for b in range(deck) if b != a] for held in cards]
    parents = (np.array([a for a, _ in river[0]], dtype=np.intp), np.array([a for a, _ in river[1]], dtype=np.intp))
    compatible = np.array([[float(a != b) for b in cards[1]] for a in cards[0]])
    later = np.array([[float(not set(a) & set(b)) for b in river[1]] for a in river[0]])
    strength = [rng.integers(0, 5, len(hands)) for hands in river]
    s0, s1 = strength[0][:, None], strength[1][None, :]
    share = np.where(s0 > s1, 1.0, np.where(s0 == s1, 0.5, 0.0))
    names = (tuple(map(str, cards[0])), tuple(map(str, cards[1])))
    deal = Deal(
        parents,
        DenseShowdown(later, share),
        (tuple(f"{a}{b}" for a, b in river[0]), tuple(f"{a}{b}" for a, b in river[1])),
        outcomes=(deck - 2) * (deck - 3),  # his card from deck - 2, the other's from deck - 3
    )
    weights = (rng.uniform(0.2, 1.0, len(cards[0])), rng.uniform(0.2, 1.0, len(cards[1])))
    tree = BettingTree.build(bet=2, raises=1, stacks=stacks, streets=2)
    return Game(weights, DenseShowdown(compatible, np.full(compatible.shape, 0.5)), 3, tree, names, deal)


def unexploitable(game: Game, value: float, strategy: Strategy, tolerance: float = 1e-7) -> None:
    gap, best0, best1 = exploitability(game, strategy)
    assert gap < tolerance * game.pot
    # Each best response wins no more than the value leaves it (CFR measures its end values in single precision).
    assert best0 == pytest.approx(value, abs=tolerance * game.pot)
    assert best1 == pytest.approx(game.pot - value, abs=tolerance * game.pot)


def test_kuhn_poker_has_its_value_and_player_twos_unique_strategy() -> None:
    game = toys.kuhn()
    answer = solve_lp(game)
    assert answer.value - 1 == pytest.approx(-1 / 18, abs=1e-9)  # the ante of 1 counted as won back
    jack, queen, king = 0, 1, 2
    after_check = answer.strategy[game.tree.node("x").index]
    facing_bet = answer.strategy[game.tree.node("b").index]
    assert after_check[:, 1] == pytest.approx([1 / 3, 0, 1], abs=1e-9)  # bets the jack a third, the king always
    assert facing_bet[:, 1] == pytest.approx([0, 1 / 3, 1], abs=1e-9)  # calls the queen a third
    assert facing_bet[jack, 0] == pytest.approx(1) and after_check[queen, 0] == pytest.approx(1)
    # Player 0's equilibria are a family: the jack bets alpha <= 1/3, the king 3 alpha.
    alpha = answer.strategy[0][jack, 1]
    assert alpha <= 1 / 3 + 1e-9
    assert answer.strategy[0][king, 1] == pytest.approx(3 * alpha, abs=1e-9)
    unexploitable(game, answer.value, answer.strategy)


def test_the_clairvoyance_game() -> None:
    game = toys.clairvoyance(pot=1, bet=1)
    answer = solve_lp(game)
    nuts, air = 0, 1
    assert answer.strategy[game.tree.node("b").index][0] == pytest.approx([0.5, 0.5], abs=1e-9)  # calls half
    assert answer.strategy[0][nuts] == pytest.approx([0, 1], abs=1e-9)
    assert answer.strategy[0][air] == pytest.approx([0.5, 0.5], abs=1e-9)  # bluffs half his air
    # Half the deals the nuts win the pot and half the time the bet; the bluffs and the checked air break even.
    assert answer.value == pytest.approx(0.5 * (1 + 0.5 * 1), abs=1e-9)
    unexploitable(game, answer.value, answer.strategy)


def test_every_node_has_a_behaviour_strategy_for_every_hand() -> None:
    game = random_game(1)
    answer = solve_lp(game)
    decisions = [node for node in game.tree.nodes if node.kind == "decision"]
    assert sorted(answer.strategy) == [node.index for node in decisions]
    for node in decisions:
        assert node.player is not None
        sigma = answer.strategy[node.index]
        assert sigma.shape == (len(game.weights[node.player]), len(node.actions))
        assert np.all(sigma >= 0)
        assert sigma.sum(axis=1) == pytest.approx(np.ones(len(sigma)))


def test_a_hand_never_dealt_plays_uniformly() -> None:
    compatible = np.ones((3, 3))
    compatible[2] = 0  # player 0's hand 2 shares a card with every hand of player 1
    share = np.array([[1, 0, 0.5], [0, 1, 1], [0.5, 0.5, 0.5]])
    game = Game.of(([1, 0, 1], [1, 1, 0]), compatible, share, 2, BettingTree.build(bet=1, raises=1))
    answer = solve_lp(game)
    for node in game.tree.nodes:
        if node.kind == "decision":
            dead = [1, 2] if node.player == 0 else [2]  # weight 0, or no hand to be dealt with
            assert answer.strategy[node.index][dead] == pytest.approx(1 / len(node.actions))
    unexploitable(game, answer.value, answer.strategy)


@pytest.mark.parametrize("seed", [0, 2])
def test_cfr_reaches_the_exact_value_with_card_removal(seed: int) -> None:
    game = random_game(seed)
    assert game.compatible.min() == 0  # some hands share a card
    answer = solve_lp(game)
    unexploitable(game, answer.value, answer.strategy)
    trainer, _ = train(game, target=1e-4)
    assert trainer.exploitability()[0] <= 1e-4 * game.pot
    v0, _ = trainer.values()
    dealt = game.compatible @ game.weights[1]
    value = float(np.nansum(game.weights[0] * v0 * dealt)) / game.deals
    assert value == pytest.approx(answer.value, abs=1e-3 * game.pot)


@pytest.mark.parametrize("short", [False, True])
def test_the_two_street_game_counts_every_deal(short: bool) -> None:
    game = two_street_game(3, short=short)
    assert game.deal is not None
    parents = game.deal.parents
    later = game.deal.showdown.dense()[0]
    # Every pair of cards that can meet is followed by exactly ``outcomes`` pairs of rivers that can, others by none.
    follow = np.zeros(game.compatible.shape)
    np.add.at(follow, (parents[0][:, None], parents[1][None, :]), later)
    assert np.array_equal(follow, game.compatible * game.deal.outcomes)
    # The normaliser, brute force: every pair of rivers that can meet, weighted by the cards they came from.
    w0, w1 = game.weights
    total = sum(
        w0[parents[0][i]] * w1[parents[1][j]]
        for i in range(len(parents[0]))
        for j in range(len(parents[1]))
        if later[i, j]
    )
    assert game.deals == pytest.approx(total, rel=1e-6)  # summed in single precision (DenseShowdown.sums)


def test_cfr_values_a_two_street_strategy_as_every_deal_played_out_does() -> None:
    game = two_street_game(4, stacks=(3, 9), short=True)
    assert game.deal is not None
    rng = np.random.default_rng(4)
    strategy: Strategy = {}
    for node in game.tree.nodes:
        if node.kind == "decision":
            assert node.player is not None
            sigma = rng.uniform(0.0, 1.0, (game.size(node.player, node.street), len(node.actions)))
            strategy[node.index] = sigma / sigma.sum(axis=1, keepdims=True)
    # Every pair of rivers that can meet, each player's hand on each street, the chance of every line for each.
    parents = game.deal.parents
    later, share = game.deal.showdown.dense()
    i, j = np.nonzero(later)
    hands = ((parents[0][i], i), (parents[1][j], j))
    chance = {0: np.ones(len(i))}
    won = np.zeros(len(i))
    for node in game.tree.nodes:
        for a, child in enumerate(node.children):
            if node.player is None:  # a deal
                chance[child] = chance[node.index]
            else:
                chance[child] = chance[node.index] * strategy[node.index][hands[node.player][node.street], a]
        if node.kind == "showdown":
            won += chance[node.index] * (share[i, j] * (game.pot + sum(node.put)) - node.put[0])
        elif node.kind == "fold":
            won += chance[node.index] * (-node.put[0] if node.folder == 0 else game.pot + node.put[1])
    value = float(game.weights[0][hands[0][0]] * game.weights[1][hands[1][0]] @ won) / game.deals
    v0, v1 = hand_values(game, strategy)
    for p, v in enumerate((v0, v1)):
        mine = float(np.nansum(game.weights[p] * v * game.against(p)[1])) / game.deals
        assert mine == pytest.approx(value if p == 0 else game.pot - value, abs=1e-6 * game.pot)


@pytest.mark.parametrize(
    ("seed", "stacks", "short"),
    [(0, (None, None), False), (1, (5, 9), False), (2, (3, 9), True)],
    ids=["deep", "all-in-on-the-river", "all-in-on-sixth-street"],
)
def test_two_streets_solved_exactly_and_cfr_reaches_the_value(
    seed: int, stacks: tuple[int | None, int | None], short: bool
) -> None:
    game = two_street_game(seed, stacks=stacks, short=short)
    assert game.deal is not None
    after = {node.children[0] for node in game.tree.nodes if node.kind == "deal"}
    # With 3 chips player 0 is all-in on sixth street after a bet and a raise: the river is dealt with no betting.
    assert any(game.tree.nodes[i].kind == "showdown" for i in after) == (stacks == (3, 9))
    answer = solve_lp(game)
    decisions = [node for node in game.tree.nodes if node.kind == "decision"]
    assert sorted(answer.strategy) == [node.index for node in decisions]
    assert {node.street for node in decisions} == {0, 1}
    for node in decisions:
        assert node.player is not None
        sigma = answer.strategy[node.index]
        assert sigma.shape == (game.size(node.player, node.street), len(node.actions))
        assert sigma.sum(axis=1) == pytest.approx(np.ones(len(sigma)))
    unexploitable(game, answer.value, answer.strategy, tolerance=1e-6)
    trainer, _ = train(game, target=1e-4)
    assert trainer.exploitability()[0] <= 1e-4 * game.pot
    v0, _ = trainer.values()  # per deal of each card, over the rivers to come
    value = float(np.nansum(game.weights[0] * v0 * game.against(0)[1])) / game.deals
    assert value == pytest.approx(answer.value, abs=2e-3 * game.pot)


def test_a_game_too_big_is_refused() -> None:
    n = 700  # 490,000 pairs of hands by 13 ends
    tree = BettingTree.build(bet=2, raises=2)
    big = Game.of(([1.0] * n, [1.0] * n), np.ones((n, n)), np.full((n, n), 0.5), 3, tree)
    with pytest.raises(SolveError, match="small games"):
        solve_lp(big)


def test_without_scipy_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in sys.modules if name == "scipy" or name.startswith("scipy.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "scipy", None)
    with pytest.raises(SolveError, match=r"the exact check needs scipy: pip install 'scipy>=1.11'"):
        solve_lp(toys.kuhn())
