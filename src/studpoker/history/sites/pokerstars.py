"""PokerStars, through :mod:`studpoker.history.pokerstars` (its reader, checker and writer), as a room."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...history import pokerstars as _stars
from ..model import HandRecord
from .base import NotStudGameError, SiteError

__all__ = ["OPTIONS", "TITLE", "detect", "loads_each"]

TITLE = "PokerStars"
#: :data:`studpoker.history.pokerstars.POKERSTARS_OPTIONS`, with its evidence.
OPTIONS: Mapping[str, Any] = _stars.POKERSTARS_OPTIONS


def detect(text: str) -> bool:
    """A PokerStars export starts with ``PokerStars Game #``, ``PokerStars Hand #``, ``PokerStars Zoom Hand #`` or
    (a home game) ``PokerStars Home Game Hand #``."""
    return text.startswith(("PokerStars Game #", "PokerStars Hand #", "PokerStars Home Game", "PokerStars Zoom Hand #"))


def loads_each(text: str) -> list[tuple[int, HandRecord | SiteError]]:
    """Every hand of the text, each read on its own."""
    out: list[tuple[int, HandRecord | SiteError]] = []
    for line, found in _stars.loads_each(text):
        if isinstance(found, _stars.NotStudError):
            out.append((line, NotStudGameError(found.game, room=TITLE)))
        elif isinstance(found, ValueError):
            out.append((line, SiteError(str(found), room=TITLE, line=line)))
        else:
            found.info.setdefault("room", TITLE)
            out.append((line, found))
    return out
