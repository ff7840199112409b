"""High hands: values, categories, descriptions, the cards played, errors."""

import pytest

from studpoker import CardError
from studpoker.cards import format_cards, parse_cards
from studpoker.evaluation import HandCategory, HighHand, evaluate_high, high_category, high_value


@pytest.mark.parametrize(
    ("cards", "category", "description", "played"),
    [
        ("Ah Kh Qh Jh Th 9h 8h", HandCategory.STRAIGHT_FLUSH, "Royal flush", "Ah Kh Qh Jh Th"),
        ("9c 8c 7c 6c 5c 5d 5h", HandCategory.STRAIGHT_FLUSH, "Straight flush, nine high", "9c 8c 7c 6c 5c"),
        ("Ad 2d 3d 4d 5d Kd Qd", HandCategory.STRAIGHT_FLUSH, "Straight flush, five high", "5d 4d 3d 2d Ad"),
        ("Kc Kd Kh Ks 2c 2d 2h", HandCategory.FOUR_OF_A_KIND, "Four of a kind, kings", "Ks Kh Kd Kc 2h"),
        ("Kh Kd Ks 7c 7d 7h 2c", HandCategory.FULL_HOUSE, "Full house, kings full of sevens", "Ks Kh Kd 7h 7d"),
        ("Ah 9h 7h 4h 2h Kd Ks", HandCategory.FLUSH, "Flush, ace high", "Ah 9h 7h 4h 2h"),
        ("Qh Th 9h 8h 7h 6h 2s", HandCategory.STRAIGHT_FLUSH, "Straight flush, ten high", "Th 9h 8h 7h 6h"),
        ("Qh Js 9h 8h 7h 6h 2h", HandCategory.FLUSH, "Flush, queen high", "Qh 9h 8h 7h 6h"),
        ("As 2d 3c 4h 5s Kd Kc", HandCategory.STRAIGHT, "Straight, five high", "5s 4h 3c 2d As"),
        ("As Kd Qc Jh Ts 9s 8s", HandCategory.STRAIGHT, "Straight, ace high", "As Kd Qc Jh Ts"),
        ("7s 7d 7c Ah Ks 2d 3c", HandCategory.THREE_OF_A_KIND, "Three of a kind, sevens", "7s 7d 7c Ah Ks"),
        ("As Ad 7c 7h 2s Kd 9c", HandCategory.TWO_PAIR, "Two pair, aces and sevens", "As Ad 7h 7c Kd"),
        ("As Ad 7c 7h 2s 2d 9c", HandCategory.TWO_PAIR, "Two pair, aces and sevens", "As Ad 7h 7c 9c"),
        ("Qs Qd 9c 7h 4s 3d 2c", HandCategory.ONE_PAIR, "Pair of queens", "Qs Qd 9c 7h 4s"),
        ("Ks Jd 9c 7h 4s 3d 2c", HandCategory.HIGH_CARD, "High card, king", "Ks Jd 9c 7h 4s"),
        ("6s 6d 6c 6h Ts", HandCategory.FOUR_OF_A_KIND, "Four of a kind, sixes", "6s 6h 6d 6c Ts"),
        ("6s 6d 6c 5h 5s 5d", HandCategory.FULL_HOUSE, "Full house, sixes full of fives", "6s 6d 6c 5s 5h"),
    ],
)
def test_known_hands(cards: str, category: HandCategory, description: str, played: str) -> None:
    hand = evaluate_high(cards)
    assert hand.category is category
    assert hand.description == description == str(hand)
    assert format_cards(hand.cards) == played
    assert hand.value == high_value(cards)
    assert high_category(hand.value) is category


def test_ordering_across_and_within_categories() -> None:
    ladder = [
        "7s 5d 4c 3h 2s",
        "As Kd Qc Jh 9s",
        "2s 2d 3c 4h 5s",
        "As Ad Kc Qh Js",
        "3s 3d 2c 2h 4s",
        "As Ad Kc Kh Qs",
        "2s 2d 2c 3h 4s",
        "As 2d 3c 4h 5s",
        "6s 5d 4c 3h 2s",
        "Ts Jd Qc Kh As",
        "2s 3s 4s 5s 7s",
        "2s 2d 2c 3h 3s",
        "2s 2d 2c 2h 3s",
        "As 2s 3s 4s 5s",
        "Ts Js Qs Ks As",
    ]
    values = [high_value(h) for h in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert values[0] == 1 and values[-1] == 7462


def test_suits_never_break_a_tie() -> None:
    # SPEC D1.2 / TC-36: both A-K-Q-J-9.
    a = evaluate_high("As Ks Qd Jc 9h 3c 2d")
    b = evaluate_high("Ah Kh Qc Jd 9s 4c 2h")
    assert a == b and not a < b and not a > b and hash(a) == hash(b)
    assert a.cards != b.cards


def test_comparisons_with_other_types() -> None:
    hand = evaluate_high("As Ks Qd Jc 9h")
    assert hand != 5
    with pytest.raises(TypeError):
        _ = hand < 5  # type: ignore[operator]
    assert isinstance(hand, HighHand) and "HighHand('High card, ace'" in repr(hand)


def test_accepts_cards_text_and_indices() -> None:
    text = "As Ad 7c 7h 2s Kd 9c"
    cards = parse_cards(text)
    indices = [c.index for c in cards]
    assert high_value(text) == high_value(cards) == high_value(indices) == high_value(list(reversed(indices)))


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("As Ad 7c 7h", "expected 5 or 6 or 7 cards, got 4"),
        ("As Ad 7c 7h 2s Kd 9c 3c", "expected 5 or 6 or 7 cards, got 8"),
        ("As Ad 7c 7h As", "duplicate card As"),
        ("As Ad 7c 7h 1s", "'1s' is not a card"),
        ([51, 50, 49, 48, 52], "card index 52"),
    ],
)
def test_bad_input(cards: object, message: str) -> None:
    with pytest.raises(CardError, match=message):
        high_value(cards)  # type: ignore[arg-type]
    with pytest.raises(CardError, match=message):
        evaluate_high(cards)  # type: ignore[arg-type]


def test_high_category_range() -> None:
    assert high_category(1) is HandCategory.HIGH_CARD
    assert high_category(7462) is HandCategory.STRAIGHT_FLUSH
    for bad in (0, 7463):
        with pytest.raises(ValueError, match="not a high-hand value"):
            high_category(bad)
