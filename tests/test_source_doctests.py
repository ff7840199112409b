"""The examples in the docstrings of the modules setup.py compiles, run from their source files.

The modules may be compiled (then they carry no docstrings), so their source is loaded
under a private name and its doctests run against the package as installed.
"""

from __future__ import annotations

import doctest
import importlib.util
import re
import sys
from pathlib import Path

import pytest

import studpoker

PACKAGE = Path(studpoker.__file__).parent
COMPILED = [("engine", "state"), ("engine", "pots"), ("engine", "settle"), ("history", "phh"), ("history", "replay")]


def test_the_list_is_setup_pys() -> None:
    setup = (PACKAGE.parent.parent / "setup.py").read_text(encoding="utf-8")
    assert sorted(re.findall(r'"src/studpoker/(\w+)/(\w+)\.py"', setup)) == sorted(COMPILED)


@pytest.mark.parametrize(("package", "name"), COMPILED)
def test_docstring_examples(package: str, name: str) -> None:
    spec = importlib.util.spec_from_file_location(
        f"studpoker.{package}._source_{name}", PACKAGE / package / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    try:
        spec.loader.exec_module(module)
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    finally:
        del sys.modules[spec.name]
    assert result.failed == 0
    assert result.attempted > 0 or name == "settle"


def test_engine_build_is_reported() -> None:
    """Say which engine build the suite ran against (compiled or pure Python)."""
    from studpoker.engine import state

    assert state.__file__ is not None
    print(f"engine module: {Path(state.__file__).name}")
