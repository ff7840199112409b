"""The equity question itself: Spot.parse, what it knows (pool, needs, outcomes), and every error it and
equity() raise, each an EquityError whose message names the problem."""

from __future__ import annotations

import re
from math import comb
from typing import Any

import pytest

from studpoker.cards import Card, parse_cards
from studpoker.engine import Variant
from studpoker.equity import EquityError, Spot, equity
from tests.equity.reference import deals

# --- what a spot knows -----------------------------------------------------------------------------------------


def test_parse_names_and_variants() -> None:
    """Spot.parse takes the game by any name Variant.parse knows, and the Variant itself."""
    for name, variant in Variant.spellings().items():
        assert Spot.parse(name, ["As", "Kd"]).variant is variant
        assert Spot.parse(variant, ["As", "Kd"]).variant is variant
        assert Spot.parse(variant.value, ["As", "Kd"]).variant is variant
        assert Spot.parse(variant.value.lower(), ["As", "Kd"]).variant is variant
    with pytest.raises(EquityError, match="unknown game 'holdem': use 7stud, 7stud8, 5stud or razz"):
        Spot.parse("holdem", ["As", "Kd"])


def test_parse_accepts_text_cards_and_card_objects() -> None:
    text = Spot.parse("7stud", ["As Ad 7c", "Kh Qh Jh"], dead="2c 2d")
    objects = Spot.parse("7stud", [parse_cards("As Ad 7c"), ["Kh", "Qh", Card.parse("Jh")]], dead=["2c", "2d"])
    assert text == objects
    assert text.hands == (parse_cards("As Ad 7c"), parse_cards("Kh Qh Jh"))
    assert text.dead == parse_cards("2c 2d")
    assert Spot.parse("razz", ["", "  "]).hands == ((), ())


def test_pool_needs_outcomes() -> None:
    spot = Spot.parse("7stud", ["As Ad 7c", "Kh Qh Jh"], dead="2c 2d")
    assert spot.n == 2
    assert spot.needs == (4, 4)
    known = {c.index for c in parse_cards("As Ad 7c Kh Qh Jh 2c 2d")}
    assert spot.pool == tuple(i for i in range(52) if i not in known)
    assert spot.outcomes == comb(44, 4) * comb(40, 4)
    five = Spot.parse("5stud", ["As Kd 3c 4c 5c", "Qs", ""])
    assert five.needs == (0, 4, 5)
    assert five.outcomes == comb(46, 4) * comb(42, 5)
    assert Spot.parse("7stud8", ["As Kd 3c 4c 5c 6c 7c", "Qs Qd 2c 2d 8h 8s 9s"]).outcomes == 1


@pytest.mark.parametrize(
    ("variant", "hands", "dead"),
    [
        ("7stud", ["As Ad 7c 7h 2s Kd", "Kh Qh Jh Th 9c 2d"], "3c"),
        ("razz", ["As 2d 3c 4h 6s", "Ac 2c 3d 4d Qs Qd"], ""),
        ("7stud8", ["As 2d 3c 4h 6s Kd", "Ac 2c 3d 4d Qs Qd", "5h 6h 7h 8h 9h Th 2h"], "Js Jd"),
        pytest.param("5stud", ["As Ks Qs", "Ah Ad 2c 3c 4d", "7d 7s 8d"], "9c 9d", marks=pytest.mark.slow),
    ],
)
def test_outcomes_counts_every_disjoint_deal(variant: str, hands: list[str], dead: str) -> None:
    spot = Spot.parse(variant, hands, dead)
    every = list(deals(spot.pool, spot.needs))
    assert len(every) == spot.outcomes
    assert len(set(every)) == len(every)
    for deal in every:
        cards = [c for part in deal for c in part]
        assert len(set(cards)) == len(cards)
        assert set(cards) <= set(spot.pool)
        assert [len(part) for part in deal] == list(spot.needs)


# --- errors ------------------------------------------------------------------------------------------------------


def raises(match: str, variant: str | Variant, hands: list[Any], dead: Any = ()) -> str:
    with pytest.raises(EquityError, match=match) as info:
        Spot.parse(variant, hands, dead)
    return str(info.value)


def test_equity_error_is_a_value_error() -> None:
    assert issubclass(EquityError, ValueError)


def test_duplicate_card_across_hands() -> None:
    message = raises("As is in hand 1 and in hand 3", "7stud", ["As Kd", "Qc", "Jd As"])
    assert "one place only" in message


def test_duplicate_card_within_a_hand() -> None:
    raises("Kd is named twice in hand 2", "razz", ["As", "Kd 2c Kd"])


def test_duplicate_card_between_hand_and_dead() -> None:
    raises("7c is in hand 2 and in the dead cards", "7stud8", ["As Kd", "Qc 7c"], dead="2d 7c")


def test_duplicate_dead_card() -> None:
    raises("2d is named twice in the dead cards", "5stud", ["As Kd", "Qc 7c"], dead="2d 3d 2d")


def test_duplicate_found_through_card_objects() -> None:
    raises("Qh is in hand 1 and in hand 2", "7stud", [[Card.parse("Qh")], ["Qh"]])


@pytest.mark.parametrize(
    ("variant", "size", "name"),
    [
        ("7stud", 7, "seven-card stud"),
        ("7stud8", 7, "seven-card stud hi/lo"),
        ("razz", 7, "razz"),
        ("5stud", 5, "five-card stud"),
    ],
)
def test_too_many_cards_for_the_variant(variant: str, size: int, name: str) -> None:
    deck = [Card.from_index(i) for i in range(52)]
    fine = Spot.parse(variant, [deck[:size], deck[size : size + 1]])
    assert fine.needs == (0, size - 1)
    message = raises(f"hand 2 has {size + 1} cards", variant, [deck[:1], deck[10 : 11 + size]])
    assert f"a {name} hand has {size}" in message


def test_too_many_players() -> None:
    for variant in ("7stud", "7stud8", "razz"):
        Spot.parse(variant, [""] * 7)  # 7 players need 49 cards: fine
        raises("at most 8 players, got 9 hands", variant, [""] * 9)
    Spot.parse("5stud", [""] * 10)  # 10 players need 50 cards: fine
    raises("Five-card stud is played by at most 10 players, got 11 hands", "5stud", [""] * 11)


@pytest.mark.parametrize("hands", [[], ["As Kd"]])
def test_fewer_than_two_hands(hands: list[str]) -> None:
    raises(f"equity needs at least two hands, got {len(hands)}", "7stud", hands)


def raises_without_community(match: str, variant: str, hands: list[Any], dead: Any = ()) -> str:
    """As :func:`raises`, with everyone getting his own last card (no community card: see test_community.py)."""
    with pytest.raises(EquityError, match=match) as info:
        Spot.parse(variant, hands, dead, community=False)
    return str(info.value)


def test_too_many_players_for_the_deck() -> None:
    message = raises_without_community("the players still need 56 cards and only 52 are left", "7stud", [""] * 8)
    assert "too many players or dead cards" in message
    # Known up cards do not help: every player still gets seven cards in all.
    hands = ["As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "7s"]
    raises_without_community("need 48 cards and only 44 are left", "razz", hands)
    # Dead cards count against the deck too.
    Spot.parse("5stud", [""] * 10, dead="2c 2d")
    raises_without_community("need 50 cards and only 49 are left", "5stud", [""] * 10, dead="2c 2d 2h")


@pytest.mark.parametrize(
    ("hands", "dead", "where", "bad"),
    [
        (["As Xx", "Kd"], "", "hand 1", "Xx"),
        (["As", "Kd 1s"], "", "hand 2", "1s"),
        (["As", "Kd"], "2c 2", "the dead cards", "2"),
        ([["As", "Zz"], "Kd"], "", "hand 1", "Zz"),
        (["As", "Kd"], ["2c", "??"], "the dead cards", "??"),
    ],
)
def test_bad_card_text(hands: list[Any], dead: Any, where: str, bad: str) -> None:
    message = raises(f"^{where}: ", "7stud", hands, dead)
    assert repr(bad) in message
    assert "is not a card" in message


def test_a_list_of_cards_with_two_cards_in_one_item_is_an_error() -> None:
    # A hand given as a list of cards must have one card per item: 'Kd Qd' as one item is not silently one card.
    with pytest.raises(EquityError, match="hand 1"):
        Spot.parse("7stud", [["As", "Kd Qd"], "2d"])


def test_unknown_game() -> None:
    message = raises("unknown game 'holdem'", "holdem", ["As", "Kd"])
    assert "7stud, 7stud8, 5stud or razz" in message


# --- equity() argument errors ----------------------------------------------------------------------------------------


def test_equity_spot_errors_come_through() -> None:
    with pytest.raises(EquityError, match="As is in hand 1 and in hand 2"):
        equity(["As Kd", "As Qd"])
    with pytest.raises(EquityError, match="unknown game"):
        equity(["As Kd", "Qs Qd"], variant="omaha")
    with pytest.raises(EquityError, match="Kd is in hand 1 and in the dead cards"):
        equity(["As Kd", "Qs Qd"], variant="razz", dead="Kd")


@pytest.mark.parametrize("method", ["fast", "Exact", "", "monte-carlo"])
def test_bad_method(method: str) -> None:
    with pytest.raises(EquityError, match=re.escape(f"unknown method {method!r}: use auto, exact or montecarlo")):
        equity(["As Kd Qc Jd Tc 9d", "2s 3s 4c 5d 6c 7d"], method=method)


@pytest.mark.parametrize("trials", [0, -5, 1.5, 1000.0, "1000", True])
def test_bad_trials(trials: Any) -> None:
    message = f"trials must be a whole number from 1 to 1,000,000,000,000, got {trials!r}"
    with pytest.raises(EquityError, match=re.escape(message)):
        equity(["As Kd Qc Jd Tc 9d", "2s 3s 4c 5d 6c 7d"], method="montecarlo", trials=trials)


@pytest.mark.parametrize("workers", [0, -1, 2.0, "2", False])
def test_bad_workers(workers: Any) -> None:
    message = f"workers must be a positive whole number or None (auto), got {workers!r}"
    with pytest.raises(EquityError, match=re.escape(message)):
        equity(["As Kd Qc Jd Tc 9d", "2s 3s 4c 5d 6c 7d"], workers=workers)
