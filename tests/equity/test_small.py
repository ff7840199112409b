"""The small exact counter (``equity.small``): the very tally ``exact.count`` gives, and no NumPy."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from studpoker.cards import CARDS
from studpoker.equity import Spot, equity, exact, small

GAMES = [("7stud", 7), ("7stud8", 7), ("razz", 7), ("5stud", 5)]


def _spots(game: str, size: int, seed: int, count: int) -> list[Spot]:
    """Random spots of ``game`` small enough for the small counter: 2 to 4 players, 0 to 2 cards to come each."""
    rng = random.Random(seed)
    out: list[Spot] = []
    while len(out) < count:
        deck = list(range(52))
        rng.shuffle(deck)
        players = rng.choice([2, 2, 3, 4])
        hands = [
            " ".join(str(CARDS[deck.pop()]) for _ in range(size - rng.choice([0, 1, 1, 2][: 5 - players])))
            for _ in range(players)
        ]
        dead = " ".join(str(CARDS[deck.pop()]) for _ in range(rng.randrange(8)))
        spot = Spot.parse(game, hands, dead)
        if small.suitable(spot):
            out.append(spot)
    return out


@pytest.mark.parametrize(("game", "size"), GAMES)
def test_the_small_counter_gives_the_exact_counters_tally(game: str, size: int) -> None:
    for spot in _spots(game, size, seed=size * 100 + len(game), count=40):
        mine, theirs = small.count(spot), exact.count(spot)
        assert (mine.outcomes, mine.no_low, mine.scale) == (theirs.outcomes, theirs.no_low, theirs.scale), spot
        for name in ("win", "tie", "share", "high", "low"):
            assert list(getattr(mine, name)) == getattr(theirs, name).tolist(), (spot, name)


def test_ties_and_split_pots_on_seventh_street() -> None:
    # The same straight for both (a chopped pot); in hi/lo one scoops, or the high and low halves split.
    chop = equity(["Ts 9d 8c 7h 6s 2c 2d", "Th 9c 8d 7s 6h 3c 3d"])
    assert [p.tie for p in chop.players] == [1.0, 1.0] and [p.equity for p in chop.players] == [0.5, 0.5]
    split = equity(["As 2d 3c 4h 6s Kd Kh", "Qs Qd Qc 9h 9s Jd Tc"], variant="7stud8")
    assert [p.low for p in split.players] == [0.5, 0.0] and [p.high for p in split.players] == [0.0, 0.5]
    assert split.exact and split.outcomes == 1 and split.no_low == 0.0


def test_a_seventh_street_answer_imports_no_numpy() -> None:
    code = (
        "import sys\n"
        "from studpoker.cli import main\n"
        "main(['equity', 'As Ad 7c 7h 2s Kd 9c', 'Kh Qh Jh Th 3c 4d 5s'])\n"
        "assert 'numpy' not in sys.modules, 'numpy imported'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "exact: 1 outcomes" in result.stdout


def test_progress_is_reported_once_for_a_small_spot() -> None:
    calls: list[tuple[int, int]] = []
    equity(["As Ad 7c 7h 2s Kd", "Kh Qh Jh Th 3c 4d"], progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 1)]
