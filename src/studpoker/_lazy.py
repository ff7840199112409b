"""Names a package loads on first use (PEP 562's module ``__getattr__``), so that importing it stays light."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any


def load(package: str, namespace: dict[str, Any], table: Mapping[str, str], name: str) -> Any:
    """``name`` of ``package`` from the module ``table`` names for it (relative to the package; the module itself
    when its name is ``name``), kept in the package's ``namespace`` so the next look-up is a plain one."""
    where = table.get(name)
    if where is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    module = importlib.import_module(f".{where}", package)
    value = module if where.rpartition(".")[2] == name else getattr(module, name)
    namespace[name] = value
    return value
