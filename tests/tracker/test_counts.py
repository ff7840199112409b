"""``tracker.counts``: each player's counts in real hands, counted by hand from the histories' text.

Every real hand comes from the shared data folder (tests/conftest.py: ``$STUDPOKER_DATA`` or ``../shared/data``);
the reasoning behind each expected count is in the comments, from the lines of the history. Amounts are chips: a
cent in the PokerStars cash games. Streets are named as in seven-card stud (``_s3`` is the first betting round),
five-card stud's second street being ``_s3`` too.
"""

from __future__ import annotations

import warnings
from dataclasses import astuple, fields
from pathlib import Path

import pytest

from studpoker.engine import HandState, Rules, Variant
from studpoker.equity import equity
from studpoker.history import files, phh, record_hand, verify
from studpoker.history.model import HandRecord
from studpoker.tracker.counts import COUNT_FIELDS, PlayerHand, count_rows, player_hands


def _hand(data: Path, name: str, index: int = 0) -> dict[str, PlayerHand]:
    """The rows of hand ``index`` of a shared file, by player name."""
    path = data / name
    if not path.exists():
        pytest.skip(f"{path} is not in the shared data folder")
    if path.suffix == ".phh":
        record = phh.loads_hand(path.read_text())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the preset re-signs the hi/lo rules
            record = record.with_rules(record.rules.with_preset("tournament"))
    else:
        found = list(files.iter_each(path))[index]
        assert found.record is not None
        record = found.record
    return _rows(record)


def _rows(record: HandRecord) -> dict[str, PlayerHand]:
    rows = player_hands(record, verify(record))
    assert [row.player for row in rows] == [record.name(p) for p in range(record.n)]
    return {row.player: row for row in rows}


def _counts(row: PlayerHand, **expected: float) -> None:
    """Every count field of ``row`` is 0 except those given (``hands`` is 1, ``street_reached`` 3 by default)."""
    everything: dict[str, float] = {name: 0 for name in COUNT_FIELDS}
    everything |= {"hands": 1, "street_reached": 3, "allin_ev": 0.0, "allin_ev_bb": 0.0}
    everything |= expected
    if "allin_ev" not in expected:  # no shown all-in: the expected line is the net
        everything["allin_ev"] = everything["net"]
        everything["allin_ev_bb"] = everything["net_bb"]
    got = {name: getattr(row, name) for name in COUNT_FIELDS}
    assert got == pytest.approx(everything), {k: (got[k], everything[k]) for k in got if got[k] != everything[k]}


def test_the_fields_keep_the_contract() -> None:
    names = [f.name for f in fields(PlayerHand)]
    assert names[:3] == ["player", "seat", "door_card"]
    assert tuple(names[3:]) == COUNT_FIELDS
    assert {"hands", "vpip", "net", "net_bb"} <= set(COUNT_FIELDS)
    for f in fields(PlayerHand)[3:]:
        assert f.type in ("int", "float"), f.name


def test_the_plain_rows_are_the_player_hands_fields_in_order() -> None:
    """The import stores count_rows' tuples as they come: each must be its PlayerHand's fields in order, and the
    PlayerHand a true frozen one."""
    state = HandState(Rules(Variant.STUD7, ante=1, bring_in=2, small_bet=4, big_bet=8), [50, 50, 50], seed=5)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    record = record_hand(state)
    rows, plain = player_hands(record, verify(record)), count_rows(record, verify(record))
    assert [astuple(row) for row in rows] == plain
    assert all(len(row) == len(fields(PlayerHand)) for row in plain)
    assert type(rows[0]) is PlayerHand
    with pytest.raises(AttributeError):
        rows[0].net = 5  # type: ignore[misc]


def test_the_bring_in_completes_in_seven_card_stud(shared_data: Path) -> None:
    """PokerStars #35874081088, 7 Card Stud $0.04/$0.08, five players."""
    rows = _hand(shared_data, "pokerstars/7-Stud-USD-0.04-0.08-200911.txt", 2)
    # Hero's door 2s is the lowest: he brings in, and completes instead ("Hero: bets $0.04"); MasterTrini1 raises to
    # $0.08 (the second wager) and Hero calls: the 3-bet chance, not taken. 4th: MasterTrini1 bets, Hero calls.
    # 5th: MasterTrini1 bets, Hero raises (no call on 5th). He bets 6th and 7th and wins the showdown: put in
    # 1 + 8 + 4 + 16 + 8 + 8 = 45, collected 104 after the rake: +59 (a big bet is 8).
    _counts(
        rows["Hero"],
        vpip_chance=1, vpip=1, raise3=1, three_bet_chance=1, bring_in=1, bring_in_completed=1,
        saw4=1, saw5=1, saw6=1, saw7=1, showdown=1, won_showdown=1, won_saw4=1,
        bets_s3=1, bets_s5=1, bets_s6=1, bets_s7=1, calls_s3=1, calls_s4=1,
        faced_bet_s3=1, faced_bet_s4=1, faced_bet_s5=1, street_reached=7, won=104, net=59, net_bb=59 / 8,
    )  # fmt: skip
    assert rows["Hero"].door_card == "2s" and rows["Hero"].bring_in_position == 0
    # MasterTrini1 (last to act, position 4) raises the completion: a 3rd-street raise, not a 3-bet (fpdb's 2-bet).
    # 4th: bets; 5th: bets, Hero raises, he calls (called 5th, then went to showdown); calls 6th and 7th; mucks.
    _counts(
        rows["MasterTrini1"],
        vpip_chance=1, vpip=1, raise3=1, saw4=1, saw5=1, saw6=1, saw7=1, showdown=1,
        bets_s3=1, bets_s4=1, bets_s5=1, calls_s5=1, calls_s6=1, calls_s7=1,
        faced_bet_s3=1, faced_bet_s5=1, faced_bet_s6=1, faced_bet_s7=1, called5=1, showdown_after_call5=1,
        bring_in_position=4, street_reached=7, net=-45, net_bb=-45 / 8,
    )  # fmt: skip
    # Nikolay Zem: calls the completion, then the raise (the 3-bet chance); checks 4th, folds to the bet.
    _counts(
        rows["Nikolay Zem"],
        vpip_chance=1, vpip=1, three_bet_chance=1, saw4=1, calls_s3=2, faced_bet_s3=1, faced_bet_s4=1,
        fold_to_bet_s3=0, fold_to_bet_s4=1, bring_in_position=1, street_reached=4, net=-9, net_bb=-9 / 8,
    )  # fmt: skip
    # trs2758 folds to the completion: no steal chance (the pot was opened by the bring-in's completion).
    _counts(
        rows["trs2758"],
        vpip_chance=1, faced_bet_s3=1, fold_to_bet_s3=1, bring_in_position=2, net=-1, net_bb=-1 / 8,
    )  # fmt: skip


def test_a_side_pot_all_in_shown_at_the_showdown(shared_data: Path) -> None:
    """PokerStars #60974484959 (UTF-8 BOM), 7 Card Stud $0.04/$0.08, eight players: an all-in on 4th street."""
    rows = _hand(shared_data, "pokerstars/HH20110417-Salm-IX-7-Stud-USD-0.04-0.08-sidepot.txt")
    # Tumim (2d) brings in; Spacemasa calls, then four more call and two fold: nobody completes, so no steal chance
    # was ever taken and Tumim never faced a completion (and never put chips in voluntarily on 3rd street).
    # 4th: Spacemasa bets his last 8 (the pair of queens allows the big bet); ranchim and Tumim call.
    # Spacemasa put in 1 + 2 + 8 = 11. At the end of 4th street the live hands are (showdown and summary):
    # Spacemasa Ts 8c Qh Qs, ranchim Tc Kh As Jd, Tumim 5c 6c 2d 3h; the folded up cards are dead: Ad, 9s, 9h 3d,
    # 6s 2h, 8h Kd. The main pot he can win is 3 x 11 plus the dead money 1 + 1 + 3 x 3: 44.
    # The same question as player_hands asks it (hands in seat order, dead cards in dealing order), so that the Monte
    # Carlo sample (100,000 deals, seed 20231) is the same one.
    main = equity(
        ["Tc Kh As Jd", "5c 6c 2d 3h", "Ts 8c Qh Qs"],
        dead="9h 6s 8h Ad 9s 3d 2h Kd",
        method="montecarlo",
        trials=100_000,
        seed=20_231,
    )
    expected = main.players[2].equity * 44 - 11
    _counts(
        rows["Spacemasa"],
        vpip_chance=1, vpip=1, saw4=1, saw5=1, saw6=1, saw7=1, showdown=1, bets_s4=1, calls_s3=1,
        allin=1, allin_ev=expected, allin_ev_bb=expected / 8,
        bring_in_position=1, street_reached=7, net=-11, net_bb=-11 / 8,
    )  # fmt: skip
    assert 0.38 < main.players[2].equity < 0.45  # queens against an ace-high draw and a four-card wheel draw
    # ranchim: calls 3rd; calls the all-in on 4th; 5th checks, then raises Tumim's bet; bets 6th and 7th; wins both
    # pots with a straight: 1.03 collected, 1 + 2 + 8 + 16 + 8 + 8 = 43 put in.
    _counts(
        rows["ranchim"],
        vpip_chance=1, vpip=1, saw4=1, saw5=1, saw6=1, saw7=1, showdown=1, won_showdown=1, won_saw4=1,
        bets_s5=1, bets_s6=1, bets_s7=1, calls_s3=1, calls_s4=1, faced_bet_s4=1, faced_bet_s5=1,
        bring_in_position=5, street_reached=7, won=103, net=60, net_bb=60 / 8,
    )  # fmt: skip
    # Tumim: the bring-in; calls 4th, bets 5th and calls the raise, calls 6th and 7th, mucks at the showdown.
    _counts(
        rows["Tumim"],
        vpip_chance=1, bring_in=1, saw4=1, saw5=1, saw6=1, saw7=1, showdown=1, bets_s5=1,
        calls_s4=1, calls_s5=1, calls_s6=1, calls_s7=1, faced_bet_s4=1, faced_bet_s5=1, faced_bet_s6=1,
        faced_bet_s7=1, called5=1, showdown_after_call5=1, street_reached=7, net=-43, net_bb=-43 / 8,
    )  # fmt: skip
    assert rows["Tumim"].door_card == "2d" and rows["roditopgrdk"].bring_in_position == 2


def test_a_hi_lo_pot_split_between_high_and_low(shared_data: Path) -> None:
    """PokerStars #35874676388, 7 Card Stud Hi/Lo $0.04/$0.08: gashpor's flush takes the high, Hero's 7-6-5-4-3 low."""
    rows = _hand(shared_data, "pokerstars/7-StudHL-USD-0.04-0.08-200911.txt", 4)
    # Hero (door 5h) first after the bring-in (denny501, 2c): Td beats his door and five players sit between him and
    # the bring-in, so no steal chance; he calls. 4th all check; 5th, 6th, 7th he calls gashpor's bets. He wins half:
    # $0.40 after the rake, for 1 + 2 + 8 + 8 + 8 = 27 put in. Half a pot is a won showdown (as in fpdb), no scoop.
    _counts(
        rows["Hero"],
        vpip_chance=1, vpip=1, saw4=1, saw5=1, saw6=1, saw7=1, showdown=1, won_showdown=1, won_saw4=1,
        calls_s3=1, calls_s5=1, calls_s6=1, calls_s7=1, faced_bet_s5=1, faced_bet_s6=1, faced_bet_s7=1,
        scoop_chance=1, called5=1, showdown_after_call5=1, bring_in_position=1, street_reached=7,
        won=40, net=13, net_bb=13 / 8,
    )  # fmt: skip
    assert rows["gashpor"].scoop == 0 and rows["gashpor"].won_showdown == 1 and rows["gashpor"].bets_s7 == 1
    # Soroka69 calls 5th and 6th and folds to the bet on the river: called 5th, no showdown.
    _counts(
        rows["Soroka69"],
        vpip_chance=1, vpip=1, saw4=1, saw5=1, saw6=1, saw7=1, calls_s3=1, calls_s5=1, calls_s6=1,
        faced_bet_s5=1, faced_bet_s6=1, faced_bet_s7=1, fold_to_bet_s7=1, called5=1,
        bring_in_position=3, street_reached=7, net=-19, net_bb=-19 / 8,
    )  # fmt: skip
    # denny501 brought in; nobody completed; he folded on 4th street when nobody had bet (no bet faced).
    _counts(
        rows["denny501"], vpip_chance=1, bring_in=1, saw4=1, street_reached=4, net=-3, net_bb=-3 / 8
    )  # fmt: skip


def test_a_hi_lo_scoop(shared_data: Path) -> None:
    """PokerStars #35874523510, 7 Card Stud Hi/Lo: rdiezchang takes the whole pot at the showdown."""
    rows = _hand(shared_data, "pokerstars/7-StudHL-USD-0.04-0.08-200911.txt", 1)
    winner = rows["rdiezchang"]
    assert (winner.showdown, winner.won_showdown, winner.scoop_chance, winner.scoop) == (1, 1, 1, 1)
    losers = [row for name, row in rows.items() if name != "rdiezchang" and row.showdown]
    assert losers and all(row.scoop_chance == 1 and row.scoop == 0 and row.won == 0 for row in losers)


def test_three_bets_and_steals_heads_up_in_stud_hi_lo(shared_data: Path) -> None:
    """PokerStars #164954571644, 8-Game Stud Hi/Lo $400/$800 heads-up (amounts in cents)."""
    rows = _hand(shared_data, "pokerstars/7-StudHL-USD-400-800-201701.3bet.fix.txt")
    # Player0 (Ts) brings in for $120; Hero (Ah) completes to $400: nobody acts between him and the bring-in (a seat
    # steal chance) and his ace beats the ten (a door-card steal chance): both taken. Player0 raises to $800 (he
    # defends), Hero re-raises to $1200 (the 3-bet), Player0 calls. 4th: Hero bets, Player0 calls. 5th: Hero bets
    # and Player0 folds, so the steal did not succeed (nobody folded on 3rd street). Hero: 60 + 1200 + 400 in,
    # $3318 collected: +$1658 = 165800 cents, a big bet being 80000.
    _counts(
        rows["Hero"],
        vpip_chance=1, vpip=1, raise3=1, three_bet_chance=1, three_bet=1, steal_seat_chance=1, steal_seat=1,
        steal_door_chance=1, steal_door=1, saw4=1, saw5=1, won_saw4=1, bets_s3=2, bets_s4=1, bets_s5=1,
        faced_bet_s3=1, bring_in_position=1, street_reached=5, won=331800, net=165800, net_bb=165800 / 80000,
    )  # fmt: skip
    _counts(
        rows["Player0"],
        vpip_chance=1, vpip=1, raise3=1, bring_in=1, bring_in_faced_completion=1, bring_in_defended=1,
        saw4=1, saw5=1, bets_s3=1, calls_s3=1, calls_s4=1, faced_bet_s3=1, faced_bet_s4=1, faced_bet_s5=1,
        fold_to_bet_s5=1, street_reached=5, net=-166000, net_bb=-166000 / 80000,
    )  # fmt: skip


def test_a_door_card_steal_in_razz_that_is_called(shared_data: Path) -> None:
    """PokerStars #35874780027, Razz $0.04/$0.08, six players."""
    rows = _hand(shared_data, "pokerstars/Razz-USD-0.04-0.08-200911.txt", 7)
    # HIWAII2 (Qs, the highest door) brings in. Hero (3d) acts first: four players sit between him and the bring-in
    # (no seat steal chance), but his three is lower than every door still in (6s 9d 5c Qs Qc): a door-card chance,
    # and he completes ("raises $0.02 to $0.04"). SilkZone calls: no success. 4th: kobreli bets, Hero raises,
    # SilkZone re-raises, Hero calls. 5th: kobreli bets, Hero folds. 1 + 4 + 12 = 17 lost.
    _counts(
        rows["Hero"],
        vpip_chance=1, vpip=1, raise3=1, steal_door_chance=1, steal_door=1, saw4=1, saw5=1,
        bets_s3=1, bets_s4=1, calls_s4=1, faced_bet_s4=1, faced_bet_s5=1, fold_to_bet_s5=1,
        bring_in_position=1, street_reached=5, net=-17, net_bb=-17 / 8,
    )  # fmt: skip
    assert rows["Hero"].door_card == "3d"
    # HIWAII2 faced the completion (and the calls behind it) and folded.
    _counts(
        rows["HIWAII2"],
        vpip_chance=1, bring_in=1, bring_in_faced_completion=1, bring_in_folded_to_completion=1,
        faced_bet_s3=1, fold_to_bet_s3=1, net=-3, net_bb=-3 / 8,
    )  # fmt: skip
    # River: kobreli bets, SilkZone raises, kobreli re-raises, SilkZone caps, kobreli calls.
    assert (rows["kobreli"].bets_s7, rows["kobreli"].calls_s7, rows["SilkZone"].bets_s7) == (2, 1, 2)


def test_an_all_in_on_the_river_is_worth_what_it_won(shared_data: Path) -> None:
    """PokerStars #35874817957, Razz: manga130 bets his last $0.04 on the river and loses the showdown."""
    rows = _hand(shared_data, "pokerstars/Razz-USD-0.04-0.08-200911.txt", 8)
    # No card to come: his equity is 0 (9-8-6-5-A against 6-5-3-2-A) and the expected line is his loss,
    # 1 + 2 + 4 + 8 + 16 + 4 = 35.
    row = rows["manga130"]
    assert (row.allin, row.allin_ev, row.net, row.showdown, row.calls_s6, row.bets_s7) == (1, -35.0, -35, 1, 1, 1)


def test_steals_by_seat_and_door_that_succeed_in_razz(shared_data: Path) -> None:
    """WSOP 2023 event 43 hand 23 (PHH), razz, five players."""
    rows = _hand(shared_data, "phh/wsop-2023-43-5/23_FR.phh")
    # Doors (the last card of each first deal): Obst 8h, Shakerchi 9s, Rast Js, Ashton Th, Tong 5d. Rast's jack is
    # the highest: he brings in. Ashton (Th) folds: Tong, Obst and Shakerchi still to act before the bring-in (no seat
    # chance), and Tong's 5d is lower (no door chance). Tong completes with two players left before the bring-in
    # (fpdb's steal position 2) and the lowest door still in: both chances, both attempts; everyone folds: both
    # succeed. 150000 of his 200000 come back uncalled; he collects 350000, +250000.
    _counts(
        rows["Kristopher Tong"],
        vpip_chance=1, vpip=1, raise3=1, steal_seat_chance=1, steal_seat=1, steal_seat_success=1,
        steal_door_chance=1, steal_door=1, steal_door_success=1, bets_s3=1, bring_in_position=2,
        won=350000, net=250000, net_bb=250000 / 400000,
    )  # fmt: skip
    _counts(rows["Matthew Ashton"], vpip_chance=1, bring_in_position=1, net=-50000, net_bb=-50000 / 400000)
    # Obst and Shakerchi fold to the completion; so does Rast, who brought in.
    _counts(
        rows["James Obst"],
        vpip_chance=1, faced_bet_s3=1, fold_to_bet_s3=1, bring_in_position=3, net=-50000, net_bb=-1 / 8,
    )  # fmt: skip
    _counts(
        rows["Brian Rast"],
        vpip_chance=1, bring_in=1, bring_in_faced_completion=1, bring_in_folded_to_completion=1,
        faced_bet_s3=1, fold_to_bet_s3=1, net=-100000, net_bb=-1 / 4,
    )  # fmt: skip


def test_an_all_in_on_sixth_street_in_razz(shared_data: Path) -> None:
    """WSOP 2023 event 43 hand 85 (PHH), razz heads-up: Shakerchi calls all in on 6th street and loses."""
    rows = _hand(shared_data, "phh/wsop-2023-43-5/85_FR.phh")
    # At the end of 6th street: Shakerchi 8c 2h 4c Ad Qd Jd, Rast 4h 3d 8d 2s Td 8s, one card each to come, no dead
    # card (nobody folded). Both put in their 2,650,000 (Shakerchi's whole stack): the pot is 5,300,000.
    spot = equity(["8c 2h 4c Ad Qd Jd", "4h 3d 8d 2s Td 8s"], variant="razz", method="exact")
    expected = spot.players[0].equity * 5_300_000 - 2_650_000
    row = rows["Talal Shakerchi"]
    assert (row.allin, row.net, row.showdown, row.street_reached) == (1, -2_650_000, 1, 7)
    assert row.allin_ev == pytest.approx(expected) and 0.3 < spot.players[0].equity < 0.5
    assert rows["Brian Rast"].allin == 0 and rows["Brian Rast"].allin_ev == rows["Brian Rast"].net == 2_650_000


def test_five_card_stud_with_two_all_ins(shared_data: Path) -> None:
    """Full Tilt #32412111030, 5 Card Stud tournament 800/1600 ante 150, seven players."""
    rows = _hand(shared_data, "sites/FTP/tour/5-Stud-USD-MTT-100-201303.txt")
    # 2nd street (the first round, "_s3"): Player5 (2c) brings in for 250; Player0 (Kc) completes to 800: five players
    # before the bring-in (no seat chance), the highest door (a door-card chance, taken); Player1 calls, three fold,
    # Player4 raises all in to 1345 (1495 with the ante), Player5 folds, Player0 re-raises (the 3-bet), Player1 calls.
    # 3rd ("_s4"): Player0 bets, Player1 calls; 4th ("_s5"): the same; 5th ("_s6"): Player1 bets, Player0 calls all in.
    # No card was to come at Player0's all-in: equity 0 against the aces, the expected line is his loss, 4950.
    _counts(
        rows["Player0"],
        vpip_chance=1, vpip=1, raise3=1, three_bet_chance=1, three_bet=1, steal_door_chance=1, steal_door=1,
        saw4=1, saw5=1, saw6=1, showdown=1, bets_s3=2, bets_s4=1, bets_s5=1, calls_s6=1,
        faced_bet_s3=1, faced_bet_s6=1, allin=1, allin_ev=-4950.0, allin_ev_bb=-4950 / 1600,
        bring_in_position=1, street_reached=6, net=-4950, net_bb=-4950 / 1600,
    )  # fmt: skip
    # Player4 is all in on 2nd street: Ac Js against Ks Kc and Ad Qh, the folded doors 5s 7s 6h 2c dead. The main pot:
    # 3 x 1495 + 3 x 150 (the folded antes) + 400 (the bring-in) = 5335.
    # (asked in seat order, as player_hands asks it, for the same Monte Carlo sample)
    spot = equity(["Ks Kc", "Ad Qh", "Ac Js"], variant="5stud", dead="5s 7s 6h 2c", trials=100_000, seed=20_231)
    expected = spot.players[2].equity * 5335 - 1495
    _counts(
        rows["Player4"],
        vpip_chance=1, vpip=1, raise3=1, saw4=1, saw5=1, saw6=1, showdown=1, bets_s3=1, faced_bet_s3=1,
        allin=1, allin_ev=expected, allin_ev_bb=expected / 1600,
        bring_in_position=6, street_reached=6, net=-1495, net_bb=-1495 / 1600,
    )  # fmt: skip
    assert 0.10 < spot.players[2].equity < 0.13
    # Player1 calls everything on the first three rounds (5th is the first big-bet street: "called 5th" is 4th
    # street here), bets 5th street and wins both pots: 12245 collected, 4950 put in.
    _counts(
        rows["Player1"],
        vpip_chance=1, vpip=1, saw4=1, saw5=1, saw6=1, showdown=1, won_showdown=1, won_saw4=1, bets_s6=1,
        calls_s3=2, calls_s4=1, calls_s5=1, faced_bet_s3=1, faced_bet_s4=1, faced_bet_s5=1,
        called5=1, showdown_after_call5=1, bring_in_position=2, street_reached=6,
        won=12245, net=7295, net_bb=7295 / 1600,
    )  # fmt: skip
    # Player5 brought in and folded to the raise after the completion (a 3-bet chance he did not take).
    _counts(
        rows["Player5"],
        vpip_chance=1, three_bet_chance=1, bring_in=1, bring_in_faced_completion=1,
        bring_in_folded_to_completion=1, faced_bet_s3=1, fold_to_bet_s3=1, net=-400, net_bb=-0.25,
    )  # fmt: skip


# -- small engine-made hands for the edges -------------------------------------------------------------------------


def _play(rules: Rules, stacks: list[int], seed: int, actions: list[str]) -> dict[str, PlayerHand]:
    state = HandState(rules, stacks, seed=seed)
    for text in actions:
        state.apply(state.parse_action(text))
    while not state.is_over:  # bring in, check or call down
        state.apply(next(a for a in state.legal_actions() if a.kind.value in ("check", "call", "bring-in")))
    names = [chr(ord("A") + p) for p in range(len(stacks))]
    return _rows(record_hand(state, players=names))


def test_a_player_all_in_from_the_ante_has_no_decision() -> None:
    rules = Rules(Variant.STUD7, ante=2, bring_in=2, small_bet=4, big_bet=8)
    state = HandState(rules, [2, 60, 60], seed=11)
    while not state.is_over:
        state.apply(next(a for a in state.legal_actions() if a.kind.value in ("check", "call", "bring-in")))
    rows = _rows(record_hand(state, players=["A", "B", "C"]))
    short = rows["A"]
    assert (short.vpip_chance, short.vpip, short.steal_seat_chance, short.steal_door_chance) == (0, 0, 0, 0)
    assert (short.showdown, short.saw7, short.street_reached) == (1, 1, 7)
    # all in from the ante with every hand shown: his equity at the end of 3rd street, against both others
    assert short.allin == 1 and short.allin_ev != short.net


def test_nobody_completes_so_the_bring_in_faces_nothing() -> None:
    rules = Rules(Variant.STUD7, ante=1, bring_in=2, small_bet=4, big_bet=8)
    rows = _play(rules, [50, 50, 50], 3, [])
    bring = [row for row in rows.values() if row.bring_in]
    assert len(bring) == 1 and bring[0].bring_in_position == 0
    assert bring[0].bring_in_faced_completion == bring[0].bring_in_folded_to_completion == 0
    assert sorted(row.bring_in_position for row in rows.values()) == [0, 1, 2]
    assert all(row.faced_bet_s3 == 0 and row.showdown == 1 for row in rows.values())
    assert sum(row.net for row in rows.values()) == 0


def test_the_rows_sum_to_nothing_and_the_expected_line_equals_net_without_all_ins() -> None:
    rules = Rules(Variant.RAZZ, ante=1, bring_in=2, small_bet=4, big_bet=8)
    rows = _play(rules, [80, 80, 80, 80], 7, ["bring in", "complete", "raise", "fold", "fold", "call"])
    assert sum(row.net for row in rows.values()) == 0
    assert all(row.allin == 0 and row.allin_ev == row.net for row in rows.values())
    # after bring in, complete, raise: the next player and the bring-in fold, the completer calls: three chances
    assert sum(row.three_bet_chance for row in rows.values()) == 3


def test_a_completion_by_the_bring_in_is_not_a_steal() -> None:
    rules = Rules(Variant.STUD7, ante=1, bring_in=2, small_bet=4, big_bet=8)
    rows = _play(rules, [50, 50], 1, ["complete", "fold"])
    [bring] = [row for row in rows.values() if row.bring_in]
    assert (bring.bring_in_completed, bring.steal_seat, bring.steal_door, bring.vpip) == (1, 0, 0, 1)
