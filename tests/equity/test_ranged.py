"""Equity against ranges: the exact answer is the weighted average of the exact answers of every assignment of
down cards (computed here by a plain loop over ``equity()``), Monte Carlo agrees with it, and the command line
takes ranges."""

from __future__ import annotations

import json
import random
from itertools import product
from typing import Any

import pytest

from studpoker.cards import CARDS, Card, format_cards
from studpoker.cli import main
from studpoker.equity import EquityError, EquityResult, Spot, equity, exact, montecarlo
from studpoker.equity.ranges import Range

FIELDS = ("equity", "win", "tie", "high", "low")


def _loop(game: str, hands: list[Any], dead: list[Card]) -> dict[str, list[float]]:
    """The straightforward answer: every assignment of the ranges' down cards, one exact ``equity()`` each."""
    visible = [c for h in hands if not isinstance(h, Range) for c in h] + [
        c for h in hands if isinstance(h, Range) for c in h.up
    ]
    visible += dead
    options = [h.combos(visible) if isinstance(h, Range) else [((), 1.0)] for h in hands]
    sums = {name: [0.0] * len(hands) for name in FIELDS}
    total = 0.0
    for assignment in product(*options):
        cards = [c for down, _ in assignment for c in down]
        if len(set(cards)) < len(cards):
            continue
        weight = 1.0
        for _, w in assignment:
            weight *= w
        spot_hands = [
            list(h.up) + list(down) if isinstance(h, Range) else list(h)
            for h, (down, _) in zip(hands, assignment, strict=True)
        ]
        spot = Spot.parse(game, spot_hands, dead)
        result = EquityResult.from_tally(spot, "exact", exact.count(spot))  # the existing exact counter
        total += weight
        for p, player in enumerate(result.players):
            for name in FIELDS:
                value = getattr(player, name)
                if value is not None:
                    sums[name][p] += weight * value
    return {name: [v / total for v in values] for name, values in sums.items()}


def _random_spot(rnd: random.Random) -> tuple[str, list[Any], list[Card]]:
    """A late-street spot: the first hand a range (any pattern), the second a narrow range or known cards."""
    game = rnd.choice(["7stud", "7stud8", "razz", "5stud"])
    stud5 = game == "5stud"
    cards = rnd.sample(CARDS, 40)
    wide = ["(XX)", "(AX),(KX):0.5", "(pair+)", "(XX),!(KK)", "(flush3)", "(low3),(99+):0.25", "(straight3)"]
    narrow = ["(AA),(KK):0.5", "(QQ+)", "(AK),(A2s)"]
    if stud5:
        wide, narrow = ["(X)", "(A),(K):0.5", "(9+)", "(X),!(2)"], ["(A)", "(Q+)"]
    up = rnd.choice([2, 3] if stud5 else [3, 4])  # 4th or 5th street in five-card stud, 5th or 6th in the others
    hands: list[Any] = [Range.parse(rnd.choice(wide) + " " + format_cards(cards[:up]), game)]
    at = up
    if rnd.random() < 0.4 and up == (3 if stud5 else 4):  # two ranges on the last street but one: quick to count
        hands.append(Range.parse(rnd.choice(narrow) + " " + format_cards(cards[at : at + up]), game))
        at += up
    else:
        known = up + (1 if stud5 else 2)
        hands.append(cards[at : at + known])
        at += known
    return game, hands, cards[at : at + rnd.randint(0, 4)]


@pytest.mark.slow
def test_range_equity_is_the_weighted_average_of_the_assignments() -> None:
    rnd = random.Random(8)
    compared = 0
    while compared < 8:
        game, hands, dead = _random_spot(rnd)
        try:
            truth = _loop(game, hands, dead)
        except ZeroDivisionError:  # no assignment at all: the ranges are empty beside the cards in view
            continue
        result = equity(hands, variant=game, dead=dead, method="exact")
        assert result.method == "exact"
        for p, player in enumerate(result.players):
            for name in FIELDS:
                value = getattr(player, name)
                if value is not None:
                    assert value == pytest.approx(truth[name][p], abs=1e-12), (game, name, p)
            if isinstance(hands[p], Range):
                assert player.range == hands[p].text and player.hand == hands[p].up
        compared += 1


@pytest.mark.parametrize("path", ["compiled", "numpy"])
@pytest.mark.parametrize("game", ["7stud", "7stud8", "razz"])
def test_monte_carlo_with_ranges_agrees_with_the_exact_answer(
    path: str, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if path == "numpy":
        monkeypatch.setattr(montecarlo, "_sample", None)
    elif montecarlo._sample is None:
        pytest.skip("built without the compiled kernel")
    hands = ["As 2d 7c 3s 9h", "(XX),(KK):0.5,!(22) Kh 4c 8d"]
    exact = equity(hands, variant=game, method="exact")
    sampled = equity(hands, variant=game, trials=200_000, seed=6)
    assert sampled.method == "montecarlo"
    for t, s in zip(exact.players, sampled.players, strict=True):
        assert s.equity_se is not None
        assert abs(t.equity - s.equity) < 4.5 * s.equity_se
        assert s.range == t.range


@pytest.mark.slow
def test_three_players_two_ranges_monte_carlo_agrees() -> None:
    hands = ["As 2d 7c 3s 9h Td", "(XX),!(22) Kh 4c 8d 5s", "(QQ+),(AK):0.5 Qs Js 2h 3h"]
    exact = equity(hands, method="exact")
    sampled = equity(hands, trials=200_000, seed=2)
    for t, s in zip(exact.players, sampled.players, strict=True):
        assert s.equity_se is not None and abs(t.equity - s.equity) < 4.5 * s.equity_se


def test_a_range_with_nothing_left_is_an_error() -> None:
    with pytest.raises(EquityError, match="no combination"):
        equity(["As Ad Kc", "(AA) 7h"], dead="Ah Ac")  # every ace is in view


def test_ranges_must_be_of_the_game_asked() -> None:
    with pytest.raises(EquityError, match="a range for"):
        equity(["As 2d 3c", Range.parse("(XX) Kh", "razz")], variant="7stud")


def _stud(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(["equity", *args])
    except SystemExit as exit:
        code = int(exit.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_takes_ranges(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _stud(
        capsys, "--variant", "razz", "(A2)3s", "(XX)Ks", "--trials", "20000", "--seed", "1", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert [row.get("range") for row in data["players"]] == ["(A2)3s", "(XX)Ks"]
    code, out, err = _stud(capsys, "--variant", "razz", "(A2)3s 4h 5d 6c", "Ks Qs Jh Td 9d 8d")
    assert code == 0, err
    assert "exact" in out.splitlines()[0] and "(A2)3s 4h 5d 6c" in out


def test_a_bad_range_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _stud(capsys, "(KZ)As", "(XX)Kh")
    assert code == 2 and out == ""
    assert err.startswith("stud equity: error: ") and "Z" in err


@pytest.mark.parametrize("game", ["7stud", "7stud8", "razz"])
def test_the_final_board_is_one_showdown_per_assignment(game: str) -> None:
    """Seventh street with three down cards in the range: the opponent's ``win`` is the share of his range (by
    weight) that beats the hand, counted at once and equal to the loop over every assignment."""
    hero = CARDS[:7]
    rng = random.Random(game)
    up = rng.sample(CARDS[7:], 4)
    text = "(AXX),(KKX):0.5,(33X):0.25,!(AAA) " + format_cards(up)
    opponent = Range.parse(text, game, down=3)
    truth = _loop(game, [hero, opponent], [])
    result = equity([hero, opponent], variant=game)
    assert result.method == "exact" and result.outcomes == len(opponent.combos([*hero, *up]))
    for p, player in enumerate(result.players):
        for name in FIELDS:
            value = getattr(player, name)
            if value is not None:
                assert value == pytest.approx(truth[name][p], abs=1e-12), name


def test_plain_questions_do_not_load_the_range_modules() -> None:
    """A cold ``stud equity`` on known cards must not pay for the range compiler (about 40 ms)."""
    import subprocess
    import sys

    code = (
        "import sys; from studpoker.equity import equity; equity(['As Ad 7c 7h 2s Kd', 'Kh Ks Qs Jc 9c 8h']);"
        "print(sorted(m for m in sys.modules if m.startswith('studpoker.equity.rang')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_range_counts_are_the_terms_left_beside_every_card_in_view() -> None:
    from studpoker.cards import parse_cards

    text = "(KK),(AA):0.5,(AKs) Kh 9c"
    result = equity(["As Ad 7c", "Qh Qs", text], dead="Kd 2c", method="montecarlo", trials=1_000, seed=3)
    expected = Range.parse(text).counts(parse_cards("As Ad 7c Qh Qs Kh 9c Kd 2c"))
    assert result.players[2].range_counts == tuple((str(term), n) for term, n in expected)
    assert result.players[0].range_counts is None and result.players[1].range_counts is None
    exact = equity(["As Ad 7c", text], method="exact")
    assert exact.players[1].range_counts == tuple(
        (str(term), n) for term, n in Range.parse(text).counts(parse_cards("As Ad 7c Kh 9c"))
    )
