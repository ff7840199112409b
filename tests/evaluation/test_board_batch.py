"""``board_batch``: every board's value equals the one-board functions', for 1 to 4 cards, high and low, from
every input form; bad input is a CardError naming the row."""

from __future__ import annotations

import numpy as np
import pytest

from studpoker.cards import CARDS, CardError
from studpoker.evaluation import board_batch, high_board_value, low_board_value


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_board_batch_equals_the_one_board_values(size: int) -> None:
    rng = np.random.default_rng(size)
    rows = np.array([rng.choice(52, size, replace=False) for _ in range(5000)], dtype=np.uint8)
    assert board_batch(rows).tolist() == [high_board_value(r.tolist()) for r in rows]
    assert board_batch(rows, low=True).tolist() == [low_board_value(r.tolist()) for r in rows]
    assert board_batch(rows.astype(np.int64), check=False).tolist() == board_batch(rows).tolist()


def test_board_batch_takes_lists_cards_and_text() -> None:
    expected = [high_board_value("As Ks"), high_board_value("2c 2d")]
    assert board_batch([["As", "Ks"], ["2c", "2d"]]).tolist() == expected
    assert board_batch(["As Ks", "2c 2d"]).tolist() == expected
    assert board_batch([[CARDS[51], CARDS[47]], [CARDS[0], CARDS[1]]]).tolist() == expected


@pytest.mark.parametrize(
    ("boards", "message"),
    [
        (["As As"], "row 0 holds the same card twice"),
        ([[52]], "card index 52 in row 0"),
        ([[0, 1, 2, 3, 4]], "1 to 4 cards a board"),
        (b"12", "bytes do not say"),
        ([["Xx"]], "'Xx' is not a card"),
        ([["As"], ["Ks", "Qs"]], "the same number of cards"),
        (np.zeros((3, 2), dtype=np.float64), "integer array"),
    ],
)
def test_board_batch_refuses_bad_boards(boards: object, message: str) -> None:
    with pytest.raises(CardError, match=message.replace("(", r"\(")):
        board_batch(boards)  # type: ignore[arg-type]
