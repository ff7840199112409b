"""Every option and argument of every ``stud`` command says what it is in ``--help`` (issue 27, item 7: two had
nothing), and every command is on the docs' index."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

from studpoker.cli import _parser

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _commands(parser: argparse.ArgumentParser, prefix: str = "stud") -> Iterator[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield f"{prefix} {name}", sub
                yield from _commands(sub, f"{prefix} {name}")


def test_every_option_has_help() -> None:
    missing = [
        f"{command} {'/'.join(action.option_strings) or action.dest}"
        for command, parser in _commands(_parser())
        for action in parser._actions
        if not isinstance(action, argparse._SubParsersAction) and not action.help
    ]
    assert not missing, missing


def test_every_command_is_on_the_docs_index() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    top = {command.split()[1] for command, _ in _commands(_parser())}
    assert top == {
        "eval",
        "replay",
        "convert",
        "play",
        "equity",
        "simulate",
        "import",
        "stats",
        "serve",
        "admin",
        "dealer",
        "solve",
    }
    for name in top:
        assert f"`stud {name}" in index, name
