"""Repository-level pytest settings.

When the engine's hot modules are compiled (mypyc, see setup.py), their ``.py`` files
cannot be collected for doctests (Python imports the compiled module, which has no
docstrings); ``tests/engine/test_source_doctests.py`` runs those examples from source.
"""

from __future__ import annotations

from studpoker.engine import state

COMPILED_SOURCES = ["src/studpoker/engine/state.py", "src/studpoker/engine/pots.py", "src/studpoker/engine/settle.py"]
collect_ignore = COMPILED_SOURCES if not state.__file__.endswith(".py") else []
