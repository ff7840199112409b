"""Every console example of README.md and docs/**/*.md runs and prints what the page says (issue 27, item 7).

A console example is a fenced block marked ``console`` (or ``sh``, ``bash``, ``shell``): a line ``$ COMMAND`` (a
``\\`` at its end continues it on the next line), then the lines it prints, standard output and standard error
together, in the order a terminal shows them. Each page's commands run in order, in one temporary directory, with
bash (so quotes, pipes and ``> FILE`` mean what they mean in a terminal), ``stud`` being ``python -m studpoker``
on this process's ``sys.path`` (the sources under test). A command may use a file an earlier one wrote. The
directory holds a copy of ``tests/docs/files/`` (``bad.phh``, ``typo.phh``, ``empty.txt``, ``holdem.txt``: two hold'em
hands of a PokerStars 8-Game file of tests/history/wild; ``cut.jsonl``: a dealer's journal cut short),
``session.txt`` (made from the shared razz file below) and, one level up, ``shared/data``: the shared hand
histories, so that a page's ``../shared/data/...`` resolves as it does from a clone (a page that names them skips
where they are absent, as every test of the shared data does).

What is compared, after trailing spaces and blank lines are dropped from both sides:

* ``...`` on a line of its own stands for any number of lines (none too); ``...`` inside a line for any text in
  that line, like doctest's ELLIPSIS. Write it for what the reader need not see (a long list of hands), not for
  what varies between runs: a Monte Carlo example gives ``--seed``, which makes its output the same every time.
* A time taken, ``in 0.19 s`` (or ``ms``), is the one thing that varies: on both sides it becomes ``in <time> s``.
* The temporary directory's path, where the program prints it, becomes ``.``.

Commands that cannot run here (they serve until stopped, install packages, need a terminal or another machine)
are in ``NOT_RUN`` with the reason; of those that are ``stud`` commands, every option written must be one that
``stud COMMAND --help`` names. Any other command must show its output; a new one that shows none fails, as does an
entry of ``NOT_RUN`` that no page has any more.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FILES = Path(__file__).parent / "files"
FENCES = ("console", "sh", "bash", "shell")
#: A bound for one command: the slowest example takes a few seconds; a busy machine may take many times longer.
PATIENCE = 300.0

_SERVE = "serves the card room until it is stopped"
_CLUSTER = "part of the several-process room, which needs PostgreSQL, Redis and several machines"
_PLAY = "the terminal game: it needs a terminal and a player at its keys"
_SIMULATE = "plays a million hands or more (minutes to hours), or runs on a Ray cluster"

#: Commands shown that the test does not run, as written (less a trailing ``  # comment``), and why.
NOT_RUN: dict[str, str] = {
    "make run": "installs studpoker into .venv and serves the card room until it is stopped",
    "make test": "installs the test extra and runs the whole test suite, this file too",
    "make docs": "installs the docs extra into .venv and builds the site (.ci/run builds it)",
    ".venv/bin/mkdocs serve": "serves the documentation site until it is stopped",
    "pip install -e '.[tui]'": "installs packages (the tests' environment has them)",
    "pip install -e '.[server]'": "installs packages (the tests' environment has them)",
    "pip install -e '.[cluster]'": "installs packages (the tests' environment has them)",
    'stud play --bots "external:python examples/bots/caller.py,random"': _PLAY,
    "stud play --variant razz --players 4 --bots tight-aggressive,random --seed 7": _PLAY,
    "stud replay studpoker-session-20250101-203015.phhs": "replays the file a stud play session saved, named by "
    "its date and time",
    "curl -c jar -H 'Origin: http://127.0.0.1:8000' -H 'Content-Type: application/json' "
    '-d \'{"username": "ann", "password": "correct horse battery"}\' http://127.0.0.1:8000/api/signup': "signs up "
    "on a card room running on port 8000",
    "stud serve": _SERVE,
    "stud dealer --reader --no-browser": "serves the dealer's console until it is stopped",
    "export STUDPOKER_DB_URL=postgresql+psycopg://stud:secret@localhost/studpoker": "names a PostgreSQL database "
    "for the stud serve after it",
    "stud serve --host 0.0.0.0 --port 8080": _SERVE,
    "stud serve --host 127.0.0.1 --port 8000 --proxy-headers 127.0.0.1 --secure-cookies": _SERVE,
    "export STUDPOKER_DB_URL=postgresql+psycopg://stud:pw@db/room": _CLUSTER,
    "export STUDPOKER_REDIS_URL=redis://studpoker:pw2@10.0.0.5:6379/0": _CLUSTER,
    "stud serve --role worker": _CLUSTER,
    "stud serve --role gateway --host 0.0.0.0": _CLUSTER,
    "stud serve --workers 2": _SERVE,
    "R_PW=$(python3 -c 'import secrets; print(secrets.token_hex(24))')": _CLUSTER,
    'printf \'port 6379\\nbind 127.0.0.1 -::1\\nsave ""\\nappendonly no\\nuser default off\\nuser studpoker on >%s '
    '~studpoker:* &studpoker:* +@all -@dangerous\\n\' "$R_PW" | redis-server - --daemonize yes': _CLUSTER,
    "export STUDPOKER_DB_URL=postgresql+psycopg://stud:pw@localhost/room": _CLUSTER,
    "export STUDPOKER_REDIS_URL=redis://studpoker:$R_PW@127.0.0.1:6379/0": _CLUSTER,
    "stud serve --role worker &": _CLUSTER,
    "stud serve --role gateway --port 8001 &": _CLUSTER,
    "stud serve --role gateway --port 8002 &": _CLUSTER,
    "stud simulate --variant razz --bots tag,calling-station,random --hands 1e6 --seed 7": _SIMULATE,
    "stud simulate --variant 7stud --bots tag,external:./mybot --hands 1e7 --duplicate --plot curve.png": _SIMULATE,
    "stud simulate --bots tag,random --hands 1e8 --ray 10.0.0.5:6379 --json > result.json": _SIMULATE,
    "ray start --head --port 6379 --num-cpus 8": "starts a Ray cluster's head",
    "ray start --address HEAD:6379": "joins a Ray cluster",
    "stud simulate --bots tag,random --hands 1e9 --ray HEAD:6379": _SIMULATE,
}


@dataclass(frozen=True)
class Example:
    """One ``$ COMMAND`` of a console block and the lines the page shows after it."""

    page: Path
    line: int  # of the command, 1-based
    command: str
    expected: tuple[str, ...]

    @property
    def where(self) -> str:
        """``docs/cli.md:105``, for messages."""
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    @property
    def key(self) -> str:
        """The command as ``NOT_RUN`` names it: without a trailing ``  # comment``."""
        return re.sub(r"\s{2,}#.*$", "", self.command).strip()


def examples(page: Path) -> list[Example]:
    """Every command of the page's console blocks, in order."""
    found: list[Example] = []
    fence: str | None = None
    indent = ""
    command: list[str] = []
    start = 0
    output: list[str] = []

    def close() -> None:
        if command:
            found.append(Example(page, start, " ".join(command), tuple(output)))
        command.clear()
        output.clear()

    continued = False
    for number, raw in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        stripped = raw.strip()
        if fence is None:
            opening = re.fullmatch(r"(\s*)(`{3,})(\w*).*", raw)
            if opening and opening.group(3) in FENCES:
                indent, fence = opening.group(1), opening.group(2)
            continue
        line = raw.removeprefix(indent)  # a block in a list item is indented as the item
        if stripped == fence:
            close()
            fence = None
        elif continued:
            command.append(stripped.removesuffix("\\").strip())
            continued = stripped.endswith("\\")
        elif line.startswith("$ "):
            close()
            start = number
            command.append(line[2:].removesuffix("\\").strip())
            continued = line.endswith("\\")
        else:
            output.append(line)
    return found


def normalise(text: str, work: Path | None = None) -> list[str]:
    """The lines compared: timings and the working directory's path made constant, trailing spaces dropped."""
    if work is not None:
        text = text.replace(f"{work}/", "").replace(str(work), ".")
    text = re.sub(r"\bin \d[\d,]*(?:\.\d+)? (m?s)\b", r"in <time> \1", text)
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def pattern(expected: list[str]) -> re.Pattern[str]:
    """The expected lines as a regular expression: ``...`` alone is any lines, ``...`` in a line any text."""
    parts = []
    for line in expected:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append("[^\n]*?".join(map(re.escape, line.split("..."))) + r"\n")
    return re.compile("".join(parts))


def matches(expected: list[str], got: list[str]) -> bool:
    """Whether the output is what the page shows, ``...`` standing for what it leaves out."""
    return pattern(expected).fullmatch("".join(line + "\n" for line in got)) is not None


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """The directory a page's commands run in, with the files they name; ``stud`` on the PATH in ``bin/``."""
    work = tmp_path / "work"
    shutil.copytree(FILES, work)
    (tmp_path / "bin").mkdir()
    stud = tmp_path / "bin" / "stud"
    stud.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m studpoker "$@"\n')
    stud.chmod(0o755)
    return work


def add_shared_data(work: Path, data: Path) -> None:
    """``../shared/data`` for the page's paths, and ``session.txt``: the shared razz file with hand 5's call
    mistyped (``callz``, line 266) and hand 9 made a Hold'em hand, for docs/cli.md's summary line."""
    (work.parent / "shared").mkdir()
    (work.parent / "shared" / "data").symlink_to(data.resolve())
    lines = (data / "pokerstars" / "Razz-USD-0.04-0.08-200911.txt").read_text(encoding="utf-8").split("\n")
    assert lines[265] == "manga130: calls $0.02" and lines[505].startswith("PokerStars Game #35874817957:  Razz")
    lines[265] = "manga130: callz $0.02"
    lines[505] = lines[505].replace("Razz Limit", "Hold'em Limit")
    (work / "session.txt").write_text("\n".join(lines), encoding="utf-8")


def environment(work: Path) -> dict[str, str]:
    """The commands' environment: ``stud`` first on the PATH, this process's ``sys.path``, unbuffered output (so
    stdout and stderr interleave as on a terminal), and none of the room's settings from the caller's environment."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("STUDPOKER_")}
    env["PATH"] = f"{work.parent / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(entry for entry in sys.path if entry)
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONIOENCODING"] = "utf-8"
    env["COLUMNS"] = "120"
    return env


def run(command: str, work: Path) -> tuple[int, str]:
    """``command`` in bash in ``work``: exit status and everything it printed."""
    try:
        done = subprocess.run(
            ["bash", "-c", command],
            check=False,
            cwd=work,
            env=environment(work),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            timeout=PATIENCE,
        )
    except subprocess.TimeoutExpired:
        return -1, f"(did not end within {PATIENCE:.0f} s: a command that serves or waits belongs in NOT_RUN)\n"
    return done.returncode, done.stdout


def report(example: Example, code: int, got: list[str]) -> str:
    """A failure: where, the command, and a diff of what the page says against what the command printed (both
    normalised; a line with ``...`` shows in it though it may match)."""
    diff = difflib.unified_diff(
        normalise("\n".join(example.expected)),
        got,
        f"{example.where} (the page)",
        f"what it printed (exit {code})",
        lineterm="",
        n=2,
    )
    return f"{example.where}: $ {example.command}\n" + "\n".join(diff)


def all_examples() -> Iterator[Example]:
    """Every command of every page."""
    for page in PAGES:
        yield from examples(page)


PAGES_WITH_EXAMPLES = [page for page in PAGES if any(e.key not in NOT_RUN for e in examples(page))]


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES, ids=lambda page: str(page.relative_to(ROOT)))
def test_the_page_prints_what_its_commands_print(page: Path, workdir: Path, request: pytest.FixtureRequest) -> None:
    """Each command the page shows with its output prints that output; all the differences are reported at once."""
    if "../shared/data" in page.read_text(encoding="utf-8") or "session.txt" in page.read_text(encoding="utf-8"):
        add_shared_data(workdir, request.getfixturevalue("shared_data"))
    failures = []
    for example in examples(page):
        if example.key in NOT_RUN:
            continue
        if not example.expected:
            failures.append(
                f"{example.where}: $ {example.command}\nshows no output: paste what it prints below it, or add it"
                " to NOT_RUN in tests/docs/test_console_examples.py with the reason it cannot run in a test"
            )
            continue
        code, printed = run(example.command, workdir)
        got = normalise(printed, workdir)
        if not matches(normalise("\n".join(example.expected)), got):
            failures.append(report(example, code, got))
    if failures:
        pytest.fail("\n\n".join(["the page says one thing, the program prints another:", *failures]), pytrace=False)


def test_every_command_not_run_is_still_shown() -> None:
    """``NOT_RUN`` lists only commands some page shows: an entry left behind by an edit is dropped."""
    shown = {example.key for example in all_examples()}
    assert sorted(set(NOT_RUN) - shown) == []


@cache
def help_text(command: str) -> str:
    """``stud COMMAND --help``."""
    done = subprocess.run(
        [sys.executable, "-m", "studpoker", command, "--help"],
        env={**os.environ, "PYTHONPATH": os.pathsep.join(entry for entry in sys.path if entry), "COLUMNS": "200"},
        capture_output=True,
        text=True,
        check=True,
        timeout=PATIENCE,
    )
    return done.stdout


def test_the_commands_not_run_use_options_that_exist() -> None:
    """A ``stud`` command the test cannot run (``stud serve``, ``stud play``, ``stud simulate`` of many hands)
    names only options its ``--help`` names."""
    unknown = []
    for example in all_examples():
        if example.key not in NOT_RUN:
            continue
        words = shlex.split(example.command, comments=True)
        if words[:1] != ["stud"]:
            continue
        for word in words[2:]:
            option = word.split("=", 1)[0]
            if option.startswith("--") and not re.search(
                rf"(?<![\w-]){re.escape(option)}(?![\w-])", help_text(words[1])
            ):
                unknown.append(f"{example.where}: $ {example.command}\n  stud {words[1]} --help names no {option}")
    if unknown:
        pytest.fail("\n".join(unknown), pytrace=False)


def test_the_matching_rules() -> None:
    """``...`` alone stands for any lines, none too; in a line for any text there; times are made constant."""
    assert matches(["a", "...", "z"], ["a", "b", "c", "z"]) and matches(["a", "...", "z"], ["a", "z"])
    assert matches(["error: ...bet.txt hand 1"], ["error: Winamax/negative.bet.txt hand 1"])
    assert not matches(["a", "z"], ["a", "b", "z"]) and not matches(["a...z"], ["a", "z"])
    assert normalise("exact: 1 outcomes in 0.19 s\nin 12 ms  \n\n") == ["exact: 1 outcomes in <time> s", "in <time> ms"]
    assert examples(ROOT / "docs" / "cli.md")[0].expected[0] == "High: Two pair, aces and sevens (As Ad 7h 7c Kd)"
