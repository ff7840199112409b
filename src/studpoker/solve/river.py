"""A stud river as a question: the game, each player's range of down cards under his up cards, the dead cards,
the pot, the bet, the cap and the stacks, and who acts first.

>>> spot = RiverSpot.parse("7stud", ["(AKX),(AAX),(88X) Ah Kd 8c 3s", "(QXX),(99X) Qs Qd 9h 4c"], pot=60, bet=20,
...                        dead="2c 7h")
>>> spot.first, [len(hands) for hands in spot.combos]       # the queens' board acts first (SPEC R7.3)
(1, [569, 1712])
>>> game = spot.game()
>>> round(game.range_equity()[0], 3)                          # every hand shown down now: who is ahead
0.188
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

from ..cards import Card, CardError, format_cards, parse_cards
from ..engine import Variant
from ..equity.ranges import Range, RangeError
from ..equity.spot import EquityError, game_of
from ..evaluation import evaluate_high, evaluate_low8, evaluate_razz
from ..evaluation.batch import high_batch, low8_batch, razz_batch
from ..evaluation.board import first_to_act
from .game import MAX_HANDS, MAX_PAIRS, DenseShowdown, Game
from .tree import BettingTree, SolveError

__all__ = ["MAX_CHIPS", "RiverSpot"]

#: The most chips a pot, a bet or a stack may be (a bound on what a caller hands over).
MAX_CHIPS = 10**12

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class RiverSpot:
    """The last betting round of a stud hand between two players.

    ``ranges`` holds each player's :class:`~studpoker.equity.ranges.Range` of down cards with his up cards (the
    seven-card games: three down cards under four up; five-card stud: one under four); ``dead`` the cards out of
    play (folded up cards). ``pot`` is in the pot before the round; ``bet`` the size of a bet (the big bet);
    ``raises`` the raises allowed after the opening bet (``None``: no cap, the heads-up rule of SPEC R6.6, with
    ``stacks`` bounding the betting); ``stacks`` what each player has behind (``None``: enough). ``first`` is
    the player who acts first: by default the better board (the lower in razz), the first player on a tie.
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
        game = self.variant
        for p, r in enumerate(self.ranges):
            if not isinstance(r, Range) or r.variant is not game:
                raise SolveError(f"player {p + 1}'s range must be a {game.title.lower()} range")
            if r.down + len(r.up) != game.cards:
                raise SolveError(
                    f"player {p + 1}'s range has {r.down} down and {len(r.up)} up cards: on the last street of "
                    f"{game.title.lower()} a player has {game.cards} (give the up cards after the terms, "
                    f"{'(XXX) As Kd 8c 3s' if game.cards == 7 else '(X) As Kd 8c 3s'})"
                )
        _check_chips("the pot", self.pot, low=1)
        _check_chips("the bet", self.bet, low=1)
        for p, stack in enumerate(self.stacks):
            if stack is not None:
                _check_chips(f"player {p + 1}'s stack", stack, low=0)
        seen: dict[Card, str] = {}
        for where, cards in (("player 1's up cards", self.ranges[0].up), ("player 2's up cards", self.ranges[1].up)):
            for card in cards:
                _place(seen, card, where)
        for card in self.dead:
            _place(seen, card, "the dead cards")
        if self.first == -1:
            boards = [r.up for r in self.ranges]
            object.__setattr__(self, "first", first_to_act(boards, low=game is Variant.RAZZ))
        elif self.first not in (0, 1) or type(self.first) is not int:
            raise SolveError(f"first must be 0 or 1 (the player who acts first), got {self.first!r}")
        BettingTree.build(self.bet, raises=self.raises, stacks=self.stacks, first=self.first)  # its checks, first
        combos = []
        for p, r in enumerate(self.ranges):
            visible = [*self.dead, *self.ranges[1 - p].up]
            hands = r.combos(dead=visible)
            if not hands:
                raise SolveError(f"player {p + 1}'s range holds no hand once the cards seen are taken out")
            if len(hands) > MAX_HANDS:
                raise SolveError(f"player {p + 1}'s range holds {len(hands):,} hands; at most {MAX_HANDS:,}")
            combos.append(hands)
        if len(combos[0]) * len(combos[1]) > MAX_PAIRS:
            raise SolveError(
                f"the ranges hold {len(combos[0]):,} and {len(combos[1]):,} hands, more than the {MAX_PAIRS:,} pairs "
                "the solver takes: narrow them (about 2,000 hands a side at most)"
            )
        object.__setattr__(self, "combos", combos)

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
    ) -> RiverSpot:
        """A spot from text: ``variant`` by any of its names (``7stud``, ``7stud8``, ``razz``, ``5stud``), two
        ranges such as ``"(XXX) As Kd 8c 3s"`` or ``"(AA),(KK):0.5 As Kd 8c 3s"`` (three down cards in the
        seven-card games, one in five-card stud), the dead cards as text. Mistakes raise :class:`SolveError`."""
        try:
            game = game_of(variant)
        except EquityError as error:
            raise SolveError(str(error)) from None
        if isinstance(ranges, str) or len(ranges) != 2:
            raise SolveError("a river is between two players: give two ranges")
        down = 3 if game.cards == 7 else 1
        parsed = []
        for p, text in enumerate(ranges):
            try:
                parsed.append(Range.parse(text, game, down=down))
            except (RangeError, EquityError) as error:
                raise SolveError(f"player {p + 1}'s range: {error}") from None
        try:
            dead_cards = parse_cards(dead) if isinstance(dead, str) else parse_cards([str(c) for c in dead])
        except CardError as error:
            raise SolveError(f"the dead cards: {error}") from None
        if stacks is None:
            stacks = (None, None)
        if len(stacks) != 2:
            raise SolveError(f"stacks must be two numbers, one a player, got {list(stacks)!r}")
        return cls(
            game,
            (parsed[0], parsed[1]),
            pot,
            bet,
            raises,
            (stacks[0], stacks[1]),
            -1 if first is None else first,
            tuple(dead_cards),
        )

    @cached_property
    def tree(self) -> BettingTree:
        """The betting of the round."""
        return BettingTree.build(self.bet, raises=self.raises, stacks=self.stacks, first=self.first)

    def hand_cards(self, player: int) -> npt.NDArray[np.uint8]:
        """Each hand of ``player`` as card indices, his down cards then his up cards (hands by cards)."""
        up = [c.index for c in self.ranges[player].up]
        return np.array([[c.index for c in cards] + up for cards, _ in self.combos[player]], dtype=np.uint8)

    def game(self) -> Game:
        """The spot as the solver's :class:`~studpoker.solve.game.Game`: the hands, which pairs can be dealt
        together, and how each showdown splits the pot."""
        values = [self._values(p) for p in (0, 1)]
        masks = []
        for p in (0, 1):
            cards = self.hand_cards(p)[:, : self.ranges[p].down].astype(np.uint64)
            masks.append(np.bitwise_or.reduce(np.uint64(1) << cards, axis=1))
        compatible = ((masks[0][:, None] & masks[1][None, :]) == 0).astype(np.float64)
        high = _share(values[0][0], values[1][0])
        if self.variant is Variant.STUD7_HL8:
            low0, low1 = values[0][1][:, None], values[1][1][None, :]
            low = _share(values[0][1], values[1][1])
            share = np.where(
                (low0 == 0) & (low1 == 0),
                high,
                np.where(low1 == 0, 0.5 * high + 0.5, np.where(low0 == 0, 0.5 * high, 0.5 * high + 0.5 * low)),
            )
        else:
            share = high
        weights = tuple(np.array([w for _, w in self.combos[p]]) for p in (0, 1))
        names = tuple(tuple(format_cards(cards) for cards, _ in self.combos[p]) for p in (0, 1))
        showdown = DenseShowdown(compatible, share)
        return Game((weights[0], weights[1]), showdown, float(self.pot), self.tree, (names[0], names[1]))

    def _values(self, player: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
        """Each hand's value for the high (razz: its low) and, in hi/lo, its eight-or-better low (0: none)."""
        cards = self.hand_cards(player)
        if self.variant is Variant.RAZZ:
            return razz_batch(cards, check=False), np.zeros(len(cards), dtype=np.int32)
        low = low8_batch(cards, check=False) if self.variant is Variant.STUD7_HL8 else np.zeros(len(cards), np.int32)
        return high_batch(cards, check=False), low

    def classes(self, player: int) -> list[str]:
        """Each hand's class, what a player would call it: ``"Two pair, aces and sevens"``, ``"8-6-4-2-A low"``,
        in hi/lo both halves (``"Flush, ace high / no low"``)."""
        up = list(self.ranges[player].up)
        labels = []
        for cards, _ in self.combos[player]:
            hand = [*cards, *up]
            if self.variant is Variant.RAZZ:
                labels.append(evaluate_razz(hand).description)
                continue
            label = evaluate_high(hand).description
            if self.variant is Variant.STUD7_HL8:
                low = evaluate_low8(hand)
                label += f" / {low.description if low else 'no low'}"
            labels.append(label)
        return labels

    def describe(self) -> str:
        """One line: the game, the boards, the pot, the betting."""
        cap = "no cap" if self.raises is None else f"{self.raises} raise{'s' if self.raises != 1 else ''}"
        stacks = "" if self.stacks == (None, None) else f", stacks {_stack(self.stacks[0])}/{_stack(self.stacks[1])}"
        dead = f", dead {format_cards(self.dead)}" if self.dead else ""
        boards = " vs ".join(format_cards(r.up) for r in self.ranges)
        return f"{self.variant.title}, river: {boards}{dead}; pot {self.pot}, bet {self.bet}, {cap}{stacks}"


def _stack(stack: int | None) -> str:
    return "deep" if stack is None else str(stack)


def _share(values0: npt.NDArray[np.int32], values1: npt.NDArray[np.int32]) -> Floats:
    """Player 0's share of a pot decided by these values (larger wins): 1, 0.5 on a tie, 0."""
    a, b = values0[:, None], values1[None, :]
    share: Floats = (a > b).astype(np.float64) + 0.5 * (a == b)
    return share


def _check_chips(what: str, value: object, *, low: int) -> None:
    if type(value) is not int or not low <= value <= MAX_CHIPS:
        raise SolveError(f"{what} must be a whole number of chips from {low} to {MAX_CHIPS:,}, got {value!r}")


def _place(seen: dict[Card, str], card: Card, where: str) -> None:
    if card in seen:
        raise SolveError(f"{card} is in {seen[card]} and in {where}: a card can be in one place only")
    seen[card] = where
