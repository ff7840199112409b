"""The documentation site's nav (mkdocs.yml) and docs/ agree (issue 28, item 5).

``make docs`` builds the site with ``--strict``, which fails on a broken link or a nav entry without its file, but
only reports (INFO) a page that no nav entry names: such a page would be built yet unreachable from the menus. These
checks run in the test suite, without mkdocs: every page under docs/ is in the nav, every nav entry is a page that
exists, none is listed twice, and every ``::: name`` of the API reference names a module of src/ (or something in
one: the longest dotted prefix that is a module).

The site's own additions in tools/ are tested here too, where their packages are installed (the ``docs`` extra:
``make docs`` installs it before ``make test`` in .ci/run); elsewhere those tests skip.
"""

from __future__ import annotations

import doctest
import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
CONFIG = ROOT / "mkdocs.yml"
TOOLS = ROOT / "tools"


class _Loader(yaml.SafeLoader):
    """A safe loader that reads mkdocs.yml's ``!!python/name:`` tags (Markdown extensions' functions) as text."""


_Loader.add_multi_constructor(
    "tag:yaml.org,2002:python/", lambda loader, suffix, node: f"{suffix}{loader.construct_scalar(node)}"
)


def config() -> dict[str, Any]:
    loaded = yaml.load(CONFIG.read_text(encoding="utf-8"), Loader=_Loader)
    assert isinstance(loaded, dict)
    return loaded


def nav_pages(entries: Any) -> Iterator[str]:
    """Every page the nav names (paths under docs/), in order; external links are not pages."""
    if isinstance(entries, str):
        if "://" not in entries:
            yield entries
    elif isinstance(entries, list):
        for entry in entries:
            yield from nav_pages(entry)
    elif isinstance(entries, dict):
        for value in entries.values():
            yield from nav_pages(value)
    else:
        raise AssertionError(f"mkdocs.yml: a nav entry is neither a page, a section nor a titled page: {entries!r}")


def test_the_config_names_docs_as_its_pages() -> None:
    assert (ROOT / config().get("docs_dir", "docs")).resolve() == DOCS


def test_every_page_is_in_the_nav() -> None:
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    listed = set(nav_pages(config()["nav"]))
    missing = sorted(pages - listed)
    assert not missing, f"pages under docs/ that mkdocs.yml's nav does not list (add them): {missing}"


def test_every_nav_entry_is_a_page_listed_once() -> None:
    listed = list(nav_pages(config()["nav"]))
    absent = [page for page in listed if not (DOCS / page).is_file()]
    assert not absent, f"mkdocs.yml's nav names pages that are not under docs/: {absent}"
    twice = sorted({page for page in listed if listed.count(page) > 1})
    assert not twice, f"mkdocs.yml's nav lists these pages more than once: {twice}"


def test_every_api_reference_names_a_module() -> None:
    names = [
        (page.relative_to(DOCS).as_posix(), name)
        for page in sorted(DOCS.rglob("*.md"))
        for name in re.findall(r"^::: *([\w.]+)", page.read_text(encoding="utf-8"), re.MULTILINE)
    ]
    assert names, "no page has a mkdocstrings block (::: module)"
    for page, name in names:
        parts = name.split(".")
        prefixes = [ROOT / "src" / Path(*parts[:n]) for n in range(len(parts), 0, -1)]
        assert any(p.with_suffix(".py").is_file() or (p / "__init__.py").is_file() for p in prefixes), (
            f"{page}: ::: {name} names no module under src/"
        )


def _tool(name: str, needs: str) -> ModuleType:
    pytest.importorskip(needs, reason=f"tools/{name}.py needs {needs} (the docs extra)")
    spec = importlib.util.spec_from_file_location(f"_site_{name}", TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docstrings_become_markdown() -> None:
    rest = _tool("griffe_rest", "griffe")
    assert doctest.testmod(rest).failed == 0
    text = "See :class:`the table <studpoker.table.Table>` and :py:meth:`~HandState.apply`:\n\n    >>> 1\n    1\n"
    assert rest.to_markdown(text) == ("See `the table` and `apply`:\n\n    ```pycon\n    >>> 1\n    1\n    ```\n")


def test_links_out_of_docs_point_at_copies_in_the_site() -> None:
    hooks = _tool("mkdocs_hooks", "mkdocs")
    config = SimpleNamespace(docs_dir=str(DOCS))

    def relinked(page: str, markdown: str) -> str:
        return str(
            hooks.on_page_markdown(markdown, page=SimpleNamespace(file=SimpleNamespace(src_uri=page)), config=config)
        )

    assert relinked("bot-protocol.md", "[bot](../examples/bots/caller.py)") == "[bot](_repo/examples/bots/caller.py)"
    assert (
        relinked("reference/x.md", "[b](../../examples/bots/caller.py#L3)")
        == "[b](../_repo/examples/bots/caller.py#L3)"
    )
    for unchanged in ("[a](cards.md#text)", "[gone](../examples/none.py)", "[web](https://example.org/x)"):
        assert relinked("index.md", unchanged) == unchanged
