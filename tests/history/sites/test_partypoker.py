"""PartyPoker: every hand of its files replayed and its amounts checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from studpoker.history import sites
from studpoker.history.model import HandRecord
from studpoker.history.sites import partypoker

from .helpers import Expected, assert_file

HILO = "PartyPoker/cash/7-StudHL-USD-0.50-1.00-201008.txt"
STUD = "PartyPoker/cash/7-Stud-USD-1-2-201104.txt"  # starts with a NUL byte
TOUR = "PartyPoker/tour/7-Stud-USD-MTT-6.00-201205.txt"

EXPECTED = {
    HILO: Expected("partypoker", 1),
    STUD: Expected("partypoker", 1),
    TOUR: Expected("partypoker", 1),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_files(shared_data: Path, name: str) -> None:
    assert_file(shared_data, name, EXPECTED[name])


def _record(shared_data: Path, name: str) -> HandRecord:
    [record] = assert_file(shared_data, name, EXPECTED[name]).records
    return record


def test_a_tournament_in_chips_with_its_level(shared_data: Path) -> None:
    record = _record(shared_data, TOUR)
    assert record.info["tournament"] == "69784932" and record.info["level"] == 2
    assert record.currency is None and record.chip_value == 1.0 and record.rake == 0
    assert (record.rules.ante, record.rules.bring_in, record.rules.small_bet, record.rules.big_bet) == (10, 20, 60, 120)
    assert record.starting_stacks[0] == 2930 and record.winnings is not None and sum(record.winnings) == 2560
    assert record.rules.open_pair_double_bet  # Player4's 2h 2d double bets on 4th street


def test_the_winner_gets_his_uncalled_bet_in_his_wins(shared_data: Path) -> None:
    record = _record(shared_data, STUD)
    assert "Player7" not in record.players  # seated, posts no ante: not dealt in
    assert record.rake == 60 and record.winnings == (0, 0, 0, 0, 0, 1220)  # $13.20 less the $1 bet back
    assert sites.verify(record).state.is_over


def test_the_hi_lo_pot_after_its_rake(shared_data: Path) -> None:
    record = _record(shared_data, HILO)
    assert record.rake == 40 and record.winnings is not None and max(record.winnings) == 845
    assert record.rules.max_seats == 8 and record.info["time_zone_abbreviation"] == "EEST"
    assert [partypoker.rake_of(c) for c in (99, 100, 885, 1280)] == [0, 5, 40, 60]


def test_a_changed_amount_is_named_with_its_line(shared_data: Path) -> None:
    # the rake is not written: a winner who takes less leaves more of it (implied, and said so); more than the pot
    # is refused at the line
    text = (shared_data / "sites" / HILO).read_text()
    _, [hand] = sites.loads_each(text.replace("wins $8.45", "wins $8.40"), "partypoker")
    assert hand.record is not None and hand.record.rake == 45
    assert "the rake, $0.45, is implied" in " ".join(sites.verify(hand.record).notes)
    _, [hand] = sites.loads_each(text.replace("wins $8.45", "wins $9.00"), "partypoker")
    assert hand.error is not None and hand.error.line == 53
    assert "the winners take $9.00 of $8.85: more than the pot" in str(hand.error)


def test_the_opener_must_act_first(shared_data: Path) -> None:
    text = (shared_data / "sites" / HILO).read_text().replace("YMAN1 opens", "Hero opens")
    _, [hand] = sites.loads_each(text, "partypoker")
    assert hand.error is not None and "Hero opens, but YMAN1 acts first" in str(hand.error)


def test_another_game_is_skipped(shared_data: Path) -> None:
    text = (shared_data / "sites" / TOUR).read_text().replace("FL 7 Card Stud", "NL Texas Hold'em")
    _, [hand] = sites.loads_each(text, "partypoker")
    assert hand.skipped == "NL Texas Hold'em"


def test_detection() -> None:
    assert partypoker.detect("\x00Game #1 starts.\n") and partypoker.detect("#Game No : 12\n")
    assert not partypoker.detect("#40091899: Limit 2-7 Razz")
