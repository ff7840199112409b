"""Structures: the clock through levels and breaks, hand-counted levels, late registration, each level's rules,
and every way a structure is refused."""

from __future__ import annotations

import itertools

import pytest

from studpoker.engine import HeadsUpUncap, Variant
from studpoker.tournament import Break, Level, Structure, StructureError


def small() -> Structure:
    return Structure(
        1_000,
        (Level(1, 5, 10, 40, 80, 30), Break(10), Level(2, 10, 20, 60, 120, 30), Level(3, 10, 25, 80, 160, 20)),
        late_registration_level=2,
    )


def test_the_clock_walks_through_levels_and_breaks() -> None:
    structure = small()
    clock = structure.at(0)
    assert clock.level == structure.level(1) and clock.seconds_left == 1800 and clock.next_level == structure.level(2)
    assert structure.at(1799.5).seconds_left == 1 and structure.at(1799.5).level == structure.level(1)
    on_break = structure.at(1800)  # a period ends on the second its time is up
    assert on_break.on_break and on_break.level is None and on_break.current == Break(10)
    assert on_break.seconds_left == 600 and on_break.next_level == structure.level(2)
    assert structure.at(2400).level == structure.level(2)
    last = structure.at(4200)
    assert last.level == structure.level(3) and last.next_level is None and last.seconds_left == 1200
    assert structure.at(10**7).level == structure.level(3) and structure.at(10**7).seconds_left == 0


def test_hand_counted_levels_skip_the_breaks() -> None:
    structure = Structure(1_000, small().periods, hands_per_level=4)
    assert [structure.at_hand(h).number for h in range(13)] == [1] * 4 + [2] * 4 + [3] * 5
    with pytest.raises(StructureError, match="played by the clock"):
        small().at_hand(3)
    with pytest.raises(StructureError, match="hands played must be a whole number of at least 0"):
        structure.at_hand(-1)


def test_late_registration_closes_after_its_level_and_the_break_after_it() -> None:
    structure = Structure(1_000, small().periods, late_registration_level=1)
    assert structure.registration_open(structure.at(0))
    assert structure.registration_open(structure.at(1900))  # the break after level 1
    assert not structure.registration_open(structure.at(2400))
    assert not Structure(1_000, small().periods).registration_open(small().at(0))


def test_each_levels_rules_are_the_tournament_preset_in_every_game() -> None:
    structure = Structure.standard()
    for variant in Variant:
        for level in structure.levels:
            rules = structure.rules(level, variant)
            assert (rules.variant, rules.ante, rules.bring_in, rules.small_bet) == (
                variant,
                level.ante,
                level.bring_in,
                level.small_bet,
            )
            assert rules.raise_cap == 4 and rules.headsup_uncap is HeadsUpUncap.NEVER
            assert not rules.open_pair_double_bet and rules.preset == "tournament"
            assert not rules.cautions()  # stud hi/lo's bring-in is twice the ante or more at every level
    assert structure.rules(1, "razz") == structure.rules(structure.level(1), Variant.RAZZ)
    with pytest.raises(StructureError, match="there is no level 23"):
        structure.rules(23, "razz")


def test_the_shipped_structures_rise_level_by_level() -> None:
    for structure in (Structure.standard(), Structure.turbo()):
        levels = structure.levels
        for before, after in itertools.pairwise(levels):
            assert after.small_bet > before.small_bet and after.big_bet == 2 * after.small_bet
            assert after.ante >= before.ante and after.bring_in >= before.bring_in
    standard = Structure.standard()
    assert standard.starting_chips == 25_000 and {level.minutes for level in standard.levels} == {60}
    assert standard.periods[2] == Break(20) and standard.reentries == 0
    assert Structure.turbo().hands_per_level == 10 and Structure.turbo(None).hands_per_level is None


@pytest.mark.parametrize(
    ("periods", "message"),
    [
        ((), "starts with a level"),
        ((Break(10), Level(1, 5, 10, 40, 80)), "starts with a level"),
        ((Level(1, 5, 10, 40, 80), Break(10)), "ends with a level"),
        ((Level(1, 5, 10, 40, 80), Break(5), Break(5), Level(2, 5, 10, 60, 120)), "two breaks in a row"),
        ((Level(1, 5, 10, 40, 80), Level(3, 5, 10, 60, 120)), "expected level 2, got 3"),
        ((Level(1, 5, 10, 40, 80), Level(2, 5, 10, 40, 80)), "small bet does not rise"),
        ((Level(1, 5, 10, 40, 80), Level(2, 4, 10, 60, 120)), "the ante falls from 5 at level 1"),
        ((Level(1, 5, 10, 40, 80, 0),), "minutes must be a whole number of at least 1, got 0"),
        ((Level(1, 5, 50, 40, 80),), "bring_in 50 must be at most small_bet 40"),
        ((Level(1, 5, 10, 40, 30),), "big_bet 30 must be at least small_bet 40"),
        ((Level(1, 5, 10, 40, 80), Break(0), Level(2, 5, 10, 60, 120)), "a break's minutes"),
        ((Level(1, 5, 10, 40, 80), "level 2"), "holds levels and breaks"),
    ],
)
def test_a_structure_that_cannot_be_played_is_refused(periods: tuple[object, ...], message: str) -> None:
    with pytest.raises(StructureError, match=message):
        Structure(1_000, periods)  # type: ignore[arg-type]


def test_chips_registration_and_reentries_are_checked() -> None:
    levels = (Level(1, 5, 10, 40, 80),)
    with pytest.raises(StructureError, match="less than one big bet of level 1"):
        Structure(50, levels)
    with pytest.raises(StructureError, match="late registration until level 2, but there are 1 levels"):
        Structure(1_000, levels, late_registration_level=2)
    with pytest.raises(StructureError, match="re-entries must be a whole number of at least 0"):
        Structure(1_000, levels, reentries=-1)
    with pytest.raises(StructureError, match="elapsed seconds must be a number of at least 0"):
        small().at(-1)
