"""Cards, ranks, suits and the deck.

A card's *index* is ``4 * rank + suit`` (rank 0..12 for 2..A, suit 0..3 for
clubs, diamonds, hearts, spades), so 0 is ``2c`` and 51 is ``As``. Every NumPy
array of cards in studpoker uses this encoding.

>>> card = Card.parse("As")
>>> card.rank, card.suit, card.index
(Rank.ACE, Suit.SPADES, 51)
>>> str(card), card.symbol
('As', 'A♠')
>>> parse_cards("10h Td 2♣")
(Card('Th'), Card('Td'), Card('2c'))
"""

from __future__ import annotations

import hashlib
import math
import operator
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

__all__ = [
    "Card",
    "CardError",
    "CardsLike",
    "Deck",
    "Rank",
    "Suit",
    "card_indices",
    "format_cards",
    "parse_card",
    "parse_cards",
    "shuffle_in_place",
]


class CardError(ValueError):
    """A card (or a set of cards) that cannot be what the caller says it is.

    Raised for unparsable card text, indices outside 0..51 and duplicate cards;
    the message names the offending text or card.
    """


class Rank(IntEnum):
    """Card rank, deuce (0) to ace (12); the ace is high unless a rule says otherwise."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        """The one-character symbol: ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return RANK_CHARS[self]

    @property
    def noun(self) -> str:
        """The rank in words, singular: ``"ace"``, ``"seven"``."""
        return _RANK_NOUNS[self]

    @property
    def plural(self) -> str:
        """The rank in words, plural: ``"aces"``, ``"sixes"``."""
        return _RANK_PLURALS[self]

    def __repr__(self) -> str:
        return f"Rank.{self.name}"

    def __str__(self) -> str:
        return self.char


class Suit(IntEnum):
    """Card suit; the order clubs < diamonds < hearts < spades (SPEC D1.2) breaks single-card ties only."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        """The one-letter symbol: ``c``, ``d``, ``h``, ``s``."""
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol: ``♣``, ``♦``, ``♥``, ``♠``."""
        return SUIT_SYMBOLS[self]

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    def __str__(self) -> str:
        return self.char


RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
_RANK_NOUNS = (
    "two", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)  # fmt: skip
_RANK_PLURALS = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
    "nines", "tens", "jacks", "queens", "kings", "aces",
)  # fmt: skip

# Every spelling a card's rank or suit may have in text, mapped to its number.
_RANK_TEXT: dict[str, int] = {c: i for i, c in enumerate(RANK_CHARS)}
_RANK_TEXT.update({c.lower(): i for i, c in enumerate(RANK_CHARS) if c.isalpha()})
_RANK_TEXT["10"] = Rank.TEN
_SUIT_TEXT: dict[str, int] = {c: i for i, c in enumerate(SUIT_CHARS)}
_SUIT_TEXT.update({c.upper(): i for i, c in enumerate(SUIT_CHARS)})
_SUIT_TEXT.update({s: i for i, s in enumerate(SUIT_SYMBOLS)})
_SUIT_TEXT.update({s: i for i, s in enumerate("♧♢♡♤")})


@dataclass(frozen=True, slots=True, order=True, init=False)
class Card:
    """One playing card: a rank and a suit.

    Cards order by rank, then suit (``2c`` < ``2d`` < ... < ``As``), the order
    SPEC D1.2 uses for single-card ties. ``index`` is the 0..51 encoding.
    """

    rank: Rank
    suit: Suit
    index: int = field(repr=False, compare=False)

    def __init__(self, rank: Rank | str, suit: Suit | None = None) -> None:
        """``Card(Rank.ACE, Suit.SPADES)``, or ``Card("As")`` (what the repr shows: it pastes back)."""
        if suit is None and isinstance(rank, str):
            card = parse_card(rank)
            rank, suit = card.rank, card.suit
        if not isinstance(rank, Rank) or not isinstance(suit, Suit):
            raise CardError(f"a card needs a Rank and a Suit (or text such as 'As'), got {rank!r} and {suit!r}")
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "index", 4 * rank + suit)

    @staticmethod
    def parse(text: str) -> Card:
        """Parse one card: ``As``, ``td``, ``10h``, ``A♠`` (rank then suit, either case)."""
        return parse_card(text)

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with the given 0..51 index."""
        if not isinstance(index, int) or isinstance(index, bool):
            raise CardError(f"a card index must be an int in 0..51, got {index!r}")
        if not 0 <= index < 52:
            raise CardError(f"card index {index} is outside 0..51")
        return CARDS[index]

    @property
    def symbol(self) -> str:
        """The card with a suit symbol, e.g. ``A♠``."""
        return RANK_CHARS[self.rank] + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return RANK_CHARS[self.rank] + SUIT_CHARS[self.suit]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __format__(self, spec: str) -> str:
        """``format(card)`` gives ``As``; ``format(card, "u")`` gives ``A♠``."""
        if spec == "u":
            return self.symbol
        return format(str(self), spec)

    def _repr_svg_(self) -> str:
        """The card drawn (:func:`studpoker.svg.card`), so a notebook shows it."""
        from .svg import card  # imported here: drawing is for notebooks, not for every import of the cards

        return card(self)

    def _repr_html_(self) -> str:
        return self._repr_svg_()

    def __hash__(self) -> int:  # equal cards have equal indices; cheaper than hashing (rank, suit)
        return self.index

    def __int__(self) -> int:
        return self.index

    def __index__(self) -> int:
        return self.index


#: All 52 cards in index order (``CARDS[i].index == i``).
CARDS: tuple[Card, ...] = tuple(Card(Rank(i >> 2), Suit(i & 3)) for i in range(52))
_BY_TEXT: dict[str, Card] = {}
for _card in CARDS:
    for _r, _ri in _RANK_TEXT.items():
        if _ri != _card.rank:
            continue
        for _s, _si in _SUIT_TEXT.items():
            if _si == _card.suit:
                _BY_TEXT[_r + _s] = _card
del _card, _r, _ri, _s, _si


def parse_card(text: str) -> Card:
    """Parse one card from text such as ``As``, ``td``, ``10h`` or ``A♠``.

    Raises :class:`CardError` naming the text if it is not exactly one card.
    """
    if not isinstance(text, str):
        raise CardError(f"expected card text such as 'As', got {text!r}")
    card = _BY_TEXT.get(text.strip())
    if card is None:
        raise CardError(
            f"{text!r} is not a card: write a rank (2-9, T or 10, J, Q, K, A) "
            "followed by a suit (c, d, h, s or ♣ ♦ ♥ ♠), e.g. 'As' or '10h'"
        )
    return card


def _split_cards(text: str) -> Iterator[str]:
    """Split ``"As Kd"``, ``"As,Kd"`` or ``"AsKd10h"`` into card-sized pieces."""
    for word in text.replace(",", " ").split():
        if word in _BY_TEXT:
            yield word
            continue
        i = 0
        while i < len(word):
            size = 3 if word.startswith("10", i) else 2
            yield word[i : i + size]
            i += size


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse several cards: ``"As Kd 7c"``, ``"AsKd7c"`` or an iterable of card strings.

    Duplicates are allowed here (a deck-level concern); see :func:`card_indices`.
    """
    pieces = _split_cards(text) if isinstance(text, str) else iter(text)
    return tuple(parse_card(p) for p in pieces)


def format_cards(cards: Iterable[Card], *, symbols: bool = False) -> str:
    """Cards as text separated by spaces, e.g. ``"As Kd"`` (``"A♠ K♦"`` with ``symbols``)."""
    return " ".join(c.symbol if symbols else str(c) for c in cards)


#: What the evaluation functions accept: a string of cards, or an iterable of
#: :class:`Card`, card strings or 0..51 indices.
CardsLike = str | Iterable[Card | str | int]


def _one_index(c: object) -> int:
    if isinstance(c, Card):
        return c.index
    if isinstance(c, str):
        return parse_card(c).index
    if not isinstance(c, bool):
        try:
            i = operator.index(c)  # type: ignore[arg-type]  # int, NumPy integers; else TypeError
        except TypeError:
            pass
        else:
            if not 0 <= i < 52:
                raise CardError(f"card index {i} is outside 0..51")
            return i
    raise CardError(f"{c!r} is not a card (expected a Card, card text or an index 0..51)")


def card_indices(cards: CardsLike, *, counts: Sequence[int] | None = None) -> list[int]:
    """Convert cards to a list of 0..51 indices, checking range and duplicates.

    ``counts`` lists the acceptable numbers of cards; a :class:`CardError`
    says what is wrong and names the card or text at fault.
    """
    if isinstance(cards, str):
        cards = parse_cards(cards)
    seq = cards if isinstance(cards, (list, tuple)) else list(cards)
    out: list[int] = [
        c.index if type(c) is Card else c if type(c) is int and 0 <= c < 52 else _one_index(c) for c in seq
    ]
    if len(set(out)) != len(out):
        seen: set[int] = set()
        dups = [CARDS[i] for i in out if i in seen or seen.add(i)]  # type: ignore[func-returns-value]
        raise CardError(f"duplicate card {dups[0]} in {format_cards(CARDS[i] for i in out)}")
    if counts is not None and len(out) not in counts:
        expected = " or ".join(str(n) for n in counts)
        raise CardError(f"expected {expected} cards, got {len(out)}: {format_cards(CARDS[i] for i in out)}")
    return out


def shuffle_in_place(items: list[Any], seed: int | None = None) -> None:
    """Shuffle ``items`` uniformly: reproducibly from an integer ``seed``, or with the CSPRNG.

    Fisher-Yates, with every swap index read (in mixed radix) from one random number
    drawn uniformly below ``len(items)!`` by rejection: exactly the uniformity of
    drawing each index separately, with one draw instead of one per card. The draw
    comes from the operating system's CSPRNG (:class:`secrets.SystemRandom`) when
    there is no seed; with a seed it is BLAKE2b of the seed and a counter, a
    deterministic stream that is as good as uniform and ten times cheaper to start
    than seeding :class:`random.Random` (simulations shuffle millions of decks).
    """
    n = len(items)
    total = math.factorial(n)
    bits = total.bit_length()
    if seed is None:
        draw = _system_random().getrandbits
    elif bits <= 512:
        draw = _seeded_stream(seed, bits)
    else:  # longer than any deck: the standard generator
        random.Random(seed).shuffle(items)
        return
    x = draw(bits)
    while x >= total:
        x = draw(bits)
    for i in range(n - 1, 0, -1):
        x, j = divmod(x, i + 1)
        items[i], items[j] = items[j], items[i]


_SYSTEM_RANDOM: random.Random | None = None


def _system_random() -> random.Random:
    global _SYSTEM_RANDOM
    if _SYSTEM_RANDOM is None:
        import secrets  # imported here: it is slow to import and only real play needs it

        _SYSTEM_RANDOM = secrets.SystemRandom()
    return _SYSTEM_RANDOM


def _seeded_stream(seed: int, bits: int) -> Callable[[int], int]:
    """Successive ``bits``-bit numbers from BLAKE2b(seed, counter)."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"a shuffle seed must be an int, got {seed!r}")
    key = str(seed).encode()
    size = (bits + 7) // 8
    counter = 0

    def draw(k: int) -> int:
        nonlocal counter
        digest = hashlib.blake2b(key, digest_size=size, person=b"studpoker-deck", salt=counter.to_bytes(16, "little"))
        counter += 1
        return int.from_bytes(digest.digest(), "little") >> (8 * size - k)

    return draw


class Deck:
    """A 52-card deck, dealt from the top.

    ``Deck()`` is in index order; :meth:`shuffle` (or ``Deck.shuffled()``)
    shuffles with a seeded :class:`random.Random` when given a seed (reproducible,
    for simulations and tests) and with the operating system's CSPRNG
    (:class:`secrets.SystemRandom`) otherwise, for real play.

    >>> deck = Deck.shuffled(seed=7)
    >>> len(deck), len(deck.deal(3)), len(deck)
    (52, 3, 49)
    """

    __slots__ = ("_cards",)

    def __init__(self, cards: Iterable[Card] | None = None) -> None:
        self._cards: list[Card] = list(CARDS if cards is None else cards)
        if cards is not None and len(set(self._cards)) != len(self._cards):
            raise CardError("a deck cannot hold the same card twice")

    @classmethod
    def shuffled(cls, seed: int | None = None) -> Deck:
        """A full deck, shuffled (seeded if ``seed`` is given, else with the CSPRNG)."""
        deck = cls()
        deck.shuffle(seed)
        return deck

    def shuffle(self, seed: int | None = None) -> None:
        """Shuffle the remaining cards uniformly (Fisher-Yates, see :func:`shuffle_in_place`)."""
        shuffle_in_place(self._cards, seed)

    def deal(self, n: int = 1) -> list[Card]:
        """Remove and return the top ``n`` cards."""
        if n < 0 or n > len(self._cards):
            raise CardError(f"cannot deal {n} cards from a deck of {len(self._cards)}")
        dealt, self._cards = self._cards[:n], self._cards[n:]
        return dealt

    def draw(self) -> Card:
        """Remove and return the top card."""
        return self.deal(1)[0]

    def remove(self, cards: Iterable[Card]) -> None:
        """Take the given cards out of the deck (dead cards); each must be in it."""
        for card in cards:
            try:
                self._cards.remove(card)
            except ValueError:
                raise CardError(f"{card} is not in the deck") from None

    @property
    def cards(self) -> tuple[Card, ...]:
        """The remaining cards, top first."""
        return tuple(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(tuple(self._cards))

    def __contains__(self, card: object) -> bool:
        return card in self._cards

    def __repr__(self) -> str:
        return f"Deck({len(self._cards)} cards)"
