"""Prizes: how a prize pool is shared among the places paid, in whole chips that add up to the pool.

The standard table (:func:`standard_shares`) depends on the number of entries:

==============  ===========  =================================================
entries         places paid  shares (per cent)
==============  ===========  =================================================
2 to 4          1            100 (winner takes all)
5 and 6         2            65, 35
7 to 10         3            50, 30, 20
11 or more      15 % of the  place *k* gets a share proportional to 1/(k + 1)
                entries,     (24 entries: 3 places, 46.2/30.8/23.1; 100 entries:
                at least 3   15 places, first 21.0, last 2.6)
==============  ===========  =================================================

Shares are exact fractions; each place gets its share of the pool rounded down, and the chips left over by the
rounding go one each to the highest places first (1st, then 2nd...), so the prizes always sum to the pool.

>>> payouts(1000, 6)
(650, 350)
>>> payouts(1001, 9), sum(payouts(12_345, 24)), len(payouts(10_000, 100))
((501, 300, 200), 12345, 15)
>>> payouts(100, 3, PayoutTable.fixed(60, 40))
(60, 40)

Players who tie for places (out in the same hand with the same stack) share the prizes of those places:

>>> shared_prize(payouts(1000, 8), first_place=2, players=2)    # 2nd and 3rd: 300 + 200 split in two
(250, 250)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from .errors import PayoutError

__all__ = ["PayoutTable", "payouts", "places_paid", "shared_prize", "standard_shares"]


def places_paid(entries: int) -> int:
    """How many places the standard table pays for a field of ``entries`` (see the module's table)."""
    _check_entries(entries)
    if entries <= 4:
        return 1
    if entries <= 6:
        return 2
    if entries <= 10:
        return 3
    return max(3, entries * 15 // 100)


def standard_shares(entries: int) -> tuple[Fraction, ...]:
    """Each paid place's share of the prize pool in the standard table, best place first (they sum to 1)."""
    places = places_paid(entries)
    if entries <= 10:
        return {1: (Fraction(1),), 2: (Fraction(65, 100), Fraction(35, 100))}.get(
            places, (Fraction(50, 100), Fraction(30, 100), Fraction(20, 100))
        )
    weights = [Fraction(1, k + 1) for k in range(1, places + 1)]
    total = sum(weights, Fraction(0))
    return tuple(w / total for w in weights)


@dataclass(frozen=True, slots=True)
class PayoutTable:
    """A house payout table: per cent of the pool per place, for fields from a number of entries up.

    ``rows`` pairs the fewest entries a row applies to with its percentages (best place first, summing to 100,
    never rising); the first row starts at 2 entries. Made with
    :meth:`fixed` (one row for every field) or :meth:`by_entries`.

    >>> table = PayoutTable.by_entries({2: (100,), 6: (70, 30), 9: (50, 30, 20)})
    >>> table.shares(5), table.shares(12)
    ((Fraction(1, 1),), (Fraction(1, 2), Fraction(3, 10), Fraction(1, 5)))
    >>> PayoutTable.fixed(50, 30, 10)
    Traceback (most recent call last):
        ...
    studpoker.tournament.errors.PayoutError: the percentages of a row must sum to 100, got 90 for (50, 30, 10)
    """

    rows: tuple[tuple[int, tuple[Decimal, ...]], ...]

    def __post_init__(self) -> None:
        rows = tuple(self.rows)
        if not rows:
            raise PayoutError("a payout table needs at least one row")
        if rows[0][0] != 2:
            raise PayoutError(f"the first row of a payout table starts at 2 entries, got {rows[0][0]!r}")
        previous = 1
        for least, percents in rows:
            if type(least) is not int or least <= previous:
                raise PayoutError(f"rows start at rising numbers of entries, got {least!r} after {previous}")
            if not percents:
                raise PayoutError(f"the row from {least} entries pays no place")
            if any(p <= 0 for p in percents) or any(a < b for a, b in itertools.pairwise(percents)):
                raise PayoutError(f"percentages are positive and never rise from one place to the next: {percents}")
            total = sum(percents, Decimal(0))
            if total != 100:
                raise PayoutError(
                    f"the percentages of a row must sum to 100, got {total} for ({', '.join(map(str, percents))})"
                )
            previous = least
        object.__setattr__(self, "rows", rows)

    @classmethod
    def fixed(cls, *percents: int | float | str | Decimal) -> PayoutTable:
        """One row for every field: ``PayoutTable.fixed(50, 30, 20)`` pays three places."""
        return cls(((2, _percents(percents)),))

    @classmethod
    def by_entries(cls, rows: dict[int, Sequence[int | float | str | Decimal]]) -> PayoutTable:
        """Rows by the fewest entries each applies to: ``{2: (100,), 6: (65, 35)}``."""
        return cls(tuple((least, _percents(percents)) for least, percents in sorted(rows.items())))

    def shares(self, entries: int) -> tuple[Fraction, ...]:
        """The shares of the pool (summing to 1) for ``entries``; :class:`PayoutError` when the row pays more
        places than there are entries."""
        _check_entries(entries)
        row = next(percents for least, percents in reversed(self.rows) if least <= entries)
        if len(row) > entries:
            raise PayoutError(f"the payout table pays {len(row)} places, but there are only {entries} entries")
        return tuple(Fraction(p) / 100 for p in row)


def payouts(prize_pool: int, entries: int, table: PayoutTable | None = None) -> tuple[int, ...]:
    """The prize of each paid place, best first, in whole chips summing exactly to ``prize_pool``: each place's
    share rounded down, the odd chips one each to the highest places. ``table=None``: :func:`standard_shares`."""
    if type(prize_pool) is not int or prize_pool < 0:
        raise PayoutError(f"the prize pool must be a whole number of chips of at least 0, got {prize_pool!r}")
    shares = standard_shares(entries) if table is None else table.shares(entries)
    prizes = [int(share * prize_pool) for share in shares]  # int() rounds a positive Fraction down
    for place in range(prize_pool - sum(prizes)):
        prizes[place % len(prizes)] += 1
    return tuple(prizes)


def shared_prize(prizes: Sequence[int], first_place: int, players: int) -> tuple[int, ...]:
    """What each of ``players`` tied for places ``first_place`` to ``first_place + players - 1`` gets: the sum
    of those places' prizes (nothing for a place beyond those paid), split evenly, the odd chips one each to the
    first of them (the tournament lists tied players in order of entry, the earliest first)."""
    if type(first_place) is not int or first_place < 1 or type(players) is not int or players < 1:
        raise PayoutError(
            f"a tie takes a first place and a number of players of at least 1, got {first_place!r}, {players!r}"
        )
    total = sum(prizes[first_place - 1 : first_place - 1 + players])
    each, odd = divmod(total, players)
    return tuple(each + (1 if i < odd else 0) for i in range(players))


def _check_entries(entries: object) -> None:
    if type(entries) is not int or entries < 2:
        raise PayoutError(f"a tournament has at least 2 entries, got {entries!r}")


def _percents(values: Sequence[int | float | str | Decimal]) -> tuple[Decimal, ...]:
    try:
        return tuple(Decimal(str(v)) for v in values)
    except InvalidOperation:
        raise PayoutError(f"percentages are numbers, got {tuple(values)!r}") from None
