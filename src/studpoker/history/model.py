"""A hand history in a format-neutral form: what PHH and PokerStars text are read into and written from.

The action vocabulary follows PHH (the open standard), which is also the smallest one
that describes a stud hand completely:

* :class:`Deal` — cards dealt to one player on one street, in order (``d dh p1 5d2sAd``:
  on the first street the last card is the door card, the others are down);
* :class:`Board` — the short-deck community card (``d db Ad``);
* :class:`Bet` — ``pb`` (bring-in), ``cc`` (check or call), ``f`` (fold) and ``cbr`` (complete,
  bet or raise *to* an amount, the player's total for the round);
* :class:`ShowMuck` — shows cards at showdown, or mucks (``cards is None``);
* :class:`Comment` — commentary alone.

Which of check/call or complete/bet/raise an action is follows from the state when the
hand is replayed (:mod:`studpoker.history.replay`), as in PHH.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from ..engine import Rules

__all__ = ["Bet", "Board", "Comment", "Deal", "HandRecord", "HistoryAction", "ShowMuck"]


@dataclass(frozen=True, slots=True)
class Deal:
    """Cards dealt to ``player`` (0-based), in dealing order; ``None`` is an unknown card."""

    player: int
    cards: tuple[Card | None, ...]
    comment: str = ""


@dataclass(frozen=True, slots=True)
class Board:
    """The community card (R8.3)."""

    card: Card
    comment: str = ""


BET_VERBS = ("pb", "cc", "f", "cbr")


@dataclass(frozen=True, slots=True)
class Bet:
    """A betting decision: ``verb`` is ``pb``, ``cc``, ``f`` or ``cbr``; ``amount`` (``cbr`` only) is
    the player's total for the betting round."""

    player: int
    verb: str
    amount: int = 0
    comment: str = ""


@dataclass(frozen=True, slots=True)
class ShowMuck:
    """A showdown decision: the cards shown (``None`` inside for an unknown card), or a muck (``None``)."""

    player: int
    cards: tuple[Card | None, ...] | None
    comment: str = ""


@dataclass(frozen=True, slots=True)
class Comment:
    """A line of commentary and nothing else (a PHH no-op)."""

    text: str


HistoryAction = Deal | Board | Bet | ShowMuck | Comment


@dataclass(frozen=True)
class HandRecord:
    """One hand as a history file tells it.

    Amounts are whole chips; ``chip_value`` says what one chip is worth in ``currency``
    (0.01 for a cent-denominated PokerStars cash game, 1 for tournament chips).
    ``info`` holds the optional descriptive fields (event, time, hand number, table, ...)
    and ``extra`` every field our formats do not interpret, kept for round trips.
    ``rake`` is what the room took from the pots (cash games; the engine knows nothing of it):
    ``winnings``, when given, are what each player collected after it (as PHH defines them).
    ``wrong_bring_in`` is the player (0-based) who posted the bring-in when the dealer wrongly told him to, a wager
    that stood because the next player acted (SPEC R13.2); the true low card then owed nothing. ``None`` for a hand
    without one. PHH writes it in the user-defined field ``_wrong_bring_in`` (``'p2'``); the replay misdesignates
    the bring-in (``HandState.misdesignate_bring_in``) before that player's ``pb``. ``dead_hands`` are the players
    (0-based) whose hands a live dealer found foul and killed at the showdown (``HandState.declare_dead``): PHH
    ``_dead_hands`` (``['p2']``); the replay declares them dead before the first action.
    """

    rules: Rules
    starting_stacks: tuple[int, ...]
    actions: tuple[HistoryAction, ...]
    players: tuple[str, ...] = ()
    seats: tuple[int, ...] = ()
    finishing_stacks: tuple[int, ...] | None = None
    winnings: tuple[int, ...] | None = None
    rake: int = 0
    currency: str | None = None
    chip_value: float = 1.0
    info: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    wrong_bring_in: int | None = None
    dead_hands: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.starting_stacks)

    def with_rules(self, rules: Rules) -> HandRecord:
        """The same hand under other rules (same stakes), e.g. to replay it with another preset."""
        return HandRecord(  # spelled out: dataclasses.replace is several times slower
            rules,
            self.starting_stacks,
            self.actions,
            self.players,
            self.seats,
            self.finishing_stacks,
            self.winnings,
            self.rake,
            self.currency,
            self.chip_value,
            self.info,
            self.extra,
            self.wrong_bring_in,
            self.dead_hands,
        )

    def name(self, player: int) -> str:
        """The player's name, or ``p1``, ``p2``, ... when the history has none."""
        if player < len(self.players) and self.players[player]:
            return self.players[player]
        return f"p{player + 1}"
