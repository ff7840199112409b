"""Boards for the first actor on later streets (SPEC R7.3, R7.4, R12a.3; TC-09, TC-13, TC-14, TC-16, TC-25)."""

import pytest

from studpoker import CardError
from studpoker.evaluation import board_tiebreak, first_to_act, high_board_value, low_board_value


def test_tc09_pair_of_queens_acts_first() -> None:
    assert first_to_act(["Ah Kd", "7c 7h", "Qs Qd", "2c 2d"]) == 2


def test_tc13_tie_between_boards() -> None:
    boards = ["Kc Qd", "Ah 7c", "Jh 9s", "As 7d"]  # S1, S2, S3, S5 (S4 folded)
    assert first_to_act(boards) == 1  # POSITION: S2
    assert first_to_act(boards, by_suit=True) == 3  # HIGH_CARD_BY_SUIT: S5, A♠ > A♥


def test_tc14_straights_and_flushes_do_not_count() -> None:
    boards = {"S1": "9h 9d 5c 5s", "S2": "3c 3d 3h Ks", "S4": "5h 6h 7h 8h", "S5": "Ac Kc Qc Jd"}
    order = sorted(boards, key=lambda s: high_board_value(boards[s]), reverse=True)
    assert order == ["S2", "S1", "S5", "S4"]
    assert first_to_act(list(boards.values())) == 1


def test_tc16_stud8_uses_the_high_board() -> None:
    assert first_to_act(["As 2s", "Kc Kd", "4h 3h"]) == 1


def test_tc25_kings_act_first_on_a_four_card_board() -> None:
    boards = [
        "Kh Kd 7c 2s", "Ah Qc 9d 4h", "Jc Jd 5s 3h", "Tc 8s 6d 2h",
        "9h 9s Qd 4c", "8c 7d 5h 3c", "Qh Js 6s 4d", "7h 6h 5d 3d",
    ]  # fmt: skip
    assert first_to_act(boards) == 0


def test_high_board_categories_and_kickers() -> None:
    ladder = ["2c", "3c", "Ac", "Ac 2d", "Ac Kd", "2c 2d", "2c 2d Ah", "3c 3d 2h", "Ac Ad", "2c 2d 3h 3s",
              "Ac Ad Kh Ks", "2c 2d 2h", "2c 2d 2h Ac", "Ac Ad Ah", "2c 2d 2h 2s", "Ac Ad Ah As"]  # fmt: skip
    values = [high_board_value(b) for b in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert high_board_value("Kc Qd") == high_board_value("Kh Qs")


def test_razz_low_board() -> None:
    # Lowest acts first; the ace is low; pairs are bad.
    assert first_to_act(["Ks 9d", "3c 2h", "4d 4c"], low=True) == 1
    ladder = ["Kc Kd", "Kc Qd", "8c 2d", "7c 6d", "7c 5d", "3c 2d", "2c Ad"]
    values = [low_board_value(b) for b in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert low_board_value("Ac Ad") > low_board_value("2c 2d")
    assert low_board_value("Ac Ad 2c 2d") > low_board_value("Ac Ah As 2d")  # two pair beats trips
    # With the suit tie-break the lower suit of the highest card acts first in razz.
    assert first_to_act(["7s 2d", "7c 2h"], low=True, by_suit=True) == 1
    assert first_to_act(["7s 2d", "7c 2h"], low=True) == 0


def test_tiebreak_keys() -> None:
    assert board_tiebreak("As 7d") > board_tiebreak("Ah 7c")
    assert board_tiebreak("Ah 7s") > board_tiebreak("Ad 7s")
    assert board_tiebreak("7c 2h", low=True) > board_tiebreak("7s 2d", low=True)


@pytest.mark.parametrize("board", ["", "As Kd Qc Jh Ts"])
def test_board_sizes(board: str) -> None:
    with pytest.raises(CardError, match="a board has 1 to 4 up cards"):
        high_board_value(board)
    with pytest.raises(CardError, match="a board has 1 to 4 up cards"):
        low_board_value(board)


def test_first_to_act_needs_a_board() -> None:
    with pytest.raises(ValueError, match="at least one board"):
        first_to_act([])
