"""Merge Gaming: every hand of its XML files replayed and its amounts checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from studpoker.history import sites
from studpoker.history.sites.check import replayed

from .helpers import Expected, assert_file

STUD = "Merge/cash/7-Stud-USD-0.50-1.00-201102.Sample.txt"
HL_2011 = "Merge/cash/7-StudHL-USD-0.25-0.50-201111.txt"
HL_2013 = "Merge/cash/7-StudHL-USD-0.25-0.50-201307.no.null.xml"
NL = "Merge/cash/NL7-StudHL-0.01-0.02-0.10-201204.xml"

EXPECTED = {
    STUD: Expected("merge", 1),
    HL_2011: Expected("merge", 1),
    HL_2013: Expected("merge", 1),
    NL: Expected("merge", 0, skipped={"7-Stud H/L8 No Limit": 1}),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_files(shared_data: Path, name: str) -> None:
    assert_file(shared_data, name, EXPECTED[name])


def _text(shared_data: Path, name: str) -> str:
    return sites.decode((shared_data / "sites" / name).read_bytes())


def _one(text: str) -> sites.SiteHand:
    room, [hand] = sites.loads_each(text)
    assert room == "merge"
    return hand


def test_showdown_after_rake(shared_data: Path) -> None:
    [record] = assert_file(shared_data, STUD, EXPECTED[STUD]).records
    assert record.info["hand"] == "31423297-107" and record.info["table"] == "Hudson (31423297)"
    assert (record.info["year"], record.info["month"], record.info["day"], record.info["time"]) == (
        2011,
        2,
        4,
        "20:22:44",
    )
    assert record.seats == (1, 2, 3, 4, 6, 7, 8)  # the file's seats 0-7, plus one
    assert record.currency == "USD" and record.chip_value == 0.01
    assert (record.rules.ante, record.rules.bring_in, record.rules.small_bet, record.rules.big_bet) == (5, 10, 50, 100)
    assert record.rake == 18  # $3.65 put in, Player5 (two pair, shown) takes $3.47
    account = replayed(record, sites.verify(record).state, record.rake)
    assert account.stacks[4] == 1880 - 165 + 347 and record.players[4] == "Player5"


def test_uncalled_bet_counted_in_the_winning(shared_data: Path) -> None:
    [record] = assert_file(shared_data, HL_2011, EXPECTED[HL_2011]).records
    account = replayed(record, sites.verify(record).state, record.rake)
    # winner amount="0.64": the $0.14 pot and Hero's 7th-street $0.50 nobody called
    assert record.rake == 0 and account.returned == [0, 50] and account.won == [0, 14]


def test_hi_lo_without_a_low_and_less_than_five_percent(shared_data: Path) -> None:
    [record] = assert_file(shared_data, HL_2013, EXPECTED[HL_2013]).records
    assert record.rules.variant.name == "STUD7_HL8" and record.rake == 16  # $4.39 pays $0.16
    assert "Player0" not in record.players  # dealtin="false"
    assert replayed(record, sites.verify(record).state, record.rake).stacks[4] == 993 - 177 + 423


def test_no_limit_is_skipped(shared_data: Path) -> None:
    hand = _one(_text(shared_data, NL))
    assert hand.skipped == "7-Stud H/L8 No Limit" and hand.record is None


def test_a_changed_amount_is_named_with_its_line(shared_data: Path) -> None:
    text = _text(shared_data, HL_2013)
    third, fourth = 'player="3" amount="0.20"', 'player="3" amount="0.50"'
    assert text.count(third) == text.count(fourth) == 1  # Player3 calls $0.20 on 3rd street, $0.50 on 4th
    hand = _one(text.replace(third, 'player="3" amount="0.25"').replace(fourth, 'player="3" amount="0.45"'))
    assert hand.record is not None
    with pytest.raises(
        sites.SiteError, match=r"line 39\): what Player3 puts in: the file says \$0.25, the replay \$0.20"
    ):
        sites.verify(hand.record)
    # the rake is not written: what the winner takes leaves it, implied (and said so); more than the pot fails
    for amount, rake in (("4.13", 26), ("4.24", 15)):
        taken = _one(text.replace('amount="4.23"', f'amount="{amount}"'))
        assert taken.record is not None and taken.record.rake == rake
        assert f"the rake, ${rake / 100:.2f}, is implied" in " ".join(sites.verify(taken.record).notes)
    more = _one(text.replace('amount="4.23"', 'amount="4.40"'))
    assert more.error is not None and "more than the $4.39 put in" in str(more.error)


def test_a_broken_hand_costs_only_itself(shared_data: Path) -> None:
    first, second = _text(shared_data, STUD), _text(shared_data, HL_2013)
    broken = first.replace('type="CHECK" timestamp="1296868962250"', 'type="NAP" timestamp="1296868962250"')
    room, hands = sites.loads_each(broken + second)
    assert room == "merge" and hands[0].error is not None and hands[1].record is not None
    assert hands[0].error.line == 40 and "unknown event type 'NAP'" in str(hands[0].error)
    assert hands[1].line == first.count("\n") + 2
    sites.verify(hands[1].record)
    cut = first[: first.index("</game>")]
    [hand] = sites.loads_each(cut, "merge")[1]
    assert hand.error is not None and "no </game>" in str(hand.error)


def test_hostile_xml_is_refused() -> None:
    text = '<!DOCTYPE game [<!ENTITY a "aaaa">]>\n<description type="7-Stud" stakes="Limit $0.50/$1"/>\n<game id="1">'
    with pytest.raises(sites.SiteError, match=r"line 1\): the file declares a DOCTYPE or an ENTITY"):
        sites.loads_each(text + "&a;</game>", "merge")
