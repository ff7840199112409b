"""Property tests: card order never matters; the cards played belong to the hand and make its value."""

from hypothesis import given
from hypothesis import strategies as st

from studpoker.cards import CARDS
from studpoker.evaluation import (
    LowCategory,
    evaluate_high,
    evaluate_low8,
    evaluate_razz,
    high_value,
    low8_value,
    razz_value,
)

hands = st.integers(5, 7).flatmap(lambda k: st.permutations(range(52)).map(lambda p: p[:k]))


@given(hands, st.randoms())
def test_card_order_never_matters(hand: list[int], rnd: object) -> None:
    shuffled = list(hand)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert high_value(shuffled) == high_value(hand)
    assert low8_value(shuffled) == low8_value(hand)
    assert razz_value(shuffled) == razz_value(hand)


@given(hands)
def test_played_cards_make_the_value(hand: list[int]) -> None:
    held = {CARDS[c] for c in hand}
    high = evaluate_high(hand)
    assert len(set(high.cards)) == 5 and set(high.cards) <= held
    assert high_value(high.cards) == high.value
    razz = evaluate_razz(hand)
    assert len(set(razz.cards)) == 5 and set(razz.cards) <= held
    assert razz_value(razz.cards) == razz.value
    low = evaluate_low8(hand)
    distinct_low_ranks = {c >> 2 for c in hand if c >> 2 <= 6 or c >> 2 == 12}
    assert (low is not None) == (len(distinct_low_ranks) >= 5)
    if low is not None:
        assert set(low.cards) <= held and low8_value(low.cards) == low.value
        assert low.category is LowCategory.NO_PAIR
        assert low.value == low8_value(hand) and razz_value(low.cards) <= razz.value


@given(hands)
def test_more_cards_never_make_a_worse_hand(hand: list[int]) -> None:
    if len(hand) > 5:
        assert high_value(hand) >= high_value(hand[:-1])
        assert low8_value(hand) >= low8_value(hand[:-1])
        assert razz_value(hand) >= razz_value(hand[:-1])
