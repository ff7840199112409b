"""The deck: dealing, seeded and CSPRNG shuffles, and a statistical check that shuffles are uniform."""

import math
import random
import secrets

import pytest

from studpoker import cards as cards_module
from studpoker.cards import CARDS, CardError, Deck, parse_cards


def test_new_deck_is_ordered_and_complete() -> None:
    deck = Deck()
    assert len(deck) == 52
    assert deck.cards == CARDS
    assert len(set(deck)) == 52


def test_deal_draw_remove() -> None:
    deck = Deck()
    assert deck.deal(2) == list(CARDS[:2])
    assert deck.draw() == CARDS[2]
    assert len(deck) == 49
    deck.remove(parse_cards("As Kd"))
    assert len(deck) == 47 and CARDS[51] not in deck
    with pytest.raises(CardError, match="As is not in the deck"):
        deck.remove(parse_cards("As"))
    with pytest.raises(CardError, match="cannot deal 48 cards from a deck of 47"):
        deck.deal(48)
    with pytest.raises(CardError, match="cannot deal -1"):
        deck.deal(-1)
    assert len(deck) == 47  # failed calls changed nothing
    with pytest.raises(CardError, match="same card twice"):
        Deck(parse_cards("As As"))


def test_seeded_shuffle_is_reproducible() -> None:
    assert Deck.shuffled(seed=42).cards == Deck.shuffled(seed=42).cards
    assert Deck.shuffled(seed=42).cards != Deck.shuffled(seed=43).cards
    assert sorted(Deck.shuffled(seed=42).cards) == list(CARDS)


def test_unseeded_shuffle_uses_the_csprng(monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[int] = []

    class Spy(secrets.SystemRandom):
        def getrandbits(self, k: int) -> int:
            used.append(k)
            return super().getrandbits(k)

    monkeypatch.setattr(secrets, "SystemRandom", Spy)
    monkeypatch.setattr(cards_module, "_SYSTEM_RANDOM", None)
    deck = Deck.shuffled()
    assert used and used[0] == math.factorial(52).bit_length()  # one draw below 52! (maybe redrawn)
    assert sorted(deck.cards) == list(CARDS)


def test_seeds_of_any_size() -> None:
    assert sorted(Deck.shuffled(seed=-5).cards) == list(CARDS)
    assert Deck.shuffled(seed=2**200).cards != Deck.shuffled(seed=2**200 + 1).cards
    with pytest.raises(TypeError, match="seed must be an int"):
        Deck.shuffled(seed="7")  # type: ignore[arg-type]


def test_long_lists_shuffle_too() -> None:
    items = list(range(200))
    cards_module.shuffle_in_place(items, seed=3)
    assert sorted(items) == list(range(200)) and items != list(range(200))


def _chi2_critical(dof: int, z: float = 4.753) -> float:
    """Upper critical value of chi-square (Wilson-Hilferty); z = 4.753 is p = 1e-6."""
    h = 2 / (9 * dof)
    return dof * (1 - h + z * math.sqrt(h)) ** 3


def _position_chi2(shuffles: int, seed_of: "object") -> tuple[float, float]:
    """Chi-square of card-by-position counts and of (first card, second card) pair counts."""
    counts = [[0] * 52 for _ in range(52)]
    pairs: dict[tuple[int, int], int] = {}
    for i in range(shuffles):
        deck = Deck.shuffled(seed=seed_of(i))  # type: ignore[operator]
        for pos, card in enumerate(deck.cards):
            counts[card.index][pos] += 1
        key = (deck.cards[0].index, deck.cards[1].index)
        pairs[key] = pairs.get(key, 0) + 1
    expected = shuffles / 52
    chi_pos = sum((c - expected) ** 2 / expected for row in counts for c in row)
    expected_pair = shuffles / (52 * 51)
    observed = [pairs.get((a, b), 0) for a in range(52) for b in range(52) if a != b]
    chi_pair = sum((c - expected_pair) ** 2 / expected_pair for c in observed)
    return chi_pos, chi_pair


@pytest.mark.parametrize("path", ["seeded", "csprng"])
def test_shuffle_is_uniform(path: str) -> None:
    # Each of the 52 cards must land in each of the 52 positions equally often: the
    # 52 x 52 table has (52 - 1) ** 2 degrees of freedom. The first two cards must
    # also form each of the 52 * 51 ordered pairs equally often.
    shuffles = 26_000
    rng = random.Random(2026)
    seed_of = (lambda i: rng.getrandbits(64)) if path == "seeded" else (lambda i: None)
    chi_pos, chi_pair = _position_chi2(shuffles, seed_of)
    assert chi_pos < _chi2_critical(51 * 51), chi_pos
    assert chi_pair < _chi2_critical(52 * 51 - 1), chi_pair
    # And not suspiciously perfect either (a non-random rotation would give ~0).
    assert chi_pos > 0.5 * 51 * 51


def test_the_chi_square_check_catches_a_biased_shuffle(monkeypatch: pytest.MonkeyPatch) -> None:
    # The statistic must be able to fail: a shuffle that leaves the last card in place is rejected.
    original = cards_module.shuffle_in_place

    def biased(items: list, seed: int | None = None) -> None:  # type: ignore[type-arg]
        rest = items[:-1]
        original(rest, seed)
        items[:-1] = rest

    monkeypatch.setattr(cards_module, "shuffle_in_place", biased)
    rng = random.Random(1)
    chi_pos, _ = _position_chi2(5_000, lambda i: rng.getrandbits(64))
    assert chi_pos > _chi2_critical(51 * 51)
