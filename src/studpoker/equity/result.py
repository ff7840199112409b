"""What an equity calculation answers: each player's chances, and how they were found.

Both methods fill a :class:`Tally` (counts of outcomes, or sums over Monte Carlo trials) that
:meth:`EquityResult.from_tally` turns into fractions. A pot share is a fraction of the whole pot: in
stud hi/lo half goes to the best high hand and half to the best qualifying low, and the high hand takes
it all when no low qualifies; tied hands split their part equally (odd chips are not modelled).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import sqrt
from typing import TYPE_CHECKING, Any

from ..cards import Card, format_cards
from ..engine import Variant
from .spot import Spot

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["EquityResult", "PlayerEquity", "Tally"]


class Tally:
    """Running totals of an equity calculation, per player.

    ``outcomes``: outcomes counted (exact) or trials drawn (Monte Carlo). ``win``: outcomes in which the
    player takes the whole pot alone (a scoop in hi/lo); ``tie``: outcomes in which he splits the pot as one of
    the tied best hands (high-only games). ``share``, ``high``, ``low``: pot shares won, in units of
    ``1/scale`` of a pot (exact counting keeps them as integers); ``no_low``: outcomes with no qualifying low.
    Monte Carlo also keeps the sums of squares of the per-trial shares (``share_sq``, ``high_sq``, ``low_sq``),
    for the standard errors. ``plain=True`` keeps the counts in lists of Python ints instead of NumPy arrays (the
    small exact counter of :mod:`~studpoker.equity.small`, which does not import NumPy).
    """

    def __init__(self, players: int, scale: int = 1, *, floats: bool = False, plain: bool = False) -> None:
        self.players, self.scale, self.outcomes, self.no_low = players, scale, 0, 0
        if plain and not floats:
            self.win: npt.NDArray[Any] | list[int] = [0] * players
            self.tie: npt.NDArray[Any] | list[int] = [0] * players
            self.share: npt.NDArray[Any] | list[int] = [0] * players
            self.high: npt.NDArray[Any] | list[int] = [0] * players
            self.low: npt.NDArray[Any] | list[int] = [0] * players
            self.share_sq: npt.NDArray[np.float64] | None = None
            self.high_sq: npt.NDArray[np.float64] | None = None
            self.low_sq: npt.NDArray[np.float64] | None = None
            return
        import numpy as np

        kind = np.float64 if floats else np.int64
        self.win = np.zeros(players, dtype=np.int64)
        self.tie = np.zeros(players, dtype=np.int64)
        self.share = np.zeros(players, dtype=kind)
        self.high = np.zeros(players, dtype=kind)
        self.low = np.zeros(players, dtype=kind)
        self.share_sq = np.zeros(players) if floats else None
        self.high_sq = np.zeros(players) if floats else None
        self.low_sq = np.zeros(players) if floats else None

    def add(self, other: Tally) -> None:
        """Fold another tally of the same spot into this one (chunks, workers)."""
        if other.scale != self.scale:
            raise ValueError("tallies with different scales")
        self.outcomes += other.outcomes
        self.no_low += other.no_low
        for name in ("win", "tie", "share", "high", "low"):
            mine, theirs = getattr(self, name), getattr(other, name)
            if isinstance(mine, list):  # plain counts: element by element (``+`` would concatenate)
                setattr(self, name, [a + b for a, b in zip(mine, theirs, strict=True)])
            else:
                setattr(self, name, mine + theirs)
        for name in ("share_sq", "high_sq", "low_sq"):
            mine, theirs = getattr(self, name), getattr(other, name)
            if theirs is not None:
                setattr(self, name, theirs.copy() if mine is None else mine + theirs)


@dataclass(frozen=True, slots=True)
class PlayerEquity:
    """One player's answer. Hi/lo games fill ``high`` and ``low`` (pot shares won with each hand) and leave
    ``tie`` as ``None``; the others fill ``tie`` and leave ``high`` and ``low`` as ``None``. ``*_se`` are
    Monte Carlo standard errors (``None`` for exact answers)."""

    hand: tuple[Card, ...]
    equity: float
    win: float
    tie: float | None = None
    high: float | None = None
    low: float | None = None
    equity_se: float | None = None
    win_se: float | None = None
    tie_se: float | None = None
    high_se: float | None = None
    low_se: float | None = None
    range: str | None = None  # the range a ranged player's down cards came from (``hand`` is then his up cards)
    #: a ranged player's terms, each with the combinations card removal leaves of it (every card in view is out)
    range_counts: tuple[tuple[str, int], ...] | None = None

    @property
    def scoop(self) -> float:
        """Hi/lo: the whole pot alone (the same as :attr:`win`)."""
        return self.win


@dataclass(frozen=True, slots=True)
class EquityResult:
    """Every player's equity in a :class:`Spot`: ``method`` is ``"exact"`` (``outcomes`` is the number of
    outcomes counted) or ``"montecarlo"`` (``outcomes`` is the number of trials, and there are standard errors);
    ``no_low`` is how often no low qualifies (hi/lo only); ``seconds`` the time it took."""

    spot: Spot
    method: str
    outcomes: int
    players: tuple[PlayerEquity, ...]
    no_low: float | None = None
    no_low_se: float | None = None
    seconds: float = 0.0
    seed: int | None = None

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    @classmethod
    def from_tally(
        cls, spot: Spot, method: str, tally: Tally, seconds: float = 0.0, seed: int | None = None
    ) -> EquityResult:
        total = tally.outcomes
        if total <= 0:
            raise ValueError("an empty tally")
        hilo = spot.variant is Variant.STUD7_HL8
        unit = total * tally.scale
        monte = method == "montecarlo"

        def se(sq: npt.NDArray[np.float64] | None, mean: float, p: int) -> float | None:
            if not monte or sq is None or total < 2:
                return None
            variance = max(float(sq[p]) / total - mean * mean, 0.0)
            return sqrt(variance / (total - 1))

        def bernoulli(p_hat: float) -> float | None:
            return sqrt(max(p_hat * (1 - p_hat), 0.0) / (total - 1)) if monte and total > 1 else None

        players = []
        for p, hand in enumerate(spot.hands):
            equity = float(tally.share[p]) / unit
            win = int(tally.win[p]) / total
            tie = None if hilo else int(tally.tie[p]) / total
            high = float(tally.high[p]) / unit if hilo else None
            low = float(tally.low[p]) / unit if hilo else None
            players.append(
                PlayerEquity(
                    hand=hand,
                    equity=equity,
                    win=win,
                    tie=tie,
                    high=high,
                    low=low,
                    equity_se=se(tally.share_sq, equity, p),
                    win_se=bernoulli(win),
                    tie_se=bernoulli(tie) if tie is not None else None,
                    high_se=se(tally.high_sq, high, p) if high is not None else None,
                    low_se=se(tally.low_sq, low, p) if low is not None else None,
                )
            )
        no_low = tally.no_low / total if hilo else None
        return cls(
            spot=spot,
            method=method,
            outcomes=total,
            players=tuple(players),
            no_low=no_low,
            no_low_se=bernoulli(no_low) if no_low is not None else None,
            seconds=seconds,
            seed=seed,
        )

    def as_dict(self) -> dict[str, object]:
        """The result as JSON-ready data (what ``stud equity --json`` prints). ``community`` is there only when a
        community card is modelled: ``"to come"``, or the dealt card (``"Kd"``)."""
        out: dict[str, object] = {
            "variant": self.spot.variant.name,
            "method": self.method,
            "outcomes" if self.exact else "trials": self.outcomes,
            "dead": format_cards(self.spot.dead),
            "seconds": round(self.seconds, 6),
        }
        if self.spot.community is not False:  # a community card is modelled: "to come", or the dealt card
            out["community"] = "to come" if self.spot.community_to_come else str(self.spot.community)
        if self.seed is not None:
            out["seed"] = self.seed
        if self.no_low is not None:
            out["no_low"] = self.no_low
            if self.no_low_se is not None:
                out["no_low_se"] = self.no_low_se
        rows = []
        for player in self.players:
            row: dict[str, object] = {"hand": format_cards(player.hand), "equity": player.equity}
            if player.range is not None:
                row["range"] = player.range
            if player.range_counts is not None:
                row["range_counts"] = [{"term": term, "combinations": n} for term, n in player.range_counts]
            if player.high is not None:
                row.update(scoop=player.win, high=player.high, low=player.low)
            else:
                row.update(win=player.win, tie=player.tie)
            for name in ("equity_se", "win_se", "high_se", "low_se"):
                value = getattr(player, name)
                if value is not None:
                    row[name] = value
            rows.append(row)
        out["players"] = rows
        return out
