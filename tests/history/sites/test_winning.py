"""Winning Poker Network: every hand of its files replayed and its amounts checked."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from studpoker.history import sites
from studpoker.history.sites import winning

from .helpers import Expected, assert_file

STUD = "Winning/cash/7-Stud-8max-USD-1.00-2.00-201608.HH00000000 G0.txt"
HILO = "Winning/cash/7-Stud-HL-8max-USD-1.00-2.00-201608.HH00000000 G0.txt"

EXPECTED = {
    STUD: Expected("winning", 4),
    HILO: Expected("winning", 1, refused={"693976187": "(line 101): the hand breaks off at line 101"}),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_files(shared_data: Path, name: str) -> None:
    assert_file(shared_data, name, EXPECTED[name])


def _text(shared_data: Path, name: str) -> str:
    return sites.decode((shared_data / "sites" / name).read_bytes())


def test_the_odd_cent_of_a_split_goes_low(shared_data: Path) -> None:
    """Hi/lo: 7.25 in the pot, 0.14 rake and 0.06 jackpot fee; 7.05 is 3.53 to the low hand, 3.52 to the high."""
    [record] = assert_file(shared_data, HILO, EXPECTED[HILO]).records
    assert record.players == ("Diamonds4ever", "ChazDazzle", "KickAzzJohnny") and record.seats == (2, 5, 8)
    assert record.currency == "USD" and record.chip_value == 0.01 and record.rake == 20
    assert record.winnings == (0, 353, 352)
    assert (record.rules.ante, record.rules.bring_in, record.rules.small_bet, record.rules.big_bet) == (
        15,
        40,
        100,
        200,
    )
    info = record.info
    assert (info["table"], info["year"], info["month"], info["day"], info["time"]) == (
        "La Llorona - 3",
        2016,
        8,
        2,
        "11:13:02",
    )
    high = dataclasses.replace(record.info["stated"], odd_chip_low=False)
    with pytest.raises(
        sites.SiteError, match=r"line 87\): what is collected by ChazDazzle: the file says \$3.53, the replay \$3.52"
    ):
        sites.verify(dataclasses.replace(record, info={**record.info, "stated": high}))


def test_uncalled_bets_and_net_results(shared_data: Path) -> None:
    records = assert_file(shared_data, STUD, EXPECTED[STUD]).records
    returned = [[(a.player, a.amount, a.line) for a in r.info["stated"].returned] for r in records]
    assert returned == [[(0, 100, 39)], [(1, 200, 115)], [], [(1, 100, 255)]]
    assert [r.rake for r in records] == [0, 15, 15, 0]  # "Rake 0.11. JP fee 0.04"
    assert [a.amount for a in records[1].info["stated"].net] == [-415, 400]
    assert [r.starting_stacks for r in records] == [(1000, 5000), (1055, 4945), (640, 5345), (1080, 4890)]


def test_a_changed_amount_is_named_with_its_line(shared_data: Path) -> None:
    text = _text(shared_data, HILO).replace("Bets: 3.55. Collects: 3.53", "Bets: 3.55. Collects: 3.54")
    _, [hand, _] = sites.loads_each(text)
    assert hand.record is not None
    said = r"line 83\): the players collect \$7.06, not the total pot less the rake \(\$7.05\); "
    with pytest.raises(sites.SiteError, match=said + r"line 87: what is collected by ChazDazzle: the file says \$3.54"):
        sites.verify(hand.record)
    text = _text(shared_data, STUD).replace("Player Nee calls (0.60)", "Player Nee calls (0.50)")
    _, hands = sites.loads_each(text)
    assert hands[1].record is not None
    with pytest.raises(sites.SiteError, match=r"line 83\): what Nee puts in: the file says \$0.50, the replay \$0.60"):
        sites.verify(hands[1].record)


def test_other_games_are_skipped_and_the_rest_replays(shared_data: Path) -> None:
    text = _text(shared_data, STUD)
    room, hands = sites.loads_each(text.replace("(Seven Cards Stud)", "(Omaha HiLow)", 1), "winning")
    assert room == "winning" and [h.skipped for h in hands] == ["Omaha HiLow (PRR)", None, None, None]
    for hand in hands[1:]:
        assert hand.record is not None
        sites.verify(hand.record)


def test_detect(shared_data: Path) -> None:
    assert winning.detect(_text(shared_data, STUD))
    assert not winning.detect("Game started at: 2016/8/2 11:13:2\n\nsomething else")
    assert not winning.detect("Winamax Poker - CashGame - HandId: #1")
