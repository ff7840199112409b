"""An equity question: the game, each player's known cards, and the dead cards (folded up cards and the like).

>>> spot = Spot.parse("7stud", ["As Ad 7c", "Kh Qh Jh"], dead="2c 2d")
>>> spot.variant.name, spot.needs, len(spot.pool)
('STUD7', (4, 4), 44)
>>> Spot.parse("razz", ["As 2s", "As 3d"])
Traceback (most recent call last):
    ...
studpoker.equity.spot.EquityError: As is in hand 1 and in hand 2: a card can be in one place only
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import comb, prod

from ..cards import Card, CardError, parse_card, parse_cards
from ..engine import Variant

__all__ = ["VARIANT_NAMES", "EquityError", "Spot"]

#: The variant names the command line takes, and the engine's variants.
VARIANT_NAMES = {
    "7stud": Variant.STUD7,
    "7stud8": Variant.STUD7_HL8,
    "razz": Variant.RAZZ,
    "5stud": Variant.STUD5,
}


class EquityError(ValueError):
    """A question that cannot be answered as asked: a bad card, a card in two places, too many cards for the game,
    too many players for the deck. The message says what and where."""


@dataclass(frozen=True, slots=True)
class Spot:
    """The known cards of each player (up cards, and the down cards of whoever we know them of) and the dead cards.

    ``pool`` is every card not known anywhere, the cards the players' missing cards are dealt from (card
    indices, ascending); ``needs`` is how many cards each player still gets.
    """

    variant: Variant
    hands: tuple[tuple[Card, ...], ...]
    dead: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        n, most = len(self.hands), self.variant.max_seats
        if n < 2:
            raise EquityError(f"equity needs at least two hands, got {n}")
        if n > most:
            raise EquityError(f"{self.variant.title} is played by at most {most} players, got {n} hands")
        size = self.variant.cards
        seen: dict[Card, str] = {}
        for i, hand in enumerate(self.hands, 1):
            if len(hand) > size:
                raise EquityError(f"hand {i} has {len(hand)} cards: a {self.variant.title.lower()} hand has {size}")
            for card in hand:
                _place(seen, card, f"hand {i}")
        for card in self.dead:
            _place(seen, card, "the dead cards")
        missing = sum(self.needs)
        if missing > len(self.pool):
            raise EquityError(
                f"the players still need {missing} cards and only {len(self.pool)} are left in the deck:"
                " too many players or dead cards for one deck"
            )

    @classmethod
    def parse(
        cls, variant: str | Variant, hands: Sequence[str | Iterable[Card | str]], dead: str | Iterable[Card | str] = ()
    ) -> Spot:
        """A spot from text: ``variant`` by name (``7stud``, ``7stud8``, ``razz``, ``5stud``) or as a
        :class:`~studpoker.engine.Variant`; each hand and the dead cards as ``"As Ad 7c"`` or cards."""
        if not isinstance(variant, Variant):
            try:
                variant = VARIANT_NAMES[variant] if variant in VARIANT_NAMES else Variant(str(variant).upper())
            except ValueError:
                raise EquityError(f"unknown game {variant!r}: use {', '.join(VARIANT_NAMES)}") from None
        parsed = tuple(_cards(hand, f"hand {i}") for i, hand in enumerate(hands, 1))
        return cls(variant, parsed, _cards(dead, "the dead cards"))

    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def needs(self) -> tuple[int, ...]:
        return tuple(self.variant.cards - len(hand) for hand in self.hands)

    @property
    def pool(self) -> tuple[int, ...]:
        known = {c.index for hand in self.hands for c in hand} | {c.index for c in self.dead}
        return tuple(i for i in range(52) if i not in known)

    @property
    def outcomes(self) -> int:
        """How many ways the missing cards can fall: the number of outcomes an exact answer counts."""
        left, ways = len(self.pool), []
        for need in self.needs:
            ways.append(comb(left, need))
            left -= need
        return prod(ways)


def _place(seen: dict[Card, str], card: Card, where: str) -> None:
    if card in seen:
        raise EquityError(f"{card} is in {seen[card]} and in {where}: a card can be in one place only")
    seen[card] = where


def _cards(cards: str | Iterable[Card | str], where: str) -> tuple[Card, ...]:
    try:
        if isinstance(cards, str):
            return parse_cards(cards) if cards.strip() else ()
        return tuple(c if isinstance(c, Card) else parse_card(c) for c in cards)
    except CardError as error:
        raise EquityError(f"{where}: {error}") from None
