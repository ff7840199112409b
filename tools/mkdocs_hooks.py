"""mkdocs hooks for the documentation site (mkdocs.yml names this file under ``hooks``).

The guides under docs/ are read on GitHub too, where a link such as ``../examples/bots/caller.py`` opens that file of
the repository. The site has no repository beside it, so such a link would be broken (an error under ``--strict``).
These hooks keep it working: every repository file a page links to outside docs/ is copied into the site under
``_repo/`` (the same path below it), and the page's link is pointed at the copy. A link to a file that does not exist
is left alone, so the build reports it.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

#: A Markdown inline link's target: ``](target)`` or ``](target#anchor)``, no scheme.
LINK = re.compile(r"\]\((?P<target>(?![a-z][a-z0-9+.-]*:)[^)\s#]+)(?P<anchor>#[^)\s]*)?\)")
COPIES = "_repo"


def _outside(config: MkDocsConfig, src_uri: str, target: str) -> str | None:
    """The repository path ``target`` (a link in the page ``src_uri``) names, if it leaves docs/ for a file."""
    docs = Path(config.docs_dir).resolve()
    root = docs.parent
    path = (docs / posixpath.dirname(src_uri) / target).resolve()
    if path.is_relative_to(docs) or not path.is_relative_to(root) or not path.is_file():
        return None
    return path.relative_to(root).as_posix()


def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    for page in [f for f in files if f.src_uri.endswith(".md")]:
        text = Path(page.abs_src_path or "").read_text(encoding="utf-8")
        for match in LINK.finditer(text):
            outside = _outside(config, page.src_uri, match["target"])
            uri = f"{COPIES}/{outside}"
            if outside is not None and files.get_file_from_path(uri) is None:
                root = Path(config.docs_dir).resolve().parent
                files.append(File.generated(config, uri, abs_src_path=str(root / outside)))
    return files


def on_page_markdown(markdown: str, *, page: Page, config: MkDocsConfig, **kwargs: Any) -> str:
    def relink(match: re.Match[str]) -> str:
        outside = _outside(config, page.file.src_uri, match["target"])
        if outside is None:
            return match[0]
        here = posixpath.dirname(page.file.src_uri) or "."
        return f"]({posixpath.relpath(f'{COPIES}/{outside}', here)}{match['anchor'] or ''})"

    return LINK.sub(relink, markdown)
