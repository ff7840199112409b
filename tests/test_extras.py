"""The install hints name what pyproject.toml's extras hold (studpoker._extras), for every extra a command names."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from tools.extras import requirements

from studpoker._extras import EXTRAS, install_hint

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_the_hint_names_what_the_extra_holds(extra: str) -> None:
    table = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert list(EXTRAS[extra]) == requirements([extra], table)
    hint = install_hint(extra)
    assert f"pip install -e '.[{extra}]'" in hint and f"whl[{extra}]'" in hint and "\n" not in hint
    assert f"pip install 'studpoker[{extra}]'" not in hint  # no index has studpoker


@pytest.mark.parametrize("extra", ["server", "postgres", "cluster"])
def test_the_test_extra_holds_what_the_room_needs(extra: str) -> None:
    """``make test`` installs the ``test`` extra alone: every package the card room's extras name must be in it,
    or its tests fail on an import on a fresh machine (as orjson would have)."""
    table = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    missing = set(requirements([extra], table)) - set(requirements(["test"], table))
    assert missing == set(), f"the test extra lacks {sorted(missing)}"
