"""The sorted sweep's showdown sums (studpoker.solve.sweep) against a brute-force double loop over small ranges
drawn from a short deck, so that shared cards, repeated hands and tied values are frequent."""

from __future__ import annotations

import itertools
import time

import numpy as np
import numpy.typing as npt
import pytest

from studpoker.solve.sweep import CardShowdown

Floats = npt.NDArray[np.float64]
Game = tuple[
    tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]],
    tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]],
    tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]] | None,
]


def random_game(seed: int, k: int, sizes: tuple[int, int], deck: int, with_low: bool) -> Game:
    """Hands of k distinct cards from the first `deck` card indices (spread over 0..51), values with many ties,
    and (with_low) low values that are 0 about half the time."""
    rng = np.random.default_rng(seed)
    cards_of_deck = np.sort(rng.choice(52, deck, replace=False))
    cards = tuple(
        np.array([cards_of_deck[rng.choice(deck, k, replace=False)] for _ in range(n)], np.uint8).reshape(n, k)
        for n in sizes
    )
    high = tuple(rng.integers(0, 6, n).astype(np.int32) for n in sizes)
    low = None
    if with_low:
        low = tuple((rng.integers(1, 5, n) * (rng.random(n) < 0.5)).astype(np.int32) for n in sizes)
    return (cards[0], cards[1]), (high[0], high[1]), None if low is None else (low[0], low[1])


def brute_share(game: Game, player: int, i: int, g: int) -> float:
    """Player `player`'s share of the pot, his hand i against the other's hand g, by the rules."""
    _, high, low = game
    other = 1 - player

    def versus(mine: int, theirs: int) -> float:
        return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0

    h = versus(int(high[player][i]), int(high[other][g]))
    if low is None:
        return h
    low_i, low_g = int(low[player][i]), int(low[other][g])
    if low_i == 0 and low_g == 0:
        return h
    return 0.5 * h + 0.5 * versus(low_i, low_g)


def brute_matrices(game: Game, player: int) -> tuple[Floats, Floats]:
    """(share, compatible), n_player x n_other, by a double loop over card sets."""
    cards = game[0]
    mine, theirs = cards[player], cards[1 - player]
    share = np.zeros((len(mine), len(theirs)))
    compatible = np.zeros((len(mine), len(theirs)))
    for i, g in itertools.product(range(len(mine)), range(len(theirs))):
        if not set(mine[i].tolist()) & set(theirs[g].tolist()):
            compatible[i, g] = 1.0
            share[i, g] = brute_share(game, player, i, g)
    return share, compatible


CASES = [
    (seed, k, sizes, deck, with_low)
    for seed, (k, sizes, deck) in enumerate(
        [(1, (30, 40), 10), (2, (60, 45), 10), (3, (120, 90), 12), (3, (200, 150), 14), (2, (1, 7), 5)]
    )
    for with_low in (False, True)
]


@pytest.mark.parametrize(("seed", "k", "sizes", "deck", "with_low"), CASES)
def test_sums_match_a_brute_force_double_loop(
    seed: int, k: int, sizes: tuple[int, int], deck: int, with_low: bool
) -> None:
    game = random_game(seed, k, sizes, deck, with_low)
    showdown = CardShowdown(*game)
    rng = np.random.default_rng(100 + seed)
    for player in (0, 1):
        share_matrix, compatible_matrix = brute_matrices(game, player)
        for columns, single in ((1, False), (5, True), (5, False)):
            exact = rng.random((sizes[1 - player], columns))
            exact[rng.random(exact.shape) < 0.2] = 0.0
            if single:
                exact = exact.astype(np.float32).astype(np.float64)
            share, compatible = showdown.sums(player, exact.astype(np.float32) if single else exact)
            assert share.dtype == compatible.dtype == np.float64
            assert share.shape == compatible.shape == (sizes[player], columns)
            np.testing.assert_allclose(compatible, compatible_matrix @ exact, rtol=1e-9, atol=1e-9)
            np.testing.assert_allclose(share, share_matrix @ exact, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize(("seed", "k", "sizes", "deck", "with_low"), CASES)
def test_dense_matches_the_brute_force(seed: int, k: int, sizes: tuple[int, int], deck: int, with_low: bool) -> None:
    game = random_game(seed, k, sizes, deck, with_low)
    compatible, share = CardShowdown(*game).dense()
    share_matrix, compatible_matrix = brute_matrices(game, 0)
    np.testing.assert_array_equal(compatible, compatible_matrix)
    np.testing.assert_array_equal(share, share_matrix)
    # Player 1's matrix is the complement on the compatible pairs (the pot is split, never lost).
    share_1, compatible_1 = brute_matrices(game, 1)
    np.testing.assert_array_equal(compatible_1, compatible.T)
    np.testing.assert_array_equal(share_1, (compatible - share).T)


def test_identical_and_overlapping_hands_and_values_outside_the_others_range() -> None:
    cards = (np.array([[0, 1], [1, 0], [2, 3], [4, 5]], np.uint8), np.array([[0, 1], [0, 1], [1, 2], [6, 7]], np.uint8))
    high = (np.array([-5, 10, 100, 3], np.int32), np.array([3, 3, 3, 3], np.int32))
    showdown = CardShowdown(cards, high)
    share, compatible = showdown.sums(0, np.ones((4, 1), np.float32))
    assert compatible[:, 0].tolist() == [1.0, 1.0, 3.0, 4.0]
    assert share[:, 0].tolist() == [0.0, 1.0, 3.0, 2.0]
    share, compatible = showdown.sums(1, np.ones((4, 1)))
    assert compatible[:, 0].tolist() == [2.0, 2.0, 1.0, 4.0]
    assert share[:, 0].tolist() == [0.5, 0.5, 0.5, 1.5]


def test_bad_arguments_are_refused() -> None:
    cards = (np.array([[0, 1]], np.uint8), np.array([[2, 3]], np.uint8))
    high = (np.array([1], np.int32), np.array([2], np.int32))
    with pytest.raises(ValueError, match="same number"):
        CardShowdown((cards[0], np.array([[2]], np.uint8)), high)
    with pytest.raises(ValueError, match="distinct"):
        CardShowdown((np.array([[4, 4]], np.uint8), cards[1]), high)
    with pytest.raises(ValueError, match="0 to 51"):
        CardShowdown((np.array([[4, 52]], np.uint8), cards[1]), high)
    with pytest.raises(ValueError, match="one value per hand"):
        CardShowdown(cards, (np.array([1, 2], np.int32), high[1]))
    showdown = CardShowdown(cards, high)
    with pytest.raises(ValueError, match="reach"):
        showdown.sums(0, np.ones((2, 1)))
    with pytest.raises(ValueError, match="player"):
        showdown.sums(2, np.ones((1, 1)))


def three_card_showdown(with_low: bool) -> tuple[CardShowdown, int]:
    """Every 3-card set of 41 cards (10,660 hands) a side, random values: a large stud river."""
    hands = np.array(list(itertools.combinations(range(41), 3)), np.uint8)
    rng = np.random.default_rng(7)
    high = (rng.integers(0, 3000, len(hands)).astype(np.int32), rng.integers(0, 3000, len(hands)).astype(np.int32))
    low = None
    if with_low:
        low = tuple((rng.integers(1, 60, len(hands)) * (rng.random(len(hands)) < 0.4)).astype(np.int32) for _ in "ab")
    return CardShowdown((hands, hands.copy()), high, None if low is None else (low[0], low[1])), len(hands)


@pytest.mark.parametrize("with_low", [False, True])
def test_a_call_on_ten_thousand_three_card_hands_is_timed(with_low: bool) -> None:
    started = time.perf_counter()
    showdown, n = three_card_showdown(with_low)
    built = time.perf_counter() - started
    reach = np.random.default_rng(8).random((n, 17)).astype(np.float32)
    showdown.sums(0, reach)  # warm up
    started = time.perf_counter()
    share, compatible = showdown.sums(0, reach)
    called = time.perf_counter() - started
    print(f"\n{n} x {n} three-card hands, K = 17, low={with_low}: built in {built:.3f} s, one call {called:.4f} s")
    # A spot check of a few hands against the direct sum.
    cards = showdown.cards
    for i in (0, 1234, n - 1):
        disjoint = ~np.isin(cards[1], cards[0][i]).any(axis=1)
        np.testing.assert_allclose(compatible[i], reach[disjoint].astype(np.float64).sum(axis=0), rtol=1e-9)
        assert (share[i] <= compatible[i] + 1e-9).all()
