"""A wrong bring-in that stood (SPEC R13.2) in PHH: the user-defined field ``_wrong_bring_in`` names the player the
dealer wrongly told to bring in; the replay makes that bring-in, so the record replays and verifies."""

from __future__ import annotations

import pytest

from studpoker.engine import Action, ActionKind, HandState, Rules, Variant
from studpoker.history import ReplayError, phh, record_hand, replay, verify
from studpoker.history.phh import PHHError

#: Two-handed seven-card stud: p1's door 2c is the low card, but the dealer told p2 to bring in, and p1 folded.
HAND = """variant = 'F7S'
antes = [1, 1]
bring_in = 3
small_bet = 10
big_bet = 20
starting_stacks = [100, 100]
actions = ['d dh p1 AsKs2c', 'd dh p2 QdQc9h', 'p2 pb', 'p1 f']
finishing_stacks = [99, 101]
_wrong_bring_in = 'p2'
"""

#: Three-handed: p3 (2c) has the low card, p2 was told to bring in; p3, next, calls: the wrong bring-in stands.
THREE = """variant = 'F7S'
antes = [1, 1, 1]
bring_in = 3
small_bet = 10
big_bet = 20
starting_stacks = [200, 200, 200]
actions = ['d dh p1 KhKdKs', 'd dh p2 9d8sJd', 'd dh p3 5h6h2c', 'p2 pb', 'p3 cc', 'p1 cbr 10', 'p2 f', 'p3 f']
finishing_stacks = [208, 196, 196]
_wrong_bring_in = 'p2'
"""


def test_a_hand_written_wrong_bring_in_replays_and_verifies() -> None:
    record = phh.loads_hand(HAND)
    assert record.wrong_bring_in == 1 and "_wrong_bring_in" not in record.extra
    assert verify(record).state.stacks == (99, 101)
    three = phh.loads_hand(THREE)
    assert verify(three).state.stacks == (208, 196, 196)


def test_without_the_field_the_wrong_bring_in_is_out_of_turn() -> None:
    record = phh.loads_hand(HAND.replace("_wrong_bring_in = 'p2'\n", ""))
    with pytest.raises(ReplayError, match=r"action 3 \('p2 pb'\): p2 acts out of turn: p1 is to act"):
        replay(record)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("'p3'", r"_wrong_bring_in must name a player of this hand as the actions do \(p1\.\.p2\).*got 'p3'"),
        ("'p0'", r"_wrong_bring_in must name a player.*got 'p0'"),
        ("'Bob'", r"_wrong_bring_in must name a player.*got 'Bob'"),
        ("2", r"_wrong_bring_in must name a player.*got 2"),
        ("['p2']", r"_wrong_bring_in must name a player.*got \['p2'\]"),
    ],
)
def test_a_field_naming_no_player_is_refused_on_reading(value: str, message: str) -> None:
    with pytest.raises(PHHError, match=message):
        phh.loads_hand(HAND.replace("'p2'\n", f"{value}\n"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (  # the true low card itself
            HAND.replace("'p2 pb', 'p1 f'", "'p1 pb', 'p2 f'").replace("= 'p2'", "= 'p1'"),
            r"action 3 \('p1 pb'\): _wrong_bring_in names p1, who has the low card and brings in by rule \(R5\.3\)",
        ),
        (  # the first wager is someone else's
            HAND.replace("'p2 pb', 'p1 f'", "'p1 pb', 'p2 f'"),
            r"action 3 \('p1 pb'\): _wrong_bring_in names p2, but the first wager is not his bring-in \('p2 pb'\)",
        ),
        (  # the low card cannot be told from the door cards
            HAND.replace("AsKs2c", "??????"),
            r"_wrong_bring_in names p2, but an unknown door card hides who has the low card",
        ),
        (  # a completion, not a bring-in
            HAND.replace("'p2 pb'", "'p2 cbr 10'"),
            r"_wrong_bring_in names p2, but the first wager is not his bring-in",
        ),
    ],
)
def test_a_field_the_hand_contradicts_is_refused_on_replay(text: str, message: str) -> None:
    with pytest.raises(ReplayError, match=message) as info:
        replay(phh.loads_hand(text))
    assert info.value.rule == "R13.2"


def test_the_field_round_trips_through_the_writer() -> None:
    record = phh.loads_hand(THREE)
    text = phh.dumps(record)
    assert "_wrong_bring_in = 'p2'\n" in text
    assert phh.loads_hand(text) == record
    assert phh.loads(phh.dumps([record, record])) == [record, record]
    plain = phh.loads_hand(phh.dumps(phh.loads_hand(GOOD_PLAIN)))
    assert plain.wrong_bring_in is None and "_wrong_bring_in" not in phh.dumps(plain)


GOOD_PLAIN = HAND.replace("_wrong_bring_in = 'p2'\n", "").replace("'p2 pb', 'p1 f'", "'p1 pb', 'p2 f'")


def test_record_hand_names_a_wrong_bring_in_that_stood_and_not_one_corrected() -> None:
    rules = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20)
    state = HandState(rules, [200, 200, 200], manual=True)
    for card in ["Kh", "9d", "5h", "Kd", "8s", "6h", "Ks", "Jd", "2c"]:
        state.deal(card)
    state.misdesignate_bring_in(1)
    assert state.misdesignated_bring_in == 1
    corrected = state.copy()
    corrected.correct_bring_in()
    assert corrected.misdesignated_bring_in is None
    state.apply(_legal(state, ActionKind.CALL))  # the next player acts: it stands
    record = record_hand(state)
    assert record.wrong_bring_in == 1
    assert replay(phh.loads_hand(phh.dumps(record))).state.stacks == state.stacks
    corrected.apply(_legal(corrected, ActionKind.BRING_IN))
    assert record_hand(corrected).wrong_bring_in is None


def _legal(state: HandState, kind: ActionKind) -> Action:
    return next(a for a in state.legal_actions() if a.kind is kind)
