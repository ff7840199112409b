"""The test tiers: ``make test`` runs everything, ``make test-fast`` (the edit-test loop) a part of it.

The fast tier is the Makefile's ``FAST`` paths without the tests marked ``slow``, ``browser`` or ``cluster``
(pyproject.toml registers the markers; tests/browser/conftest.py and tests/cluster/conftest.py mark their folders).
These tests read the Makefile and pyproject.toml, and ask pytest itself what it collects (``--collect-only`` in a
subprocess, which tests/conftest.py's ``pytest_configure`` leaves test-artifacts/ alone for).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTEST = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")
#: The markers pytest (and hypothesis, which marks its tests ``hypothesis``) registers by itself.
BUILTIN = {"parametrize", "skip", "skipif", "xfail", "usefixtures", "filterwarnings", "hypothesis"}
REGISTERED = {line.split(":")[0].split("(")[0].strip() for line in PYTEST["markers"]}
TIERS = {"slow", "browser", "cluster"}


def _variable(name: str) -> str:
    """A Makefile variable's value, its continuation lines joined."""
    match = re.search(rf"^{name} := ((?:.*\\\n)*.*)$", MAKEFILE, re.MULTILINE)
    assert match, f"the Makefile sets no {name}"
    return " ".join(match.group(1).replace("\\\n", " ").split())


def _recipe(target: str) -> str:
    match = re.search(rf"^{target}:.*\n((?:\t.*\n)+)", MAKEFILE, re.MULTILINE)
    assert match, f"the Makefile has no target {target}"
    return match.group(1)


FAST = _variable("FAST").split()
FAST_MARKS = re.search(r'-m "([^"]+)"', _recipe("test-fast"))


def _collect(*args: str, env: dict[str, str] | None = None) -> list[str]:
    """The node ids ``pytest --collect-only -q ARGS`` prints (none: pytest's exit status 5)."""
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode in (0, 5), run.stdout[-3000:] + run.stderr[-3000:]
    return [line for line in run.stdout.splitlines() if "::" in line]


def test_markers_are_strict_and_the_tiers_registered() -> None:
    assert "--strict-markers" in PYTEST["addopts"].split()
    assert TIERS <= REGISTERED
    for line in PYTEST["markers"]:
        assert re.fullmatch(r"[a-z_]+(\([^)]*\))?: \S.*", line), f"a marker without its description: {line!r}"


def test_every_marker_used_in_the_tests_is_registered() -> None:
    """--strict-markers fails on an unknown marker only in the files a run collects: this reads them all."""
    used: dict[str, set[str]] = {}
    for path in ROOT.joinpath("tests").rglob("*.py"):
        for name in re.findall(r"\bmark\.([A-Za-z_]\w*)", path.read_text(encoding="utf-8")):
            used.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    assert used.keys() >= TIERS
    unknown = {name: files for name, files in used.items() if name not in REGISTERED | BUILTIN}
    assert not unknown, f"markers used but not registered in pyproject.toml: {unknown}"


def test_the_fast_tier_is_part_of_the_whole_suite() -> None:
    """Everything `make test-fast` runs, `make test` runs too: its paths lie under the testpaths, `make test` runs
    them with no -m or path of its own, and the fast tier leaves out the slow, browser and cluster tests."""
    for path in FAST:
        assert (ROOT / path).exists(), path
        assert any(Path(path).is_relative_to(top) for top in PYTEST["testpaths"]), path
    words = [word for word in _recipe("test").split() if not re.match(r"[A-Z_]+=", word)]  # environment only
    assert words == ["$(PY)", "-m", "pytest", "-n", "$(JOBS)"]
    assert re.search(r"^test-fast: \$\(call installed,test\)$", MAKEFILE, re.MULTILINE), (
        "as `make test`, the [test] extra"
    )
    assert FAST_MARKS and FAST_MARKS.group(1) == "not slow and not browser and not cluster"
    assert "$(FAST)" in _recipe("test-fast")


def test_the_fast_tier_collects_no_slow_browser_or_cluster_test() -> None:
    assert FAST_MARKS
    fast = _collect("-m", FAST_MARKS.group(1), *FAST)
    assert len(fast) > 1000
    assert not [node for node in fast if node.startswith(("tests/browser/", "tests/cluster/"))]
    slow = _collect("-m", "slow", *FAST)  # the tier's folders hold slow tests, which it leaves out
    assert slow and not set(slow) & set(fast)


def test_the_browser_and_cluster_folders_are_marked_whole(tmp_path: Path) -> None:
    """Every test of tests/browser is marked ``browser``, every one of tests/cluster ``cluster``. The cluster tests
    skip their modules without PostgreSQL and redis-server: here a URL and a ``redis-server`` that are never used
    (nothing runs under --collect-only) let them be collected."""
    (tmp_path / "redis-server").write_text("#!/bin/sh\nexit 1\n")
    (tmp_path / "redis-server").chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}",
        "STUDPOKER_TEST_POSTGRES": "postgresql+psycopg://nobody@127.0.0.1:9/collect_only",
    }
    folders = ["tests/browser", "tests/cluster"]
    browser = _collect("-m", "browser", *folders, env=env)
    cluster = _collect("-m", "cluster", *folders, env=env)
    assert browser and all(node.startswith("tests/browser/") for node in browser)
    assert cluster and all(node.startswith("tests/cluster/") for node in cluster)
    assert not _collect("-m", "not browser and not cluster", *folders, env=env)
