"""The examples in the docstrings of the modules setup.py compiles, run from their source files.

The modules may be compiled (then they carry no docstrings), so their source is loaded
under a private name and its doctests run against the package as installed. Every example
written in a source file must be found and run (some have none: WITHOUT_EXAMPLES).
"""

from __future__ import annotations

import doctest
import importlib.machinery
import importlib.util
import re
import sys
from pathlib import Path

import pytest

import studpoker

PACKAGE = Path(studpoker.__file__).parent
#: The modules setup.py compiles, as (package folder under studpoker/, module).
COMPILED = [
    ("engine", "state"),
    ("engine", "pots"),
    ("engine", "settle"),
    ("engine", "codec"),
    ("engine", "dealer"),
    ("history", "phh"),
    ("history", "replay"),
    ("history/pokerstars", "reader"),
    ("history/pokerstars", "builder"),
    ("history", "derived"),
    ("history", "stated"),
    ("history/sites", "check"),
    ("history", "lines"),
    ("tracker", "tally"),
    ("server", "wire"),
    ("server", "viewers"),
    ("server", "clock"),
    ("server", "connection"),
    ("server", "relay"),
    ("server", "inbox"),
]
#: Compiled modules whose docstrings hold no examples (relay's class cannot be subclassed from source: its tests)
WITHOUT_EXAMPLES = {"settle", "viewers", "clock", "relay", "builder", "check", "tally"}
#: A doctest example's first line, as doctest.DocTestParser reads it: ``>>>`` then a space or the end of the line.
PROMPT = re.compile(r"^[ \t]*>>>(?: |$)", re.MULTILINE)


def test_the_list_is_setup_pys() -> None:
    setup = (PACKAGE.parent.parent / "setup.py").read_text(encoding="utf-8")
    assert sorted(re.findall(r'"src/studpoker/([\w/]+)/(\w+)\.py"', setup)) == sorted(COMPILED)


@pytest.mark.parametrize(("package", "name"), COMPILED)
def test_docstring_examples(package: str, name: str) -> None:
    source = PACKAGE / package / f"{name}.py"
    if package == "server":
        pytest.importorskip("fastapi", reason="the card room's modules need the [server] extra")
    written = len(PROMPT.findall(source.read_text(encoding="utf-8")))
    dotted = package.replace("/", ".")
    spec = importlib.util.spec_from_file_location(f"studpoker.{dotted}._source_{name}", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    try:
        spec.loader.exec_module(module)
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    finally:
        del sys.modules[spec.name]
    assert result.failed == 0
    # every example of the file was found (none is in a place doctest does not look) and ran
    assert result.attempted == written, f"{source.name}: {written} examples written, {result.attempted} ran"
    assert written > 0 or name in WITHOUT_EXAMPLES


@pytest.mark.parametrize(("package", "name"), COMPILED)
def test_the_build_that_runs_is_the_one_installed(package: str, name: str) -> None:
    """The module imported is the one next to its source: its compiled extension when the build made one
    (Python prefers it to the .py), not older than the source (else the suite would test old code: rebuild with
    ``pip install -e .``, or delete the .so files), and the source itself otherwise."""
    if package == "server":
        pytest.importorskip("fastapi", reason="the card room's modules need the [server] extra")
    module = importlib.import_module(f"studpoker.{package.replace('/', '.')}.{name}")
    assert module.__file__ is not None
    loaded, source = Path(module.__file__), PACKAGE / package / f"{name}.py"
    built = [source.with_suffix(s) for s in importlib.machinery.EXTENSION_SUFFIXES if source.with_suffix(s).exists()]
    if built:
        # by name: a module of mypyc's group imported first by another compiled module gets a __file__ under a
        # doubled package path (studpoker/engine/studpoker/engine/pots...), though it is the extension beside its source
        assert loaded.name in {b.name for b in built}, f"{loaded} imported instead of the compiled {built[0].name}"
        extension = built[0]
        assert extension.stat().st_mtime >= source.stat().st_mtime, (
            f"{extension.name} is older than {source.name}: rebuild"
        )
    else:
        assert loaded == source
    print(f"{package}.{name}: {loaded.name}")
