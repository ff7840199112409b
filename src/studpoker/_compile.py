"""What mypyc is told of a compiled module's classes (``setup.py`` compiles the engine and the readers with it).

``mypyc_attr`` is mypy's own where mypy is installed (it always is where the modules are compiled), and does
nothing where it is not: a pure-Python install needs no more than the standard library.
"""

from __future__ import annotations

from typing import Any

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # pure Python without mypy's extensions: the attributes only tell mypyc how to compile

    def mypyc_attr(*attrs: Any, **options: Any) -> Any:  # type: ignore[misc]
        """Nothing: a class is left as it is."""
        return lambda cls: cls


__all__ = ["mypyc_attr"]
