"""An equity question: the game, each player's known cards, the dead cards (folded up cards and the like), and
whether the last street is a community card (SPEC R8: the short deck).

>>> spot = Spot.parse("7stud", ["As Ad 7c", "Kh Qh Jh"], dead="2c 2d")
>>> spot.variant.name, spot.needs, len(spot.pool), spot.community
('STUD7', (4, 4), 44, False)
>>> eight = Spot.parse("7stud", ["As Ad 7c", "Kh", "Qd", "9s", "8c", "5h", "Th", "4d"])
>>> eight.community, eight.community_to_come, eight.needs[:2]   # 8 x 7 = 56 cards: the 7th is shared
(True, True, (3, 5))
>>> Spot.parse("7stud", ["As Ad 7c 7h 2s Kd", "Kh Ks Qs Jc 9c 8h"], community="3d").known[0]
(Card('As'), Card('Ad'), Card('7c'), Card('7h'), Card('2s'), Card('Kd'), Card('3d'))
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

__all__ = [
    "MAX_SEED",
    "MAX_TRIALS",
    "CommunityLike",
    "EquityError",
    "Spot",
    "check_method",
    "check_trials",
    "game_of",
]

#: Limits on what a caller may hand over (beyond them nothing is a hand): hands, and characters of card text.
MAX_HANDS = 64
MAX_TEXT = 1000
#: The most Monte Carlo trials one call draws (about three hours at 100 million a second): more is a mistake.
MAX_TRIALS = 10**12
#: Seeds are whole numbers below this (SeedSequence takes any; a bound keeps hostile input small).
MAX_SEED = 2**128


class EquityError(ValueError):
    """A question that cannot be answered as asked: a bad card, a card in two places, too many cards for the game,
    too many players for the deck. The message says what and where."""


#: What ``community`` may be given as: True, False, None (auto), or the community card once it is dealt.
CommunityLike = bool | Card | str | None


@dataclass(frozen=True, slots=True)
class Spot:
    """The known cards of each player (up cards, and the down cards of whoever we know them of) and the dead cards.

    ``pool`` is every card not known anywhere, the cards the players' missing cards are dealt from (card
    indices, ascending); ``needs`` is how many of his own cards each player still gets.

    ``community`` is the last street (7th; five-card stud: 5th) when the deck runs short (SPEC R8): ``True``, it
    is one face-up card still to come, dealt from the pool after everyone's own cards and part of every hand;
    ``False``, everyone gets his own last card; a :class:`~studpoker.cards.Card` (or its text, ``"Kd"``), it is
    already dealt: known, part of every hand, not in the pool. ``None`` (auto) is resolved here, and the resolved
    value is what the field holds: ``True`` exactly when the players cannot all get their own cards from the
    pool but can with a community card (always the case with eight players in a seven-card game), else ``False``.
    """

    variant: Variant
    hands: tuple[tuple[Card, ...], ...]
    dead: tuple[Card, ...] = ()
    community: bool | Card | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            raise EquityError(f"variant must be an engine Variant, got {self.variant!r}: use Spot.parse for names")
        if not isinstance(self.hands, tuple) or not all(
            isinstance(hand, tuple) and all(isinstance(c, Card) for c in hand) for hand in self.hands
        ):
            raise EquityError("hands must be a tuple of tuples of Cards: use Spot.parse for text")
        if not isinstance(self.dead, tuple) or not all(isinstance(c, Card) for c in self.dead):
            raise EquityError("dead must be a tuple of Cards: use Spot.parse for text")
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
        community: object = self.community
        if isinstance(community, str):  # the constructor called with text: Spot.parse's job, done here too
            community = _community_card(community)
            object.__setattr__(self, "community", community)
        if isinstance(community, Card):
            if community in seen:
                raise EquityError(
                    f"{community} is in {seen[community]} and is the community card: a card can be in one place only"
                )
        elif community is not None and not isinstance(community, bool):
            raise EquityError(f"community must be True, False, None (auto) or a card, got {community!r}")
        left = len(self.pool)
        if community is None:  # auto: a community card exactly when the deck is short without one and not with one
            own = sum(size - len(hand) for hand in self.hands)
            shared = sum(size - 1 - len(hand) for hand in self.hands) + 1
            community = own > left and shared <= left and all(len(hand) < size for hand in self.hands)
            object.__setattr__(self, "community", community)
        if community is not False:
            for i, hand in enumerate(self.hands, 1):
                if len(hand) == size:
                    raise EquityError(
                        f"hand {i} has {size} cards: with a community card a {self.variant.title.lower()} hand has"
                        f" {size - 1} of its own"
                    )
        missing = sum(self.needs)
        if community is True and missing + 1 > left:
            raise EquityError(
                f"the players still need {missing + 1} cards ({missing} of their own and the community card) and"
                f" only {left} are left in the deck: too many players or dead cards for one deck"
            )
        if missing > left:
            raise EquityError(
                f"the players still need {missing} cards and only {left} are left in the deck:"
                " too many players or dead cards for one deck"
            )

    @classmethod
    def parse(
        cls,
        variant: str | Variant,
        hands: Sequence[str | Iterable[Card | str]],
        dead: str | Iterable[Card | str] | None = (),
        community: CommunityLike = None,
    ) -> Spot:
        """A spot from text: ``variant`` by name (``7stud``, ``7stud8``, ``razz``, ``5stud``) or as a
        :class:`~studpoker.engine.Variant`; each hand and the dead cards as ``"As Ad 7c"`` or cards; ``community``
        True, False, None (auto) or the dealt community card (``"Kd"`` or a card)."""
        variant = game_of(variant)
        if isinstance(hands, str) or not isinstance(hands, Sequence):
            raise EquityError(
                f'hands must be a list of hands (each "As Ad 7c" or a list of cards), got {type(hands).__name__}'
            )
        if len(hands) > MAX_HANDS:
            raise EquityError(f"equity takes at most {MAX_HANDS} hands, got {len(hands)}")
        parsed = tuple(_cards(hand, f"hand {i}") for i, hand in enumerate(hands, 1))
        if isinstance(community, str):
            community = _community_card(community)
        return cls(variant, parsed, _cards(() if dead is None else dead, "the dead cards"), community)

    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def needs(self) -> tuple[int, ...]:
        """Each player's own cards still to come (the community card, to come or dealt, is not his own)."""
        own = self.variant.cards - (0 if self.community is False or self.community is None else 1)
        return tuple(own - len(hand) for hand in self.hands)

    @property
    def community_to_come(self) -> bool:
        """Whether one community card is still to be dealt from the pool (after everyone's own cards)."""
        return self.community is True

    @property
    def community_card(self) -> Card | None:
        """The community card when it is already dealt (known), else None."""
        return self.community if isinstance(self.community, Card) else None

    @property
    def known(self) -> tuple[tuple[Card, ...], ...]:
        """Each player's known cards as his hand is valued: his own, and the community card once it is dealt."""
        card = self.community_card
        return self.hands if card is None else tuple((*hand, card) for hand in self.hands)

    def with_community(self, card: Card | str | int) -> Spot:
        """This spot with its community card dealt: ``card`` (a card, its text, or a card index of the pool),
        known and part of every hand."""
        if isinstance(card, str):
            card = _community_card(card)
        elif not isinstance(card, Card):
            if type(card) is not int or not 0 <= card < 52:
                raise EquityError(f"the community card: expected a card, its text or an index 0..51, got {card!r}")
            card = Card.from_index(card)
        return Spot(self.variant, self.hands, self.dead, card)

    @property
    def pool(self) -> tuple[int, ...]:
        known = {c.index for hand in self.hands for c in hand} | {c.index for c in self.dead}
        if isinstance(self.community, Card):
            known.add(self.community.index)
        return tuple(i for i in range(52) if i not in known)

    @property
    def outcomes(self) -> int:
        """How many ways the missing cards can fall: the number of outcomes an exact answer counts (each player's
        own cards in turn, then the community card, if it is to come, from what is left)."""
        left, ways = len(self.pool), []
        for need in self.needs:
            ways.append(comb(left, need))
            left -= need
        if self.community_to_come:
            ways.append(left)
        return prod(ways)


def check_trials(trials: object) -> None:
    """Refuse (:class:`EquityError`) a number of Monte Carlo trials that is not a whole number from 1 to
    :data:`MAX_TRIALS`."""
    if type(trials) is not int or not 1 <= trials <= MAX_TRIALS:
        raise EquityError(f"trials must be a whole number from 1 to {MAX_TRIALS:,}, got {trials!r}")


def check_method(method: object, trials: object, seed: object) -> None:
    """Refuse what the questions of :func:`~studpoker.equity.equity` and
    :func:`~studpoker.equity.final_categories` share and get wrong: the method, the trials, the seed."""
    if method not in ("auto", "exact", "montecarlo"):
        raise EquityError(f"unknown method {method!r}: use auto, exact or montecarlo")
    if trials is not None:
        check_trials(trials)
        if method == "exact":
            raise EquityError("trials are for Monte Carlo: method='exact' counts every outcome")
    if seed is not None and (type(seed) is not int or not 0 <= seed < MAX_SEED):
        raise EquityError(f"seed must be a whole number from 0 to 2**128 - 1, got {seed!r}")


def game_of(variant: object) -> Variant:
    """The game a :class:`~studpoker.engine.Variant` or any of its names (``7stud``, ``STUD7_HL8``, ``F7S/8``,
    ``Razz``: :meth:`Variant.parse`) stands for; anything else is an :class:`EquityError`."""
    if isinstance(variant, Variant):
        return variant
    try:
        return Variant.parse(variant)  # type: ignore[arg-type]  # anything else is refused with the names
    except ValueError as error:
        raise EquityError(str(error)) from None


def _place(seen: dict[Card, str], card: Card, where: str) -> None:
    if card in seen:
        if seen[card] == where:
            raise EquityError(f"{card} is named twice in {where}: a card can be in one place only")
        raise EquityError(f"{card} is in {seen[card]} and in {where}: a card can be in one place only")
    seen[card] = where


def _community_card(text: str) -> Card:
    try:
        return parse_card(text.strip())
    except CardError as error:
        raise EquityError(f"the community card: {error}") from None


def _cards(cards: str | Iterable[Card | str], where: str) -> tuple[Card, ...]:
    """Cards from text or an iterable of cards and card texts; anything else is an :class:`EquityError`."""
    if isinstance(cards, str):
        if len(cards) > MAX_TEXT:
            raise EquityError(f"{where}: {len(cards):,} characters is not a hand (at most {MAX_TEXT})")
    elif not isinstance(cards, Iterable) or isinstance(cards, (bytes, bytearray, dict)):
        raise EquityError(f'{where}: expected cards as text ("As Kd") or a list of cards, got {type(cards).__name__}')
    try:
        if isinstance(cards, str):
            return parse_cards(cards) if cards.strip() else ()
        out: list[Card] = []
        for c in cards:
            if len(out) == 52:
                raise EquityError(f"{where}: more than 52 cards")
            if not isinstance(c, (Card, str)):
                raise EquityError(f'{where}: expected a card ("As" or a Card), got {c!r}')
            out.append(c if isinstance(c, Card) else parse_card(c))
        return tuple(out)
    except CardError as error:
        raise EquityError(f"{where}: {error}") from None
