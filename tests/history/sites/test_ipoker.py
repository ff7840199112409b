"""iPoker: every hand of its XML sessions replayed and its amounts checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from studpoker.history import sites
from studpoker.history.model import Bet
from studpoker.history.sites.check import replayed
from studpoker.history.sites.ipoker import cut_parts

from .helpers import Expected, assert_file

CASH5 = "iPoker/cash/5-StudL-USD-0.05-0.10-201111.Sample.with.showdown.xml"
CASH7 = "iPoker/cash/7-StudL-USD-0.05-0.10-201009.txt"
TOUR = "iPoker/tour/7-StudHi-USD-STT-5-201103.txt"

EXPECTED = {
    CASH5: Expected("ipoker", 1),
    CASH7: Expected("ipoker", 2),
    TOUR: Expected("ipoker", 117),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_files(shared_data: Path, name: str) -> None:
    assert_file(shared_data, name, EXPECTED[name])


def _text(shared_data: Path, name: str) -> str:
    return sites.decode((shared_data / "sites" / name).read_bytes())


def _hand(text: str, hand: str) -> sites.SiteHand:
    _, hands = sites.loads_each(text, "ipoker")
    return next(h for h in hands if (h.record and h.record.info["hand"] == hand) or (h.error and h.error.hand == hand))


def test_five_card_stud_raked_five_percent(shared_data: Path) -> None:
    [record] = assert_file(shared_data, CASH5, EXPECTED[CASH5]).records
    assert record.rules.variant.name == "STUD5" and record.players == ("Player1", "Hero") and record.seats == (1, 4)
    assert record.rules.ante == 2 and record.rules.bring_in == 2 and record.rules.small_bet == 5
    assert record.currency == "USD" and record.chip_value == 0.01 and record.starting_stacks == (267, 128)
    assert record.rake == 2  # $0.44 pays $0.02: Player1 (a pair of fours, shown at the deal) takes $0.42
    assert record.info["table"] == "Dundee, 637718441" and (record.info["year"], record.info["time"]) == (
        2011,
        "18:10:00",
    )
    assert replayed(record, sites.verify(record).state, record.rake).stacks == [287, 106]


def test_uncalled_bet_in_win_and_bet(shared_data: Path) -> None:
    records = assert_file(shared_data, CASH7, EXPECTED[CASH7]).records
    record = records[1]
    assert record.info["hand"] == "2418630592" and record.players[3] == "komanchi7"
    account = replayed(record, sites.verify(record).state, record.rake)
    # bet="$0.18" and win="$0.43" both count the 5th-street $0.10 nobody called; the $0.34 pot pays $0.01
    assert account.returned[3] == 10 and account.invested[3] == 8 and account.won[3] == 33 and record.rake == 1


def test_tournament_chips_and_level(shared_data: Path) -> None:
    record = assert_file(shared_data, TOUR, EXPECTED[TOUR]).records[0]
    assert record.info["hand"] == "4044858766" and record.info["tournament"] == "$5 Limit 7 Card Stud"
    assert record.info["tournament_id"] == "699476041" and record.info["hero"] == "Player11"
    assert record.info["level"] == 1 and record.currency is None and record.chip_value == 1.0
    rules = record.rules
    assert (rules.ante, rules.bring_in, rules.small_bet, rules.big_bet) == (8, 15, 60, 120)
    assert record.starting_stacks == (1440, 1405, 1500, 1800, 1265, 1490) and record.rake == 0
    last = assert_file(shared_data, TOUR, EXPECTED[TOUR]).records[-1]
    assert last.info["level"] == 10 and (last.rules.ante, last.rules.small_bet) == (150, 1000)


def test_side_pots(shared_data: Path) -> None:
    hand = _hand(_text(shared_data, TOUR), "4044980553")
    assert hand.record is not None
    record = hand.record
    account = replayed(record, sites.verify(record).state, 0)
    assert account.gross == [2436, 1788, 160]  # Player18 all-in for 514, Player10 for 1,110; Player19 takes all
    assert account.payouts == [{4: 2436}, {4: 1788}, {4: 160}] and record.players[4] == "Player19"
    all_ins = [a.all_in for a in record.info["stated"].actions]
    assert all_ins.count(True) == 3


def test_all_in_and_the_raisers_ante(shared_data: Path) -> None:
    text = _text(shared_data, TOUR)
    hand = _hand(text, "4045034332")
    assert hand.record is not None
    state = sites.verify(hand.record).state
    assert state.stacks == (16568, 9348, 3310, 0, 32274)  # Player11 all-in on 6th street for 2,603
    said = hand.record.info["stated"].actions
    assert [(a.kind, a.added, a.all_in) for a in said if a.all_in] == [("raise", 2603, True)]
    # his bet="5,203" counts his ante twice (as iPoker writes every raiser's); any other amount is refused
    broken = _hand(text.replace('bet="5,203"', 'bet="5,204"'), "4045034332")
    assert broken.error is not None and broken.error.line == 2834
    assert "Player11's bet is 5,204, but his actions put in 5,053" in str(broken.error)


def test_a_changed_amount_is_named_with_its_line(shared_data: Path) -> None:
    text = _text(shared_data, TOUR)
    old = 'no="10" player="Player2" type="5" sum="60" cards=""/><action no="16" player="Player2" type="3" sum="60"'
    assert text.count(old) == 1  # hand 4044860560: Player2 completes to 60, calls 60 more; say 70 and 50
    changed = text.replace(old, old.replace('sum="60" c', 'sum="70" c').replace('sum="60"', 'sum="50"'))
    hand = _hand(changed, "4044860560")
    assert hand.record is not None
    with pytest.raises(sites.SiteError, match=r"hand 4044860560 \(line 249\): .*Player2.* may not"):
        sites.verify(hand.record)
    # the rake is not written: a cent more won is a cent less of rake (implied, and said so); more than the pot fails
    won = _hand(_text(shared_data, CASH5).replace('win="$0.42"', 'win="$0.43"'), "3013529647")
    assert won.record is not None and won.record.rake == 1
    assert "the rake, $0.01, is implied" in " ".join(sites.verify(won.record).notes)
    won = _hand(_text(shared_data, CASH5).replace('win="$0.42"', 'win="$0.52"'), "3013529647")
    assert won.error is not None and won.error.line == 25
    assert "the players take $0.52, more than the $0.44 they put in" in str(won.error)


def test_a_broken_hand_costs_only_itself(shared_data: Path) -> None:
    text = _text(shared_data, TOUR)
    start = text.index('<game gamecode="4044858923">')
    broken = text[:start] + text[start:].replace('type="5"', 'type="99"', 1)
    _, hands = sites.loads_each(broken, "ipoker")
    errors = [h for h in hands if h.error is not None]
    assert len(hands) == 117 and [e.error.hand for e in errors if e.error] == ["4044858923"]
    assert "unknown action type '99'" in str(errors[0].error)
    cut = text[: text.index("</game>", start)]
    _, hands = sites.loads_each(cut, "ipoker")
    assert len(hands) == 2 and hands[0].record is not None
    assert hands[1].error is not None and "no </game>" in str(hands[1].error)


def test_other_games_are_skipped(shared_data: Path) -> None:
    text = _text(shared_data, CASH7).replace("7 Card Stud L $0.05/$0.10", "Holdem NL $0.05/$0.10")
    _, hands = sites.loads_each(text, "ipoker")
    assert [h.skipped for h in hands] == ["Holdem NL", "Holdem NL"]


def test_hostile_xml_is_refused() -> None:
    text = '<?xml version="1.0"?>\n<!DOCTYPE s [<!ENTITY a "aaaa">]>\n<session><general><gametype>x</gametype>'
    with pytest.raises(sites.SiteError, match=r"line 2\): the file declares a DOCTYPE or an ENTITY"):
        sites.loads_each(text + "</general><game gamecode='1'>&a;</game></session>", "ipoker")


def test_actions_in_the_order_of_play(shared_data: Path) -> None:
    record = assert_file(shared_data, CASH7, EXPECTED[CASH7]).records[0]
    bets = [a for a in record.actions if isinstance(a, Bet)]
    assert record.name(bets[0].player) == "Hero" and bets[0].verb == "pb"  # no="8", written second
    assert record.name(bets[6].player) == "WurmX" and bets[6].verb == "f"  # no="14", written first


def test_sessions_and_hands_concatenated(shared_data: Path) -> None:
    cash7, cash5, tour = (_text(shared_data, name) for name in (CASH7, CASH5, TOUR))
    room, hands = sites.loads_each(cash7 + cash5 + cash7)  # whole files, one after another
    games = [h.record.rules.variant.name for h in hands if h.record is not None]
    assert room == "ipoker" and games == ["STUD7", "STUD7", "STUD5", "STUD7", "STUD7"]
    start, end = tour.index("<game "), tour.rindex("</game>") + 7
    _, hands = sites.loads_each(tour[:start] + tour[start:end] * 3 + "</session>")  # the hands of one, thrice
    assert len(hands) == 351 and all(h.record is not None for h in hands)
    assert hands[117].line == hands[0].line + tour.count("\n", start, end)


def test_what_every_hand_of_the_files_keeps(shared_data: Path) -> None:
    """The dealer mark on the lowest seat, actions numbered 1 to N, no fold from a hand whose cards are shown:
    a hand breaking one is refused."""
    cash5, cash7 = _text(shared_data, CASH5), _text(shared_data, CASH7)
    moved = _hand(cash5.replace('<player seat="1" name="Player1"', '<player seat="5" name="Player1"'), "3013529647")
    assert moved.error is not None and "the dealer mark is on Player1, not on the lowest seat (4)" in str(moved.error)
    gap = _hand(cash7.replace('action no="26"', 'action no="27"'), "2418629537")
    assert gap.error is not None and "the 26 actions are numbered 1 to 27" in str(gap.error)
    folds = _hand(cash7.replace('no="24" player="Qekz406" type="4"', 'no="24" player="Qekz406" type="0"'), "2418629537")
    assert folds.error is not None and folds.error.line == 44
    assert "Qekz406 folds, but his down cards are written" in str(folds.error)


@pytest.mark.parametrize("size", [7, 100, 4096])
@pytest.mark.parametrize("limit", [None, 3000])
def test_a_text_cuts_the_same_whole_or_in_pieces(shared_data: Path, size: int, limit: int | None) -> None:
    """The parts a file is cut into (before each <game and each <session but the first) are the same whether the
    text comes whole or a piece at a time; with a cap on a part's size, a part over it keeps its end."""
    text = _text(shared_data, TOUR)
    text = text + text[text.index("<session") :]  # two sessions
    cap = {} if limit is None else {"limit": limit}
    whole = list(cut_parts([text], sessions=True, **cap))
    pieces = list(cut_parts([text[i : i + size] for i in range(0, len(text), size)], sessions=True, **cap))
    assert [p.kind for p in whole].count("session") == 1
    assert [p.kind for p in whole].count("game") == text.count("<game gamecode=")
    assert [(p.kind, p.line, p.over) for p in pieces] == [(p.kind, p.line, p.over) for p in whole]
    if limit is None:
        assert pieces == whole and "".join(p.text for p in whole) == text and not any(p.over for p in whole)
        offsets = [sum(len(p.text) for p in whole[:k]) for k in range(len(whole))]
        assert [p.line for p in whole] == [1 + text.count("\n", 0, i) for i in offsets]  # the line each starts on
    else:  # a part over the cap keeps no more than its last characters, as they came
        for a, b in zip(pieces, whole, strict=True):
            assert b.text.endswith(a.text) and (a.text == b.text or (a.over and len(a.text) <= limit + size + 8))
