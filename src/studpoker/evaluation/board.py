"""Boards: ranking 1 to 4 face-up cards to decide who acts first (SPEC R7.2-R7.4, R12a.3).

Straights and flushes do not count on a board. A *high* board (stud, stud hi/lo)
ranks four of a kind > three of a kind > two pair > one pair > high card, ace
high; a *low* board (razz) is the reverse, ace low, and the lowest acts first.
Either way the value returned is larger for the board that acts first.

>>> boards = ["Kc Qd", "Ah 7c", "Jh 9s", "As 7d"]          # TC-13, in position order
>>> first_to_act(boards)                                   # POSITION: earliest of the tied A-7
1
>>> first_to_act(boards, by_suit=True)                     # HIGH_CARD_BY_SUIT: A♠ beats A♥
3
>>> first_to_act(["Ks 9d", "3c 2h", "4d 4c"], low=True)    # razz: lowest board
1
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement

from ..cards import CardError, CardsLike, card_indices
from ._tables import HandCategory, LowCategory

__all__ = [
    "best_board",
    "board_automaton",
    "board_tiebreak",
    "board_value",
    "first_to_act",
    "high_board_value",
    "low_board_value",
]

_BASE = 14  # ranks are stored +1 so that a missing card (shorter board) counts lowest
_SHAPES = {
    (1,): 0, (1, 1): 0, (1, 1, 1): 0, (1, 1, 1, 1): 0,
    (2,): 1, (2, 1): 1, (2, 1, 1): 1,
    (2, 2): 2,
    (3,): 3, (3, 1): 3,
    (4,): 4,
}  # fmt: skip
_HIGH_CATEGORY = (
    HandCategory.HIGH_CARD,
    HandCategory.ONE_PAIR,
    HandCategory.TWO_PAIR,
    HandCategory.THREE_OF_A_KIND,
    HandCategory.FOUR_OF_A_KIND,
)
_LOW_CATEGORY = (
    LowCategory.NO_PAIR,
    LowCategory.ONE_PAIR,
    LowCategory.TWO_PAIR,
    LowCategory.THREE_OF_A_KIND,
    LowCategory.FOUR_OF_A_KIND,
)
_LOW_WORST = (int(LowCategory.FOUR_OF_A_KIND) + 1) * _BASE**4


def _board(cards: CardsLike) -> list[int]:
    idx = card_indices(cards)
    if not 1 <= len(idx) <= 4:
        raise CardError(f"a board has 1 to 4 up cards, got {len(idx)}")
    return idx


def _grouped(ranks: tuple[int, ...]) -> tuple[int, int]:
    """(shape number 0..4, ranks packed largest group first, then higher rank first)."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    packed = 0
    digits = [r for r in order for _ in range(counts[r])]
    for i in range(4):
        packed = packed * _BASE + (digits[i] + 1 if i < len(digits) else 0)
    shape = _SHAPES[tuple(sorted(counts.values(), reverse=True))]
    return shape, packed


@cache
def _tables() -> tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]]:
    """Board values of every sorted tuple of 1 to 4 ranks: (high boards, razz boards)."""
    high: dict[tuple[int, ...], int] = {}
    low: dict[tuple[int, ...], int] = {}
    for size in range(1, 5):
        for ranks in combinations_with_replacement(range(13), size):
            shape, packed = _grouped(ranks)
            high[ranks] = int(_HIGH_CATEGORY[shape]) * _BASE**4 + packed
            # Ace-to-five ranks: ace 0, deuce 1, ..., king 12.
            shape, packed = _grouped(tuple(r + 1 if r != 12 else 0 for r in ranks))
            low[ranks] = _LOW_WORST - (int(_LOW_CATEGORY[shape]) * _BASE**4 + packed)
    return high, low


def board_value(indices: Sequence[int], low: bool = False) -> int:
    """Value of a board given as valid card indices (no checks; the engine's fast path)."""
    return _tables()[low][tuple(sorted(c >> 2 for c in indices))]


@cache
def board_automaton() -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    """Boards as states of an automaton, for the engine: ``(step, high, low)``.

    State 0 is the empty board; ``step[state][rank]`` is the board after one more up card
    of that rank (up to four cards); ``high[state]`` and ``low[state]`` are its values (the
    empty board is worth -1). Dealing a card is then one lookup, and ranking the boards
    one more.
    """
    high_table, low_table = _tables()
    boards: list[tuple[int, ...]] = [()]
    ids: dict[tuple[int, ...], int] = {(): 0}
    for size in range(1, 5):
        for ranks in combinations_with_replacement(range(13), size):
            ids[ranks] = len(boards)
            boards.append(ranks)
    step = tuple(tuple(ids[tuple(sorted((*board, r)))] if len(board) < 4 else 0 for r in range(13)) for board in boards)
    high = tuple(high_table[b] if b else -1 for b in boards)
    low = tuple(low_table[b] if b else -1 for b in boards)
    return step, high, low


def high_board_value(cards: CardsLike) -> int:
    """Value of a high board (stud, stud hi/lo); the largest acts first (SPEC R7.3)."""
    return board_value(_board(cards))


def low_board_value(cards: CardsLike) -> int:
    """Value of a razz board (ace low, pairs bad); the largest, i.e. the lowest board, acts first."""
    return board_value(_board(cards), low=True)


def board_tiebreak(cards: CardsLike, *, low: bool = False) -> tuple[int, ...]:
    """Suit tie-break between equal boards (``HIGH_CARD_BY_SUIT``, SPEC R7.4); larger acts first.

    High boards: the cards sorted by (rank, suit) from the top, compared in turn,
    so in practice the suit of the highest card decides (A♠ before A♥). Low
    (razz) boards mirror it, as the razz bring-in does (R12a.2): the cards
    sorted by (low rank, suit) from the top, and the *lower* suit acts first.
    """
    idx = _board(cards)
    if not low:
        return tuple(sorted(idx, reverse=True))
    keyed = sorted((((c >> 2) + 1 if c >> 2 != 12 else 0, c & 3) for c in idx), reverse=True)
    return tuple(-(rank * 4 + suit) for rank, suit in keyed)


def first_to_act(boards: Sequence[CardsLike], *, low: bool = False, by_suit: bool = False) -> int:
    """Index of the board that acts first among ``boards`` given in position order.

    The best board (highest, or lowest with ``low``) acts first; ties go to the
    earliest position (``POSITION``) or, with ``by_suit``, to the suit tie-break
    of :func:`board_tiebreak` (``HIGH_CARD_BY_SUIT``).
    """
    if not boards:
        raise ValueError("first_to_act needs at least one board")
    return best_board([_board(b) for b in boards], low=low, by_suit=by_suit)


def best_board(boards: Sequence[Sequence[int]], *, low: bool = False, by_suit: bool = False) -> int:
    """:func:`first_to_act` for boards given as valid card indices (no checks; the engine's fast path)."""
    values = [board_value(b, low) for b in boards]
    top = max(values)
    tied = [i for i, v in enumerate(values) if v == top]
    if len(tied) == 1 or not by_suit:
        return tied[0]
    return max(tied, key=lambda i: (board_tiebreak(boards[i], low=low), -i))
