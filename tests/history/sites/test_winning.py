"""Winning Poker Network: every hand of its files replayed and its amounts checked."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from studpoker.engine import Variant
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


# -- Americas Cardroom's format of 2026 (tests/history/wild/Winning, kept by the PokerVector project) ----------------

ACR = Path(__file__).parents[1] / "wild" / "Winning" / "7Stud-HL-8max-USD-0.04-0.08-202602.pokervector.txt"
ACR_HEADER = "Hand #2672065780 - 7Stud H/L (Fixed Limit) - $0.04/$0.08, Ante $0.01 - 2026/02/16 03:36:34 UTC"


def _acr(text: str | None = None) -> sites.SiteHand:
    """The one hand of the 2026 file (or of ``text``, the file changed), read as Winning's."""
    room, [hand] = sites.loads_each(ACR.read_text(encoding="utf-8") if text is None else text, "winning")
    assert room == "winning"
    return hand


def _acr_changed(old: str, new: str) -> sites.SiteHand:
    text = ACR.read_text(encoding="utf-8")
    assert old in text
    return _acr(text.replace(old, new, 1))


def test_the_2026_format_is_detected_and_replays() -> None:
    text = ACR.read_text(encoding="utf-8")
    assert text.startswith(ACR_HEADER) and winning.detect(text) and sites.detect(text) == "winning"
    hand = _acr()
    assert hand.record is not None
    record = hand.record
    assert record.rules.variant is Variant.STUD7_HL8
    assert (record.rules.ante, record.rules.bring_in, record.rules.small_bet, record.rules.big_bet) == (1, 2, 4, 8)
    assert record.players[0] == "POPCHOW288" and record.seats == (1, 2, 4, 5, 6, 7, 8)
    assert record.rake == 0 and record.winnings == (13, 0, 0, 0, 0, 0, 0)
    assert (record.info["table"], record.info["year"], record.info["time"]) == ("Kappa 8-max", 2026, "03:36:34")
    stated = record.info["stated"]
    antes = sorted((a.player, a.amount, a.line) for a in stated.antes)  # by seat: the lines of "posts ante $0.01"
    assert antes == [(p, 1, line) for p, line in enumerate((16, 10, 12, 14, 13, 15, 11))]
    assert stated.total_pot is not None and (stated.total_pot.amount, stated.total_pot.line) == (13, 46)
    assert stated.rake is not None and (stated.rake.amount, stated.rake.line) == (0, 34)  # "Main pot $0.13 | Rake"
    assert [(a.player, a.amount) for a in stated.won] == [(0, 13)]  # "did not show and won $0.13"
    # "folded on the 3rd Street and did not bet", "folded on the 4th Street"
    assert sorted((a.player, a.amount) for a in stated.folds) == [(1, 3), (2, 3), (3, 4), (4, 3), (5, 4), (6, 3)]
    assert [(a.amount, a.line) for a in stated.returned] == [(4, 43)]
    comments = [str(a.text) for a in record.actions if type(a).__name__ == "Comment"]
    assert comments == ["POPCHOW288 does not show"]
    sites.verify(record)


@pytest.mark.parametrize("ante", ["", ", Ante $0.01"])
@pytest.mark.parametrize("space", ["", " "])
@pytest.mark.parametrize(
    ("game", "variant"), [("7Stud", Variant.STUD7), ("7Stud H/L", Variant.STUD7_HL8), ("Razz", Variant.RAZZ)]
)
def test_both_header_spellings_for_every_game(game: str, variant: Variant, space: str, ante: str) -> None:
    header = f"Hand #2672065780 - {game}{space}(Fixed Limit) - $0.04/$0.08{ante} - 2026/02/16 03:36:34 UTC"
    text = header + ACR.read_text(encoding="utf-8")[len(ACR_HEADER) :]
    assert winning.detect(text) and winning.starts_hand(header)
    hand = _acr(text)
    assert hand.error is None and hand.record is not None
    assert hand.record.rules.variant is variant and hand.record.rules.ante == 1
    if variant is not Variant.RAZZ:  # the razz bring-in is the high card: the hand itself is stud's
        sites.verify(hand.record)


def test_the_header_ante_is_checked_against_the_posted_antes() -> None:
    hand = _acr_changed("Ante $0.01 - ", "Ante $0.02 - ")
    assert hand.record is not None and hand.record.rules.ante == 2  # the replay posts the header's ante
    with pytest.raises(sites.SiteError, match=r"line 10\): mulliongc's ante: the file says \$0.01, the replay \$0.02"):
        sites.verify(hand.record)
    hand = _acr_changed("BiggieSlick posts ante $0.01", "BiggieSlick posts ante $0.02")
    assert hand.record is not None
    said = r"line 11\): BiggieSlick's ante: the file says \$0.02, the replay \$0.01"
    with pytest.raises(sites.SiteError, match=said):
        sites.verify(hand.record)


def test_a_malformed_2026_header_is_refused_with_what_it_says() -> None:
    hand = _acr_changed(", Ante $0.01", ", Antes $0.01")
    assert hand.record is None and hand.error is not None
    assert str(hand.error).startswith("Winning Poker Network hand 2672065780 (line 1): cannot read the header ")
    assert "Antes $0.01" in str(hand.error) and "[, Ante $ANTE]" in str(hand.error)
    hand = _acr_changed("(Fixed Limit) - $0.04/$0.08", "(Fixed Limit) - $0.04-$0.08")
    assert hand.error is not None and "cannot read the header" in str(hand.error)
    # a header of another game that the stud reader cannot read is that game's, skipped, never refused
    hand = _acr_changed("7Stud H/L (Fixed Limit) - $0.04/$0.08, Ante $0.01", "Holdem (No Limit) - Level I (10/20)")
    assert hand.error is None and hand.record is None and hand.skipped == "Holdem (No Limit)"


def test_a_header_ante_with_no_ante_line_is_checked_by_the_pots() -> None:
    text = ACR.read_text(encoding="utf-8")
    lines = [line for line in text.split("\n") if " posts ante " not in line]
    hand = _acr("\n".join(lines))
    assert hand.record is not None and hand.record.rules.ante == 1 and not hand.record.info["stated"].antes
    sites.verify(hand.record)  # the replay posts the header's ante: the summary's total pot, $0.13, says so
    hand = _acr("\n".join(lines).replace("Ante $0.01 - ", "Ante $0.02 - "))
    assert hand.record is not None
    with pytest.raises(sites.SiteError, match=r"the total pot: the file says \$0.13, the replay \$0.20"):
        sites.verify(hand.record)


def test_the_2026_summary_amounts_are_checked() -> None:
    hand = _acr_changed("did not show and won $0.13", "did not show and won $0.12")
    assert hand.record is not None
    with pytest.raises(sites.SiteError, match=r"line 47\): what is won by POPCHOW288: the file says \$0.12"):
        sites.verify(hand.record)
    hand = _acr_changed("Total pot $0.13", "Total pot $0.14")
    assert hand.record is not None
    with pytest.raises(sites.SiteError, match=r"line 46\): the total pot: the file says \$0.14, the replay \$0.13"):
        sites.verify(hand.record)
    # no rake in the summary: the last pot lines' rake is the hand's
    hand = _acr_changed("Main pot $0.13 | Rake $0.00", "Main pot $0.13 | Rake $0.01")
    assert hand.record is not None and hand.record.rake == 1
    with pytest.raises(sites.SiteError, match=r"line 46\): the total pot: the file says \$0.13, the replay \$0.12"):
        sites.verify(hand.record)
    hand = _acr_changed("Total pot $0.13", "Total pot $0.13 | Rake $0.00")  # the 2019-2023 spelling
    assert hand.record is not None and hand.record.info["stated"].rake.line == 46
    sites.verify(hand.record)
    hand = _acr_changed("folded on the 3rd Street and did not bet", "folded on the 4th Street and did not bet")
    assert hand.record is not None
    with pytest.raises(sites.SiteError, match=r"line 48\): the street mulliongc folded on: the file says 4"):
        sites.verify(hand.record)


@pytest.mark.parametrize(
    "line",
    [
        "Seat 1: POPCHOW288 did not show and wins $0.13",
        "Seat 1: POPCHOW288 did not show and won $0.13 and more",
        "Seat 2: mulliongc folded on the 3rd Street and did not bet $0.01",
        "Seat 2: mulliongc sat out",
    ],
)
def test_a_summary_seat_line_of_another_wording_is_refused(line: str) -> None:
    lines = ACR.read_text(encoding="utf-8").split("\n")
    seat = 46 if "POPCHOW288" in line else 47  # the summary's lines of seats 1 and 2
    assert lines[seat].startswith(line[:8])
    hand = _acr("\n".join([*lines[:seat], line, *lines[seat + 1 :]]))
    assert hand.record is None and hand.error is not None
    assert f"cannot read the summary line {line!r}" in str(hand.error)


def test_a_2026_line_that_moves_chips_fails_the_hand_and_chat_does_not() -> None:
    hand = _acr_changed("POPCHOW288 does not show", "POPCHOW288 callz $0.04")
    assert hand.error is not None and "(line 44): cannot read the line 'POPCHOW288 callz $0.04'" in str(hand.error)
    hand = _acr_changed("POPCHOW288 does not show", "POPCHOW288 said gg")
    assert hand.record is not None
    sites.verify(hand.record)
