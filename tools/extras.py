"""Print the requirements of some of studpoker's extras, one per line, as pip's ``-r`` reads them.

The Makefile compiles the engine once (``pip install -e .``) and installs each set of extras from these lines, so a
new extra (``make play`` after ``make run``) adds packages without compiling the engine again, as
``pip install -e '.[tui]'`` would. An extra that names studpoker's own (``studpoker[test,bench]``) is expanded.

    python tools/extras.py test+lint   # or: test,lint
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
SELF = re.compile(r"^studpoker\[(?P<extras>[\w,\s-]+)\]$")


def requirements(extras: list[str], table: dict[str, list[str]]) -> list[str]:
    """The requirements of ``extras``, own extras expanded, each once, in first-seen order."""
    seen: list[str] = []
    done: set[str] = set()

    def add(extra: str) -> None:
        if extra in done:
            return
        if extra not in table:
            raise SystemExit(f"extras.py: studpoker has no extra {extra!r} (it has: {', '.join(sorted(table))})")
        done.add(extra)
        for line in table[extra]:
            own = SELF.match(line.strip())
            if own:
                for name in own["extras"].split(","):
                    add(name.strip())
            elif line not in seen:
                seen.append(line)

    for extra in extras:
        add(extra)
    return seen


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    table = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    names = [name for name in re.split(r"[+,]", argv[0]) if name]
    print("\n".join(requirements(names, table)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
