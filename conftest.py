"""Repository-level pytest settings.

When the engine's hot modules are compiled (mypyc, see setup.py), their ``.py`` files
cannot be collected for doctests (Python imports the compiled module, which has no
docstrings); ``tests/test_source_doctests.py`` runs those examples from source.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from studpoker.engine import state

# the modules setup.py compiles, as it lists them
COMPILED_SOURCES = re.findall(r'"(src/studpoker/[\w/]+/\w+\.py)"', (Path(__file__).parent / "setup.py").read_text())
collect_ignore = COMPILED_SOURCES if not state.__file__.endswith(".py") else []

# studpoker.rl and its page need the `rl` extra (pettingzoo, open_spiel); without it their doctests cannot import
# (tests/rl skips by itself).
if any(importlib.util.find_spec(name) is None for name in ("pettingzoo", "gymnasium", "pyspiel")):
    collect_ignore += ["src/studpoker/rl", "docs/rl.md"]

# The dealer's web console needs FastAPI (the `server` extra); without it its modules cannot be imported for their
# doctests (tests/console/test_app.py skips by itself).
if any(importlib.util.find_spec(name) is None for name in ("fastapi", "pydantic")):
    collect_ignore += ["src/studpoker/console/app.py", "src/studpoker/console/schemas.py"]
