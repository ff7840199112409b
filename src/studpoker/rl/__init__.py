"""Stud as a reinforcement-learning environment: PettingZoo (AEC) and OpenSpiel, for all four games.

* :func:`env` / :func:`raw_env`: a PettingZoo AEC environment, one hand an episode (``studpoker.rl.aec``).
* ``studpoker.rl.openspiel``: OpenSpiel games ``python_studpoker`` (with a ``variant`` parameter) and
  ``python_studpoker_stud7``, ``..._stud7_hl8``, ``..._stud5``, ``..._razz``, registered when it is imported.
* :mod:`~studpoker.rl.encoding`: the discrete actions and the observation layout both share (docs/rl.md).

Needs the ``rl`` extra (pettingzoo, gymnasium, open_spiel). Nothing here is imported by ``import studpoker``,
and the environments load lazily: ``studpoker.rl.openspiel`` does not import PettingZoo, nor the reverse.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .config import TableConfig, make_config
from .encoding import ACTION_NAMES, BRING_IN, CALL, FOLD, NUM_ACTIONS, RAISE, RAISE_BIG, Layout

if TYPE_CHECKING:
    from .aec import StudEnv, env, raw_env

__all__ = [
    "ACTION_NAMES",
    "BRING_IN",
    "CALL",
    "FOLD",
    "NUM_ACTIONS",
    "RAISE",
    "RAISE_BIG",
    "Layout",
    "StudEnv",
    "TableConfig",
    "env",
    "make_config",
    "raw_env",
]

_LAZY = {"StudEnv", "env", "raw_env"}


def __getattr__(name: str) -> Any:
    """The PettingZoo names load PettingZoo on first use."""
    if name in _LAZY:
        from . import aec

        return getattr(aec, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
