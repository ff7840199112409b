"""How to install an optional part of studpoker, said the same way by every command that needs one.

studpoker is installed from a clone or from a wheel built from it, not from a package index, so
``pip install 'studpoker[tui]'`` would fail: the hint names the packages themselves where they are few, and the
extra as a clone and a wheel install it. ``tests/test_extras.py`` keeps :data:`EXTRAS` equal to pyproject.toml.
"""

from __future__ import annotations

__all__ = ["EXTRAS", "install_hint"]

#: The packages of each extra a command may need (pyproject.toml's ``[project.optional-dependencies]``).
EXTRAS: dict[str, tuple[str, ...]] = {
    "tui": ("textual>=8.0",),
    "server": (
        "fastapi>=0.115",
        "uvicorn[standard]>=0.52.1",
        "sqlalchemy>=2.0.30",
        "alembic>=1.13",
        "argon2-cffi>=23.1",
        "zxcvbn>=4.4.28",
        "fastapi-swagger>=0.4.64",
        "typing-extensions>=4.12",
        "orjson>=3.10",
    ),
    "postgres": ("psycopg[binary]>=3.1",),
    "plot": ("matplotlib>=3.8",),
    "ray": ("ray>=2.60",),
    "rl": ("pettingzoo>=1.27", "gymnasium>=1.0", "open_spiel>=2.0.2"),
    "solve": ("scipy>=1.11",),
}
EXTRAS["cluster"] = (*EXTRAS["server"], *EXTRAS["postgres"], "redis>=5.0")

#: An extra of at most this many packages is named by its packages first.
_FEW = 3


def install_hint(extra: str) -> str:
    """How to install ``extra``, on one line: its packages (if few), then from a clone, then from a wheel.

    >>> for part in install_hint("tui").split("; "):
    ...     print(part)
    pip install 'textual>=8.0' (the [tui] extra
    in a clone of studpoker: pip install -e '.[tui]'
    from a wheel built from it: pip install 'studpoker-VERSION-...whl[tui]')
    """
    packages = EXTRAS[extra]
    clone = f"in a clone of studpoker: pip install -e '.[{extra}]'"
    wheel = f"from a wheel built from it: pip install 'studpoker-VERSION-...whl[{extra}]'"
    if len(packages) <= _FEW:
        named = " ".join(f"'{p}'" for p in packages)
        return f"pip install {named} (the [{extra}] extra; {clone}; {wheel})"
    return f"the [{extra}] extra: {clone}; {wheel}"
