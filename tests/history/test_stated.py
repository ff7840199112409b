"""The stated amounts as values (studpoker.history.stated), and the PokerStars reader's shared values."""

from __future__ import annotations

import copy
import gc
import importlib.machinery
import pickle

import pytest

from studpoker.history import pokerstars, sites
from studpoker.history import stated as stated_module
from studpoker.history.model import Deal
from studpoker.history.pokerstars import reader
from studpoker.history.stated import Stated, StatedAction, StatedAmount

COMPILED = not stated_module.__file__.endswith(".py")

HAND = """PokerStars Game #35874004239:  7 Card Stud Limit ($0.04/$0.08 USD) - 2009/11/26 10:08:43 ET
Table 'Atalante II' 8-max
Seat 1: Hero ($1.60 in chips)
Seat 3: Nikolay Zem ($1.84 in chips)
Seat 4: totof51 ($1.34 in chips)
Hero: posts the ante $0.01
Nikolay Zem: posts the ante $0.01
totof51: posts the ante $0.01
*** 3rd STREET ***
Dealt to Hero [3d Th As]
Dealt to Nikolay Zem [9s]
Dealt to totof51 [2c]
totof51: brings in for $0.02
Hero: calls $0.02
Nikolay Zem: calls $0.02
*** 4th STREET ***
Dealt to Hero [3d Th As] [Qc]
Dealt to Nikolay Zem [9s] [6h]
Dealt to totof51 [2c] [4s]
Hero: checks
Nikolay Zem: bets $0.04
totof51: folds
Hero: raises $0.04 to $0.08
Nikolay Zem: calls $0.04
*** 5th STREET ***
Dealt to Hero [3d Th As Qc] [7s]
Dealt to Nikolay Zem [9s 6h] [8h]
Hero: bets $0.08
Nikolay Zem: folds
Uncalled bet ($0.08) returned to Hero
Hero collected $0.25 from pot
*** SUMMARY ***
Total pot $0.25 | Rake $0
Seat 1: Hero collected ($0.25)
Seat 3: Nikolay Zem folded on the 5th Street
Seat 4: totof51 folded on the 4th Street
"""


def test_the_hand_reads_and_checks() -> None:
    (record,) = pokerstars.loads(HAND)
    pokerstars.verify(record)
    said = record.info["stated"]
    assert isinstance(said, Stated)
    assert said.actions[6] == StatedAction("raise", 23, to=8, all_in=False, by=4)
    assert said.returned == [StatedAmount(8, 30, 0)]


def test_amounts_and_actions_are_values() -> None:
    amount = StatedAmount(40, 12, player=1, all_in=False)
    assert amount == StatedAmount(40, 12, 1, None, False)
    assert amount != StatedAmount(40, 13, 1, None, False)
    assert amount != (40, 12, 1, None, False)  # a value of its own kind, not a tuple
    assert len({amount, StatedAmount(40, 12, 1, None, False)}) == 1
    assert repr(amount) == "StatedAmount(amount=40, line=12, player=1, pot=None, all_in=False)"
    action = StatedAction("call", 7, added=2, all_in=True)
    assert eval(repr(action)) == action  # the repr pastes back
    for value in (amount, action):
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value
    match action:
        case StatedAction("call", line, added):
            assert (line, added) == (7, 2)
        case _:
            pytest.fail("a StatedAction matches by position")


def test_a_stated_is_a_dataclass_of_them() -> None:
    (record,) = pokerstars.loads(HAND)
    said = record.info["stated"]
    assert pickle.loads(pickle.dumps(said)) == said
    assert sites.Stated is Stated and sites.StatedAmount is StatedAmount and sites.StatedAction is StatedAction


@pytest.mark.skipif(not COMPILED, reason="only a compiled module makes them read-only and invisible to the collector")
def test_compiled_they_are_read_only_and_the_collector_skips_them() -> None:
    assert isinstance(stated_module.__loader__, importlib.machinery.ExtensionFileLoader)
    amount = StatedAmount(40, 12)
    with pytest.raises(AttributeError):
        amount.amount = 41  # type: ignore[misc]
    assert amount.amount == 41 - 1
    assert not gc.is_tracked(amount)
    assert not gc.is_tracked(StatedAction("fold", 3))


def test_read_twice_a_hand_shares_its_plain_deals_and_cards() -> None:
    first, second = pokerstars.loads(HAND + "\n\n" + HAND)
    deals = [a for a in first.actions if isinstance(a, Deal)]
    again = [a for a in second.actions if isinstance(a, Deal)]
    assert deals == again
    hero_first_street = deals[0]
    assert hero_first_street.cards[0] is not None  # Hero's hole cards: a deal of its own
    shared = [a is b for a, b in zip(deals, again, strict=True)]
    assert shared == [d.cards[:-1] == (None,) * (len(d.cards) - 1) for d in deals]
    assert sum(shared) == len(deals) - 1


def test_the_memo_of_texts_read_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    memo: dict[str, int] = {}
    monkeypatch.setattr(reader, "_MEMORY", 3)
    for i in range(10):
        reader._remember(memo, str(i), i)
        assert len(memo) <= 3
    assert memo[str(9)] == 9


def test_an_amount_remembered_is_still_checked_against_the_hand() -> None:
    pokerstars.loads(HAND)  # "$0.04" is remembered now
    euro = HAND.replace("Nikolay Zem: bets $0.04", "Nikolay Zem: bets €0.04")
    with pytest.raises(pokerstars.PokerStarsError, match="not in the hand's currency"):
        pokerstars.loads(euro)
