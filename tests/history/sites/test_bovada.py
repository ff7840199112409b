"""Bovada (Bodog): every hand of its files replayed and its amounts checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from studpoker.engine import Variant
from studpoker.history import Bet, sites
from studpoker.history.sites import bovada

from .helpers import Expected, assert_file

CASH = "Bovada/cash/7-Stud-USD-2.00-4.00-201205.txt"
HILO = "Bovada/cash/7-StudHL-USD-0.25-0.50-201209.txt"
MTT = "Bovada/tour/7-Stud-USD-MTT - $10-$1 - 201206.txt"

EXPECTED = {
    CASH: Expected("bovada", 4),
    HILO: Expected("bovada", 1),
    MTT: Expected("bovada", 40),
}


def _text(data: Path, name: str) -> str:
    return sites.decode((data / "sites" / name).read_bytes())


def _hand(data: Path, name: str, hand: str) -> sites.SiteHand:
    _, hands = sites.loads_each(_text(data, name), "bovada")
    [found] = [h for h in hands if h.record is not None and h.record.info["hand"] == hand]
    return found


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_files(shared_data: Path, name: str) -> None:
    assert_file(shared_data, name, EXPECTED[name])


def test_detection() -> None:
    assert bovada.detect("\ufeffBodog Hand #2604291510 TBL#1178621 7CARD Fixed Limit - 2012-05-07 03:40:07")
    assert bovada.detect("Bovada Hand #2633115879: 7CARD Tournament #1378659 TBL#1, Fixed Limit- Level 1 (0/0)")
    assert not bovada.detect("PokerStars Hand #1:  Razz Limit ($0.04/$0.08 USD)")
    assert not bovada.detect("#37581152: Limit Seven Card Stud - 44/88\n2020-10-26 19:00:47\n")


def test_the_bom_file_and_its_seat_names(shared_data: Path) -> None:
    """The file starts with a UTF-8 byte-order mark; players are their seats, the saver marked ``[ME]``."""
    assert (shared_data / "sites" / CASH).read_bytes().startswith(b"\xef\xbb\xbf")
    records = assert_file(shared_data, CASH, EXPECTED[CASH]).records
    first = records[0]
    assert first.players == ("Seat+1", "Seat+3 [ME]", "Seat+5") and first.seats == (1, 3, 5)
    assert first.starting_stacks == (57, 50, 51) and first.currency == "USD" and first.chip_value == 0.01
    assert (first.info["table"], first.info["year"], first.info["month"], first.info["time"]) == (
        "1178621",
        2012,
        5,
        "03:40:07",
    )
    rules = first.rules
    assert (rules.variant, rules.ante, rules.bring_in, rules.small_bet, rules.big_bet) == (Variant.STUD7, 1, 2, 5, 10)
    # Seat+3 sits out the fourth hand: not dealt in, not in the record
    assert records[3].players == ("Seat+1", "Seat+5")


def test_the_double_bet_of_an_open_pair(shared_data: Path) -> None:
    """``D bets $0.10`` on 4th street, Seat+1's 3c 3d on board: the casino's double-bet option."""
    record = _hand(shared_data, CASH, "2604291577").record
    assert record is not None
    bets = [a for a in record.actions if isinstance(a, Bet) and a.verb == "cbr"]
    assert bets[0].amount == 10 and record.rake == 2 and record.winnings == (0, 0, 57)
    assert sites.verify(record).state.is_over


def test_a_split_pot_after_rake(shared_data: Path) -> None:
    """$4.85 less $0.20: HI $2.33 to Seat+4, LO $2.32 to Seat+1; the low card completed at once (no bring-in)."""
    [record] = assert_file(shared_data, HILO, EXPECTED[HILO]).records
    assert record.rules.variant is Variant.STUD7_HL8 and (record.rules.small_bet, record.rules.big_bet) == (25, 50)
    assert record.rake == 20 and record.winnings == (232, 0, 0, 233, 0, 0, 0)
    assert not any(isinstance(a, Bet) and a.verb == "pb" for a in record.actions)


def test_a_tournament_in_chips_with_its_level(shared_data: Path) -> None:
    records = assert_file(shared_data, MTT, EXPECTED[MTT]).records
    first, last = records[0], records[-1]
    assert first.currency is None and first.chip_value == 1 and first.starting_stacks[0] == 1500
    assert first.info["tournament"] == "1378659" and first.info["level"] == 1 and first.info["table"] == "1"
    assert (first.rules.ante, first.rules.bring_in, first.rules.small_bet, first.rules.big_bet) == (2, 5, 10, 20)
    assert last.info["level"] == 9
    assert (last.rules.ante, last.rules.bring_in, last.rules.small_bet, last.rules.big_bet) == (60, 150, 300, 600)


def test_a_side_pot(shared_data: Path) -> None:
    """Two all-ins on 4th street: ``Hand Result-Side Pot 710`` and ``Hand Result 1755``, total 2465."""
    record = _hand(shared_data, MTT, "2633131343").record
    assert record is not None
    stated = record.info["stated"]
    assert sorted((a.pot, a.amount) for a in stated.collected) == [(0, 1755), (1, 710)]
    assert record.winnings is not None and sum(record.winnings) == 2465
    assert sites.verify(record).state.is_over


def test_an_all_in_raise_is_a_raise_to_the_total(shared_data: Path) -> None:
    """``Seat+4 [ME] : All-in(raise) 1054`` after his raise to 600: his whole stack, 1114 less the 60 ante."""
    record = _hand(shared_data, MTT, "2633133863").record
    assert record is not None
    [said] = [a for a in record.info["stated"].actions if a.all_in]
    assert (said.kind, said.to) == ("raise", 1054)
    assert record.starting_stacks[record.players.index("Seat+4 [ME]")] == 1114
    assert sites.verify(record).state.is_over


def test_a_changed_amount_is_named_with_its_line(shared_data: Path) -> None:
    text = _text(shared_data, CASH).replace("Hand result $0.45", "Hand result $0.46")
    _, hands = sites.loads_each(text)
    record = hands[2].record
    assert record is not None
    with pytest.raises(sites.SiteError, match=r"hand 2604291699 \(line 115\): what Seat\+3 \[ME\] collects"):
        sites.verify(record)


def test_a_changed_bet_is_refused(shared_data: Path) -> None:
    """The stakes come from the hand, so a changed wager must still disagree with something the file says."""
    text = _text(shared_data, CASH).replace("Seat+5 : Bets $0.05", "Seat+5 : Bets $0.06")
    _, hands = sites.loads_each(text)
    error = hands[2].error
    assert error is not None and str(error) == (
        "Bovada hand 2604291699 (line 103): the wager of line 98 makes the small bet $0.06, that of line 103 the"
        " big bet $0.10: not twice the small one"
    )


def test_other_games_are_skipped_and_the_rest_still_read(shared_data: Path) -> None:
    text = _text(shared_data, CASH)
    holdem = text.replace("7CARD Fixed Limit - 2012-05-07 03:40:07", "HOLDEM No Limit - 2012-05-07 03:40:07", 1)
    _, hands = sites.loads_each(holdem, "bovada")
    assert hands[0].skipped == "HOLDEM No Limit" and all(h.record is not None for h in hands[1:])


def test_a_cut_hand_is_refused_alone(shared_data: Path) -> None:
    first, rest = _text(shared_data, CASH).split("\n\n\n", 1)
    text = "\n".join(first.split("\n")[:20]) + "\n\n\n" + rest
    _, hands = sites.loads_each(text, "bovada")
    assert hands[0].error is not None and "no summary" in str(hands[0].error)
    assert all(h.record is not None for h in hands[1:])
