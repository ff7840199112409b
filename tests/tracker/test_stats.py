"""``tracker.stats``: every statistic is a ratio of count fields, computed from real hands' rows."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict
from pathlib import Path

import pytest

from studpoker.history import files, verify
from studpoker.tracker.counts import COUNT_FIELDS, PlayerHand, player_hands
from studpoker.tracker.stats import STATS, Stat, ratios


def _names(side: str | tuple[str, ...] | None) -> tuple[str, ...]:
    if side is None:
        return ()
    return (side,) if isinstance(side, str) else side


def test_every_statistic_is_made_of_count_fields() -> None:
    for key, stat in STATS.items():
        assert key == stat.key and stat.label and "\n" not in stat.doc, key
        for name in _names(stat.numerator) + _names(stat.denominator):
            assert name in COUNT_FIELDS, (key, name)


def test_the_statistics_the_issue_names_are_there() -> None:
    wanted = {"vpip", "raise3", "three_bet", "steal_seat", "steal_seat_success", "steal_door", "steal_door_success"}
    wanted |= {"bring_in_complete", "bring_in_fold", "bring_in_defend", "saw4", "saw5", "saw6", "saw7", "wtsd"}
    wanted |= {"wsd", "won_saw4", "af", "scoop", "sd_after_call5", "bb100", "net", "expected", "ev_bb100"}
    wanted |= {f"af_s{s}" for s in range(3, 8)} | {f"fold_to_bet_s{s}" for s in range(3, 8)}
    assert wanted <= set(STATS)
    assert not STATS["af"].percent and not STATS["bb100"].percent and STATS["vpip"].percent


def test_nothing_to_divide_by_is_none_and_a_total_is_its_sum() -> None:
    values = ratios({})
    assert values["vpip"] is None and values["af"] is None and values["net"] == 0
    assert ratios({"net": -12, "hands": 3})["net"] == -12


def _player_totals(data: Path, name: str, hands: list[tuple[str, int]]) -> Counter[str]:
    totals: Counter[str] = Counter()
    for path, index in hands:
        if not (data / path).exists():
            pytest.skip(f"{data / path} is not in the shared data folder")
        record = list(files.iter_each(data / path))[index].record
        assert record is not None
        row: PlayerHand = next(r for r in player_hands(record, verify(record)) if r.player == name)
        for key, value in asdict(row).items():
            if key in COUNT_FIELDS:
                totals[key] += value
    return totals


def test_a_players_statistics_over_two_razz_hands(shared_data: Path) -> None:
    """Hero in PokerStars razz #35874780027 and #35874817957 (tests/tracker/test_counts.py counts both)."""
    razz = "pokerstars/Razz-USD-0.04-0.08-200911.txt"
    totals = _player_totals(shared_data, "Hero", [(razz, 7), (razz, 8)])
    values = ratios(totals)
    # #7: completes with the lowest door (door steal chance and attempt, called), raises 4th and calls the re-raise,
    # folds to the bet on 5th: -17. #8: calls the bring-in (no chance: an ace is lower than his three), calls 4th,
    # folds to the bet on 5th: 1 + 2 + 4 = -7.
    assert values["vpip"] == 1.0 and values["raise3"] == 0.5
    assert values["steal_door"] == 1.0 and values["steal_door_success"] == 0.0 and values["steal_seat"] is None
    assert values["saw4"] == values["saw5"] == 1.0 and values["saw6"] == 0.0
    assert values["wtsd"] == 0.0 and values["wsd"] is None and values["won_saw4"] == 0.0
    assert (totals["bets_s4"], totals["calls_s4"], values["af_s4"]) == (1, 2, 0.5)  # a raise and a call (#7), a call
    assert values["fold_to_bet_s5"] == 1.0 and values["fold_to_bet_s4"] == 0.0
    assert values["net"] == -24 and values["bb100"] == pytest.approx(100 * -24 / 8 / 2)
    assert values["expected"] == values["net"]


def test_a_stat_is_a_plain_value() -> None:
    stat = Stat("x", "X", ("a", "b"), "hands", True, "a and b, of the hands")
    assert stat.scale == 1.0 and stat == Stat("x", "X", ("a", "b"), "hands", True, "a and b, of the hands")
