"""Boards in words (``describe_board``): what the card room's dealer says of the board that acts first."""

from __future__ import annotations

import random

import pytest

from studpoker.cards import CARDS, parse_cards
from studpoker.engine import Variant, describe_board
from studpoker.evaluation import high_board_value, low_board_value


@pytest.mark.parametrize(
    ("board", "words"),
    [
        ("Ks Kd", "a pair of kings"),
        ("Ah", "ace high"),
        ("Ah Kd", "ace-king high"),
        ("2c 9d 4h Ts", "ten-nine high"),
        ("Kc Kd 7h 7s", "two pair, kings and sevens"),
        ("7c 7d Kh Ks", "two pair, kings and sevens"),
        ("9c 9d 9h 2s", "three nines"),
        ("6c 6d 6h 6s", "four sixes"),
        ("Ac 2c 3c 4c", "ace-four high"),  # no straight or flush on a board
        ("Qd Qh 3s", "a pair of queens"),
    ],
)
def test_high_boards(board: str, words: str) -> None:
    for variant in (Variant.STUD7, Variant.STUD7_HL8, Variant.STUD5):
        assert describe_board(parse_cards(board), variant) == words


@pytest.mark.parametrize(
    ("board", "words"),
    [
        ("7c 4d 2h", "7-4-2 low"),
        ("Ac 4d", "4-A low"),
        ("Kd", "K low"),
        ("Tc 5d 3h As", "T-5-3-A low"),
        ("2c 2d 5h", "a pair of twos"),
        ("Ac Ad", "a pair of aces"),
        ("Kc Kd 2h 2s", "two pair, kings and twos"),
        ("8c 8d 8h", "three eights"),
    ],
)
def test_razz_boards(board: str, words: str) -> None:
    assert describe_board(parse_cards(board), Variant.RAZZ) == words


def test_unknown_cards_are_skipped_and_too_many_or_none_say_nothing() -> None:
    ks, kd = parse_cards("Ks Kd")
    assert describe_board([None, ks, None, kd], Variant.STUD7) == "a pair of kings"
    assert describe_board([None, None], Variant.STUD7) == ""
    assert describe_board(parse_cards("As Ks Qs Js Ts"), Variant.STUD7) == ""


@pytest.mark.parametrize("variant", [Variant.STUD7, Variant.RAZZ])
def test_the_words_name_the_shape_the_engine_ranks(variant: Variant) -> None:
    """On random boards, the words name the shape by which the engine ranks the board for acting first (quads,
    trips, two pair, a pair, or none), and two boards of the same words rank alike when they are unpaired."""
    chooser = random.Random(5)
    value = low_board_value if variant is Variant.RAZZ else high_board_value

    def shape(words: str) -> int:
        if words.endswith((" high", " low")):
            return 0
        for index, start in enumerate(("four ", "three ", "two pair", "a pair")):
            if words.startswith(start):
                return 4 - index
        return 0

    by_words: dict[str, set[int]] = {}
    for _ in range(3000):
        board = chooser.sample(CARDS, chooser.randint(1, 4))
        words = describe_board(board, variant)
        category = value(board) // 14**4
        if variant is Variant.RAZZ:  # razz values run the other way: the best (lowest) board is the largest
            category = (6 * 14**4 - value(board)) // 14**4
        assert shape(words) == category, (board, words)
        by_words.setdefault(words, set()).add(value(board))
    for words, values in by_words.items():
        if words.endswith(" high") and "-" not in words:
            assert len(values) == 1, words  # "queen high": one card, one value
