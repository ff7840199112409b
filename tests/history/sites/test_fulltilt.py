"""Full Tilt Poker: every hand of its files replayed and its amounts checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from studpoker.engine import Variant
from studpoker.history import Bet, Deal, ShowMuck, sites
from studpoker.history.sites import fulltilt

from .helpers import Expected, assert_file

EXPECTED = {
    "FTP/cash/7-Stud-USD-3-6-20106.Steal.from.Button.Failure.txt": Expected("fulltilt", 1),
    "FTP/cash/7-Stud-USD-3-6-20106.Steal.from.CO.Success.txt": Expected("fulltilt", 1),
    "FTP/cash/7-Stud-USD-3-6-20106.Steal.from.HJ.Failure.txt": Expected("fulltilt", 1),
    "FTP/cash/7-Stud-USD-3-6-20106.Steal.from.HJ.Success.txt": Expected("fulltilt", 1),
    "FTP/cash/7-StudHL-USD-2-4-201006.Steal.examples.txt": Expected("fulltilt", 12),
    "FTP/cash/7-StudHL-USD-2-4-201103.Underscore.in.tablename.txt": Expected("fulltilt", 1),
    "FTP/cash/Razz-USD-0.10-0.20-201012.CCT.and.ET.timeformat.txt": Expected("fulltilt", 1),
    "FTP/cash/Razz-USD-0.10-0.20-201012.Player6.listed.but.doesnt.act.txt": Expected("fulltilt", 1),
    "FTP/tour/5-Stud-USD-MTT-100-201303.txt": Expected("fulltilt", 1),
    "FTP/tour/Razz-USD-HUSNG-2-201102.Villain.allin.on.bringing.txt": Expected("fulltilt", 1),
}

STEALS = "FTP/cash/7-StudHL-USD-2-4-201006.Steal.examples.txt"
MTT = "FTP/tour/5-Stud-USD-MTT-100-201303.txt"
HUSNG = "FTP/tour/Razz-USD-HUSNG-2-201102.Villain.allin.on.bringing.txt"
RAZZ = "FTP/cash/Razz-USD-0.10-0.20-201012.CCT.and.ET.timeformat.txt"


def _text(data: Path, name: str) -> str:
    return sites.decode((data / "sites" / name).read_bytes())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_files(shared_data: Path, name: str) -> None:
    assert_file(shared_data, name, EXPECTED[name])


def test_a_pot_after_rake_and_a_showdown(shared_data: Path) -> None:
    records = assert_file(shared_data, STEALS, EXPECTED[STEALS]).records
    [record] = [r for r in records if r.info["hand"] == "11111112961"]
    assert record.rules.variant is Variant.STUD7 and record.currency == "USD" and record.chip_value == 0.01
    assert (record.rules.ante, record.rules.bring_in, record.rules.small_bet, record.rules.big_bet) == (
        40,
        50,
        200,
        400,
    )
    assert record.rake == 200 and record.winnings == (0, 0, 0, 0, 0, 4080, 0)  # $42.80 less $2 to Player6
    assert record.info["table"] == "Fpdb" and (record.info["year"], record.info["month"], record.info["day"]) == (
        2010,
        6,
        10,
    )
    state = sites.verify(record).state
    assert state.stacks[record.players.index("Player6")] == 4150 - 2040 + 4280  # the engine pays the pot unraked
    # Hero's show lists his down cards the other way round from his deal: the cards are matched, not their order
    shows = [a for a in record.actions if isinstance(a, ShowMuck) and a.cards is not None]
    assert len(shows) == 2 and all(None not in (a.cards or ()) for a in shows)


def test_a_tournament_with_a_side_pot_and_a_short_all_in_raise(shared_data: Path) -> None:
    [record] = assert_file(shared_data, MTT, EXPECTED[MTT]).records
    assert record.rules.variant is Variant.STUD5 and record.currency is None and record.chip_value == 1
    assert record.info["tournament"] == "251332389" and record.info["tournament_name"] == "Big Game of the Week"
    assert record.info["level"] == "800/1600 Ante 150" and record.info["table"] == "1"
    assert (record.rules.ante, record.rules.bring_in, record.rules.small_bet) == (150, 250, 800)
    stated = record.info["stated"]
    assert [(p.pot, p.amount) for p in stated.pots] == [(0, 5335), (1, 6910)]
    assert record.winnings == (0, 12245, 0, 0, 0, 0, 0)
    # Player4's all-in to 1,345 over 800 is more than half a bet: Player0 may raise again (R6.12)
    bets = [a for a in record.actions if isinstance(a, Bet) and a.verb == "cbr"]
    assert [b.amount for b in bets[:3]] == [800, 1345, 2145]
    state = sites.verify(record).state
    assert state.stacks[0] == 0 and state.stacks[1] == 27915 - 4950 + 12245  # he covers Player0's 4,950


def test_a_bring_in_all_in_heads_up(shared_data: Path) -> None:
    [record] = assert_file(shared_data, HUSNG, EXPECTED[HUSNG]).records
    assert record.rules.variant is Variant.RAZZ and record.starting_stacks == (24, 976)
    assert record.rules.bring_in == 9 and record.winnings == (0, 48)
    assert record.info["stated"].actions[0].all_in is True


def test_razz_abroad_keeps_its_own_time(shared_data: Path) -> None:
    [record] = assert_file(shared_data, RAZZ, EXPECTED[RAZZ]).records
    assert record.info["time"] == "17:10:10" and record.info["time_zone_abbreviation"] == "CCT"
    assert record.rake == 5 and record.winnings == (0, 0, 0, 0, 0, 0, 112)


def test_a_changed_amount_is_named_with_its_line(shared_data: Path) -> None:
    text = _text(shared_data, MTT).replace("Player1 wins the main pot (5,335)", "Player1 wins the main pot (5,336)")
    _, [hand] = sites.loads_each(text)
    assert hand.record is not None
    with pytest.raises(
        sites.SiteError, match=r"line 63\): what Player1 collects from the main pot: the file says 5,336"
    ):
        sites.verify(hand.record)


def test_a_street_total_that_does_not_add_up_is_refused(shared_data: Path) -> None:
    text = _text(shared_data, MTT).replace("(Total Pot: 6,935,", "(Total Pot: 6,936,")
    _, [hand] = sites.loads_each(text)
    assert hand.error is not None and hand.error.line == 38 and "the pot is 6,936" in str(hand.error)


def test_another_game_is_skipped_and_the_file_goes_on(shared_data: Path) -> None:
    stud = _text(shared_data, "FTP/cash/7-Stud-USD-3-6-20106.Steal.from.CO.Success.txt")
    holdem = (
        "Full Tilt Poker Game #1: Table X - $0.05/$0.10 - No Limit Hold'em - 12:00:00 ET - 2010/06/11\n"
        "Seat 1: A ($5)\nSeat 2: B ($5)\n\n"
    )
    room, hands = sites.loads_each(holdem + stud)
    assert room == "fulltilt"
    assert [h.skipped for h in hands] == ["No Limit Hold'em", None]
    assert hands[1].line == 5 and hands[1].record is not None and sites.verify(hands[1].record).state.is_over
    _, [nl] = sites.loads_each(stud.replace("Limit Stud Hi", "No Limit Stud Hi"))
    assert nl.skipped == "No Limit Stud Hi"


def test_detection_and_a_seventh_street_card_unseen(shared_data: Path) -> None:
    assert fulltilt.detect("\ufeffFull Tilt Poker Game #1: ...") and not fulltilt.detect("PokerStars Hand #1:")
    assert sites.detect(_text(shared_data, HUSNG)) == "fulltilt"
    records = assert_file(shared_data, STEALS, EXPECTED[STEALS]).records
    [record] = [r for r in records if r.info["hand"] == "11111111633"]
    hero4 = record.players.index("Hero4")
    cards = [c for a in record.actions if isinstance(a, Deal) and a.player == hero4 for c in a.cards]
    assert len(cards) == 7 and None not in cards  # the summary's mucked hand fills his down cards, the 7th included


def test_text_before_the_first_hand_is_not_dropped() -> None:
    [(line, error)] = fulltilt.loads_each("\nsome other text\n")
    assert line == 2 and isinstance(error, sites.SiteError)
