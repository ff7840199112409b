"""Differential tests against independent evaluators (test-only dependencies).

* phevaluator (C): high hands, one million random 7-card hands and 200,000 each of 5 and 6 cards.
* PokerKit: eight-or-better (``EightOrBetterLowHand``) and razz (``RegularLowHand``) lows.

"Identical ordering" is checked strictly: our value and the peer's rank must be
related by a strictly monotone one-to-one map on the hands seen.
"""

import itertools

import numpy as np
import numpy.typing as npt
import pytest

from studpoker.cards import CARDS
from studpoker.evaluation import high_batch, low8_batch, razz_batch

pheval = pytest.importorskip("phevaluator._pheval", reason="phevaluator is in the [test] extra")
pokerkit = pytest.importorskip("pokerkit", reason="pokerkit is in the [test] extra")


def random_hands(n: int, k: int, seed: int) -> npt.NDArray[np.uint8]:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


def assert_same_order(ours: npt.NDArray[np.int64], theirs: npt.NDArray[np.int64]) -> None:
    """Both arrays rank the hands identically (ties included); larger is better in both."""
    pairs = np.unique(np.stack([ours, theirs], axis=1), axis=0)  # sorted by ours, then theirs
    assert len(np.unique(pairs[:, 0])) == len(pairs), "one of our values maps to several of theirs"
    assert len(np.unique(pairs[:, 1])) == len(pairs), "one of their values maps to several of ours"
    assert (np.diff(pairs[:, 1]) > 0).all(), "the orders differ"


@pytest.mark.parametrize(
    ("k", "n"),
    [
        pytest.param(7, 1_000_000, marks=pytest.mark.slow),
        pytest.param(6, 200_000, marks=pytest.mark.slow),
        (5, 200_000),
    ],
)
def test_high_matches_phevaluator(k: int, n: int) -> None:
    hands = random_hands(n, k, seed=k)
    evaluate = {5: pheval.evaluate_5cards, 6: pheval.evaluate_6cards, 7: pheval.evaluate_7cards}[k]
    # phevaluator uses the same 4 * rank + suit card ids; its rank 1 is the best hand.
    theirs = -np.fromiter(itertools.starmap(evaluate, hands.tolist()), dtype=np.int64, count=n)
    ours = high_batch(hands).astype(np.int64)
    assert_same_order(ours, theirs)
    assert (ours == 7463 + theirs).all()  # the same 7,462 classes, numbered from the other end


def _pokerkit_ranks(hands: npt.NDArray[np.uint8], cls: type) -> npt.NDArray[np.int64]:
    """Rank PokerKit hand objects: 0 = no hand (no qualifying low), else 1.. by strength."""
    objects = [cls.from_game_or_none("".join(str(CARDS[c]) for c in row)) for row in hands.tolist()]
    distinct = sorted({o for o in objects if o is not None})
    rank = {o: i + 1 for i, o in enumerate(distinct)}
    return np.array([0 if o is None else rank[o] for o in objects], dtype=np.int64)


@pytest.mark.parametrize("k", [5, 6, pytest.param(7, marks=pytest.mark.slow)])
def test_low8_matches_pokerkit(k: int) -> None:
    hands = random_hands(8_000, k, seed=100 + k)
    # Enrich with low cards so that most hands have a qualifying low.
    low_deck = np.array([c for c in range(52) if c >> 2 <= 6 or c >> 2 == 12], dtype=np.uint8)
    rng = np.random.default_rng(k)
    lowish = np.array([rng.choice(low_deck, k, replace=False) for _ in range(4_000)], dtype=np.uint8)
    hands = np.vstack([hands, lowish])
    assert_same_order(low8_batch(hands).astype(np.int64), _pokerkit_ranks(hands, pokerkit.EightOrBetterLowHand))


@pytest.mark.parametrize("k", [5, pytest.param(7, marks=pytest.mark.slow)])
def test_razz_matches_pokerkit(k: int) -> None:
    hands = random_hands(10_000, k, seed=200 + k)
    assert_same_order(razz_batch(hands).astype(np.int64), _pokerkit_ranks(hands, pokerkit.RegularLowHand))
