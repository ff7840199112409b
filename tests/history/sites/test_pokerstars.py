"""PokerStars among the rooms: its file of ``sites/`` detected, replayed and checked by the PokerStars reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import Expected, assert_file

EXPECTED = {
    "Stars/cash/7-Stud-USD-0.04-0.08-200907.Missing.Showdown.Card.txt": Expected("pokerstars", 1),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_files(shared_data: Path, name: str) -> None:
    assert_file(shared_data, name, EXPECTED[name])


def test_eight_players_to_the_river_share_the_community_card(shared_data: Path) -> None:
    """The "missing" showdown card: eight players reach 7th street, the deck is short, and the river is one
    card for all (``*** RIVER *** [6h]``, R8): the shows list six cards each, and the replay deals the board."""
    from studpoker.history import Board, sites

    [record] = assert_file(shared_data, *next(iter(EXPECTED.items()))).records
    assert record.info["room"] == "PokerStars" and record.currency == "USD" and record.n == 8
    assert [str(a.card) for a in record.actions if isinstance(a, Board)] == ["6h"]
    state = sites.verify(record).state
    assert state.awards[0].amount == 56 and record.winnings is not None and record.winnings[2] == 54
