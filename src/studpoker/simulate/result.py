"""A simulation's outcome: :class:`Totals` merges chunk results in order, :class:`SimulationResult` reports them.

Every sum is an exact integer, so a result depends only on which hands were played, never on how many workers
played them: :meth:`SimulationResult.to_dict` is the same, key for key and digit for digit, for any run of a spec.

Win rates are big bets (``rules.big_bet``) per 100 hands. A standard error is the sample standard deviation of
the independent units over the square root of their number, scaled to 100 hands: the hands in plain mode, the
deals (every rotation of one deal together) in duplicate mode, where the hands of one deal are not independent.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .chunk import ChunkResult
from .spec import SimulationSpec

__all__ = ["MAX_CURVE_POINTS", "Z95", "DuplicateEstimate", "Estimate", "SimulationResult", "Totals"]

#: The normal quantile of a 95 % two-sided interval.
Z95 = 1.959963984540054

#: The curve keeps at most about this many points (at chunk ends, evenly spaced by chunks).
MAX_CURVE_POINTS = 1000


def _se(units: int, total: int, squares: int, per_unit: int, big_bet: int) -> float | None:
    """The standard error of the per-hand mean in bb/100, from ``units`` independent units (hands, or deals of
    ``per_unit`` hands) with these exact sums of results and of squared results; ``None`` below two units."""
    if units < 2:
        return None
    spread = units * squares - total * total  # units² · sample variance · (units - 1) / units, exactly
    return 100.0 * math.sqrt(spread / (units * units * (units - 1))) / (per_unit * big_bet)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A win rate: over ``hands`` hands, ``net`` chips, ``bb_per_100`` with its standard error ``se`` (``None``
    with too few hands) and the 95 % interval ``low``-``high`` (mean ± 1.96 SE)."""

    label: str
    hands: int
    net: int
    bb_per_100: float
    se: float | None

    @property
    def low(self) -> float | None:
        return None if self.se is None else self.bb_per_100 - Z95 * self.se

    @property
    def high(self) -> float | None:
        return None if self.se is None else self.bb_per_100 + Z95 * self.se

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "net": self.net,
            "bb_per_100": self.bb_per_100,
            "se": self.se,
            "ci95": None if self.se is None else [self.low, self.high],
        }


@dataclass(frozen=True, slots=True)
class DuplicateEstimate:
    """A bot's duplicate-mode win rate: ``se`` from its totals per deal, ``plain_se`` the standard error plain
    mode would have over as many hands (from the per-hand variance of the same hands), and the gain: the variance
    reduction ``(plain_se / se)²``, how many times more hands plain mode needs for the same precision."""

    label: str
    bb_per_100: float
    se: float | None
    plain_se: float | None

    @property
    def variance_reduction(self) -> float | None:
        if self.se is None or self.plain_se is None:
            return None
        return math.inf if self.se == 0 else (self.plain_se / self.se) ** 2

    def to_dict(self) -> dict[str, Any]:
        reduction = self.variance_reduction
        return {
            "bb_per_100": self.bb_per_100,
            "se": self.se,
            "plain_se": self.plain_se,
            "variance_reduction": None if reduction is None or math.isinf(reduction) else reduction,
        }


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """What :func:`~studpoker.simulate.simulate` played, by bot ``i`` (in the spec's order) and seat ``s`` (from 0):
    exact sums of chips per hand (``net``, ``squares``; ``seat_*`` by bot and seat), in duplicate mode also per deal;
    the cumulative curve at chunk ends (``curve_hands``, and by bot ``curve_net`` and ``curve_squares``: of squared
    results per hand, or in duplicate mode per deal); ``sampled``, the hands whose histories the sample kept."""

    spec: SimulationSpec
    hands: int
    net: tuple[int, ...]
    squares: tuple[int, ...]
    seat_net: tuple[tuple[int, ...], ...]
    seat_squares: tuple[tuple[int, ...], ...]
    seat_hands: tuple[tuple[int, ...], ...]
    deals: int
    deal_squares: tuple[int, ...]
    seat_deal_squares: tuple[int, ...]
    curve_hands: tuple[int, ...]
    curve_net: tuple[tuple[int, ...], ...]
    curve_squares: tuple[tuple[int, ...], ...]
    sampled: int = 0

    @property
    def big_bet(self) -> int:
        return self.spec.big_bet

    def _rate(self, net: int, hands: int) -> float:
        return 100.0 * net / (self.big_bet * hands) if hands else 0.0

    @property
    def bots(self) -> tuple[Estimate, ...]:
        """Each bot's win rate (in duplicate mode with the standard error over deals)."""
        n, lines = self.spec.players, []
        for i, name in enumerate(self.spec.names):
            if self.spec.duplicate:
                se = _se(self.deals, self.net[i], self.deal_squares[i], n, self.big_bet)
            else:
                se = _se(self.hands, self.net[i], self.squares[i], 1, self.big_bet)
            lines.append(Estimate(name, self.hands, self.net[i], self._rate(self.net[i], self.hands), se))
        return tuple(lines)

    @property
    def seats(self) -> tuple[Estimate, ...]:
        """Each seat's win rate, whoever sat there (duplicate mode: the standard error over deals)."""
        n, lines = self.spec.players, []
        for s in range(n):
            net = sum(self.seat_net[i][s] for i in range(n))
            if self.spec.duplicate:
                se = _se(self.deals, net, self.seat_deal_squares[s], n, self.big_bet)
            else:
                squares = sum(self.seat_squares[i][s] for i in range(n))
                se = _se(self.hands, net, squares, 1, self.big_bet)
            lines.append(Estimate(f"seat {s + 1}", self.hands, net, self._rate(net, self.hands), se))
        return tuple(lines)

    def bot_seats(self, bot: int) -> tuple[Estimate, ...]:
        """Bot ``bot``'s win rate in each seat (its hands there are independent in both modes)."""
        lines = []
        for s in range(self.spec.players):
            hands, net = self.seat_hands[bot][s], self.seat_net[bot][s]
            se = _se(hands, net, self.seat_squares[bot][s], 1, self.big_bet)
            lines.append(Estimate(f"seat {s + 1}", hands, net, self._rate(net, hands), se))
        return tuple(lines)

    @property
    def duplicate(self) -> tuple[DuplicateEstimate, ...] | None:
        """Duplicate mode's estimate of each bot with its variance reduction; ``None`` in plain mode."""
        if not self.spec.duplicate:
            return None
        plain = [_se(self.hands, self.net[i], self.squares[i], 1, self.big_bet) for i in range(self.spec.players)]
        return tuple(
            DuplicateEstimate(line.label, line.bb_per_100, line.se, plain[i]) for i, line in enumerate(self.bots)
        )

    def curve(self, bot: int) -> tuple[list[int], list[float], list[float]]:
        """Bot ``bot``'s cumulative result at chunk ends: hands, big bets won, and the half-width of the 95 % band
        of that total (1.96 · sd · √units, the sd per unit, a hand or in duplicate mode a deal, estimated from the
        units played so far)."""
        big_bets, bands = [], []
        per_unit = self.spec.players if self.spec.duplicate else 1
        for hands, net, squares in zip(self.curve_hands, self.curve_net[bot], self.curve_squares[bot], strict=True):
            units = hands // per_unit
            big_bets.append(net / self.big_bet)
            spread = (units * squares - net * net) / (units * (units - 1)) if units > 1 else 0.0
            bands.append(Z95 * math.sqrt(max(spread, 0.0) * units) / self.big_bet)
        return list(self.curve_hands), big_bets, bands

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data (see docs/simulate.md for the schema); no timing, so it is the same for
        every run of the spec."""
        spec, rules = self.spec, self.spec.rules()
        bots = []
        for i, line in enumerate(self.bots):
            entry: dict[str, Any] = {"bot": i + 1, "name": line.label, "tag": spec.bots[i], **line.to_dict()}
            entry["seats"] = [{"seat": s + 1, **seat.to_dict()} for s, seat in enumerate(self.bot_seats(i))]
            bots.append(entry)
        duplicate = self.duplicate
        return {
            "spec": spec.to_dict(),
            "game": rules.variant.title,
            "hands": self.hands,
            "chunks": spec.chunks,
            "chunk_hands": spec.chunk_hands,
            "big_bet": spec.big_bet,
            "stack_chips": spec.stack_chips,
            "sampled_hands": self.sampled,
            "bots": bots,
            "seats": [{"seat": s + 1, **line.to_dict()} for s, line in enumerate(self.seats)],
            "duplicate": None
            if duplicate is None
            else {
                "deals": self.deals,
                "bots": [{"bot": i + 1, "name": d.label, **d.to_dict()} for i, d in enumerate(duplicate)],
            },
            "curve": {
                "hands": list(self.curve_hands),
                "big_bets": [self.curve(i)[1] for i in range(spec.players)],
                "band95": [self.curve(i)[2] for i in range(spec.players)],
            },
        }

    def summary(self) -> str:
        """The result as aligned text tables: by bot, by seat, each bot by seat, and duplicate mode's gain."""
        spec, rules = self.spec, self.spec.rules()
        chunks = "1 chunk" if spec.chunks == 1 else f"{spec.chunks:,} chunks of {spec.chunk_hands:,}"
        mode = f", duplicate: {self.deals:,} deals x {spec.players} rotations" if spec.duplicate else ""
        lines = [
            f"{rules.variant.title} ({spec.preset}), ante {spec.ante}, bring-in {spec.bring_in},"
            f" {spec.small_bet}/{spec.big_bet}; {spec.players} bots, each hand from {spec.stack} big bets;"
            f" {self.hands:,} hands ({chunks}), seed {spec.seed}{mode}"
        ]
        width = max(12, *(len(name) for name in spec.names))
        lines += _table("bot", self.bots, width)
        lines += _table("seat", self.seats, width)
        lines.append("")
        lines.append(f"{'bb/100 by seat':<{width}}" + "".join(f"{f'seat {s + 1}':>10}" for s in range(spec.players)))
        for i, name in enumerate(spec.names):
            lines.append(f"{name:<{width}}" + "".join(f"{e.bb_per_100:>+10.1f}" for e in self.bot_seats(i)))
        duplicate = self.duplicate
        if duplicate is not None:
            lines.append("")
            lines.append(
                f"{'duplicate':<{width}} {'bb/100':>8} {'SE':>7} {'plain SE':>9} {'variance reduction':>19}"
                "   (plain SE: the same hands as independent hands)"
            )
            for d in duplicate:
                reduction = d.variance_reduction
                gain = "" if reduction is None else ("inf" if math.isinf(reduction) else f"{reduction:.2f}x")
                lines.append(
                    f"{d.label:<{width}} {d.bb_per_100:>+8.1f} {_number(d.se):>7} {_number(d.plain_se):>9} {gain:>19}"
                )
        return "\n".join(lines)


def _number(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.1f}" if signed else f"{value:.2f}"


def _table(title: str, lines: Sequence[Estimate], width: int) -> list[str]:
    out = ["", f"{title:<{width}} {'hands':>13} {'net':>13} {'bb/100':>8} {'SE':>7}  95% interval"]
    for e in lines:
        interval = "-" if e.low is None else f"[{_number(e.low, True)}, {_number(e.high, True)}]"
        out.append(
            f"{e.label:<{width}} {e.hands:>13,} {e.net:>13,} {e.bb_per_100:>+8.1f} {_number(e.se):>7}  {interval}"
        )
    return out


class Totals:
    """The running sums of a simulation, chunk results added in chunk order (:meth:`add`), and the
    :class:`SimulationResult` once every chunk is in (:meth:`result`)."""

    def __init__(self, spec: SimulationSpec) -> None:
        n = spec.players
        self.spec = spec
        self.chunks = 0
        self.hands = 0
        self.deals = 0
        self.sampled = 0
        self.net, self.squares = [0] * n, [0] * n
        self.seat_net = [[0] * n for _ in range(n)]
        self.seat_squares = [[0] * n for _ in range(n)]
        self.seat_hands = [[0] * n for _ in range(n)]
        self.deal_squares, self.seat_deal_squares = [0] * n, [0] * n
        self._stride = -(-spec.chunks // MAX_CURVE_POINTS)
        self.curve_hands: list[int] = []
        self.curve_net: list[list[int]] = [[] for _ in range(n)]
        self.curve_squares: list[list[int]] = [[] for _ in range(n)]

    @property
    def complete(self) -> bool:
        return self.chunks == self.spec.chunks

    def add(self, chunk: ChunkResult) -> None:
        """Add the next chunk's result (chunks must come in order: the curve is cumulative)."""
        if chunk.index != self.chunks:
            raise ValueError(f"chunk {chunk.index} came when chunk {self.chunks} was expected")
        n = self.spec.players
        self.chunks += 1
        self.hands += chunk.hands
        self.deals += chunk.deals
        self.sampled += len(chunk.histories)
        for i in range(n):
            self.net[i] += chunk.net[i]
            self.squares[i] += chunk.squares[i]
            for s in range(n):
                self.seat_net[i][s] += chunk.seat_net[i][s]
                self.seat_squares[i][s] += chunk.seat_squares[i][s]
                self.seat_hands[i][s] += chunk.seat_hands[i][s]
        for i, value in enumerate(chunk.deal_squares):
            self.deal_squares[i] += value
        for s, value in enumerate(chunk.seat_deal_squares):
            self.seat_deal_squares[s] += value
        if self.chunks % self._stride == 0 or self.complete:
            self.curve_hands.append(self.hands)
            squares = self.deal_squares if self.spec.duplicate else self.squares
            for i in range(n):
                self.curve_net[i].append(self.net[i])
                self.curve_squares[i].append(squares[i])

    def running(self) -> tuple[float, ...]:
        """Each bot's bb/100 so far."""
        big = self.spec.big_bet
        return tuple(100.0 * x / (big * self.hands) if self.hands else 0.0 for x in self.net)

    def result(self) -> SimulationResult:
        """The result; :class:`ValueError` while chunks are missing (a partial run is not reported as complete)."""
        if not self.complete:
            raise ValueError(f"{self.chunks} of {self.spec.chunks} chunks played: the simulation is not complete")
        return SimulationResult(
            spec=self.spec,
            hands=self.hands,
            net=tuple(self.net),
            squares=tuple(self.squares),
            seat_net=tuple(map(tuple, self.seat_net)),
            seat_squares=tuple(map(tuple, self.seat_squares)),
            seat_hands=tuple(map(tuple, self.seat_hands)),
            deals=self.deals,
            deal_squares=tuple(self.deal_squares) if self.spec.duplicate else (),
            seat_deal_squares=tuple(self.seat_deal_squares) if self.spec.duplicate else (),
            curve_hands=tuple(self.curve_hands),
            curve_net=tuple(map(tuple, self.curve_net)),
            curve_squares=tuple(map(tuple, self.curve_squares)),
            sampled=self.sampled,
        )
