"""One variant vocabulary (issue 27, item 9): :class:`Variant` owns every name of a game, and every entry point of
the library, the command line, the card room and the RL environments takes any of them."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import pytest

from studpoker.cards import parse_cards
from studpoker.engine import HandState, Rules, RulesError, Variant
from studpoker.equity import EquityError, Range, Spot, equity
from studpoker.history import phh, pokerstars, sites
from studpoker.simulate import SimulateError, SimulationSpec
from studpoker.tui.game import PlayOptions
from studpoker.variant import MAX_NAME

SPELLINGS = sorted(Variant.spellings().items())


def _names(variant: Variant) -> list[str]:
    """Every way to write ``variant``: the Variant, its engine name in two cases, and each listed spelling."""
    return [variant.value, variant.value.lower(), *(name for name, v in SPELLINGS if v is variant)]


def test_the_named_spellings() -> None:
    assert [(v.short_name, v.phh_code, v.title) for v in Variant] == [
        ("7stud", "F7S", "Seven-card stud"),
        ("7stud8", "F7S/8", "Seven-card stud hi/lo"),
        ("5stud", "F5S", "Five-card stud"),
        ("razz", "FR", "Razz"),
    ]
    assert {v.phh_code: v for v in Variant} == phh.VARIANT_CODES


@pytest.mark.parametrize(("name", "variant"), SPELLINGS)
def test_every_spelling_in_any_case_and_spacing(name: str, variant: Variant) -> None:
    assert Variant.parse(name) is variant
    assert Variant.parse(name.upper()) is variant
    assert Variant.parse(f"  {name.lower()} ") is variant
    assert Variant.parse(name.replace(" ", "-")) is variant


@pytest.mark.parametrize(
    "bad", ["holdem", "", "7", "stud9", "x" * (MAX_NAME + 1), "razz" + " " * MAX_NAME, 7, None, ["razz"], b"razz"]
)
def test_anything_else_is_a_value_error_that_lists_the_names(bad: Any) -> None:
    with pytest.raises(ValueError, match="use 7stud, 7stud8, 5stud or razz") as caught:
        Variant.parse(bad)
    assert len(str(caught.value)) < 200  # a long input is cut in the message


def test_every_room_readers_game_names_are_variants() -> None:
    """Each reader's table of the names its room prints for the games agrees with Variant.parse."""
    readers = [importlib.import_module(f"{sites.__name__}.{m.name}") for m in pkgutil.iter_modules(sites.__path__)]
    modules = [pokerstars, *readers]
    tables = 0
    for module in modules:
        for table in vars(module).values():
            if isinstance(table, dict) and table and all(isinstance(v, Variant) for v in table.values()):
                tables += 1
                for name, variant in table.items():
                    assert Variant.parse(name) is variant, (module.__name__, name)
    assert tables >= 10


@pytest.mark.parametrize("variant", list(Variant))
def test_every_library_entry_point_takes_every_name(variant: Variant) -> None:
    term = "(AA)" if variant is not Variant.STUD5 else "(A)"
    hand = "As Kd 7c 5h 4h 9s" if variant is not Variant.STUD5 else "As Kd 7c 5h"
    other = "Qs Qd 2c 3c 8d Jh" if variant is not Variant.STUD5 else "Qs Qd 2c 3c"
    expected = equity([hand, other], variant=variant, method="exact").players
    for name in _names(variant):
        rules = Rules(name, ante=1, bring_in=3, small_bet=10, big_bet=20)  # type: ignore[arg-type]
        assert rules.variant is variant
        assert Rules.casino(name, 1, 3, 10, 20).variant is variant
        assert Rules.tournament(name, 1, 3, 10, 20).variant is variant
        assert Rules.from_preset("casino", name, 1, 3, 10, 20).variant is variant
        assert HandState(rules, [200, 200]).rules.variant is variant
        assert Spot.parse(name, [hand, other]).variant is variant
        assert Range.parse(term, name).variant is variant
        assert equity([hand, other], variant=name, method="exact").players == expected
        assert SimulationSpec(bots=("random", "random"), hands=10, variant=name).variant == variant.short_name
        assert SimulationSpec(bots=("random", "random"), hands=10, variant=name).rules().variant is variant
        assert PlayOptions(variant=name).variant == name  # checked when the table is made (tests/tui)
    pair = Range.parse(term, variant)
    assert repr(pair) == f"Range.parse({term!r}, {variant.short_name!r}, down={pair.down})"
    assert parse_cards(hand)  # the spot's cards are real cards


def test_each_entry_point_refuses_an_unknown_game_in_its_own_error() -> None:
    with pytest.raises(RulesError, match="unknown game 'holdem'"):
        Rules("holdem", ante=1, bring_in=3, small_bet=10, big_bet=20)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown game 'holdem'"):
        Rules.from_preset("casino", "holdem", 1, 3, 10, 20)
    with pytest.raises(EquityError, match="unknown game 'holdem'"):
        equity(["As Kd", "Qs Qd"], variant="holdem")
    with pytest.raises(SimulateError, match="unknown game 'holdem'"):
        SimulationSpec(bots=("random", "random"), hands=10, variant="holdem")
