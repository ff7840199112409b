"""The table's sign: validation with clear messages, the engine's rules, JSON."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from studpoker.console import ConsoleError, Sign
from studpoker.engine import OddChipRule, Rules, Variant


def test_a_sign_gives_the_casino_rules_with_its_minimum_and_odd_chip_rule() -> None:
    sign = Sign.of("7stud8", small_bet=10, big_bet=20, ante=2, bring_in=5, min_buy_in=150, odd_chip="seat")
    rules = sign.rules()
    assert rules == Rules.casino(
        Variant.STUD7_HL8, ante=2, bring_in=5, small_bet=10, big_bet=20, min_buy_in=150, odd_chip_rule="POSITION"
    )
    assert sign.game is Variant.STUD7_HL8 and sign.odd_chip is OddChipRule.POSITION and sign.max_seats == 8
    assert Sign.of("5stud", small_bet=10, big_bet=20, ante=1, bring_in=3).max_seats == 10
    assert Sign.of("razz", 4, 8, 1, 2, odd_chip="high card").odd_chip is OddChipRule.HIGH_CARD_IN_HAND


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("omaha", 10, 20, 1, 3), "the sign's game: "),
        (("stud", 10.5, 20, 1, 3), "the sign's small bet must be a whole number of chips, got 10.5"),
        (("stud", 10, 20, 0, 3), "the sign is not valid: ante must be positive, got 0"),
        (("stud", 10, 5, 1, 3), "big_bet 5 must be at least small_bet 10"),
        (("stud", 10, 20, 1, 3, "lots"), "minimum buy-in must be a whole number of chips, got 'lots'"),
        (("stud", 10, 20, 1, 3, None, "dealer's choice"), "the odd-chip rule must be one of high card, seat"),
        (("razz", 10, 20, 1, 3, None, "seat", "casino", (("open_pair_double_bet", True),)), "razz has no open-pair"),
        (("stud", 10, 20, 1, 3, None, "seat", "casino", (("min_buy_in", 5),)), "min_buy_in is on the sign itself"),
        (("stud", 10, 20, 1, 3, None, "seat", "league"), "unknown preset 'league'"),
    ],
)
def test_a_bad_sign_is_refused_saying_what_is_wrong(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(ConsoleError, match=message.replace("(", r"\(")):
        Sign(*args)


def test_a_sign_from_the_engines_rules_keeps_every_option() -> None:
    rules = Rules.tournament("RAZZ", ante=1, bring_in=3, small_bet=10, big_bet=20, min_buy_in=1, ante_side_pots=False)
    sign = Sign.from_rules(rules)
    assert sign.preset == "tournament" and sign.rules() == rules and sign.min_buy_in == 1
    assert dict(sign.options)["ante_side_pots"] is False


def test_a_sign_survives_json() -> None:
    rules = Rules.tournament("STUD7", ante=1, bring_in=3, small_bet=10, big_bet=20)
    for sign in (Sign.of("stud", 10, 20, 1, 3, odd_chip="seat"), Sign.from_rules(rules)):
        assert Sign.from_json(sign.to_json()) == sign
    with pytest.raises(ConsoleError, match="the sign has no 'ante'"):
        Sign.from_json({"game": "razz", "small_bet": 4, "big_bet": 8, "bring_in": 2})
    with pytest.raises(ConsoleError, match="a sign is a JSON object"):
        Sign.from_json([1, 2])


def test_the_console_imports_no_server_command_line_or_terminal_game() -> None:
    code = (
        "import sys, studpoker.console; bad = [m for m in sys.modules if m.split('.')[:2] in"
        " (['studpoker', 'server'], ['studpoker', 'cli'], ['studpoker', 'tui'])]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
