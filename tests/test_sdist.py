"""The source distribution holds what README and docs/ link to (docs, examples, CHANGELOG, tests, bench, tools), so
its README's links resolve inside it (issue 27, item 8)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: What a working tree holds beside its sources: environments, builds, caches, artefacts.
LEFTOVERS = (".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "*.so", ".*_cache", ".hypothesis")
LEFTOVERS += ("test-artifacts", "studpoker.db", "secrets")
#: A relative link in Markdown: ](path) or ](path#anchor), not a URL.
LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)#\s]+)(?:#[^)]*)?\)")


def test_the_sdist_holds_what_the_readme_links_to(tmp_path: Path) -> None:
    build = "import sys; from setuptools import build_meta\nprint(build_meta.build_sdist(sys.argv[1]))\n"
    # from a copy without what earlier builds left (an old egg-info's SOURCES.txt would fill the gaps)
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(*LEFTOVERS))
    env = {**os.environ, "STUDPOKER_PURE": "1"}  # an sdist compiles nothing: no need to run mypyc here
    result = subprocess.run(
        [sys.executable, "-c", build, str(tmp_path)], cwd=tree, env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr[-2000:]
    name = result.stdout.strip().splitlines()[-1]
    with tarfile.open(tmp_path / name) as sdist:
        members = {m.name.split("/", 1)[1] for m in sdist.getmembers() if "/" in m.name}
    for needed in ("README.md", "CHANGELOG.md", "docs/index.md", "tests/conftest.py", "Makefile", "tools/extras.py"):
        assert needed in members, needed
    assert any(m.startswith("examples/") for m in members) and any(m.startswith("bench/") for m in members)
    assert not any(m.endswith((".pyc", ".so")) or "__pycache__" in m for m in members)
    for page in ["README.md", *sorted(m for m in members if m.startswith("docs/") and m.endswith(".md"))]:
        for target in LINK.findall((ROOT / page).read_text(encoding="utf-8")):
            resolved = os.path.normpath(os.path.join(os.path.dirname(page), target))
            if resolved.startswith(".."):
                continue  # ../shared: beside the repository, not part of it
            assert resolved in members or any(m.startswith(resolved.rstrip("/") + "/") for m in members), (
                f"{page} links to {target}, which the sdist lacks"
            )
