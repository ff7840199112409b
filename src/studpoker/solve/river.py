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

import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..cards import Card, CardError, format_cards, parse_cards
from ..engine import Variant
from ..equity.ranges import Range, RangeError
from ..equity.spot import EquityError, game_of
from ..evaluation import evaluate_high, evaluate_low8, evaluate_razz
from ..evaluation.batch import high_batch, low8_batch, razz_batch
from ..evaluation.board import first_to_act
from .game import MAX_HANDS, DenseShowdown, Game, Showdown
from .sweep import CardShowdown
from .tree import BettingTree, SolveError

if TYPE_CHECKING:
    from .sixth import SixthSpot

__all__ = ["MAX_CHIPS", "MAX_POT_BETS", "RiverSpot"]

#: The most chips a pot, a bet or a stack may be (a bound on what a caller hands over).
MAX_CHIPS = 10**12
#: The largest pot, in bets: beyond it the bets are worth less than the solver's precision (single-precision sums).
MAX_POT_BETS = 1_000

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
        check_variant(self.variant)
        object.__setattr__(self, "combos", prepare(self, self.variant.cards, streets=1))

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
        question = parse_question(variant, ranges, stacks, first, dead, last=True)
        return cls(question[0], question[1], pot, bet, raises, question[2], question[3], question[4])

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
        full = (self.hand_cards(0), self.hand_cards(1))
        down = (full[0][:, : self.ranges[0].down], full[1][:, : self.ranges[1].down])
        weights = tuple(np.array([w for _, w in self.combos[p]]) for p in (0, 1))
        names = tuple(tuple(format_cards(cards) for cards, _ in self.combos[p]) for p in (0, 1))
        showdown = showdown_of(self.variant, down, full)
        return Game((weights[0], weights[1]), showdown, float(self.pot), self.tree, (names[0], names[1]))

    def classes(self, player: int) -> list[str]:
        """Each hand's class, what a player would call it: ``"Two pair, aces and sevens"``, ``"8-6-4-2-A low"``,
        in hi/lo both halves (``"Flush, ace high / no low"``)."""
        return classes_of(self.variant, self.hand_cards(player))

    def describe(self) -> str:
        """One line: the game, the boards, the pot, the betting."""
        return describe(self, "river")


def describe(spot: RiverSpot | SixthSpot, street: str) -> str:
    """A spot in one line: the game and ``street``, the boards, the dead cards, the pot, the betting."""
    cap = "no cap" if spot.raises is None else f"{spot.raises} raise{'s' if spot.raises != 1 else ''}"
    stacks = "" if spot.stacks == (None, None) else f", stacks {_stack(spot.stacks[0])}/{_stack(spot.stacks[1])}"
    dead = f", dead {format_cards(spot.dead)}" if spot.dead else ""
    boards = " vs ".join(format_cards(r.up) for r in spot.ranges)
    return f"{spot.variant.title}, {street}: {boards}{dead}; pot {spot.pot}, bet {spot.bet}, {cap}{stacks}"


def _stack(stack: int | None) -> str:
    return "deep" if stack is None else str(stack)


#: Up to this many pairs of hands the showdown is held as dense matrices (one matrix product a call, the faster
#: for small ranges); beyond it, valued from the cards by the sorted sweep (:mod:`~studpoker.solve.sweep`).
DENSE_PAIRS = 1_000_000


def hand_values(variant: Variant, cards: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Each hand's value for the high (razz: its low) and, in hi/lo, its eight-or-better low (0: none)."""
    if variant is Variant.RAZZ:
        return razz_batch(cards, check=False), np.zeros(len(cards), dtype=np.int32)
    low = low8_batch(cards, check=False) if variant is Variant.STUD7_HL8 else np.zeros(len(cards), np.int32)
    return high_batch(cards, check=False), low


def showdown_of(
    variant: Variant,
    down: tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]],
    full: tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]],
) -> Showdown:
    """The showdown of two players' hands: ``down[p]`` the cards no one else sees (hands by cards: two hands meet
    when these share none), ``full[p]`` every card of each hand (valued by the game's rules)."""
    values = [hand_values(variant, full[p]) for p in (0, 1)]
    hilo = variant is Variant.STUD7_HL8
    if len(down[0]) * len(down[1]) > DENSE_PAIRS:
        lows = (values[0][1], values[1][1]) if hilo else None
        return CardShowdown(down, (values[0][0], values[1][0]), lows)
    masks = [np.bitwise_or.reduce(np.uint64(1) << down[p].astype(np.uint64), axis=1) for p in (0, 1)]
    compatible = ((masks[0][:, None] & masks[1][None, :]) == 0).astype(np.float64)
    high = _share(values[0][0], values[1][0])
    if hilo:
        low0, low1 = values[0][1][:, None], values[1][1][None, :]
        low = _share(values[0][1], values[1][1])
        share = np.where(
            (low0 == 0) & (low1 == 0),
            high,
            np.where(low1 == 0, 0.5 * high + 0.5, np.where(low0 == 0, 0.5 * high, 0.5 * high + 0.5 * low)),
        )
    else:
        share = high
    return DenseShowdown(compatible, share)


def classes_of(variant: Variant, cards: npt.NDArray[np.uint8]) -> list[str]:
    """Each hand's class (its made hand in words), each value described once."""
    values = hand_values(variant, cards)
    said: dict[tuple[int, int], str] = {}
    labels = []
    for row, high, low in zip(cards.tolist(), values[0].tolist(), values[1].tolist(), strict=True):
        key = (high, low)
        label = said.get(key)
        if label is None:
            if variant is Variant.RAZZ:
                label = evaluate_razz(row).description
            else:
                label = evaluate_high(row).description
                if variant is Variant.STUD7_HL8:
                    made = evaluate_low8(row)
                    label += f" / {made.description if made else 'no low'}"
            said[key] = label
        labels.append(label)
    return labels


def _share(values0: npt.NDArray[np.int32], values1: npt.NDArray[np.int32]) -> Floats:
    """Player 0's share of a pot decided by these values (larger wins): 1, 0.5 on a tie, 0."""
    a, b = values0[:, None], values1[None, :]
    share: Floats = (a > b).astype(np.float64) + 0.5 * (a == b)
    return share


def check_variant(variant: object) -> None:
    if not isinstance(variant, Variant):
        raise SolveError(f"the variant must be a Variant (parse() takes its name), got {type(variant).__name__}")


def _chips(what: str, value: object, *, low: int) -> int:
    """``value`` as a whole number of chips from ``low`` to :data:`MAX_CHIPS` (NumPy integers too), or SolveError."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and low <= int(value) <= MAX_CHIPS:
        return int(value)
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    raise SolveError(f"{what} must be a whole number of chips from {low} to {MAX_CHIPS:,}, got {shown}")


def _place(seen: dict[Card, str], card: Card, where: str) -> None:
    if card in seen:
        if seen[card] == where:
            raise SolveError(f"{card} is twice in {where}: a card can be in one place only")
        raise SolveError(f"{card} is in {seen[card]} and in {where}: a card can be in one place only")
    seen[card] = where


def prepare(spot: RiverSpot | SixthSpot, cards: int, *, streets: int) -> list[list[tuple[tuple[Card, ...], float]]]:
    """Check a spot (ranges of the game with ``cards`` cards a player, chips, no card in two places, the betting)
    and set who acts first if not given; returns each player's hands (the combinations of his range the cards seen
    leave, with their weights)."""
    game = spot.variant
    if not isinstance(spot.ranges, tuple) or len(spot.ranges) != 2:
        raise SolveError("a spot is between two players: give two ranges")
    if not isinstance(spot.stacks, tuple) or len(spot.stacks) != 2:
        raise SolveError("stacks must be two numbers (or None), one a player")
    if not isinstance(spot.dead, tuple) or not all(isinstance(c, Card) for c in spot.dead):
        raise SolveError("the dead cards must be a tuple of Card (parse() takes them as text)")
    street = "the last street" if streets == 1 else "sixth street"
    for p, r in enumerate(spot.ranges):
        if not isinstance(r, Range) or r.variant is not game:
            raise SolveError(f"player {p + 1}'s range must be a {game.title.lower()} range")
        if r.down + len(r.up) != cards:
            example = "(XXX) As Kd 8c 3s" if game.cards == 7 else "(X) As Kd 8c 3s"
            if streets == 2:
                example = "(XX) As Kd 8c 3s"
            raise SolveError(
                f"player {p + 1}'s range has {r.down} down and {len(r.up)} up cards: on {street} of "
                f"{game.title.lower()} a player has {cards} (give the up cards after the terms, {example})"
            )
    object.__setattr__(spot, "pot", _chips("the pot", spot.pot, low=1))
    object.__setattr__(spot, "bet", _chips("the bet", spot.bet, low=1))
    if spot.pot > MAX_POT_BETS * spot.bet:
        raise SolveError(
            f"a pot of {spot.pot:,} is more than {MAX_POT_BETS:,} bets of {spot.bet:,}: what the betting could win or "
            "lose would be lost in the solver's rounding (and no stud river has such a pot)"
        )
    stacks = tuple(
        None if s is None else _chips(f"player {p + 1}'s stack", s, low=0) for p, s in enumerate(spot.stacks)
    )
    object.__setattr__(spot, "stacks", stacks)
    if spot.raises is not None and isinstance(spot.raises, numbers.Integral) and not isinstance(spot.raises, bool):
        object.__setattr__(spot, "raises", int(spot.raises))
    seen: dict[Card, str] = {}
    for where, up in (("player 1's up cards", spot.ranges[0].up), ("player 2's up cards", spot.ranges[1].up)):
        for card in up:
            _place(seen, card, where)
    for card in spot.dead:
        _place(seen, card, "the dead cards")
    if spot.first == -1:
        boards = [r.up for r in spot.ranges]
        object.__setattr__(spot, "first", first_to_act(boards, low=game is Variant.RAZZ))
    elif spot.first not in (0, 1) or type(spot.first) is not int:
        raise SolveError(f"first must be 0 or 1 (the player who acts first), got {spot.first!r}")
    BettingTree.build(spot.bet, raises=spot.raises, stacks=spot.stacks, first=spot.first, streets=streets)
    combos = []
    for p, r in enumerate(spot.ranges):
        visible = [*spot.dead, *spot.ranges[1 - p].up]
        hands = r.combos(dead=visible)
        if not hands:
            raise SolveError(f"player {p + 1}'s range holds no hand once the cards seen are taken out")
        if len(hands) > MAX_HANDS:
            raise SolveError(f"player {p + 1}'s range holds {len(hands):,} hands; at most {MAX_HANDS:,}")
        combos.append(hands)
    return combos


def parse_question(
    variant: str | Variant,
    ranges: Sequence[str],
    stacks: Sequence[int | None] | None,
    first: int | None,
    dead: str | Iterable[Card | str],
    *,
    last: bool,
) -> tuple[Variant, tuple[Range, Range], tuple[int | None, int | None], int, tuple[Card, ...]]:
    """The parts of a spot given as text: the game, the two ranges (three down cards on the river of the
    seven-card games, one in five-card stud; two on sixth street), the stacks, who acts first (-1: by the
    boards), the dead cards. Mistakes raise :class:`SolveError`."""
    try:
        game = game_of(variant)
    except EquityError as error:
        raise SolveError(str(error)) from None
    if not isinstance(ranges, list | tuple) or len(ranges) != 2 or not all(isinstance(r, str) for r in ranges):
        raise SolveError("a spot is between two players: give two ranges as text, in a list or a tuple")
    if not last and game.cards != 7:
        raise SolveError("sixth street is a street of the seven-card games (in five-card stud the last card is up)")
    down = (3 if game.cards == 7 else 1) if last else 2
    parsed = []
    for p, text in enumerate(ranges):
        try:
            parsed.append(Range.parse(text, game, down=down))
        except (RangeError, EquityError) as error:
            raise SolveError(f"player {p + 1}'s range: {error}") from None
    if not isinstance(dead, str | list | tuple):
        raise SolveError(f"the dead cards must be text such as '2c 7h' (or a list of cards), got {type(dead).__name__}")
    try:
        dead_cards = parse_cards(dead) if isinstance(dead, str) else parse_cards([str(c) for c in dead])
    except CardError as error:
        raise SolveError(f"the dead cards: {error}") from None
    if stacks is None:
        stacks = (None, None)
    if not isinstance(stacks, list | tuple) or len(stacks) != 2:
        raise SolveError("stacks must be two numbers (or None), one a player, in a list or a tuple")
    return game, (parsed[0], parsed[1]), (stacks[0], stacks[1]), -1 if first is None else first, tuple(dead_cards)
