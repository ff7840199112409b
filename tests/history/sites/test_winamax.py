"""Winamax: every hand of its files replayed and its amounts checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from studpoker.history import sites
from studpoker.history.sites import winamax

from .helpers import Expected, assert_file

NEGATIVE = "Winamax/cash/7-Stud-6max-EUR-25-50-201611._8games_.negative.bet.txt"
STUD = "Winamax/cash/7-Stud-6max-EUR-25-50-201611._8games_.txt"
PLAY = "Winamax/cash/7-Stud-6max-play-0.5-0.10-201606.export.txt"
RAZZ = "Winamax/cash/Razz-6max-EUR-25-50-201611._8games_.txt"

EXPECTED = {
    NEGATIVE: Expected(
        "winamax", 0, refused={"9250793-1578-1479092164": "(line 17): Player0 raises -6.10€ to 18.90€, not above"}
    ),
    STUD: Expected("winamax", 1),
    PLAY: Expected("winamax", 1),
    RAZZ: Expected("winamax", 1),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_files(shared_data: Path, name: str) -> None:
    assert_file(shared_data, name, EXPECTED[name])


def _text(shared_data: Path, name: str) -> str:
    return sites.decode((shared_data / "sites" / name).read_bytes())


def test_a_showdown_in_euros(shared_data: Path) -> None:
    [record] = assert_file(shared_data, STUD, EXPECTED[STUD]).records
    assert record.players == ("Hero", "Player0") and record.seats == (1, 4)
    assert record.currency == "EUR" and record.chip_value == 0.01
    assert record.starting_stacks == (174922, 42606)
    assert record.rules.ante == 500 and record.rules.bring_in == 1000
    assert (record.rules.small_bet, record.rules.big_bet, record.rules.max_seats) == (2500, 5000, 6)
    assert record.rake == 200 and record.winnings == (45800, 0)  # "Total pot 458€ | Rake 2€": after the rake
    info = record.info
    assert (info["table"], info["year"], info["month"], info["day"]) == ("Pampelune", 2016, 11, 12)
    assert (info["time"], info["time_zone_abbreviation"]) == ("22:46:27", "UTC")


def test_the_uncalled_bet_is_in_what_the_bettor_collects(shared_data: Path) -> None:
    """Razz: Player0's 50€ on 6th street is not called; Winamax writes ``collected 258€`` of a 208€ pot."""
    [record] = assert_file(shared_data, RAZZ, EXPECTED[RAZZ]).records
    stated = record.info["stated"]
    assert [(a.player, a.amount) for a in stated.returned] == [(1, 5000)]
    assert record.winnings == (0, 20800) and stated.total_pot.amount == 20800
    assert sites.verify(record).state.stacks == (154672 - 10500, 66456 - 10500 + 21000)  # the engine: before the rake


def test_play_money_deals_no_cards_until_the_showdown(shared_data: Path) -> None:
    [record] = assert_file(shared_data, PLAY, EXPECTED[PLAY]).records
    assert record.currency is None and record.info["money"] == "play"
    assert record.players == ("Player0", "Player1", "Player2") and record.info["table"] == "Ceské Budejovice"
    assert record.rules.ante == 1 and record.rules.bring_in == 2 and record.rules.big_bet == 10
    assert record.rake == 4 and record.winnings == (65, 0, 0)
    dealt = [a for a in record.actions if type(a).__name__ == "Deal" and a.player == 0]
    assert "".join(str(c) for a in dealt for c in a.cards) == "8hAc7dTh7sAs6s"  # filled in by the show
    assert all(c is None for a in record.actions if type(a).__name__ == "Deal" and a.player == 1 for c in a.cards)


def test_the_negative_bet_is_the_only_contradiction(shared_data: Path) -> None:
    """Written as the rest of the hand says (all-in to 28.90€, a raise of 3.90€), the hand replays."""
    text = _text(shared_data, NEGATIVE)
    fixed = text.replace("raises -6.10€ to 18.90€", "raises 3.90€ to 28.90€ and is all-in")
    _, [hand] = sites.loads_each(fixed)
    assert hand.record is not None
    assert sites.verify(hand.record).state.stacks == (7280, 241780 - 3390, 80207 - 500)  # before the 2.50€ rake
    assert hand.record.winnings == (7030, 0, 0)
    assert hand.record.info["stated"].actions[3].all_in is True


def test_a_changed_amount_is_named_with_its_line(shared_data: Path) -> None:
    text = _text(shared_data, STUD).replace("Player0 calls 15€", "Player0 calls 14€")
    _, [hand] = sites.loads_each(text)
    assert hand.record is not None
    with pytest.raises(
        sites.SiteError, match=r"line 13\): what Player0 puts in: the file says €14.00, the replay €15.00"
    ):
        sites.verify(hand.record)
    text = _text(shared_data, STUD).replace("raises 50€ to 100€", "raises 40€ to 100€")
    _, [hand] = sites.loads_each(text)
    assert (
        hand.error is not None
        and "(line 33): Hero raises 40€ to 100€: a raise to 100€ over a bet of 50.00€ is 50.00€" in str(hand.error)
    )


def test_other_games_are_skipped_and_the_rest_replays(shared_data: Path) -> None:
    text = _text(shared_data, RAZZ)
    other = text.replace("Razz fixed limit", "Omaha pot limit").replace("#9250793-444", "#9250793-443")
    room, hands = sites.loads_each(other + "\n\n" + text, "winamax")
    assert room == "winamax" and [h.skipped for h in hands] == ["Omaha pot limit", None]
    assert hands[1].line == len(other.split("\n")) + 2 and hands[1].record is not None
    sites.verify(hands[1].record)


def test_detect(shared_data: Path) -> None:
    assert winamax.detect(_text(shared_data, STUD))
    assert not winamax.detect("Stage #1300000000: Seven Card Hi/Lo")
    assert not winamax.detect("Game started at: 2016/8/2 11:13:2")
