"""Sixth street as a question: two betting rounds, sixth street and the river, with each player's last card
dealt face down between them (a chance node: every card the deck still holds).

Each player's hands on sixth street are his two down cards (a range of ``down=2`` under his four up cards); on the
river, each of those with each card he may be dealt. The river's first player is sixth street's: a down card does
not change the boards.

>>> spot = SixthSpot.parse("7stud", ["(AA),(KK),(A8) Ah Kd 8c 3s", "(QQ),(99),(Q9) Qs Qd 9h 4c"], pot=60, bet=20,
...                        raises=1, dead="2c 7h")
>>> spot.first, [len(hands) for hands in spot.combos], spot.cards_left   # 52 less 8 up and 2 dead
(1, [15, 10], 42)
>>> game = spot.game()
>>> [len(parents) for parents in game.deal.parents]                      # each hand and each card it may get
[600, 400]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

from ..cards import CARDS, Card, format_cards
from ..engine import Variant
from ..equity.ranges import Range
from .game import Deal, Game
from .river import check_variant, classes_of, describe, parse_question, prepare, showdown_of
from .tree import BettingTree, SolveError

__all__ = ["MAX_RIVER_HANDS", "SixthSpot"]

#: The most river hands (a sixth-street hand and a card) a side may have: the sweep's memory and time grow with it.
MAX_RIVER_HANDS = 12_000


@dataclass(frozen=True)
class SixthSpot:
    """Sixth street and the river of a seven-card stud hand between two players.

    As :class:`~studpoker.solve.river.RiverSpot`, but each range describes two down cards under four up cards,
    and ``bet`` is the bet of both streets (the big bet). ``combos`` are the sixth-street hands; the river's hands
    are each of those with each card left in the deck (``cards_left``: the deck less the up cards and the dead).
    """

    variant: Variant
    ranges: tuple[Range, Range]
    pot: int
    bet: int
    raises: int | None = 3
    stacks: tuple[int | None, int | None] = (None, None)
    first: int = -1
    dead: tuple[Card, ...] = ()
    combos: list[list[tuple[tuple[Card, ...], float]]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_variant(self.variant)
        if self.variant.cards != 7:
            raise SolveError("sixth street is a street of the seven-card games (in five-card stud the last card is up)")
        combos = prepare(self, 6, streets=2)
        object.__setattr__(self, "combos", combos)
        for p in (0, 1):
            river = len(combos[p]) * (self.cards_left - 2)
            if river > MAX_RIVER_HANDS:
                raise SolveError(
                    f"player {p + 1}'s range holds {len(combos[p]):,} hands, {river:,} with the river card: at most "
                    f"{MAX_RIVER_HANDS:,} (narrow it to about {MAX_RIVER_HANDS // (self.cards_left - 2):,} hands)"
                )

    @classmethod
    def parse(
        cls,
        variant: str | Variant,
        ranges: Sequence[str],
        *,
        pot: int,
        bet: int,
        raises: int | None = 3,
        stacks: Sequence[int | None] | None = None,
        first: int | None = None,
        dead: str | Iterable[Card | str] = (),
    ) -> SixthSpot:
        """A spot from text, as :meth:`RiverSpot.parse <studpoker.solve.river.RiverSpot.parse>` with ranges of two
        down cards (``"(AA),(KQ) As Kd 8c 3s"``). Mistakes raise :class:`SolveError`."""
        question = parse_question(variant, ranges, stacks, first, dead, last=False)
        return cls(question[0], question[1], pot, bet, raises, question[2], question[3], question[4])

    @property
    def cards_left(self) -> int:
        """The cards no one sees face up: the deck less both boards and the dead cards."""
        return 52 - len(self.ranges[0].up) - len(self.ranges[1].up) - len(self.dead)

    @cached_property
    def tree(self) -> BettingTree:
        """The betting of both rounds."""
        return BettingTree.build(self.bet, raises=self.raises, stacks=self.stacks, first=self.first, streets=2)

    def _deck(self) -> npt.NDArray[np.intp]:
        seen = {c.index for r in self.ranges for c in r.up} | {c.index for c in self.dead}
        return np.array([i for i in range(52) if i not in seen], dtype=np.intp)

    def hand_cards(self, player: int) -> npt.NDArray[np.uint8]:
        """Each sixth-street hand of ``player`` as card indices, his down cards then his up cards."""
        up = [c.index for c in self.ranges[player].up]
        return np.array([[c.index for c in cards] + up for cards, _ in self.combos[player]], dtype=np.uint8)

    def river_hands(self, player: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.uint8]]:
        """``player``'s river hands: for each, its sixth-street hand (an index) and its seven cards (the two down
        cards, the card dealt, the four up cards)."""
        sixth = self.hand_cards(player)
        deck = self._deck()
        parents, rows = [], []
        for h, row in enumerate(sixth.tolist()):
            for card in deck.tolist():
                if card != row[0] and card != row[1]:
                    parents.append(h)
                    rows.append([row[0], row[1], card, *row[2:]])
        return np.array(parents, dtype=np.intp), np.array(rows, dtype=np.uint8)

    def game(self) -> Game:
        """The spot as the solver's :class:`~studpoker.solve.game.Game`: the sixth-street hands (whose showdown
        serves their folds: which pairs can meet), and the deal of the river card to each."""
        sixth = (self.hand_cards(0), self.hand_cards(1))
        showdown = showdown_of(self.variant, (sixth[0][:, :2], sixth[1][:, :2]), sixth)
        river = (self.river_hands(0), self.river_hands(1))
        river_showdown = showdown_of(self.variant, (river[0][1][:, :3], river[1][1][:, :3]), (river[0][1], river[1][1]))
        left = self.cards_left - 4  # what the deck holds once both players' two down cards are out of it
        names = tuple(tuple(_name(row) for row in river[p][1].tolist()) for p in (0, 1))
        deal = Deal((river[0][0], river[1][0]), river_showdown, (names[0], names[1]), left * (left - 1))
        weights = tuple(np.array([w for _, w in self.combos[p]]) for p in (0, 1))
        hands = tuple(tuple(format_cards(cards) for cards, _ in self.combos[p]) for p in (0, 1))
        return Game((weights[0], weights[1]), showdown, float(self.pot), self.tree, (hands[0], hands[1]), deal)

    def classes(self, player: int) -> list[str]:
        """Each sixth-street hand's class (its six cards' made hand)."""
        return classes_of(self.variant, self.hand_cards(player))

    def river_classes(self, player: int) -> list[str]:
        """Each river hand's class (its seven cards' made hand)."""
        return classes_of(self.variant, self.river_hands(player)[1])

    def describe(self) -> str:
        """One line: the game, the boards, the pot, the betting."""
        return describe(self, "sixth street and the river")


def _name(row: list[int]) -> str:
    """A river hand's name: its two sixth-street down cards, then the card dealt (``"As Ad / 7c"``)."""
    return f"{CARDS[row[0]]} {CARDS[row[1]]} / {CARDS[row[2]]}"
