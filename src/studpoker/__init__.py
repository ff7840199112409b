"""studpoker: seven-card stud, stud hi/lo eight-or-better, five-card stud and razz.

The front door: what most programs need is a name of this package. A hand, from the deal to the pot:

>>> import studpoker
>>> hand = studpoker.HandState(studpoker.Rules.casino("7stud", 1, 3, 10, 20), [200, 200, 200], seed=7)
>>> hand.apply(hand.parse_action("bring in"))[0].action
Action('bring-in', 3)
>>> studpoker.evaluate_high("Kh Kd Ks 7c 7d 2s 9c").description
'Full house, kings full of sevens'

Cards (:class:`Card`, :func:`parse_cards`, :class:`Deck`), evaluation (:func:`evaluate_high`, the batch
functions), the engine (:class:`HandState`, :class:`Rules` and its presets, :class:`Action`, :class:`Variant`),
a :class:`Table`, equity (the :mod:`~studpoker.equity` package: ``equity.equity(hands)``, :class:`Range`), and
hand histories (the :mod:`~studpoker.history` package:
``history.load(path)``, ``history.dumps(records)``; :class:`HandRecord`, :func:`replay`). The sub-packages hold
the rest.

Importing the package is cheap: the engine, equity, histories, NumPy and the lookup tables load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _lazy
from .cards import Card, CardError, Deck, Rank, Suit, format_cards, parse_card, parse_cards
from .evaluation import (
    HandCategory,
    HighHand,
    LowHand,
    evaluate_high,
    evaluate_low8,
    evaluate_razz,
    high_value,
    low8_value,
    razz_value,
)
from .variant import Variant

if TYPE_CHECKING:
    from . import equity, history, svg
    from .engine import (
        Action,
        ActionError,
        ActionKind,
        EngineError,
        HandState,
        IllegalActionError,
        Phase,
        Rules,
        RulesError,
        View,
    )
    from .equity import EquityError, EquityResult, Range
    from .evaluation.batch import high_batch, low8_batch, razz_batch
    from .history.model import HandRecord
    from .history.replay import ReplayError, replay
    from .table import Table, TableError

__version__ = "0.1.0"

#: The names loaded on first use, and the module each comes from (a module itself when the names are equal).
_LAZY = {
    "Action": "engine",
    "ActionError": "engine",
    "ActionKind": "engine",
    "EngineError": "engine",
    "HandState": "engine",
    "IllegalActionError": "engine",
    "Phase": "engine",
    "Rules": "engine",
    "RulesError": "engine",
    "View": "engine",
    "Table": "table",
    "TableError": "table",
    "equity": "equity",  # the package: studpoker.equity.equity(...) is the function
    "EquityError": "equity",
    "EquityResult": "equity",
    "Range": "equity",
    "high_batch": "evaluation.batch",
    "low8_batch": "evaluation.batch",
    "razz_batch": "evaluation.batch",
    "HandRecord": "history",
    "ReplayError": "history",
    "replay": "history",
    "history": "history",
    "svg": "svg",
}

__all__ = [
    "Action",
    "ActionError",
    "ActionKind",
    "Card",
    "CardError",
    "Deck",
    "EngineError",
    "EquityError",
    "EquityResult",
    "HandCategory",
    "HandRecord",
    "HandState",
    "HighHand",
    "IllegalActionError",
    "LowHand",
    "Phase",
    "Range",
    "Rank",
    "ReplayError",
    "Rules",
    "RulesError",
    "Suit",
    "Table",
    "TableError",
    "Variant",
    "View",
    "__version__",
    "equity",
    "evaluate_high",
    "evaluate_low8",
    "evaluate_razz",
    "format_cards",
    "high_batch",
    "high_value",
    "history",
    "low8_batch",
    "low8_value",
    "parse_card",
    "parse_cards",
    "razz_batch",
    "razz_value",
    "replay",
    "svg",
]


def __getattr__(name: str) -> Any:
    """Load a name of :data:`_LAZY` on first use (PEP 562) and keep it; the package itself stays light.
    ``history``, ``equity`` and ``svg`` are the sub-packages (as ``import studpoker.equity`` makes them too)."""
    return _lazy.load(__name__, globals(), _LAZY, name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
