"""KingsClub: every hand of its files replayed and its amounts checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from studpoker.engine import Variant
from studpoker.history import ShowMuck, sites
from studpoker.history.sites import kingsclub

from .helpers import Expected, assert_file

HILO = "KingsClub/cash/7-StudHL-USD-40-80-202101.txt"
STUD = "KingsClub/cash/7-Stud-USD-44-88-202010.txt"
RAZZ = "KingsClub/cash/Razz-USD-500-100-202101.multi.pot.failure.txt"

#: KingsClub raises 3rd street to the bring-in plus the small bet after a completion (44, then 77.16 =
#: 33.16 + 44): not a fixed-limit raise, refused where it stands.
EXPECTED = {
    "KingsClub/cash/2-7 Razz-USD-22-44-202101.txt": Expected("kingsclub", 0, skipped={"2-7 Razz": 1}),
    "KingsClub/cash/2-7 Razz-USD-500-1000-202102.multi.pot.failure.txt": Expected(
        "kingsclub", 0, skipped={"2-7 Razz": 1}
    ),
    STUD: Expected("kingsclub", 0, refused={"37581152": "(line 25): p4 (Player3) may not cbr 7716 now"}),
    HILO: Expected("kingsclub", 1),
    RAZZ: Expected("kingsclub", 0, refused={"3537921": "(line 31): p5 (Player4) may not cbr 62500 now"}),
}


def _text(data: Path, name: str) -> str:
    return sites.decode((data / "sites" / name).read_bytes())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_files(shared_data: Path, name: str) -> None:
    assert_file(shared_data, name, EXPECTED[name])


def test_detection() -> None:
    assert kingsclub.detect("#39969428: Limit Seven Card Stud Hi-Lo - 40/80\n2021-01-02 15:52:36\nTable '8'")
    assert not kingsclub.detect("#39969428: Limit Seven Card Stud Hi-Lo - 40/80\nSeat 1: Ann (10)\n")
    assert not kingsclub.detect("Bovada Hand #2633115879: 7CARD Tournament #1378659 TBL#1, Fixed Limit- Level 1")


def test_a_scooped_hi_lo_pot_with_final_stacks(shared_data: Path) -> None:
    """No low qualifies: Player0 takes $6.60 less the $0.01 rake; the summary's stacks and nets agree."""
    [record] = assert_file(shared_data, HILO, EXPECTED[HILO]).records
    assert record.rules.variant is Variant.STUD7_HL8 and record.currency == "USD" and record.chip_value == 0.01
    rules = record.rules
    assert (rules.ante, rules.bring_in, rules.small_bet, rules.big_bet) == (1000, 1000, 4000, 8000)
    assert record.players == ("Player0", "Hero") and record.seats == (1, 6)
    assert record.rake == 100 and record.winnings == (65900, 0)
    assert record.finishing_stacks == (205459, 105419)
    assert (record.info["table"], record.info["year"], record.info["time"]) == ("8 Game Mix", 2021, "15:52:36")
    assert sites.verify(record).state.is_over


def test_a_hand_shown_in_another_order_keeps_its_deal(shared_data: Path) -> None:
    """Hero was dealt Qh 4s Qs and shows ``[4s Qh Qs ...]``: the down cards take their places."""
    [record] = assert_file(shared_data, HILO, EXPECTED[HILO]).records
    shown = [a for a in record.actions if isinstance(a, ShowMuck) and a.player == 1]
    assert shown and shown[0].cards is not None and [str(c) for c in shown[0].cards[:3]] == ["Qh", "4s", "Qs"]


def test_the_streets_are_counted_not_read(shared_data: Path) -> None:
    """``*** 3RD STREET ***`` heads the second round: the 40 bets before the 80s are 4th street's."""
    [record] = assert_file(shared_data, HILO, EXPECTED[HILO]).records
    state = sites.verify(record).state
    assert tuple(state.totals) == (33000, 33000)


def test_a_changed_amount_is_named_with_its_line(shared_data: Path) -> None:
    text = _text(shared_data, HILO).replace("+329", "+330")
    _, [hand] = sites.loads_each(text)
    assert hand.record is not None
    with pytest.raises(sites.SiteError, match=r"hand 39969428 \(line 38\): the net result of Player0"):
        sites.verify(hand.record)


def test_a_changed_final_stack_is_refused(shared_data: Path) -> None:
    text = _text(shared_data, HILO).replace("(1,054.19)", "(1,054.29)")
    _, [hand] = sites.loads_each(text)
    assert hand.record is not None
    with pytest.raises(sites.SiteError, match=r"\(line 39\): the final stack of Hero"):
        sites.verify(hand.record)


def test_the_multi_pot_hand_never_shows_its_river(shared_data: Path) -> None:
    """Razz hand 3537921: Player3 all-in for 350, a side pot, one ``wins pot (4,100)``; the two hands are shown
    on 5th street and the river cards stay ``[X]``. It is refused at the raise to 625 before that matters."""
    _, [hand] = sites.load_each(shared_data / "sites" / RAZZ)
    record = hand.record
    assert record is not None and record.rules.variant is Variant.RAZZ
    assert record.info["stated"].collected[0].amount == 410000
    with pytest.raises(sites.SiteError, match="may not cbr 62500"):
        sites.verify(record)


def test_a_cut_hand_is_refused(shared_data: Path) -> None:
    text = _text(shared_data, HILO).split("*** SUMMARY ***")[0]
    _, [hand] = sites.loads_each(text, "kingsclub")
    assert hand.error is not None and "no summary" in str(hand.error)
