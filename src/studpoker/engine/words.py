"""Actions, hands and boards in words, as a stud player reads them: what the terminal game and the card room say.

A call is said by what it costs, every other wager by its total for the street (as every card room's buttons
read): after bringing in for 3, facing a completion to 10,

>>> from .actions import Action
>>> action_words(Action.call(10), added=7), action_words(Action.raise_to(20), added=17)
('call 7', 'raise to 20')

>>> from studpoker.cards import parse_cards
>>> describe_hand(parse_cards("As Ad 7c 7h 2s Kd 9c"), Variant.STUD7)
'Two pair, aces and sevens'
>>> describe_hand(parse_cards("Ah 2c 3d 6s 7h Qd Qh"), Variant.STUD7_HL8)
'Pair of queens; low: 7-6-3-2-A low'
>>> describe_hand(parse_cards("Ks Kd 9c 7h 2s"), Variant.RAZZ)
'Pair of kings, K-K-9-7-2'

A board (the face-up cards, one to four) is read as it ranks for acting first (R7.3, R12a.3): pairs, two pair,
trips and quads count, straights and flushes do not; razz boards are read low, ace low:

>>> describe_board(parse_cards("Ks Kd"), Variant.STUD7), describe_board(parse_cards("Ah 9c 4d"), Variant.STUD7)
('a pair of kings', 'ace-nine high')
>>> describe_board(parse_cards("7c 4d 2h"), Variant.RAZZ), describe_board(parse_cards("Qd"), Variant.STUD5)
('7-4-2 low', 'queen high')
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import RANK_CHARS, Card, Rank
from ..evaluation import evaluate_high, evaluate_low8, evaluate_razz
from .actions import Action, ActionKind
from .rules import Variant

__all__ = ["action_words", "best_five", "describe_board", "describe_hand"]


def action_words(action: Action, added: int) -> str:
    """An action as the player reads it on a button, a prompt or a log line: ``call N`` where N is ``added``, the
    chips the call puts in (what it costs him now, not the street's total); ``bring in 3``, ``bet 10``,
    ``complete to 10``, ``raise to 40`` (totals for the street, the engine's own words); ``fold``, ``check``,
    ``show``, ``muck``. ``added`` is :attr:`ActionTaken.added <studpoker.engine.events.ActionTaken>` for an
    action taken, or :meth:`HandState.cost <studpoker.engine.HandState.cost>` for one to take.

    >>> action_words(Action.call(60), added=20), action_words(Action.bring_in(3), added=3)
    ('call 20', 'bring in 3')
    """
    if action.kind is ActionKind.CALL:
        return f"call {added}"
    return str(action)


def describe_hand(cards: Sequence[Card | None], variant: Variant) -> str:
    """The hand in words (both halves in stud hi/lo, ``low: none`` without a qualifying low); ``""`` unless
    five to seven cards are known. A community card, when one was turned, belongs in ``cards``."""
    known = [c for c in cards if c is not None]
    if not 5 <= len(known) <= 7:
        return ""
    if variant is Variant.RAZZ:
        return evaluate_razz(known).description
    high = evaluate_high(known).description
    if variant is Variant.STUD7_HL8:
        low = evaluate_low8(known)
        return f"{high}; low: {low.description if low is not None else 'none'}"
    return high


def best_five(cards: Sequence[Card | None], variant: Variant) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The five cards a hand plays, as the game reads it: the high hand's (razz: the razz low's), and the
    eight-or-better low's in stud hi/lo (``()`` without one, and in the other games); ``((), ())`` unless five to
    seven cards are known. What a showdown marks on the table.

    >>> from studpoker.cards import parse_cards, format_cards
    >>> high, low = best_five(parse_cards("Ah 2c 3d 6s 7h Qd Qh"), Variant.STUD7_HL8)
    >>> format_cards(high), format_cards(low)
    ('Qh Qd Ah 7h 6s', '7h 6s 3d 2c Ah')
    """
    known = [c for c in cards if c is not None]
    if not 5 <= len(known) <= 7:
        return (), ()
    if variant is Variant.RAZZ:
        return evaluate_razz(known).cards, ()
    high = evaluate_high(known).cards
    if variant is Variant.STUD7_HL8:
        low = evaluate_low8(known)
        return high, (low.cards if low is not None else ())
    return high, ()


def describe_board(cards: Sequence[Card | None], variant: Variant) -> str:
    """A board of one to four face-up cards in words, as it ranks for acting first; ``""`` without a known card
    or with more than four.

    Groups first: ``"four kings"``, ``"three kings"``, ``"two pair, kings and sevens"``, ``"a pair of kings"``;
    else the top cards: ``"ace-king high"`` (``"ace high"`` for one card). In razz the ace is low and an unpaired
    board is read from its highest card down, as the engine writes lows: ``"7-4-A low"``; paired razz boards are
    read as above (``"a pair of kings"``, ace-low order for the kickers does not matter there).

    >>> from studpoker.cards import parse_cards
    >>> [describe_board(parse_cards(b), Variant.STUD7) for b in ("7c 7d 7h 7s", "9c 9d 9h 2s", "Kc Kd 7h 7s")]
    ['four sevens', 'three nines', 'two pair, kings and sevens']
    >>> describe_board(parse_cards("Ac 4d"), Variant.RAZZ), describe_board(parse_cards("2c 2d 5h"), Variant.RAZZ)
    ('4-A low', 'a pair of twos')
    >>> describe_board([], Variant.STUD7)
    ''
    """
    known = [c for c in cards if c is not None]
    if not 1 <= len(known) <= 4:
        return ""
    counts: dict[int, int] = {}
    for card in known:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    low = variant is Variant.RAZZ

    def order(rank: int) -> int:  # higher is named first: the bigger group, then the better rank for the game
        return (-1 if rank == Rank.ACE else rank) if low else rank

    groups = sorted(counts, key=lambda r: (counts[r], order(r)), reverse=True)
    top = groups[0]
    size = counts[top]
    if size == 4:
        return f"four {Rank(top).plural}"
    if size == 3:
        return f"three {Rank(top).plural}"
    if size == 2:
        pairs = [r for r in groups if counts[r] == 2]
        if len(pairs) == 2:
            return f"two pair, {Rank(pairs[0]).plural} and {Rank(pairs[1]).plural}"
        return f"a pair of {Rank(top).plural}"
    if low:
        return "-".join(RANK_CHARS[r] for r in groups) + " low"
    if len(groups) == 1:
        return f"{Rank(top).noun} high"
    return f"{Rank(groups[0]).noun}-{Rank(groups[1]).noun} high"
