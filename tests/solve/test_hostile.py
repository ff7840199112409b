"""A hostile user of ``stud solve`` and :mod:`studpoker.solve`: every mistake that is refused with one clear line.

Each attack here is answered by ``stud solve: error: ...`` (exit status 2) or a :class:`SolveError` naming what
is wrong; none prints a traceback, hangs or eats memory.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pytest

from studpoker.cli import main
from studpoker.solve import BettingTree, Game, RiverSpot, SixthSpot, SolveError, solve

P1 = "(AKX),(AAX) Ah Kd 8c 3s"
P2 = "(QXX),(99X) Qs Qd 9h 4c"
BETTING = ("--pot", "60", "--bet", "20")


def stud_solve(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(["solve", *args])
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The first line of the error ``stud solve ARGS`` gives; it must be the only complaint, with status 2."""
    code, out, err = stud_solve(capsys, *args)
    assert code == 2, (code, err)
    assert out == ""
    assert "Traceback" not in err
    first = err.splitlines()[0]
    assert first.startswith("stud solve: error: "), err
    return first


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (("--pot", "0", "--bet", "20"), "--pot must be at least 1"),
        (("--pot", "-5", "--bet", "20"), "--pot must be at least 1"),
        (("--pot", "60.5", "--bet", "20"), "--pot takes a whole number from 1 to 10**12, got '60.5'"),
        (("--pot", "nan", "--bet", "20"), "--pot takes a whole number"),
        (("--pot", "inf", "--bet", "20"), "--pot takes a whole number"),
        (("--pot", "10000000000000", "--bet", "20"), "--pot must be at most 10**12"),
        (("--pot", "60", "--bet", "0"), "--bet must be at least 1"),
        ((*BETTING, "--target", "nan"), "--target takes a number from 0 to 99.999, got 'nan'"),
        ((*BETTING, "--target", "-1"), "--target takes a number from 0 to"),
        ((*BETTING, "--target", "inf"), "--target takes a number from 0 to"),
        ((*BETTING, "--seconds", "0"), "--seconds takes a number from 0.001 to 86400"),
        ((*BETTING, "--seconds", "nan"), "--seconds takes a number"),
        ((*BETTING, "--seconds", "1e9"), "--seconds takes a number"),
        ((*BETTING, "--iterations", "0"), "--iterations must be at least 1"),
        ((*BETTING, "--iterations", "1000001"), "--iterations must be at most 1000000"),
        ((*BETTING, "--iterations", "1.5"), "--iterations takes a whole number"),
        ((*BETTING, "--limit", "0"), "--limit must be at least 1"),
        ((*BETTING, "--limit", "99999"), "--limit must be at most 10000"),
        ((*BETTING, "--min-reach", "-1"), "--min-reach takes a number from 0 to 100"),
        ((*BETTING, "--min-reach", "nan"), "--min-reach takes a number"),
        ((*BETTING, "--raises", "-1"), "--raises must be at least 0"),
        ((*BETTING, "--raises", "64"), "--raises must be at most 63"),
        ((*BETTING, "--raises", "1.5"), "--raises takes a whole number from 0 to 63"),
        ((*BETTING, "--raises", "none"), "the stacks bound the betting"),
        ((*BETTING, "--raises", "none", "--stacks", "1280", "1280"), "one of them under 64 bets"),
        ((*BETTING, "--stacks", "-1", "5"), "--stacks must be at least 0"),
        ((*BETTING, "--variant", "holdem"), "--variant must name a game, got 'holdem'"),
        ((*BETTING, "--dead", "Ah"), "Ah is in player 1's up cards and in the dead cards"),
        ((*BETTING, "--dead", "2c", "--dead", "2c"), "2c is twice in the dead cards"),
        ((*BETTING, "--dead", "zz"), "the dead cards: 'zz' is not a card"),
        ((*BETTING, "--dead", "Ac Ad As"), "player 1's range holds no hand once the cards seen are taken out"),
    ],
)
def test_bad_numbers_and_cards_are_one_line(
    capsys: pytest.CaptureFixture[str], options: tuple[str, ...], message: str
) -> None:
    first = refused(capsys, P1, P2, *options)
    assert message in first


@pytest.mark.parametrize(
    ("range1", "message"),
    [
        ("", "player 1's range: empty range"),
        ("(AKX):0 Ah Kd 8c 3s", "player 1's range: weight 0 is out of range"),
        ("(AKX):-1 Ah Kd 8c 3s", "player 1's range: weight -1 is out of range"),
        ("(AKX):1e308 Ah Kd 8c 3s", "player 1's range: bad weight '1e308'"),
        ("(AKX):nan Ah Kd 8c 3s", "player 1's range:"),
        ("(AKX):inf Ah Kd 8c 3s", "player 1's range:"),
        ("(AKX) Ah Ah 8c 3s", "player 1's range:"),
        ("(AKX) Ah Kd 8c", "player 1's range has 3 down and 3 up cards"),
        ("(AKX) Ah Kd 8c 3s 5s", "player 1's range: too many up cards"),
        ("(AK) Ah Kd 8c 3s", "player 1's range:"),
        ("(AKXX) Ah Kd 8c 3s", "player 1's range:"),
        ("(AKX) Qs Kd 8c 3s", "Qs is in player 1's up cards and in player 2's up cards"),
        ("(AKX) Ah Kd 8c 3x", "player 1's range:"),
        ("pairs Ah Kd 8c 3s", "player 1's range:"),
        (",".join(["(AKX)"] * 2500) + " Ah Kd 8c 3s", "range text longer than 1,000 characters"),
    ],
)
def test_bad_ranges_are_refused(capsys: pytest.CaptureFixture[str], range1: str, message: str) -> None:
    assert message in refused(capsys, range1, P2, *BETTING)


def test_five_card_stud_and_sixth_street_want_their_own_ranges(capsys: pytest.CaptureFixture[str]) -> None:
    assert "too many ranks: 3 for 1 down card" in refused(capsys, P1, "(Q) Qs Qd 9h 4c", "--variant", "5stud", *BETTING)
    five = ("(A) Ah Kd 8c 3s", "(Q) Qs Qd 9h 4c", "--variant", "5stud", "--street", "sixth", *BETTING)
    assert "sixth street is a street of the seven-card games" in refused(capsys, *five)
    assert "too many ranks: 3 for 2 down cards" in refused(capsys, P1, P2, "--street", "sixth", *BETTING)
    wide = ("(XX) Ah Kd 8c 3s", "(XX) Qs Qd 9h 4c", "--street", "sixth", *BETTING)
    assert "39,732 with the river card: at most 12,000" in refused(capsys, *wide)


def test_sixth_street_uncapped_between_deep_stacks_is_refused_not_built(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--street", "sixth", "--pot", "60", "--bet", "10", "--raises", "none", "--stacks", "630", "630")
    first = refused(capsys, "(AA),(KK),(A8) Ah Kd 8c 3s", "(QQ),(99),(Q9) Qs Qd 9h 4c", *args, "--dead", "2c 7h")
    assert "decisions, more than the 1,000 the solver takes" in first and "cap the raises" in first


@pytest.mark.parametrize("stacks", [("0", "0"), ("0", "1000000000000")])
def test_all_in_already_solves_at_once(capsys: pytest.CaptureFixture[str], stacks: tuple[str, str]) -> None:
    code, out, err = stud_solve(capsys, P1, P2, *BETTING, "--raises", "none", "--stacks", *stacks)
    assert code == 0 and err == ""
    assert "exploitability 0 chips" in out


def strict_json(text: str) -> Any:
    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} in the JSON")

    return json.loads(text, parse_constant=refuse)


def test_json_has_no_nan_when_a_hand_meets_no_other(capsys: pytest.CaptureFixture[str]) -> None:
    ranges = ("(AcAs2c),(KcKs2d) Ah Kd 8c 3s", "(AcQc2s) Qs Qd 9h 4c")
    code, out, _ = stud_solve(capsys, *ranges, *BETTING, "--iterations", "20", "--json")
    assert code == 0
    answer = strict_json(out)
    assert answer["pot"] == 60.0


def spot(**changes: Any) -> RiverSpot:
    return RiverSpot.parse("7stud", [P1, P2], **{"pot": 60, "bet": 20, **changes})


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"pot": "60"}, "the pot must be a whole number of chips"),
        ({"pot": 60.0}, "the pot must be a whole number of chips"),
        ({"pot": True}, "the pot must be a whole number of chips"),
        ({"bet": True}, "the bet must be a whole number of chips"),
        ({"pot": float("nan")}, "the pot must be a whole number of chips"),
        ({"pot": 10**13}, "the pot must be a whole number of chips from 1 to 1,000,000,000,000"),
        ({"raises": True}, "raises must be a whole number 0 or more"),
        ({"raises": 2.0}, "raises must be a whole number 0 or more"),
        ({"raises": 10**100}, "raises must be under 64"),
        ({"stacks": [1]}, "stacks must be two numbers"),
        ({"stacks": (1.5, 2)}, "player 1's stack must be a whole number of chips"),
        ({"stacks": (-1, 5)}, "player 1's stack must be a whole number of chips"),
        ({"stacks": (True, 5)}, "player 1's stack must be a whole number of chips"),
        ({"stacks": (None, None), "raises": None}, "the stacks bound the betting"),
        ({"first": 2}, "first must be 0 or 1"),
        ({"first": True}, "first must be 0 or 1"),
        ({"first": "1"}, "first must be 0 or 1"),
        ({"dead": ["2c", 7]}, "the dead cards: '7' is not a card"),
        ({"dead": ["Ah"]}, "Ah is in player 1's up cards and in the dead cards"),
    ],
)
def test_spot_parse_refuses_bad_values(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(SolveError, match=re.escape(message)):
        spot(**changes)


@pytest.mark.parametrize(
    ("variant", "ranges", "message"),
    [
        (None, [P1, P2], "unknown game None"),
        ("7stud", "(XXX) Ah Kd 8c 3s", "give two ranges"),
        ("7stud", [P1, P2, P2], "give two ranges"),
        ("7stud", [None, None], "give two ranges as text"),
        ("7stud", ["(AKX)" * 200_000, P2], "range text longer than 1,000 characters"),
    ],
)
def test_spot_parse_refuses_bad_games_and_ranges(variant: Any, ranges: Any, message: str) -> None:
    with pytest.raises(SolveError, match=re.escape(message)):
        RiverSpot.parse(variant, ranges, pot=60, bet=20)


def test_sixth_spot_is_for_seven_card_games_only() -> None:
    with pytest.raises(SolveError, match="sixth street is a street of the seven-card games"):
        SixthSpot.parse("5stud", ["(A) Ah Kd 8c 3s", "(Q) Qs Qd 9h 4c"], pot=60, bet=20)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"target": -1}, "target must be a fraction of the pot from 0 to under 1"),
        ({"target": float("nan")}, "target must be a fraction"),
        ({"target": True}, "target must be a fraction"),
        ({"target": "0.1"}, "target must be a fraction"),
        ({"iterations": 0}, "iterations must be a whole number from 1 to 1,000,000"),
        ({"iterations": True}, "iterations must be a whole number"),
        ({"iterations": 5.0}, "iterations must be a whole number"),
        ({"iterations": 10**7}, "iterations must be a whole number"),
        ({"seconds": 0}, "seconds must be a number above 0"),
        ({"seconds": -1}, "seconds must be a number above 0"),
        ({"seconds": float("nan")}, "seconds must be a number above 0"),
        ({"seconds": "1"}, "seconds must be a number above 0"),
        ({"check_every": 0}, "check_every must be a whole number above 0"),
        ({"check_every": True}, "check_every must be a whole number above 0"),
        ({"method": "x"}, "method must be one of dcfr, cfr\\+"),
        ({"method": None}, "method must be one of"),
    ],
)
def test_solve_refuses_bad_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(SolveError, match=message):
        solve(spot(), **options)


@pytest.mark.parametrize("what", ["x", None, 5, [1, 2]])
def test_solve_takes_only_spots_and_games(what: Any) -> None:
    with pytest.raises(SolveError, match="solve takes a RiverSpot, a SixthSpot or a Game"):
        solve(what)


def test_solve_error_is_a_value_error() -> None:
    assert issubclass(SolveError, ValueError)


TREE = BettingTree.build(1, raises=1)


def game(**changes: Any) -> Game:
    arguments = {
        "weights": ([1, 1], [1, 1]),
        "compatible": [[1, 1], [1, 1]],
        "share": [[0.5, 1], [0, 0.5]],
        "pot": 2.0,
        "tree": TREE,
        **changes,
    }
    return Game.of(**arguments)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"weights": ([1, 1, 1], [1, 1])}, r"the showdown is for \(2, 2\) hands, the weights for \(3, 2\)"),
        ({"weights": ([float("nan"), 1], [1, 1])}, "player 0's weights must be from 0 to 1e\\+06, some above 0"),
        ({"weights": ([float("inf"), 1], [1, 1])}, "player 0's weights must be from 0 to"),
        ({"weights": ([0, 0], [1, 1])}, "player 0's weights must be from 0 to 1e\\+06, some above 0"),
        ({"weights": ([-1, 2], [1, 1])}, "player 0's weights must be from 0 to"),
        ({"compatible": [1, 1]}, "compatible and share must be matrices of one shape"),
        ({"compatible": [[1, float("nan")], [1, 1]]}, "compatible must hold numbers from 0 to 1"),
        ({"compatible": [[2, 1], [1, 1]]}, "compatible must hold numbers from 0 to 1"),
        ({"compatible": [[0, 0], [0, 0]]}, "no hand of player 0 can be dealt with a hand of player 1"),
        ({"share": [[0.5]]}, "compatible and share must be matrices of one shape"),
        ({"share": [[1.5, 1], [0, 0.5]]}, "share must hold numbers from 0 to 1"),
        ({"pot": 0}, "the pot must be above 0"),
        ({"pot": float("nan")}, "the pot must be above 0"),
        ({"pot": float("inf")}, "the pot must be above 0"),
        ({"pot": -1}, "the pot must be above 0"),
        ({"tree": BettingTree.build(1, raises=1, streets=2)}, "a betting tree of two streets needs the deal"),
        ({"hands": (["a"], ["b", "c"])}, "player 0 has 2 weights but 1 hand names"),
    ],
)
def test_game_of_refuses_bad_shapes_and_numbers(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(SolveError, match=message):
        game(**changes)


def test_game_of_refuses_matrices_too_large_without_building_them() -> None:
    huge = np.broadcast_to(1.0, (100_000, 100_000))  # a view: no memory, but 10**10 pairs
    with pytest.raises(SolveError, match="100,000 x 100,000 hands is more than the 4,000,000 pairs"):
        Game.of(([1], [1]), huge, np.broadcast_to(0.5, huge.shape), 2, TREE)
    with pytest.raises(SolveError, match="each player needs 1 to 20,000 hands, got 20,001 and 1"):
        game(weights=(np.ones(20_001), np.ones(1)), compatible=np.ones((20_001, 1)), share=np.full((20_001, 1), 0.5))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"bet": True}, "the bet must be a whole number of chips above 0"),
        ({"bet": 0}, "the bet must be a whole number of chips above 0"),
        ({"bet": 1, "raises": -1}, "raises must be a whole number 0 or more"),
        ({"bet": 1, "raises": 64}, "raises must be under 64"),
        ({"bet": 1, "raises": 3, "stacks": (1, 2, 3)}, "stacks must be two numbers"),
        ({"bet": 1, "raises": 3, "stacks": (-1, 2)}, "a stack must be a whole number of chips"),
        ({"bet": 1, "first": None}, "first must be 0 or 1"),
        ({"bet": 1, "first": [0]}, "first must be 0 or 1"),
        ({"bet": 1, "raises": 3, "streets": 3}, "streets must be 1"),
    ],
)
def test_betting_tree_refuses_bad_arguments(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(SolveError, match=message):
        BettingTree.build(**arguments)


def test_betting_tree_stays_small_for_huge_chips() -> None:
    assert len(BettingTree.build(10**100, raises=3).nodes) == 27
    assert len(BettingTree.build(1, raises=3, stacks=(10**100, 10**100)).nodes) == 27


@pytest.mark.parametrize("line", ["zz", "b b b", "x x x", "X B", "check bet", "x b r r r r r r", "/"])
def test_tree_node_refuses_junk_lines(line: str) -> None:
    with pytest.raises(SolveError, match="no node has the line"):
        TREE.node(line)


@pytest.fixture(scope="module")
def answer() -> Any:
    return solve(spot(), iterations=20)


@pytest.mark.parametrize("line", ["b b b", "zz", "x b r r r r r r", "check bet"])
def test_frequencies_refuse_lines_that_reach_nothing(answer: Any, line: str) -> None:
    with pytest.raises(SolveError, match="no node has the line"):
        answer.frequencies(line)


@pytest.mark.parametrize("line", ["x x", "b c", "b f", "x b r c"])
def test_frequencies_refuse_the_ends_of_the_round(answer: Any, line: str) -> None:
    with pytest.raises(SolveError, match=f"the line '{line}' ends the round: nobody acts there"):
        answer.frequencies(line)


def test_python_json_has_no_nan_when_a_hand_meets_no_other() -> None:
    lonely = RiverSpot.parse(
        "7stud", ["(AcAs2c),(KcKs2d) Ah Kd 8c 3s", "(AcQc2s),(Ac5c5s) Qs Qd 9h 4c"], pot=60, bet=20
    )
    result = solve(lonely, iterations=20)
    assert np.isnan(result.values[0][0])  # the aces meet none of player 2's hands: no value
    strict_json(result.to_json())
    strict_json(result.to_json(hands=False))
    assert result.table().startswith("Seven-card stud, river")


def test_sixth_street_ends_and_junk_are_refused() -> None:
    sixth = SixthSpot.parse(
        "7stud", ["(AcAs),(KcKs) Ah Kd 8c 3s", "(AcQc),(Ac5c) Qs Qd 9h 4c"], pot=60, bet=20, raises=1
    )
    result = solve(sixth, iterations=3)
    strict_json(result.to_json())
    with pytest.raises(SolveError, match="ends the round"):
        result.frequencies("x x / x x")
    with pytest.raises(SolveError, match="ends the round"):
        result.frequencies("x x")
    with pytest.raises(SolveError, match="no node has the line '/'"):
        result.frequencies("/")


# -- what the first hostile review found, now refused --------------------------------------------------------------


def test_a_pot_of_many_bets_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    first = refused(capsys, P1, P2, "--pot", "1000000000000", "--bet", "1")
    assert "more than 1,000 bets of 1" in first
    tree = BettingTree.build(1, raises=1)
    with pytest.raises(SolveError, match="more than 1,000 bets"):
        Game.of(([1, 1], [1, 1]), [[1, 1], [1, 1]], [[0.5, 1], [0, 0.5]], 1e9, tree)
    with pytest.raises(SolveError, match="at most 1e\\+12"):
        Game.of(([1, 1], [1, 1]), [[1, 1], [1, 1]], [[0.5, 1], [0, 0.5]], 1e300, tree)


def test_weights_too_large_to_sum_are_refused() -> None:
    tree = BettingTree.build(1, raises=1)
    with pytest.raises(SolveError, match=r"weights must be from 0 to 1e\+06"):
        Game.of(([1e308, 1e308], [1, 1]), [[1, 1], [1, 1]], [[0.5, 1], [0, 0.5]], 2.0, tree)


def test_sixth_street_with_thousands_of_decisions_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--street", "sixth", "--pot", "60", "--bet", "10", "--raises", "none", "--stacks", "630", "630")
    first = refused(capsys, "(AA),(KK),(88),(33) Ah Kd 8c 3s", "(QQ),(99),(44) Qs Qd 9h 4c", *args)
    assert "decisions, more than the 1,000 the solver takes" in first
    with pytest.raises(SolveError, match="streets must be 1"):
        BettingTree.build(1, streets=3)


@pytest.fixture(scope="module")
def small() -> Any:
    return solve(RiverSpot.parse("7stud", [P1, P2], pot=60, bet=20, raises=1), iterations=1)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda a: a.table(limit=0), "limit must be a whole number from 1"),
        (lambda a: a.table(limit=None), "limit must be a whole number from 1"),
        (lambda a: a.table(min_reach=float("nan")), "min_reach must be a share of the deals"),
        (lambda a: a.table(min_reach="x"), "min_reach must be a share of the deals"),
        (lambda a: a.to_json(indent=10**6), "indent must be None or a whole number from 0 to 8"),
        (lambda a: a.to_json(indent="x"), "indent must be None or a whole number from 0 to 8"),
        (lambda a: a.ev(2), "player must be 0 or 1"),
        (lambda a: a.reach(-1), "player must be 0 or 1"),
        (lambda a: a.frequencies(None), "a line is text"),
        (lambda a: a.frequencies("x" * 10**6), r"no node has the line 'xxxx.{40,60}\.\.\.;"),
    ],
)
def test_a_solution_refuses_bad_arguments(small: Any, call: Any, message: str) -> None:
    with pytest.raises(SolveError, match=message):
        call(small)


def test_one_iteration_is_said_in_the_singular(small: Any) -> None:
    assert "Solved by DCFR in 1 iteration (" in small.table()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: RiverSpot.parse("7stud", [P1, P2], pot=60, bet=20, stacks=5), "stacks must be two numbers"),
        (lambda: RiverSpot.parse("7stud", [P1, P2], pot=60, bet=20, dead=5), "the dead cards must be text"),
        (lambda: RiverSpot.parse("7stud", [P1, P2], pot=60, bet=20, dead=None), "the dead cards must be text"),
        (lambda: RiverSpot.parse("7stud", None, pot=60, bet=20), "give two ranges as text"),
        (lambda: RiverSpot.parse("7stud", {P1, P2}, pot=60, bet=20), "give two ranges as text"),
        (lambda: RiverSpot.parse("7stud", iter([P1, P2]), pot=60, bet=20), "give two ranges as text"),
        (lambda: RiverSpot("7stud", (P1, P2), 60, 20), "the variant must be a Variant"),
        (lambda: BettingTree.build(1, stacks=None), "stacks must be two numbers"),
        (lambda: BettingTree.build(1, stacks=5), "stacks must be two numbers"),
        (lambda: BettingTree.build(1, raises=1).node(None), "a line is text"),
        (lambda: Game.of(([[1, 1]], [1]), [[1]], [[1]], 2, BettingTree.build(1, raises=1)), "flat list"),
        (lambda: Game.of(([1], [1]), [[1]], [[1]], 2, None), "the tree must be a BettingTree"),
        (lambda: Game.of(([1], [1]), [[1]], [[1]], None, BettingTree.build(1, raises=1)), "the pot must be a number"),
        (lambda: Game.of(([1], [1]), [[1]], [[1]], True, BettingTree.build(1, raises=1)), "the pot must be a number"),
        (lambda: Game.of(([1], [1]), [[1]], [[1]], "2", BettingTree.build(1, raises=1)), "the pot must be a number"),
        (lambda: Game.of((["a"], [1]), [[1]], [[1]], 2, BettingTree.build(1, raises=1)), "must be numbers"),
        (
            lambda: solve(Game.of(([1], [1]), [[1]], [[1]], 2, BettingTree.build(1, raises=1)), seconds=True),
            "seconds must be",
        ),
    ],
)
def test_wrong_python_types_are_a_solve_error(make: Any, message: str) -> None:
    with pytest.raises(SolveError, match=message):
        make()


def test_numpy_numbers_are_numbers() -> None:
    spot = RiverSpot.parse("7stud", [P1, P2], pot=np.int64(60), bet=np.int32(20), stacks=(np.int64(100), None))
    assert type(spot.pot) is int and type(spot.bet) is int and type(spot.stacks[0]) is int
    answer = solve(spot, target=np.float32(0.01), seconds=np.float64(30))
    assert json.loads(answer.to_json())["bet"] == 20
