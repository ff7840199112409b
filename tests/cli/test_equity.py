"""``stud equity``: the human table, JSON, the choice of method, progress on terminals only, and one-line errors."""

from __future__ import annotations

import io
import json
import re
from itertools import permutations

import pytest

from studpoker.cards import card_indices
from studpoker.cli import equity as cli_equity
from studpoker.evaluation import high_value

from .helpers import stud as run

# Seventh street heads-up, one card each to come: 38 * 37 = 1,406 outcomes.
SEVENTH = ["As Ad 7c 7h 2s Kd", "Kh Ks Qs Jc 9c 8h"]
SEVENTH_DEAD = "3c 5d"
ELEVEN = ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jc", "Qc"]  # one up card each


def stud(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    return run(capsys, "equity", *args)


def untimed(out: str) -> str:
    """The output without the time it took (the one thing that changes from run to run)."""
    return re.sub(r" in [\d.,]+ s", " in T s", out)


def table(out: str) -> list[list[str]]:
    """The table rows under the header line, split on the column gaps."""
    return [re.split(r"\s{3,}", line.strip()) for line in out.splitlines()[1:] if not line.startswith("no low")]


def brute_force_seventh() -> tuple[float, float, float]:
    """Player 1's win and tie chances and equity on SEVENTH, by dealing every pair of last cards."""
    known = [card_indices(hand) for hand in SEVENTH]
    seen = {*known[0], *known[1], *card_indices(SEVENTH_DEAD)}
    pool = [c for c in range(52) if c not in seen]
    wins = ties = total = 0
    for a, b in permutations(pool, 2):
        mine, theirs = high_value([*known[0], a]), high_value([*known[1], b])
        wins += mine > theirs
        ties += mine == theirs
        total += 1
    return wins / total, ties / total, (wins + ties / 2) / total


def test_exact_table_for_a_seventh_street_spot(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = stud(capsys, *SEVENTH, "--dead", SEVENTH_DEAD)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert re.fullmatch(r"Seven-card stud, dead 3c 5d; exact: 1,406 outcomes in [\d.]+ s", lines[0])
    assert table(out)[0] == ["hand", "win %", "tie %", "equity %"]
    win, tie, share = brute_force_seventh()
    assert table(out)[1] == ["As Ad 7c 7h 2s Kd", f"{100 * win:.2f}", f"{100 * tie:.2f}", f"{100 * share:.2f}"]
    assert table(out)[2][0] == "Kh Ks Qs Jc 9c 8h"
    assert float(table(out)[2][3]) == pytest.approx(100 * (1 - share), abs=0.006)
    assert "±" not in out
    # the columns line up: every row is as long as the title row
    assert len({len(line) for line in lines[1:]}) == 1


def test_hands_as_one_word_and_dead_cards_repeated(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = stud(capsys, "AsAd7c7h2sKd", "KhKsQsJc9c8h", "--dead", "3c", "--dead", "5d")
    assert code == 0
    assert untimed(out) == untimed(stud(capsys, *SEVENTH, "--dead", SEVENTH_DEAD)[1])


def test_monte_carlo_with_a_seed_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["As 2d 5c", "Kh Ks 4d", "Qd Jd 9d", "--dead", "7c 9h", "--trials", "20000", "--seed", "7"]
    code, out, err = stud(capsys, *args)
    assert (code, err) == (0, "")
    assert re.fullmatch(
        r"Seven-card stud, dead 7c 9h; Monte Carlo: 20,000 trials, seed 7, in [\d.]+ s; ± is one standard error",
        out.splitlines()[0],
    )
    rows = table(out)
    assert rows[0] == ["hand", "win %", "tie %", "equity %"]
    assert all(re.fullmatch(r"\d+\.\d\d ± \d\.\d\d", cell) for row in rows[1:] for cell in row[1:])
    assert sum(float(row[3].split()[0]) for row in rows[1:]) == pytest.approx(100, abs=0.02)
    assert untimed(stud(capsys, *args)[1]) == untimed(out)
    assert untimed(stud(capsys, *args, "--workers", "2")[1]) == untimed(out)  # workers do not change the answer
    assert untimed(stud(capsys, *args, "--workers", "auto")[1]) == untimed(out)
    assert untimed(stud(capsys, *args[:-1], "8")[1]) != untimed(out)


def test_monte_carlo_without_a_seed_reports_one_that_repeats_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["As 2d 5c", "Kh Ks 4d", "--trials", "5000"]
    _, out, _ = stud(capsys, *args)
    seed = re.search(r"seed (\d+),", out)
    assert seed is not None
    assert untimed(stud(capsys, *args, "--seed", seed.group(1))[1]) == untimed(out)


def test_trials_accepts_readable_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    for text in ("1e4", "10_000", "10,000"):
        code, out, _ = stud(capsys, "As 2d 5c", "Kh Ks 4d", "--trials", text, "--seed", "1")
        assert code == 0 and "10,000 trials" in out


def test_json_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = stud(capsys, *SEVENTH, "--dead", SEVENTH_DEAD, "--json")
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert document["variant"] == "STUD7" and document["method"] == "exact"
    assert document["outcomes"] == 1406 and document["dead"] == "3c 5d"
    assert "seed" not in document and "trials" not in document
    assert [p["hand"] for p in document["players"]] == SEVENTH
    win, tie, share = brute_force_seventh()
    first = document["players"][0]
    assert set(first) == {"hand", "equity", "win", "tie"}
    assert (first["win"], first["tie"], first["equity"]) == pytest.approx((win, tie, share))


def test_json_monte_carlo(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = stud(
        capsys, "As 2d 5c", "Kh Ks 4d", "--variant", "7stud8", "--trials", "10000", "--seed", "3", "--json"
    )
    document = json.loads(out)
    assert code == 0 and document["method"] == "montecarlo"
    assert document["trials"] == 10_000 and document["seed"] == 3
    assert 0 < document["no_low"] < 1 and document["no_low_se"] > 0
    player = document["players"][0]
    assert {"hand", "equity", "scoop", "high", "low", "equity_se", "win_se", "high_se", "low_se"} <= set(player)
    assert sum(p["equity"] for p in document["players"]) == pytest.approx(1)


def test_hi_lo_columns_and_the_no_low_line(capsys: pytest.CaptureFixture[str]) -> None:
    # the first hand has a made wheel and a six-high straight; the second can only make a higher straight
    code, out, _ = stud(capsys, "As 2d 3c 4h 5h 6d", "Kh Kd Qs Jc 9c 8h", "--variant", "7stud8")
    assert code == 0
    assert out.splitlines()[0].startswith("Seven-card stud hi/lo eight-or-better; exact: 1,560 outcomes")
    rows = table(out)
    assert rows[0] == ["hand", "scoop %", "high %", "low %", "equity %"]
    hand, _, high, low, share = rows[1]
    assert hand == "As 2d 3c 4h 5h 6d" and low == "50.00"  # always the only low: half the pot
    assert float(high) + float(low) == pytest.approx(float(share), abs=0.011)
    assert float(rows[2][3]) == 0  # no low possible for the second hand
    assert out.splitlines()[-1] == "no low qualifies: 0.00%"


def test_hi_lo_monte_carlo_no_low_line_has_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = stud(capsys, "Ks Kd Qc", "Jh Jd 9s", "--variant", "7stud8", "--trials", "20000", "--seed", "2")
    assert code == 0
    assert re.fullmatch(r"no low qualifies: \d+\.\d\d% ± \d\.\d\d", out.splitlines()[-1])


def test_razz(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = stud(capsys, "As 2d 3c 4h 5h", "Kh Kd Qs Jc 9c", "--variant", "razz")
    assert code == 0
    assert re.fullmatch(r"Razz; exact: [\d,]+ outcomes in [\d.]+ s", out.splitlines()[0])
    rows = table(out)
    assert rows[0] == ["hand", "win %", "tie %", "equity %"]
    assert rows[1] == ["As 2d 3c 4h 5h", "100.00", "0.00", "100.00"]  # a made wheel is the nuts


def test_five_card_stud_and_players_with_no_known_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = stud(capsys, "As Ad Kc Kh", "Qs Qd Qc 2h", "-", "", "--variant", "5stud", "--trials", "20000")
    assert code == 0
    assert out.splitlines()[0].startswith("Five-card stud; Monte Carlo: 20,000 trials")
    assert [row[0] for row in table(out)[1:]] == ["As Ad Kc Kh", "Qs Qd Qc 2h", "-", "-"]
    code, out, _ = stud(capsys, "As Ad Kc Kh", "Qs Qd Qc Kd", "--variant", "5stud")
    assert code == 0 and "exact: 1,892 outcomes" in out.splitlines()[0]  # one card each from 44: 44 * 43


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["As Ad 7c", "As Kd Qs"], "As is in hand 1 and in hand 2: a card can be in one place only"),
        (["As Ad 7c", "Kh Kd Qs", "--dead", "2c Ad"], "Ad is in hand 1 and in the dead cards"),
        (["As Ad 7c 7h 2s Kd 9c 3h", "Kh Kd Qs"], "hand 1 has 8 cards: a seven-card stud hand has 7"),
        (["As Ad 7c 7h 2s 9c", "Kh Kd Qs", "--variant", "5stud"], "hand 1 has 6 cards: a five-card stud hand has 5"),
        ([*ELEVEN, "--variant", "5stud"], "at most 10 players, got 11 hands"),
        (ELEVEN[:9], "at most 8 players, got 9 hands"),
        ([*["-"] * 8, "--community", "no"], "the players still need 56 cards and only 52 are left in the deck"),
        (["As Ad 7c", "Kh Kd Zs"], "'Zs' is not a card"),
        (["As Ad 7c", "Kh Kd Qs", "--dead", "1x"], "'1x' is not a card"),
        (["As Ad 7c"], "equity needs at least two hands, got 1"),
        (["As Ad 7c", "Kh Kd Qs", "--exact", "--trials", "1000"], "use one or the other"),
        (["As Ad 7c", "Kh Kd Qs", "--trials", "0"], "--trials must be at least 1, got '0'"),
        (["As Ad 7c", "Kh Kd Qs", "--trials", "many"], "--trials takes a whole number, got 'many'"),
        (["As Ad 7c", "Kh Kd Qs", "--trials", "1.5"], "--trials takes a whole number, got '1.5'"),
        (["As Ad 7c", "Kh Kd Qs", "--seed", "-1"], "--seed must be at least 0"),
        (["As Ad 7c", "Kh Kd Qs", "--workers", "0"], "--workers must be at least 1"),
    ],
)
def test_errors_are_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = stud(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("stud equity: error: ") and message in err, err
    assert "Traceback" not in err and err.count("\n") == 1


def test_unknown_game_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = stud(capsys, "As Ad", "Kh Kd", "--variant", "holdem")
    assert code == 2 and out == "" and err.startswith("stud equity: error: --variant must name a game, got 'holdem'")


def test_no_progress_output_when_stderr_is_not_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = stud(capsys, "As 2d 5c", "Kh Ks 4d", "--trials", "300000", "--seed", "1")
    assert (code, err) == (0, "")
    assert cli_equity.open_progress(io.StringIO()) is None


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("use_rich", [True, False])
def test_progress_on_a_terminal_is_drawn_then_cleared(use_rich: bool) -> None:
    screen = FakeTerminal()
    progress = cli_equity.Progress(screen, delay=0.0, use_rich=use_rich)
    for done in range(1, 5):
        progress(done, 4)
    progress.close()
    drawn = screen.getvalue()
    if use_rich:
        assert "100%" in drawn and drawn.endswith("\033[2K")  # rich's transient bar erases its line
    else:
        assert "100.0%" in drawn and drawn.endswith("\r\033[K") and "\n" not in drawn
    progress(1, 4)  # closed: nothing more
    assert screen.getvalue() == drawn


def test_progress_waits_before_showing_anything() -> None:
    screen = FakeTerminal()
    progress = cli_equity.Progress(screen, delay=60.0)
    progress(1, 2)
    progress.close()
    assert screen.getvalue() == ""


def test_the_command_passes_progress_to_a_terminal_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    screens: list[FakeTerminal] = []

    def fake_open(stream: object) -> cli_equity.Progress:
        screens.append(FakeTerminal())
        return cli_equity.Progress(screens[-1], delay=0.0, use_rich=False)

    monkeypatch.setattr(cli_equity, "open_progress", fake_open)
    code, out, err = stud(capsys, "As 2d 5c", "Kh Ks 4d", "--trials", "600000", "--seed", "1")
    assert code == 0 and err == "" and out.count("\n") == 4
    assert len(screens) == 1 and "100.0%" in screens[0].getvalue()
    code, out, _ = stud(capsys, "As 2d 5c", "Kh Ks 4d", "--trials", "600000", "--seed", "1", "--json")
    assert code == 0 and len(screens) == 1  # --json: no progress at all
    json.loads(out)


def test_auto_samples_a_spot_too_big_to_count_quickly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("studpoker.equity.api.DEFAULT_TRIALS", 5000)
    hands = ["As 2d 5c", "Kh Ks 4d", "Qd Jd 9d", "8c 8s 2h", "Ac 3c 6h", "Th Td 4s"]
    code, out, _ = stud(capsys, *hands, "--seed", "1")
    assert code == 0 and "; Monte Carlo: 5,000 trials, seed 1," in out.splitlines()[0]


def test_interrupted(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("studpoker.equity.equity", interrupted)
    code, out, err = stud(capsys, "As 2d 5c", "Kh Ks 4d")
    assert (code, out, err) == (130, "", "stud equity: interrupted\n")


def test_a_range_shows_what_card_removal_left_of_each_term(capsys: pytest.CaptureFixture[str]) -> None:
    """Card removal made visible: the kings are gone (one up, two dead), one pair of aces is left (two of the aces
    are in view), and the JSON carries the same counts."""
    code, out, _ = run(capsys, "equity", "As Ad 7c Kd", "(KK),(AA):0.5 Ks 9s", "--dead", "Kc 2s", "--exact")
    assert code == 0
    assert out.splitlines()[-1] == "(KK),(AA):0.5 Ks 9s: combinations left after card removal: (KK) 0, (AA):0.5 1"
    code, out, _ = run(capsys, "equity", "As 7c Kd", "(KK),(AA):0.5 Ks 9s", "--exact", "--json")
    counts = json.loads(out)["players"][1]["range_counts"]
    assert counts == [{"term": "(KK)", "combinations": 1}, {"term": "(AA):0.5", "combinations": 3}]
    assert "range_counts" not in json.loads(out)["players"][0]


def test_heads_up_monte_carlo_imports_neither_numpy_nor_the_pool() -> None:
    """Issue 27, item 13: a cold heads-up `stud equity --trials` samples without NumPy (the compiled kernels
    given), multiprocessing, the exact counter or the engine's hand state machine: their imports were most of its
    start-up."""
    import subprocess
    import sys

    from studpoker.equity import montecarlo

    code = (
        "import sys\n"
        "from studpoker.cli import main\n"
        "main(['equity', 'As2d5c', 'KhKs4d', '--dead', '7c9hJsTs', '--trials', '1000000', '--seed', '1', '--json'])\n"
        "print(sorted(m for m in ('numpy', 'multiprocessing', 'studpoker.equity.exact', 'studpoker.engine.state')"
        " if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    *answer, loaded = result.stdout.splitlines()
    assert json.loads("\n".join(answer))["trials"] == 1_000_000
    lean = montecarlo._sample is not None and montecarlo._kernel is not None
    assert loaded == ("[]" if lean else "['numpy']")
