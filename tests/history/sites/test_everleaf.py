"""Everleaf Gaming: every hand of its file replayed and its amounts checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from studpoker.history import sites
from studpoker.history.model import Bet, Deal, HandRecord
from studpoker.history.sites import everleaf

from .helpers import Expected, assert_file

NAME = "Everleaf/cash/7-Stud-USD-0.05-0.10.201107.txt"

EXPECTED = {NAME: Expected("everleaf", 19)}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_files(shared_data: Path, name: str) -> None:
    assert_file(shared_data, name, EXPECTED[name])


def _records(shared_data: Path) -> dict[str, HandRecord]:
    return {r.info["hand"]: r for r in assert_file(shared_data, NAME, EXPECTED[NAME]).records}


def test_the_rake_is_two_cents_a_quarter(shared_data: Path) -> None:
    records = _records(shared_data)
    big = records["285997876"]  # $1.06: Player2 wins $0.98
    assert big.rake == 8 and big.winnings == (0, 98, 0, 0)
    small = records["285998978"]  # $0.24: no rake, Player3 wins it all (his next stack says so)
    assert small.rake == 0 and small.winnings == (0, 0, 24, 0)
    assert [everleaf.rake_of(c) for c in (24, 25, 26, 49, 50, 63, 106)] == [0, 2, 2, 2, 4, 4, 8]


def test_the_cards_are_unknown_until_shown(shared_data: Path) -> None:
    record = _records(shared_data)["285999845"]
    assert record.players == ("Player2", "Player3") and record.currency == "USD"
    deals = [a for a in record.actions if isinstance(a, Deal)]
    assert [str(c) for c in deals[0].cards] == ["9h", "7c", "3s"]  # filled in from the show
    assert record.info["table"] == "Clarkdale 20" and record.info["day"] == 8


def test_a_changed_amount_is_named_with_its_line(shared_data: Path) -> None:
    # the rake is not written, so a winner who takes a cent less only leaves a cent more of rake (implied, and said
    # so); a winner who takes more than the pot is refused at his line
    text = (shared_data / "sites" / NAME).read_text()
    _, hands = sites.loads_each(text.replace("wins $ 0.98 USD", "wins $ 0.97 USD"), "everleaf")
    record = hands[2].record
    assert record is not None and record.rake == 9
    assert any("the rake, $0.09, is implied" in note for note in sites.verify(record).notes)
    _, hands = sites.loads_each(text.replace("wins $ 0.98 USD", "wins $ 1.98 USD"), "everleaf")
    assert hands[2].error is not None and "(line 104): the winners take" in str(hands[2].error)


def test_another_game_is_skipped_and_the_rest_replays(shared_data: Path) -> None:
    text = (shared_data / "sites" / NAME).read_text().replace("$0.05/$0.10 7 Card Stud", "$0.05/$0.10 Hold'em", 1)
    _, hands = sites.loads_each(text, "everleaf")
    assert hands[0].skipped == "Hold'em" and all(h.record is not None for h in hands[1:])
    sites.verify(hands[1].record)  # type: ignore[arg-type]


def test_detection() -> None:
    assert everleaf.detect("Everleaf Gaming Game #1\n") and not everleaf.detect("Stage #1: Razz")


def test_a_big_bet_on_fourth_street_declares_the_hidden_open_pair(shared_data: Path) -> None:
    """#285999989: Player3 bets the big bet ($0.10) on 4th street, which the rules allow only over an open pair.
    Everleaf writes no up card, so the replay declares the pair the cards may show (R6.14) and says so."""
    record = _records(shared_data)["285999989"]
    result = sites.verify(record)
    assert any("open pair declared (R6.14)" in note for note in result.notes)
    amounts = [a.amount for a in record.actions if isinstance(a, Bet) and a.verb == "cbr"]
    assert 10 in amounts
