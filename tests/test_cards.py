"""Cards, ranks, suits, parsing and formatting."""

import pytest

from studpoker.cards import (
    CARDS,
    Card,
    CardError,
    Rank,
    Suit,
    card_indices,
    format_cards,
    parse_card,
    parse_cards,
)


def test_index_encoding_is_four_times_rank_plus_suit() -> None:
    for i, card in enumerate(CARDS):
        assert card.index == i == 4 * card.rank + card.suit
        assert Card.from_index(i) is card
        assert Card(card.rank, card.suit) == card
    assert str(CARDS[0]) == "2c" and str(CARDS[51]) == "As"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As", Card(Rank.ACE, Suit.SPADES)),
        ("td", Card(Rank.TEN, Suit.DIAMONDS)),
        ("Td", Card(Rank.TEN, Suit.DIAMONDS)),
        ("10h", Card(Rank.TEN, Suit.HEARTS)),
        ("A♠", Card(Rank.ACE, Suit.SPADES)),
        ("2♣", Card(Rank.TWO, Suit.CLUBS)),
        ("q♥", Card(Rank.QUEEN, Suit.HEARTS)),
        ("KD", Card(Rank.KING, Suit.DIAMONDS)),
        (" 7c ", Card(Rank.SEVEN, Suit.CLUBS)),
    ],
)
def test_parse_accepts_every_spelling(text: str, expected: Card) -> None:
    assert parse_card(text) == expected
    assert Card.parse(text) == expected


@pytest.mark.parametrize("text", ["", "A", "Ax", "1s", "11h", "AsK", "Zs", "10", "s A", "♠A"])
def test_parse_rejects_bad_text_and_names_it(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_parse_rejects_non_strings() -> None:
    with pytest.raises(CardError, match="expected card text"):
        parse_card(51)  # type: ignore[arg-type]


def test_formatting() -> None:
    card = parse_card("As")
    assert str(card) == "As" and card.symbol == "A♠"
    assert f"{card}" == "As" and f"{card:u}" == "A♠"
    assert repr(card) == "Card('As')"
    assert format_cards(parse_cards("As Kd 7c")) == "As Kd 7c"
    assert format_cards(parse_cards("As Kd 7c"), symbols=True) == "A♠ K♦ 7♣"
    assert str(Rank.TEN) == "T" and Rank.TEN.plural == "tens" and Rank.SIX.plural == "sixes"
    assert Suit.HEARTS.symbol == "♥" and str(Suit.CLUBS) == "c"


def test_parse_cards_forms() -> None:
    expected = (Card(Rank.ACE, Suit.SPADES), Card(Rank.KING, Suit.DIAMONDS), Card(Rank.TEN, Suit.HEARTS))
    assert parse_cards("As Kd 10h") == expected
    assert parse_cards("AsKd10h") == expected
    assert parse_cards("As,Kd,Th") == expected
    assert parse_cards(["As", "Kd", "Th"]) == expected
    assert parse_cards("") == ()
    with pytest.raises(CardError, match="'Kx'"):
        parse_cards("As Kx")


def test_suit_order_and_card_order() -> None:
    # SPEC D1.2: clubs < diamonds < hearts < spades; cards order by rank, then suit.
    assert Suit.CLUBS < Suit.DIAMONDS < Suit.HEARTS < Suit.SPADES
    assert parse_card("4c") < parse_card("4d") < parse_card("5c") < parse_card("As")
    assert sorted(parse_cards("As 2c Kd Ah")) == list(parse_cards("2c Kd Ah As"))


def test_cards_are_immutable_and_hashable() -> None:
    card = parse_card("As")
    with pytest.raises(AttributeError):
        card.rank = Rank.TWO  # type: ignore[misc]
    assert len({parse_card("As"), Card(Rank.ACE, Suit.SPADES)}) == 1
    with pytest.raises(CardError):
        Card(12, 3)  # type: ignore[arg-type]


def test_card_indices_accepts_cards_text_and_ints() -> None:
    assert card_indices("As 2c") == [51, 0]
    assert card_indices([parse_card("As"), "2c", 5]) == [51, 0, 5]
    assert card_indices((51, 0)) == [51, 0]
    assert card_indices(iter([51, 0])) == [51, 0]


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("As As Kd", "duplicate card As"),
        ([51, 51], "duplicate card As"),
        ([52], "card index 52 is outside 0..51"),
        ([-1], "card index -1 is outside 0..51"),
        ([True], "is not a card"),
        ([1.5], "is not a card"),
        ("As Kx", "'Kx' is not a card"),
    ],
)
def test_card_indices_errors(cards: object, message: str) -> None:
    with pytest.raises(CardError, match=message):
        card_indices(cards)  # type: ignore[arg-type]


def test_card_indices_counts() -> None:
    assert card_indices("As Kd 7c 7h 2s", counts=(5, 6, 7)) == [51, 45, 20, 22, 3]
    with pytest.raises(CardError, match="expected 5 or 6 or 7 cards, got 4: As Kd 7c 7h"):
        card_indices("As Kd 7c 7h", counts=(5, 6, 7))


def test_from_index_errors() -> None:
    with pytest.raises(CardError, match=r"outside 0\.\.51"):
        Card.from_index(52)
    with pytest.raises(CardError, match="must be an int"):
        Card.from_index("3")  # type: ignore[arg-type]


def test_card_indices_accepts_numpy_integers() -> None:
    import numpy as np

    assert card_indices([np.int64(51), np.uint8(0)]) == [51, 0]
    with pytest.raises(CardError, match="card index 60 is outside"):
        card_indices([np.int16(60)])
