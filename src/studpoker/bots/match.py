"""Bot matches: seat bots at a :class:`~studpoker.table.Table`, play many hands, measure who wins how much.

The measure is the net result of every hand for every bot, in chips; :class:`MatchResult` turns it into
big bets per 100 hands (``bb/100``, a big bet being ``rules.big_bet``) with a normal-approximation
confidence interval over the hands (mean ± z·sd/√n, scaled to 100 hands).

>>> from studpoker.engine import Rules, Variant
>>> from studpoker.bots import CallingStation, TightAggressive
>>> rules = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20)
>>> result = run_match(rules, [TightAggressive(seed=1), CallingStation(), CallingStation()], 50, seed=7)
>>> result.hands, len(result.net[0]), sum(map(sum, result.net))     # every chip won was lost by someone
(50, 50, 0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine import Rules
from ..table import Table
from .base import Bot, play_hand

__all__ = ["MatchResult", "run_match"]


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The outcome of :func:`run_match`, by bot (in the order the bots were given).

    ``net[i][h]`` is bot ``i``'s result in hand ``h`` in chips (its stack after the hand minus its stack
    before it); ``rebuys[i]`` the chips it was given after busting (not counted in ``net``);
    ``seats[i]`` the seat it started in; ``stacks[i]`` its chips at the end, so that
    ``buy_in + rebuys[i] + total(i) == stacks[i]``.
    """

    names: tuple[str, ...]
    tags: tuple[str, ...]
    net: tuple[tuple[int, ...], ...]
    rebuys: tuple[int, ...]
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    buy_in: int
    big_bet: int
    seed: int
    rotate: bool

    @property
    def hands(self) -> int:
        return len(self.net[0]) if self.net else 0

    def total(self, bot: int) -> int:
        """Bot ``bot``'s net result over the match, in chips."""
        return sum(self.net[bot])

    def bb_per_100(self, bot: int) -> float:
        """Big bets won per 100 hands."""
        n = self.hands
        return 100.0 * self.total(bot) / (self.big_bet * n) if n else 0.0

    def interval(self, bot: int, z: float = 1.96) -> tuple[float, float]:
        """The confidence interval of :meth:`bb_per_100` (``z`` = 1.96: 95 %; 2.576: 99 %), from the
        standard deviation of the per-hand results; hands are independent deals, so the normal
        approximation holds for a few hundred hands or more."""
        half = z * self.standard_error(bot)
        mean = self.bb_per_100(bot)
        return mean - half, mean + half

    def standard_error(self, bot: int) -> float:
        """Standard error of :meth:`bb_per_100` (sample standard deviation per hand / √hands, scaled)."""
        results, n = self.net[bot], self.hands
        if n < 2:
            return math.inf
        mean = sum(results) / n
        variance = sum((x - mean) ** 2 for x in results) / (n - 1)
        return 100.0 * math.sqrt(variance / n) / self.big_bet

    def summary(self) -> str:
        """One line per bot: name, net chips, rebuys, bb/100 and its 95 % interval."""
        lines = [f"{'bot':<24} {'net':>9} {'rebuys':>8} {'bb/100':>8}  95% interval"]
        for i, name in enumerate(self.names):
            low, high = self.interval(i)
            lines.append(
                f"{name:<24} {self.total(i):>9} {self.rebuys[i]:>8} {self.bb_per_100(i):>8.1f}  [{low:.1f}, {high:.1f}]"
            )
        return "\n".join(lines)


def run_match(
    rules: Rules,
    bots: Sequence[Bot],
    hands: int,
    *,
    seed: int,
    buy_in: int | None = None,
    rotate: bool = False,
) -> MatchResult:
    """Play ``hands`` hands of ``rules`` with ``bots`` (2 to ``max_seats``) at a table seeded with ``seed``.

    Bot ``i`` sits in seat ``i + 1`` with ``buy_in`` chips (default: the rules' minimum buy-in, or 10 big
    bets); a bot that busts is topped up with ``buy_in`` chips before the next hand (``Table.top_up``,
    money in, counted in :attr:`MatchResult.rebuys`). With ``rotate=True`` the seating turns by one seat
    after every hand (bot ``i`` plays hand ``h`` from seat ``(i + h) % n + 1``): everyone leaves with his
    chips and sits down again (a stack below the minimum buy-in is first topped up to it, counted as a
    rebuy). Seat order matters little in stud, where the cards decide who acts first, but rotation
    removes even that. The bots are not closed. Deterministic for a given ``seed`` when the bots are.
    """
    count = len(bots)
    if count < 2:
        raise ValueError(f"a match needs at least two bots, got {count}")
    if hands < 0:
        raise ValueError(f"hands must be >= 0, got {hands}")
    table = Table(rules, seed=seed, name="match")
    if count > table.max_seats:
        raise ValueError(f"{count} bots do not fit at a table of {table.max_seats} seats")
    stake = buy_in if buy_in is not None else (rules.min_buy_in or 10 * rules.big_bet)
    tags = tuple(bot.tag for bot in bots)
    names = tuple(f"{i + 1}:{tag}" for i, tag in enumerate(tags))
    seat_of = [i + 1 for i in range(count)]
    for i, name in enumerate(names):
        table.sit(name, stake, seat=seat_of[i])
    first_seats = tuple(seat_of)
    rebuys = [0] * count
    net: list[list[int]] = [[] for _ in range(count)]
    minimum = rules.min_buy_in or 0
    for h in range(hands):
        if rotate and h:
            stacks = [table.seat(seat_of[i]).stack for i in range(count)]
            for i in range(count):
                table.leave(seat_of[i])
            seat_of = [(i + h) % count + 1 for i in range(count)]
            for i in range(count):
                if stacks[i] < max(minimum, 1):
                    rebuys[i] += max(minimum, stake) - stacks[i]
                    stacks[i] = max(minimum, stake)
                table.sit(names[i], stacks[i], seat=seat_of[i])
        for i in range(count):
            if table.seat(seat_of[i]).stack == 0:
                table.top_up(seat_of[i], stake)
                rebuys[i] += stake
        before = [table.seat(seat_of[i]).stack for i in range(count)]
        play_hand(table, {seat_of[i]: bots[i] for i in range(count)})
        for i in range(count):
            net[i].append(table.seat(seat_of[i]).stack - before[i])
    table.check_conservation()
    return MatchResult(
        names=names,
        tags=tags,
        net=tuple(tuple(results) for results in net),
        rebuys=tuple(rebuys),
        seats=first_seats,
        stacks=tuple(table.seat(seat_of[i]).stack for i in range(count)),
        buy_in=stake,
        big_bet=rules.big_bet,
        seed=seed,
        rotate=rotate,
    )
