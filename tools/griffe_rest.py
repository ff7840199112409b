"""A griffe extension for the documentation site: studpoker's reST-flavoured docstrings as Markdown.

mkdocstrings renders docstrings as Markdown, and studpoker's are written for ``help()`` and reST readers: roles
(``:class:`Card```, ``:meth:`~HandState.apply```), double-backtick literals, and doctest examples set in the prose.
Double backticks are already a Markdown code span; this rewrites the two other things, in what the site shows only
(the sources are not touched):

* a role becomes a code span of what it names: ``:func:`~studpoker.cards.parse_cards``` reads ``parse_cards``, as
  Sphinx shows it, and ``:class:`text <target>``` reads ``text``;
* a doctest example (a run of lines from ``>>>`` to the next blank line) becomes a fenced ``pycon`` block, which
  Markdown would otherwise read as nested block quotes.

mkdocs.yml loads it (``extensions: [tools/griffe_rest.py:RestToMarkdown]``); it needs griffe, which mkdocstrings
brings, so it is not imported by anything else.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

#: ``:role:`target```, ``:role:`~dotted.target``` or ``:role:`title <target>```.
ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|data|mod|obj|exc|const|ref|term):`(?P<body>[^`]+)`")
TITLED = re.compile(r"^(?P<title>.+?)\s*<[^>]+>$")


def _role(match: re.Match[str]) -> str:
    body = match["body"].strip()
    titled = TITLED.match(body)
    if titled:
        return f"`{titled['title']}`"
    if body.startswith("~"):
        body = body[1:].rsplit(".", 1)[-1]
    return f"`{body}`"


def _fence_doctests(text: str) -> str:
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if not stripped.startswith(">>>"):
            out.append(line)
            i += 1
            continue
        indent = line[: len(line) - len(stripped)]
        if out and out[-1].strip():
            out.append("")
        out.append(f"{indent}```pycon")
        while i < len(lines) and lines[i].strip():
            out.append(lines[i])
            i += 1
        out.append(f"{indent}```")
    return "\n".join(out)


def to_markdown(text: str) -> str:
    """``text``, a docstring, with its roles as code spans and its doctest examples fenced.

    >>> print(to_markdown("Deal with :meth:`~HandState.deal` or :func:`studpoker.cards.parse_cards`."))
    Deal with `deal` or `studpoker.cards.parse_cards`.
    >>> to_markdown("An example:\\n>>> 1 + 1\\n2\\n\\nMore.").splitlines()
    ['An example:', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'More.']
    """
    return _fence_doctests(ROLE.sub(_role, text))


class RestToMarkdown(griffe.Extension):
    """Rewrites every docstring griffe loads with :func:`to_markdown`."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)
