"""Hand histories: PHH, PokerStars text and every room's export in, PHH and PokerStars text out, and replaying them
through the engine.

* One set of verbs for every format (:mod:`~studpoker.history.formats`): :func:`load` (alias :func:`read`) and
  :func:`loads` give a list of :class:`HandRecord`, the format told from the file or text unless named;
  :func:`dump` and :func:`dumps` write PHH or PokerStars text; :func:`load_each` reads each hand on its own
  (:class:`FileHand`). ``phh``, ``pokerstars`` and ``sites`` offer the same verbs for their own format.

* :mod:`~studpoker.history.model`: :class:`HandRecord`, a hand as a history tells it.
* :mod:`~studpoker.history.phh`: the open PHH format (``.phh``, ``.phhs``).
* :mod:`~studpoker.history.replay`: :func:`replay` a record through the rules engine.
* :mod:`~studpoker.history.audit`: :func:`verify` replays a record and checks it against everything its history
  states, whatever the format (:class:`MismatchError` lists what disagrees).
* :mod:`~studpoker.history.record`: :func:`record_hand` turns a played hand into a record; :func:`seen_by` is a
  record as one seat (or a spectator) saw it.
"""

from .audit import MismatchError, Problem, verify
from .files import FileHand, HistoryFileError
from .formats import FORMATS, dump, dumps, load, load_each, loads
from .model import Bet, Board, Comment, Deal, HandRecord, HistoryAction, ShowMuck
from .record import record_hand, seen_by
from .replay import ReplayError, ReplayResult, replay

#: The detecting reader the guide names first: the same function as :func:`load`.
read = load

__all__ = [
    "FORMATS",
    "Bet",
    "Board",
    "Comment",
    "Deal",
    "FileHand",
    "HandRecord",
    "HistoryAction",
    "HistoryFileError",
    "MismatchError",
    "Problem",
    "ReplayError",
    "ReplayResult",
    "ShowMuck",
    "dump",
    "dumps",
    "load",
    "load_each",
    "loads",
    "read",
    "record_hand",
    "replay",
    "seen_by",
    "verify",
]
