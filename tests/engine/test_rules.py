"""Rules: defaults per variant, presets, overrides, and validation errors (SPEC sections 2, 12b)."""

from __future__ import annotations

import pytest

from studpoker.engine import (
    HeadsUpUncap,
    OddChipRule,
    Rules,
    RulesError,
    Tiebreak,
    Variant,
)

STAKES = {"ante": 1, "bring_in": 3, "small_bet": 10, "big_bet": 20}


@pytest.mark.parametrize(
    ("variant", "seats", "open_pair"),
    [(Variant.STUD7, 8, True), (Variant.STUD7_HL8, 8, False), (Variant.STUD5, 10, True), (Variant.RAZZ, 8, False)],
)
def test_variant_defaults(variant: Variant, seats: int, open_pair: bool) -> None:
    rules = Rules(variant, **STAKES)
    assert rules.max_seats == seats and rules.open_pair_double_bet is open_pair
    assert rules.raise_cap == 3 and rules.headsup_uncap is HeadsUpUncap.WHEN_HEADSUP_BEFORE_CAP
    assert rules.min_buy_in == 200 and rules.preset == "casino"


def test_tournament_preset() -> None:
    stud = Rules.tournament(Variant.STUD7, **STAKES)
    assert (stud.raise_cap, stud.headsup_uncap, stud.open_pair_double_bet) == (4, HeadsUpUncap.NEVER, False)
    assert stud.later_street_tiebreak is Tiebreak.HIGH_CARD_BY_SUIT
    assert Rules.tournament(Variant.STUD7_HL8, **STAKES).later_street_tiebreak is Tiebreak.POSITION
    assert Rules.tournament(Variant.RAZZ, **STAKES).later_street_tiebreak is Tiebreak.POSITION
    assert Rules.tournament(Variant.STUD7, **STAKES, raise_cap=3).raise_cap == 3  # one override
    assert Rules.from_preset("tournament", "RAZZ", **STAKES).preset == "tournament"


def test_seed_document_c_house_rules() -> None:
    rules = Rules.casino("STUD7_HL8", **STAKES, odd_chip_rule="POSITION", community_card_betting=False)
    assert rules.odd_chip_rule is OddChipRule.POSITION and not rules.community_card_betting


def test_replace_revalidates_and_names_unknown_parameters() -> None:
    rules = Rules(Variant.STUD7, **STAKES)
    assert rules.replace(raise_cap=None).raise_cap is None
    with pytest.raises(RulesError, match="unknown rule parameter 'raise_caps'"):
        rules.replace(raise_caps=4)
    with pytest.raises(RulesError, match="bring_in 30 must be at most small_bet 10"):
        rules.replace(bring_in=30)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"bring_in": 15}, "bring_in 15 must be at most small_bet 10"),
        ({"ante": -1}, "ante must be positive, got -1"),
        ({"ante": 0}, "ante must be positive, got 0"),
        ({"bring_in": 0}, "bring_in must be positive"),
        ({"big_bet": 5}, "big_bet 5 must be at least small_bet 10"),
        ({"max_seats": 11}, "max_seats 11 is outside 2..8 for seven-card stud"),
        ({"max_seats": 1}, "max_seats 1 is outside"),
        ({"raise_cap": 0}, "raise_cap must be at least 1"),
        ({"chip_unit": 2}, "ante 1 is not a multiple of chip_unit 2"),
        ({"chip_unit": 0}, "chip_unit must be positive"),
        ({"min_buy_in": 300, "max_buy_in": 100}, "max_buy_in 100 is below min_buy_in 300"),
        ({"headsup_uncap": "SOMETIMES"}, "headsup_uncap must be one of"),
        ({"open_pair_double_bet": "yes"}, "open_pair_double_bet must be true or false"),
        ({"ante": 1.5}, "ante must be a whole number"),
        ({"raise_cap": 2.5}, "raise_cap must be a whole number or None"),
    ],
)
def test_validation_errors(changes: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules(Variant.STUD7, **{**STAKES, **changes})  # type: ignore[arg-type]


def test_stud5_allows_ten_seats_and_razz_has_no_double_bet() -> None:
    assert Rules(Variant.STUD5, **STAKES, max_seats=10).max_seats == 10
    with pytest.raises(RulesError, match=r"max_seats 11 is outside 2\.\.10 for five-card stud"):
        Rules(Variant.STUD5, **STAKES, max_seats=11)
    with pytest.raises(RulesError, match="razz has no open-pair double bet"):
        Rules(Variant.RAZZ, **STAKES, open_pair_double_bet=True)
    with pytest.raises(RulesError, match="unknown preset 'home'"):
        Rules.from_preset("home", Variant.STUD7, **STAKES)


def test_rules_are_immutable_values() -> None:
    a, b = Rules(Variant.STUD7, **STAKES), Rules(Variant.STUD7, **STAKES)
    assert a == b and hash(a) == hash(b)
    with pytest.raises(AttributeError):
        a.ante = 2  # type: ignore[misc]
    assert a.streets == 5 and Rules(Variant.STUD5, **STAKES).streets == 4
    assert [a.bet_size(r) for r in range(5)] == [10, 10, 20, 20, 20]


def test_overrides_must_name_options() -> None:
    with pytest.raises(RulesError, match="unknown rule parameter 'cap'"):
        Rules.from_preset("casino", Variant.STUD7, **STAKES, cap=3)
    rules = Rules.casino(Variant.STUD7, **STAKES)
    with pytest.raises(RulesError, match="ante is part of the stakes"):
        rules.with_preset("tournament", ante=5)
    assert rules.with_preset("tournament", raise_cap=None).raise_cap is None


def test_changes_are_relative_to_the_preset() -> None:
    assert Rules.tournament(Variant.RAZZ, **STAKES).changes() == {}
    assert Rules.casino(Variant.STUD7, **STAKES, raise_cap=4, min_buy_in=7).changes() == {
        "raise_cap": 4,
        "min_buy_in": 7,
    }
    rules = Rules.tournament(Variant.STUD7, **STAKES, odd_chip_rule="POSITION")
    assert rules.with_preset("casino").odd_chip_rule.value == "POSITION"
    assert rules.with_preset("casino").raise_cap == 3
