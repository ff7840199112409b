"""Absolute Poker: every hand of its files replayed and its amounts checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from studpoker.history import sites

from .helpers import Expected, assert_file

EXPECTED = {
    "Absolute/cash/7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt": Expected("absolute", 1),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_files(shared_data: Path, name: str) -> None:
    assert_file(shared_data, name, EXPECTED[name])


def test_split_pot_after_rake(shared_data: Path) -> None:
    [record] = assert_file(shared_data, *next(iter(EXPECTED.items()))).records
    assert record.players[2] == "PLAYER3" and record.seats == (1, 2, 3, 5, 6, 7, 8)
    assert record.rake == 4 and record.winnings == (0, 0, 19, 0, 0, 20, 0)  # $0.43 - $0.04: $0.20 high, $0.19 low
    assert record.currency == "USD" and record.chip_value == 0.01
    assert sites.verify(record).state.is_over


def test_a_changed_amount_is_named_with_its_line(shared_data: Path) -> None:
    text = (shared_data / "sites" / next(iter(EXPECTED))).read_text().replace("Collects $0.19", "Collects $0.18")
    _, [hand] = sites.loads_each(text)
    assert hand.record is not None
    with pytest.raises(sites.SiteError, match=r"line 78\): what PLAYER3 collects from the pot: the file says \$0.18"):
        sites.verify(hand.record)
