"""A PokerStars hand checked against its replay, as every room's is (:mod:`studpoker.history.sites.check`)."""

from __future__ import annotations

from ..audit import Problem
from ..model import HandRecord
from ..replay import ReplayResult, replay
from ..sites.check import check as check_stated
from .vocabulary import PokerStarsError


def check(record: HandRecord, result: ReplayResult) -> list[str]:
    """What a hand's text says that its replay contradicts, one sentence each (``line N: ...``), in the order of
    the text; empty if nothing.

    ``result`` is ``replay(record)``. The reader keeps every amount the text states with its line
    (``record.info["stated"]``): each ante, what every betting line says (what a call adds, a bet, what a raise
    adds to the bet faced, all-ins; ``bets`` only with nothing to call), the uncalled bets returned, where the text
    says ``Betting is capped``, ``Pair on board - a double bet is allowed`` and ``No low hand qualified``, every
    ``collected`` line (who, how much, from which pot), the total pot, the rake, the main and side pots, and each
    summary seat line (the street of a fold, what was won). A record without them has nothing to compare: ``[]``.

    **The rake.** The engine knows nothing of it. PokerStars takes it from the pots before paying
    them, so that the total pot less the rake is exactly what the players collect. Which pot pays
    what is our reading of the files: each pot pays a share of the rake in proportion to its size,
    the cents left over going to the largest remainders (the main pot first on a tie); what is left
    of a pot is then divided as the rules divide it (R11.5: the high half rounded up; odd chips by
    R11.6) among the same winners. The evidence: every split hi/lo pot of the files is divided after
    the rake ($0.76 with $0.03 rake pays $0.37 high and $0.36 low; $0.84 with $0.04 pays $0.40 and
    $0.40), and the one hand with a side pot (#60974484959: $0.44 main, $0.64 side, $0.05 rake) pays
    $0.42 and $0.61. The files do not pin the side-pot rule down: "the main pot at 5%, the side pot
    the rest" gives the same cents, and no hand has two side pots, a tie for the leftover cent, or a
    side pot won by another player than the main pot.
    """
    return [str(Problem(line, text)) for line, text in check_stated(record, result)]


def verify(record: HandRecord, label: str = "") -> ReplayResult:
    """Replay a hand read from PokerStars text and :func:`check` it: :class:`ReplayError` if it breaks a
    rule, :class:`PokerStarsError` listing every difference if its text says otherwise."""
    stated = record.info.get("stated")
    label = label or f"hand #{getattr(stated, 'hand', '?')}"
    result = replay(record, label)
    problems = check(record, result)
    if problems:
        raise PokerStarsError(f"{label} does not match its replay: " + "; ".join(problems))
    return result
