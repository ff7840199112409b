"""Build hook: compile the rules engine's and the card room's hot modules with mypyc, and the C kernels, when possible.

The engine is plain, fully typed Python; mypyc turns the modules below into C
extensions that play hands about twice as fast (see docs/performance.md). The
hand-evaluation kernel (``src/studpoker/evaluation/_kernel.c``) and the equity
kernels (``src/studpoker/equity/_sample.c`` and ``_count.c``) are small C extensions that need only
the Python headers. Every extension is optional: set
STUDPOKER_PURE=1, or lack a C compiler, and the package installs and runs as
pure Python (and NumPy) with identical behaviour.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup

COMPILED = [
    "src/studpoker/engine/state.py",
    "src/studpoker/engine/pots.py",
    "src/studpoker/engine/settle.py",
    "src/studpoker/engine/codec.py",
    "src/studpoker/engine/dealer.py",
    "src/studpoker/history/phh.py",
    "src/studpoker/history/replay.py",
]

# The PokerStars reader, the check of every room's stated amounts, the cutting of files into hands and the
# tracker's counting (issues 30 and 32: the tracker imports millions of hands). A group of their own, so that one
# that cannot be compiled leaves the engine compiled.
HISTORY_COMPILED = [
    "src/studpoker/history/pokerstars/reader.py",
    "src/studpoker/history/pokerstars/builder.py",
    "src/studpoker/history/derived.py",
    "src/studpoker/history/stated.py",
    "src/studpoker/history/sites/check.py",
    "src/studpoker/history/lines.py",
    "src/studpoker/tracker/tally.py",
]

# The card room's step path: what a table builds and sends at each action (issue 29). A group of its own, so that
# the engine is compiled even where these cannot be: the build environment has none of the server's packages
# (pydantic, orjson...), which mypy then takes as ``Any`` and does not look into.
SERVER_COMPILED = [
    "src/studpoker/server/wire.py",
    "src/studpoker/server/viewers.py",
    "src/studpoker/server/clock.py",
    "src/studpoker/server/connection.py",
    "src/studpoker/server/relay.py",
    "src/studpoker/server/inbox.py",
]
SERVER_FLAGS = [
    "--ignore-missing-imports",
    "--follow-imports=silent",
    "--no-warn-return-any",
    "--allow-subclassing-any",
    "--allow-untyped-decorators",
    "--no-warn-unused-ignores",
]


KERNEL = Extension(
    "studpoker.evaluation._kernel",
    sources=["src/studpoker/evaluation/_kernel.c"],
    extra_compile_args=["-O3", "-std=c99"] if sys.platform != "win32" else ["/O2"],
    optional=True,  # no compiler, or it fails: batch.py and high.py use the NumPy / Python path
)
EQUITY_KERNELS = [
    Extension(
        f"studpoker.equity.{name}",
        sources=[f"src/studpoker/equity/{name}.c"],
        extra_compile_args=["-O3", "-std=c99"] if sys.platform != "win32" else ["/O2"],
        optional=True,  # without them the samplers and the tuple counter run in NumPy, and the sweep is not offered
    )
    for name in ("_sample", "_count")
]


def extensions() -> list[object]:
    if os.environ.get("STUDPOKER_PURE") == "1":
        return []
    return [KERNEL, *EQUITY_KERNELS, *mypyc_modules()]


def mypyc_modules() -> list[object]:
    return [
        *mypyc_group(COMPILED, "studpoker.engine._native", "the engine"),
        *mypyc_group(HISTORY_COMPILED, "studpoker.history._native", "the hand-history readers"),
        *mypyc_group([*SERVER_FLAGS, *SERVER_COMPILED], "studpoker.server._native", "the card room's step path"),
    ]


def mypyc_group(paths: list[str], group: str, what: str) -> list[object]:
    try:
        from mypyc.build import mypycify

        modules = mypycify(paths, opt_level="3", group_name=group)
    except (Exception, SystemExit) as error:  # no mypyc, or it cannot compile: fall back to pure Python
        print(f"studpoker: building {what} without compiled modules ({error})", file=sys.stderr)
        return []
    for module in modules:
        module.optional = True  # a failed C compilation leaves the pure-Python modules in charge
    return modules


# The extensions are compiled side by side, one a core: mypyc's C for the engine, the readers and the card room
# is most of an install's time.
setup(ext_modules=extensions(), options={"build_ext": {"parallel": os.cpu_count() or 1}})
