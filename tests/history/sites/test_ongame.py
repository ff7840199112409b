"""OnGame: every hand of its files replayed and its amounts checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from studpoker.history import sites
from studpoker.history.model import Bet, HandRecord
from studpoker.history.sites import ongame

from .helpers import Expected, assert_file

SAMPLE = "OnGame/cash/7-Stud-USD-0.10-0.20-201009.Sample.txt"
BIG = "OnGame/cash/7-Stud-USD-1.00-2.00-201212.big.bring.txt"

EXPECTED = {
    SAMPLE: Expected("ongame", 4),
    BIG: Expected("ongame", 1),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_files(shared_data: Path, name: str) -> None:
    assert_file(shared_data, name, EXPECTED[name])


def _records(shared_data: Path, name: str) -> dict[str, HandRecord]:
    return {r.info["hand"]: r for r in assert_file(shared_data, name, EXPECTED[name]).records}


def test_a_big_bring_in_is_a_completion(shared_data: Path) -> None:
    record = _records(shared_data, BIG)["R5-292493407-77"]
    bets = [a for a in record.actions if isinstance(a, Bet)]
    assert (bets[0].verb, bets[0].amount) == ("cbr", 100) and (bets[1].verb, bets[1].amount) == ("cbr", 200)
    assert record.rules.bring_in == 50 and record.rules.ante == 10  # the bring-in is never posted: half the small bet
    assert record.rake == 50 and record.winnings == (0, 970)
    assert record.finishing_stacks == (2210, 7900)
    assert record.info["time_zone_abbreviation"] == "CET" and record.info["table"] == "Winnipeg"


def test_the_rake_and_the_unseen_river(shared_data: Path) -> None:
    record = _records(shared_data, SAMPLE)["R5-82086688-607"]
    assert record.seats == (1, 2, 6, 8, 10) and record.rules.bring_in == 5
    assert record.rake == 11 and record.winnings == (0, 224, 0, 0, 0)
    assert record.finishing_stacks == (576, 347, 623, 213, 632)
    assert sites.verify(record).state.is_over


def test_a_changed_amount_is_named_with_its_line(shared_data: Path) -> None:
    text = (shared_data / "sites" / SAMPLE).read_text().replace("net: -$0.77", "net: -$0.78")
    _, hands = sites.loads_each(text, "ongame")
    record = hands[0].record
    assert record is not None
    with pytest.raises(sites.SiteError, match=r"line 73\): the net result of the bAAr: the file says -\$0.78"):
        sites.verify(record)


def test_another_game_is_skipped_and_the_rest_replays(shared_data: Path) -> None:
    text = (shared_data / "sites" / SAMPLE).read_text().replace("(LIMIT SEVEN", "(NO_LIMIT SEVEN", 1)
    _, hands = sites.loads_each(text, "ongame")
    assert hands[0].skipped == "NO_LIMIT SEVEN_CARD_STUD"
    for hand in hands[1:]:
        assert hand.record is not None
        sites.verify(hand.record)


def test_a_truncated_hand_costs_only_itself(shared_data: Path) -> None:
    lines = (shared_data / "sites" / SAMPLE).read_text().split("\n")
    del lines[77]  # the first hand's end line (line 78)
    _, hands = sites.loads_each("\n".join(lines), "ongame")
    assert hands[0].error is not None and "no end line" in str(hands[0].error)
    assert all(h.record is not None for h in hands[1:])


def test_detection() -> None:
    assert ongame.detect("***** History for hand R5-1-2 *****\n") and not ongame.detect("Game #1 starts.")
