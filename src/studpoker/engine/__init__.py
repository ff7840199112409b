"""The rules engine: one hand of stud as SPEC.md describes it.

* :class:`Rules`: the table sign (variant, stakes, every option of SPEC section 2, presets).
* :class:`HandState`: the hand state machine (``legal_actions``, ``apply``, ``deal``, ``view``, ``copy``).
* :class:`Action`: what a player does; amounts are totals for the betting round.
* ``events``: the structured log of everything that happened.

Nothing here does I/O or imports anything above ``cards`` and ``evaluation``.
"""

from typing import TYPE_CHECKING

from .. import _lazy
from .errors import ActionError, CardSupplyError, EngineError, IllegalActionError, RulesError, RulesWarning
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

if TYPE_CHECKING:
    from . import codec
    from .actions import Action, ActionKind
    from .pots import Pot
    from .settle import Award
    from .state import CardRequest, HandState, Phase, PlayerView, View
    from .words import action_words, best_five, describe_board, describe_hand

#: The names whose modules load on first use (the hand state machine and its helpers): a caller that needs only
#: the rules and the variants (``stud equity``, the evaluators' users) does not pay for them.
_LAZY = {
    "Action": "actions",
    "ActionKind": "actions",
    "Pot": "pots",
    "Award": "settle",
    "CardRequest": "state",
    "HandState": "state",
    "Phase": "state",
    "PlayerView": "state",
    "View": "state",
    "action_words": "words",
    "best_five": "words",
    "describe_board": "words",
    "describe_hand": "words",
    "codec": "codec",  # the JSON codec, a module
}


def __getattr__(name: str) -> object:
    """Load a name of :data:`_LAZY` from its module on first use (PEP 562), then keep it here."""
    return _lazy.load(__name__, globals(), _LAZY, name)


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
