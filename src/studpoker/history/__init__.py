"""Hand histories: PHH and PokerStars text in and out, and replaying them through the engine.

* :mod:`~studpoker.history.model`: :class:`HandRecord`, a hand as a history tells it.
* :mod:`~studpoker.history.phh`: the open PHH format (``.phh``, ``.phhs``).
* :mod:`~studpoker.history.replay`: :func:`replay` a record through the rules engine.
* :mod:`~studpoker.history.record`: :func:`record_hand` turns a played hand into a record; :func:`seen_by` is a
  record as one seat (or a spectator) saw it.
"""

from .model import Bet, Board, Comment, Deal, HandRecord, HistoryAction, ShowMuck
from .record import record_hand, seen_by
from .replay import ReplayError, ReplayResult, replay

__all__ = [
    "Bet",
    "Board",
    "Comment",
    "Deal",
    "HandRecord",
    "HistoryAction",
    "ReplayError",
    "ReplayResult",
    "ShowMuck",
    "record_hand",
    "replay",
    "seen_by",
]
