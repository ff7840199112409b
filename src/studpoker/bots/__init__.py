"""Bots: players that see only what their seat may see (``HandState.view(seat)``) and return a legal action.

* :class:`Bot`: the interface (one method, :meth:`Bot.act`).
* :class:`RandomBot`, :class:`CallingStation`: the simple built-ins.
* :class:`TightAggressive`: a stud-aware tight-aggressive player for all four games.
* :func:`make_bot`: a bot by tag (``random``, ``calling-station``, ...), as ``stud play --bots`` names them.
* :func:`play_hand`: play the table's next hand with a bot in every seat.
* :func:`run_match`: many hands at one table; :class:`MatchResult` gives bb/100 with confidence intervals.
* :class:`ExternalBot`: a bot program in another process, over the JSON-lines protocol of
  :mod:`~studpoker.bots.protocol` (``external:COMMAND`` for :func:`make_bot`).
"""

from .base import BOT_TAGS, Bot, BotError, CallingStation, RandomBot, make_bot, play_hand
from .external import ExternalBot
from .match import MatchResult, run_match
from .protocol import PROTOCOL_VERSION, action_from_json, view_to_json
from .tag import TightAggressive

__all__ = [
    "BOT_TAGS",
    "PROTOCOL_VERSION",
    "Bot",
    "BotError",
    "CallingStation",
    "ExternalBot",
    "MatchResult",
    "RandomBot",
    "TightAggressive",
    "action_from_json",
    "make_bot",
    "play_hand",
    "run_match",
    "view_to_json",
]
