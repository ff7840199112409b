"""Eight-or-better and razz lows (SPEC R10.2, R12a.1, TC-28, TC-31, TC-37)."""

import pytest

from studpoker import CardError
from studpoker.cards import format_cards
from studpoker.evaluation import (
    LowCategory,
    evaluate_high,
    evaluate_low8,
    evaluate_razz,
    low8_value,
    razz_value,
)


def test_tc37_low_ordering() -> None:
    # 8-6-5-4-3 beats 8-7-3-2-A; a straight (even suited) 7-6-5-4-3 beats 8-4-3-2-A;
    # 5-4-3-2-A beats 6-4-3-2-A; 8-5-4-3-A beats 8-5-4-3-2.
    pairs = [
        ("8c 6d 5h 4s 3c", "8c 7d 3h 2s Ac"),
        ("7h 6h 5h 4h 3h", "8c 4d 3h 2s Ac"),
        ("5c 4d 3h 2s Ac", "6c 4d 3h 2s Ac"),
        ("8c 5d 4h 3s Ac", "8c 5d 4h 3s 2c"),
    ]
    for better, worse in pairs:
        assert low8_value(better) > low8_value(worse) > 0
        assert razz_value(better) > razz_value(worse)
    # 9-5-4-3-2 and any hand with fewer than five different ranks 8 or lower do not qualify.
    for hand in ("9c 5d 4h 3s 2c", "8c 8d 4h 3s 2c", "Ac Ad 2c 3c 4c Kd Qd"):
        assert low8_value(hand) == 0
        assert evaluate_low8(hand) is None


def test_tc28_split_hands() -> None:
    assert evaluate_low8("Ks Kd 9c 9h 4s 2d Jc") is None
    low = evaluate_low8("Ah 2c 3d 6s 7h Qd Qh")
    assert low is not None
    assert low.description == "7-6-3-2-A low"
    assert format_cards(low.cards) == "7h 6s 3d 2c Ah"
    assert evaluate_low8("8d 5c 4h 3s Jd Jh Td") is None


def test_tc31_nine_low_does_not_qualify() -> None:
    assert evaluate_low8("9c 6d 5h 3c 2s Qs Js") is None


def test_wheel_is_best_and_ace_is_low() -> None:
    assert low8_value("Ac 2d 3h 4s 5c Kd Kh") == 56
    assert razz_value("Ac 2d 3h 4s 5c") == 6175
    assert low8_value("8c 7d 6h 5s 4c") == 1
    assert razz_value("Kc Kd Kh Ks Qc") == 1
    # The same five cards are also a straight flush for high: lows ignore that.
    assert evaluate_high("Ac 2c 3c 4c 5c").description == "Straight flush, five high"


def test_low8_chooses_the_best_five_of_seven() -> None:
    low = evaluate_low8("8s 7d 6c 5h 4s 3c 2d")
    assert low is not None and low.description == "6-5-4-3-2 low"
    low = evaluate_low8("Ac Ad 2c 2d 3c 3d 8h")
    assert low is None  # only four different ranks


@pytest.mark.parametrize(
    ("cards", "description", "category"),
    [
        ("Ks Qd Jc Th 9s", "K-Q-J-T-9 low", LowCategory.NO_PAIR),
        ("As Ad 2c 3h 4s", "Pair of aces, 4-3-2-A-A", LowCategory.ONE_PAIR),
        ("Ks Kd Qc Qh 2s 2d 3c", "Pair of twos, K-Q-3-2-2", LowCategory.ONE_PAIR),
        ("Ks Kd Qc Qh 2s 2d Kc", "Two pair, queens and twos, K-Q-Q-2-2", LowCategory.TWO_PAIR),
        ("Ks Kd Kc Kh 2s 2d 2c", "Full house, twos full of kings, K-K-2-2-2", LowCategory.FULL_HOUSE),
    ],
)
def test_razz_descriptions(cards: str, description: str, category: LowCategory) -> None:
    hand = evaluate_razz(cards)
    assert hand.description == description
    assert hand.category is category


def test_razz_pairs_count_against_the_hand() -> None:
    # R12a.1: any unpaired hand beats any paired hand; among pairs the lower pair wins, then kickers.
    assert razz_value("Ks Qd Jc Th 9s") > razz_value("As Ad 2c 3h 4s")
    assert razz_value("As Ad Kc Qh Js") > razz_value("2s 2d 3c 4h 5s")
    assert razz_value("2s 2d 8c 4h 3s") > razz_value("2s 2d 9c 4h 3s")
    assert razz_value("As Ad Kc Kh 2s") < razz_value("As Ad 2c 3h Ks")
    # Two pair beats trips in lowball.
    assert razz_value("Qs Qd Jc Jh Ks") > razz_value("As Ad Ac 2h 3s")


def test_low_hands_compare_only_within_their_game() -> None:
    a = evaluate_low8("Ac 2d 3h 4s 5c")
    b = evaluate_razz("Ac 2d 3h 4s 5c")
    assert a is not None
    assert a != b
    with pytest.raises(TypeError):
        _ = a < b
    assert a == evaluate_low8("As 2s 3s 4s 5s Ks Kd")
    assert "LowHand('low8', '5-4-3-2-A low'" in repr(a)


def test_bad_input() -> None:
    for fn in (low8_value, razz_value, evaluate_low8, evaluate_razz):
        with pytest.raises(CardError, match="got 4"):
            fn("As 2d 3c 4h")
        with pytest.raises(CardError, match="duplicate card 2d"):
            fn("As 2d 3c 4h 2d")
