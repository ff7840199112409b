"""The rules engine: one hand of stud as SPEC.md describes it.

* :class:`Rules`: the table sign (variant, stakes, every option of SPEC section 2, presets).
* :class:`HandState`: the hand state machine (``legal_actions``, ``apply``, ``deal``, ``view``, ``copy``).
* :class:`Action`: what a player does; amounts are totals for the betting round.
* ``events``: the structured log of everything that happened.

Nothing here does I/O or imports anything above ``cards`` and ``evaluation``.
"""

from . import codec
from .actions import Action, ActionKind
from .errors import ActionError, CardSupplyError, EngineError, IllegalActionError, RulesError, RulesWarning
from .pots import Pot
from .rules import (
    ChipsRequest,
    CommunityFirstActor,
    HeadsUpUncap,
    OddChipRule,
    Rules,
    ShortDeckProcedure,
    Stud5Opening,
    Tiebreak,
    Variant,
)
from .settle import Award
from .state import CardRequest, HandState, Phase, PlayerView, View
from .words import action_words, best_five, describe_board, describe_hand

__all__ = [
    "Action",
    "ActionError",
    "ActionKind",
    "Award",
    "CardRequest",
    "CardSupplyError",
    "ChipsRequest",
    "CommunityFirstActor",
    "EngineError",
    "HandState",
    "HeadsUpUncap",
    "IllegalActionError",
    "OddChipRule",
    "Phase",
    "PlayerView",
    "Pot",
    "Rules",
    "RulesError",
    "RulesWarning",
    "ShortDeckProcedure",
    "Stud5Opening",
    "Tiebreak",
    "Variant",
    "View",
    "action_words",
    "best_five",
    "codec",
    "describe_board",
    "describe_hand",
]
