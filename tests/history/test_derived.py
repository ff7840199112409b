"""What a room derives from a replay's betting (studpoker.history.derived): the bet each action faces, the cap, the
open pair and hi/lo pots without a low, against what PokerStars wrote in real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from studpoker.history import pokerstars, replay
from studpoker.history.derived import derived, no_low
from studpoker.history.model import Bet
from studpoker.history.payout import raked_pots

RAZZ = """PokerStars Hand #1:  Razz Limit ($0.04/$0.08 USD) - 2009/11/26 10:24:42 ET
Table 'Gotha II' 8-max
Seat 1: Ann ($1 in chips)
Seat 3: Bob ($1 in chips)
Ann: posts the ante $0.01
Bob: posts the ante $0.01
*** 3rd STREET ***
Dealt to Ann [Kd]
Dealt to Bob [Ah 2h 3h]
Ann: brings in for $0.02
Bob: raises $0.02 to $0.04
Ann: folds
Uncalled bet ($0.02) returned to Bob
Bob collected $0.06 from pot
*** SUMMARY ***
Total pot $0.06 | Rake $0
Seat 1: Ann folded on the 3rd Street
Seat 3: Bob collected ($0.06)
"""


def test_each_action_faces_the_bet_before_it_and_the_bring_in_counts_in_full() -> None:
    [record] = pokerstars.loads(RAZZ)
    found = derived(record, replay(record).state)
    # the bring-in faces nothing, the completion faces the $0.02 bring-in, the fold the $0.04 completion
    assert found.to_call == (0, 2, 4) and found.capped == () and found.open_pair == ()
    assert len(found.to_call) == sum(isinstance(a, Bet) for a in record.actions)


@pytest.fixture
def stars(shared_data: Path) -> dict[str, str]:
    folder = shared_data / "pokerstars"
    if not folder.is_dir():
        pytest.skip(f"the PokerStars hand histories are not in {folder}")
    return {p.name: p.read_text(encoding="utf-8-sig") for p in sorted(folder.glob("*.txt"))}


def test_what_pokerstars_wrote_is_where_the_replay_puts_it(stars: dict[str, str]) -> None:
    """Every 'Betting is capped', 'Pair on board' and 'No low hand qualified' of the files, and no other."""
    capped = pairs = lows = 0
    for text in stars.values():
        for record in pokerstars.loads(text):
            state = replay(record).state
            found = derived(record, state)
            stated = record.info["stated"]
            assert list(found.capped) == [a.amount for a in stated.capped]
            assert list(found.open_pair) == [a.amount for a in stated.open_pair]
            assert sum(no_low(state, raked_pots(state, stated.rake.amount))) == len(stated.no_low)
            capped, pairs, lows = capped + len(found.capped), pairs + len(found.open_pair), lows + len(stated.no_low)
    # the files' "Betting is capped", "Pair on board" and "No low hand qualified" lines: 2, 4 and 4
    assert (capped, pairs, lows) == (2, 4, 4)
