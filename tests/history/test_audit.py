"""``history.verify``: one check of a replay against its history, whatever the format it was read from."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from studpoker.history import MismatchError, Problem, phh, replay, sites, verify
from studpoker.history.audit import after_rake, check

WILD = Path(__file__).parent / "wild"

PHH = """variant = "F7S"
antes = [1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [100, 100]
actions = ["d dh p1 2c3c4c", "d dh p2 AsKsQs", "p1 pb", "p2 f"]
finishing_stacks = [101, 99]
"""


def test_a_phh_record_is_checked_against_its_finishing_stacks() -> None:
    record = phh.loads_hand(PHH)
    assert verify(record).state.stacks == (101, 99)
    wrong = replace(record, finishing_stacks=(102, 98))
    with pytest.raises(MismatchError) as caught:
        verify(wrong, "hand 1")
    assert caught.value.problems == [
        Problem(None, "finishing stacks differ: the file says [102, 98], the replay gives [101, 99]")
    ]
    assert str(caught.value).startswith("hand 1 does not match its history: finishing stacks differ")


def test_a_rooms_record_is_checked_against_every_amount_its_file_states() -> None:
    text = sites.decode((WILD / "OnGame/7-StudHL-USD-0.25-0.50-201008.All.streets.txt").read_bytes())
    [(_, record)] = sites.room("ongame").loads_each(text)
    assert not isinstance(record, sites.SiteError)
    result = verify(record)
    won, stacks = after_rake(record, result)
    assert won[0] == 489 and stacks[0] == 2747  # Hero wins $4.89 of $5.14 after $0.25 of rake; ends with $27.47
    _, [changed] = sites.loads_each(text.replace("won by Hero ($4.89)", "won by Hero ($4.88)"), "ongame")
    assert changed.record is not None
    assert check(changed.record, replay(changed.record)) == [
        Problem(66, "what Hero collects from the pot: the file says $4.88, the replay $4.89")
    ]
    with pytest.raises(MismatchError, match=r"line 66: what Hero collects"):
        verify(changed.record)


def test_a_pokerstars_record_is_checked_by_the_same_verb() -> None:
    _, hands = sites.load_each(WILD / "PokerStars/Razz-USD-0.04-0.08-200911.v3.txt")
    assert all(verify(h.record).state.is_over for h in hands if h.record is not None)
