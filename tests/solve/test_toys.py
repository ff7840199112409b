"""The solver on toy games whose equilibria the literature gives: Kuhn poker, the clairvoyance game, the
half-street [0, 1] game."""

from __future__ import annotations

import numpy as np
import pytest

from studpoker.solve import METHODS, solve, toys


@pytest.mark.parametrize("method", METHODS)
def test_kuhn_poker_reaches_its_value_and_player_twos_unique_strategy(method: str) -> None:
    answer = solve(toys.kuhn(), target=1e-5, method=method)  # type: ignore[arg-type]
    assert answer.exploitability <= 1e-5 * answer.pot
    # Player 1's (our player 0's) value: -1/18 of a chip, the antes counted as won back.
    assert answer.ev(0) - 1 == pytest.approx(-1 / 18, abs=1e-4)
    assert answer.ev(0) + answer.ev(1) == pytest.approx(answer.pot)
    jack, queen, king = 0, 1, 2
    after_check = answer.strategy[answer.node("x").index]
    facing_bet = answer.strategy[answer.node("b").index]
    assert after_check[jack, 1] == pytest.approx(1 / 3, abs=0.01)  # bluffs the jack a third of the time
    assert after_check[queen, 1] == pytest.approx(0, abs=0.01)
    assert after_check[king, 1] == pytest.approx(1, abs=0.01)
    assert facing_bet[:, 1] == pytest.approx([0, 1 / 3, 1], abs=0.01)  # calls with the queen a third
    # Player 0's equilibria are a family: bet the jack alpha <= 1/3, the king 3 alpha, call the queen alpha + 1/3.
    first = answer.strategy[0]
    alpha = first[jack, 1]
    assert alpha <= 1 / 3 + 0.01
    assert first[king, 1] == pytest.approx(3 * alpha, abs=0.02)
    assert answer.strategy[answer.node("x b").index][queen, 1] == pytest.approx(alpha + 1 / 3, abs=0.02)


@pytest.mark.parametrize(("pot", "bet", "nuts"), [(1, 1, 0.5), (2, 1, 0.5), (1, 2, 0.3), (3, 2, 0.7)])
def test_the_clairvoyance_game(pot: int, bet: int, nuts: float) -> None:
    answer = solve(toys.clairvoyance(pot, bet, nuts), target=1e-5)
    first = answer.strategy[0]
    call = answer.strategy[answer.node("b").index][0, 1]
    assert call == pytest.approx(pot / (pot + bet), abs=0.005)
    assert first[0, 1] == pytest.approx(1, abs=0.005)  # every nut hand bets
    bluffs = min(1.0, nuts * bet / (pot + bet) / (1 - nuts))  # bluffs : nuts = B : (P + B), while air lasts
    assert first[1, 1] == pytest.approx(bluffs, abs=0.005)
    # The value to the clairvoyant player: the nuts win the pot and the bet when called; a bluff breaks even
    # (won when folded to, lost when called: (1 - c) P = c B), as checking the air does.
    assert answer.ev(0) == pytest.approx(nuts * (pot + pot / (pot + bet) * bet), abs=1e-3 * pot)


@pytest.mark.parametrize("bet", [1, 2])
def test_the_half_street_zero_one_game(bet: int) -> None:
    n = 90
    answer = solve(toys.half_street(n, bet=bet), target=1e-5)
    y1, x1, y0 = toys.half_street_thresholds(bet)
    bets = answer.strategy[0][:, 1]  # player 1 (the bettor, who acts first here), hand k of strength (k + .5) / n
    value_bets = bets[: n // 2].sum() / n  # the better half bets for value only
    bluffs = bets[n // 2 :].sum() / n
    assert value_bets == pytest.approx(y1, abs=2 / n)
    assert bluffs == pytest.approx(1 - y0, abs=2 / n)
    assert np.all(bets[: int(y1 * n) - 1] > 0.99) and np.all(bets[int(y0 * n) + 2 :] > 0.99)
    # The caller: every hand better than y1 calls; the hands between y1 and y0 are alike (they beat every bluff
    # and lose to every value bet), so only how many of them call is fixed: x1 - y1 of the mass.
    calls = answer.strategy[answer.node("b").index][:, 1]
    assert np.all(calls[: int(y1 * n) - 1] > 0.99)
    middle = calls[int(np.ceil(y1 * n)) + 1 : int(y0 * n) - 1].sum() / n
    assert middle == pytest.approx(x1 - y1, abs=3 / n)
