"""``stud equity --categories``: the table of final hand categories after the equity table, the JSON key, the
same one-line errors, and a plain ``stud equity`` that never loads the categories module."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from studpoker.equity import categories as categories_module
from studpoker.equity.categories import final_categories
from studpoker.evaluation import HandCategory

from .helpers import stud as run

SEVENTH = ["As Ad 7c 7h 2s Kd", "Kh Ks Qs Jc 9c 8h"]


def stud(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    return run(capsys, "equity", *args)


def untimed(out: str) -> str:
    return re.sub(r" in [\d.,]+ s", " in T s", out)


def rows(block: str) -> dict[str, list[str]]:
    """The categories table: row label -> cells (split on the column gaps)."""
    out = {}
    for line in block.splitlines()[1:]:
        cells = re.split(r"\s{3,}", line.strip())
        out[cells[0]] = cells[1:]
    return out


def test_the_table_follows_the_equity_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = stud(capsys, *SEVENTH, "--dead", "3c 5d", "--categories")
    assert (code, err) == (0, "")
    equity_part, categories_part = out.rstrip("\n").split("\n\n")
    assert equity_part.startswith("Seven-card stud, dead 3c 5d; exact: 1,406 outcomes")
    lines = categories_part.splitlines()
    assert re.fullmatch(r"Final hand categories \(%\); exact: 76 final hands counted in [\d.]+ s", lines[0])
    table = rows(categories_part)
    assert table["final hand"] == SEVENTH
    expected = final_categories(SEVENTH, dead="3c 5d")
    for category in HandCategory:
        cells = table[category.label.lower()]
        assert cells == [f"{100 * p.high[category]:.2f}" for p in expected.players if p.high is not None]
    assert table["full house"] == ["10.53", "0.00"]  # two aces and two sevens among the 38 unseen cards
    assert list(table)[1] == "straight flush" and list(table)[-1] == "high card"
    assert len({len(line) for line in lines[1:]}) == 1  # the columns line up


def test_hi_lo_and_razz_rows(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = stud(capsys, "As 2d 3c 4h 9s", "(KK) Kh Qd Jc", "--variant", "7stud8", "--categories")
    assert code == 0
    table = rows(out.split("\n\n")[1])
    assert table["final hand"] == ["As 2d 3c 4h 9s", "(KK) Kh Qd Jc"]
    assert {"8-or-better low", "wheel", "6 low", "7 low", "8 low", "no low"} <= set(table)
    assert table["no low"][1] == "100.00"
    low, parts = float(table["8-or-better low"][0]), [float(table[k][0]) for k in ("wheel", "6 low", "7 low", "8 low")]
    assert low == pytest.approx(sum(parts), abs=0.03) and float(table["no low"][0]) == pytest.approx(
        100 - low, abs=0.01
    )
    code, out, _ = stud(
        capsys, "As 2d 3c", "Kh", "--variant", "razz", "--categories", "--trials", "5000", "--seed", "3"
    )
    assert code == 0
    table = rows(out.split("\n\n")[1])
    assert list(table)[1:] == [
        "wheel",
        *(f"{rank} low" for rank in ["6", "7", "8", "9", "10", "J", "Q", "K"]),
        "one pair",
        "two pair",
        "three of a kind",
        "full house",
        "four of a kind",
    ]
    assert all("±" in cell for cells in list(table.values())[1:] for cell in cells)


def test_monte_carlo_uses_the_trials_and_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["As 2d 5c", "Kh Ks 4d", "Qd Jd 9d", "--trials", "20000", "--seed", "7", "--categories"]
    code, out, err = stud(capsys, *args)
    assert (code, err) == (0, "")
    header = out.split("\n\n")[1].splitlines()[0]
    assert re.fullmatch(
        r"Final hand categories \(%\); Monte Carlo: 20,000 trials, seed 7, in [\d.]+ s; ± is one standard error",
        header,
    )
    assert untimed(stud(capsys, *args)[1]) == untimed(out)  # the same seed, the same answer
    sampled = final_categories(["As 2d 5c", "Kh Ks 4d", "Qd Jd 9d"], trials=20_000, seed=7)
    flush = rows(out.split("\n\n")[1])["flush"]
    assert flush == [
        f"{100 * p.high[HandCategory.FLUSH]:.2f} ± {100 * p.high_se[HandCategory.FLUSH]:.2f}"
        for p in sampled.players
        if p.high is not None and p.high_se is not None
    ]


def test_json_has_a_categories_key(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = stud(capsys, *SEVENTH, "--dead", "3c 5d", "--categories", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["method"] == "exact" and data["outcomes"] == 1406
    categories = data["categories"]
    assert categories["method"] == "exact" and categories["outcomes"] == 76
    first = categories["players"][0]
    assert first["hand"] == SEVENTH[0] and first["outcomes"] == 38
    assert first["high"]["full_house"] == pytest.approx(4 / 38) and first["high"]["two_pair"] == pytest.approx(34 / 38)
    code, out, _ = stud(capsys, *SEVENTH, "--json")
    assert "categories" not in json.loads(out)
    code, out, _ = stud(capsys, "As 2d", "(KK) Kh", "--categories", "--json", "--trials", "1000", "--seed", "1")
    data = json.loads(out)["categories"]
    assert (data["trials"], data["seed"], data["players"][1]["range"]) == (1000, 1, "(KK) Kh")
    assert "high_se" in data["players"][0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["As Ad 7c", "As Kd", "--categories"], "As is in hand 1 and in hand 2: a card can be in one place only"),
        (["As Ad Zc", "Kd", "--categories"], "hand 1"),
        (["As Ad 7c", "Kh", "--categories", "--trials", "0"], "--trials must be at least 1"),
        (["As Ad 7c", "Kh", "--categories", "--exact", "--trials", "10"], "--exact counts every outcome"),
    ],
)
def test_errors_are_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = stud(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("stud equity: error: ") and message in err and err.count("\n") == 1


def test_a_bad_range_is_the_same_error_as_without_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    plain = stud(capsys, "As Ad 7c", "(KZ)Ks")
    assert stud(capsys, "As Ad 7c", "(KZ)Ks", "--categories") == plain
    assert plain[0] == 2 and plain[2].startswith("stud equity: error: unknown rank 'Z' at position 2")


def test_a_count_too_long_for_exact_is_an_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The equity is quick, the categories are refused: nothing but the one-line error is printed."""
    monkeypatch.setattr(categories_module, "MAX_EXACT_SECONDS", 0.0)
    code, out, err = stud(capsys, "As Ad 7c", "Kh Kd Qs", "--exact", "--categories")
    assert (code, out) == (2, "")
    assert re.fullmatch(
        r"stud equity: error: counting every final hand would take too long \(.*\): use Monte Carlo.*\n", err
    )


def test_help_mentions_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = stud(capsys, "--help")
    assert code == 0 and "--categories" in out


@pytest.mark.parametrize(("extra", "loaded"), [([], False), (["--categories"], True)])
def test_a_plain_stud_equity_does_not_load_the_module(extra: list[str], loaded: bool) -> None:
    code = (
        "import sys\n"
        "from studpoker.cli import main\n"
        f"main(['equity', 'As Ad 7c 7h 2s Kd', 'Kh Ks Qs Jc 9c 8h', *{extra!r}])\n"
        "print('studpoker.equity.categories' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == str(loaded)
