"""The distribution of final hand categories: how often each player's final hand ends as a flush, a full house,
..., and in stud hi/lo and razz which low it is.

>>> result = final_categories(["As Ad 7c 7h 2s Kd", "Kh Ks Qs Jc 9c 8h"], dead="3c 5d")
>>> result.method, [player.outcomes for player in result.players]   # one card to come each, 38 possible
('exact', [38, 38])
>>> round(result.players[0].high[HandCategory.FULL_HOUSE], 4)          # 2 aces and 2 sevens of 38 cards
0.1053

A player's final hand (seven cards, five in five-card stud, the community card counted when there is one) is
his known cards and the cards he is still to get, from the *unseen* cards (known to nobody). Every unseen card is
as likely as any other to be one of his, whoever else is dealt what, so his distribution depends only on his own
cards and on which cards are unseen: it is counted exactly by listing every set of unseen cards he can still get,
once, valued in batches. Ranges change two things, both counted exactly too: an opponent's range takes cards
out of the deck by its weights (card removal, by inclusion-exclusion over the card sets the ranges hold), and a
ranged player is every combination of his range, weighted (:mod:`~studpoker.equity._final_hands` does the
counting).

``method="auto"`` counts exactly when the estimated time is at most :data:`AUTO_SECONDS` and samples deals
(:func:`studpoker.equity.montecarlo.deal`) otherwise; ``"exact"`` counts unless that would take more than
:data:`MAX_EXACT_SECONDS` (then it refuses, with an :class:`EquityError`).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..cards import RANK_CHARS, Card, format_cards
from ..engine import Variant
from ..evaluation import HandCategory, LowCategory, high_categories
from ..evaluation._tables import HIGH_CLASSES, LOW8_CLASSES, RAZZ_CLASSES, low8_classes, razz_classes
from . import _final_hands
from ._deal import masks
from ._final_hands import MAX_ASSIGNMENTS, Histogram, RangeRows, estimate
from .spot import CommunityLike, EquityError, Spot, check_method

if TYPE_CHECKING:
    from .ranges import Range

__all__ = [
    "AUTO_SECONDS",
    "HIGH_KEYS",
    "LOW8_KEYS",
    "MAX_ASSIGNMENTS",
    "MAX_EXACT_SECONDS",
    "NO_LOW",
    "RAZZ_PAIRED",
    "RAZZ_TOPS",
    "CategoryResult",
    "PlayerCategories",
    "estimate",
    "final_categories",
]

#: ``method="auto"`` counts exactly when the estimate is at most this many seconds, and samples otherwise.
AUTO_SECONDS = 2.0
#: ``method="exact"`` refuses a count estimated to take longer than this.
MAX_EXACT_SECONDS = 60.0
#: Monte Carlo deals when ``trials`` is not given (a standard error of at most 0.05 points on every fraction).
DEFAULT_TRIALS = 1_000_000

#: The high categories, best first: the keys of :attr:`PlayerCategories.high`.
HIGH_KEYS: tuple[HandCategory, ...] = tuple(sorted(HandCategory, reverse=True))
#: What stud hi/lo's final low can be, best first: its top card ("5" is the wheel, 5-4-3-2-A), or none.
NO_LOW = "no low"
LOW8_KEYS = ("5", "6", "7", "8", NO_LOW)
#: Razz: the top card of an unpaired final low, best first (``"T"`` is a ten)...
RAZZ_TOPS = tuple(RANK_CHARS[3:12])
#: ... and the shape of a paired one, best first.
RAZZ_PAIRED: tuple[LowCategory, ...] = tuple(c for c in LowCategory if c is not LowCategory.NO_PAIR)

Floats = npt.NDArray[np.float64]


# -- the result -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerCategories:
    """One player's final hand, as fractions summing to 1 (each distribution on its own).

    ``high``: the high hand's category (seven-card stud, stud hi/lo, five-card stud; ``None`` in razz). ``low``: in
    stud hi/lo the eight-or-better low by its top card (:data:`LOW8_KEYS`: ``"5"`` the wheel ... ``"8"``, and
    ``"no low"``), in razz the unpaired lows by their top card (:data:`RAZZ_TOPS`); ``paired``: razz's paired lows
    by shape (one pair, two pair, ...), so that ``low`` and ``paired`` sum to 1 together. ``makes_low``: hi/lo, how
    often he makes an eight-or-better low. ``*_se``: Monte Carlo standard errors of each fraction (``None`` when
    exact). ``outcomes``: exact, the final hands his distribution counts (each assignment of the ranges' down cards
    with each way his cards can come); Monte Carlo, the deals. ``hand`` is his known cards (a ranged player's up
    cards, his range in ``range``)."""

    hand: tuple[Card, ...]
    outcomes: int
    high: dict[HandCategory, float] | None = None
    low: dict[str, float] | None = None
    paired: dict[LowCategory, float] | None = None
    makes_low: float | None = None
    high_se: dict[HandCategory, float] | None = None
    low_se: dict[str, float] | None = None
    paired_se: dict[LowCategory, float] | None = None
    makes_low_se: float | None = None
    range: str | None = None

    @property
    def label(self) -> str:
        """The hand as the tables show it: the range, else the known cards, else ``-``."""
        return self.range or format_cards(self.hand) or "-"

    def as_dict(self) -> dict[str, object]:
        """JSON-ready data: categories by lower-case name (``"full_house"``), lows by top card."""
        out: dict[str, object] = {"hand": format_cards(self.hand), "outcomes": self.outcomes}
        if self.range is not None:
            out["range"] = self.range
        for name in ("high", "low", "paired", "makes_low", "high_se", "low_se", "paired_se", "makes_low_se"):
            value = getattr(self, name)
            if isinstance(value, dict):
                out[name] = {
                    (k.name.lower() if isinstance(k, HandCategory | LowCategory) else k): v for k, v in value.items()
                }
            elif value is not None:
                out[name] = value
        return out


@dataclass(frozen=True, slots=True)
class CategoryResult:
    """Every player's final hand distribution in a :class:`Spot` (for ranged players, the spot holds their up
    cards). ``method``: ``"exact"`` (``outcomes`` sums the players' counted final hands) or ``"montecarlo"``
    (``outcomes`` is the number of deals, ``seed`` the seed that repeats them); ``seconds`` the time it took."""

    spot: Spot
    method: str
    outcomes: int
    players: tuple[PlayerCategories, ...]
    seconds: float = 0.0
    seed: int | None = None

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    @property
    def trials(self) -> int | None:
        """The deals sampled (Monte Carlo), else None."""
        return None if self.exact else self.outcomes

    def as_dict(self) -> dict[str, object]:
        """The result as JSON-ready data (``stud equity --categories --json`` prints it as ``"categories"``)."""
        out: dict[str, object] = {
            "variant": self.spot.variant.name,
            "method": self.method,
            "outcomes" if self.exact else "trials": self.outcomes,
            "dead": format_cards(self.spot.dead),
            "seconds": round(self.seconds, 6),
        }
        if self.spot.community is not False:
            out["community"] = "to come" if self.spot.community_to_come else str(self.spot.community)
        if self.seed is not None:
            out["seed"] = self.seed
        out["players"] = [player.as_dict() for player in self.players]
        return out

    def to_dict(self) -> dict[str, object]:
        """An alias of :meth:`as_dict`, the name :class:`~studpoker.equity.EquityResult` uses."""
        return self.as_dict()

    def __str__(self) -> str:
        return format_categories(self)


def _percent(value: float, se: float | None) -> str:
    return f"{100 * value:.2f}" + (f" ± {100 * se:.2f}" if se is not None else "")


def _low_label(top: str) -> str:
    return "wheel" if top == "5" else f"{'10' if top == 'T' else top} low"


def format_categories(result: CategoryResult) -> str:
    """A header line, then one row per category and one column per player, in percent of his final hands (best
    first; ``± SE`` for Monte Carlo)."""
    if result.exact:
        header = (
            f"Final hand categories (%); exact: {result.outcomes:,} final hands counted in {_seconds(result.seconds)}"
        )
    else:
        seed = f", seed {result.seed}" if result.seed is not None else ""
        header = (
            f"Final hand categories (%); Monte Carlo: {result.outcomes:,} trials{seed},"
            f" in {_seconds(result.seconds)}; ± is one standard error"
        )
    players = result.players
    rows: list[list[str]] = [["final hand", *(p.label for p in players)]]

    def add(label: str, values: list[tuple[float, float | None]]) -> None:
        rows.append([label, *(_percent(v, se) for v, se in values)])

    first = players[0]
    if first.high is not None:
        for cat in HIGH_KEYS:
            add(cat.label.lower(), [(p.high[cat], p.high_se[cat] if p.high_se else None) for p in players if p.high])
    if first.makes_low is not None:
        add("8-or-better low", [(p.makes_low or 0.0, p.makes_low_se) for p in players])
    if first.low is not None:
        for top in first.low:
            label = NO_LOW if top == NO_LOW else ("  " if first.makes_low is not None else "") + _low_label(top)
            add(label, [(p.low[top], p.low_se[top] if p.low_se else None) for p in players if p.low])
    if first.paired is not None:
        for shape in first.paired:
            add(
                shape.name.replace("_", " ").lower(),
                [(p.paired[shape], p.paired_se[shape] if p.paired_se else None) for p in players if p.paired],
            )
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    lines = [header]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  " + "   ".join(cells).rstrip())
    return "\n".join(lines)


def _seconds(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds:.2f} s"
    return f"{seconds:.1f} s" if seconds < 100 else f"{seconds:,.0f} s"


# -- the question -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Question:
    """The spot (ranged players hold their up cards), and each player's range (its text and its combinations) or
    None."""

    spot: Spot
    texts: tuple[str | None, ...]
    ranges: tuple[RangeRows | None, ...]

    @property
    def ranged(self) -> tuple[int, ...]:
        return tuple(p for p, r in enumerate(self.ranges) if r is not None)


def _question(
    hands: Sequence[str | Iterable[Card | str] | Range] | Spot,
    variant: str | Variant,
    dead: str | Iterable[Card | str] | None,
    community: CommunityLike,
) -> _Question:
    if isinstance(hands, Spot):
        return _Question(hands, (None,) * hands.n, (None,) * hands.n)
    if isinstance(hands, str) or not isinstance(hands, Sequence):
        raise EquityError(
            f'hands must be a list of hands (each "As Ad 7c" or a list of cards), got {type(hands).__name__}'
        )
    ranges_module = sys.modules.get("studpoker.equity.ranges")
    if not any(
        (isinstance(h, str) and "(" in h) or (ranges_module is not None and isinstance(h, ranges_module.Range))
        for h in hands
    ):
        spot = Spot.parse(variant, hands, dead, community)  # type: ignore[arg-type]
        return _Question(spot, (None,) * spot.n, (None,) * spot.n)
    from .ranged import parse_hands

    spot, parsed, listed = parse_hands(hands, variant, dead, community)
    ranges: list[RangeRows | None] = []
    for combos in listed:
        if combos is None:
            ranges.append(None)
            continue
        rows = np.array([sorted(c.index for c in down) for down, _ in combos], dtype=np.uint8)
        ranges.append(RangeRows(rows, np.array([w for _, w in combos], dtype=np.float64), masks(rows)))
    return _Question(spot, tuple(r.text if r is not None else None for r in parsed), tuple(ranges))


# -- the public call --------------------------------------------------------------------------------------------------


def final_categories(
    hands: Sequence[str | Iterable[Card | str] | Range] | Spot,
    *,
    variant: str | Variant = "7stud",
    dead: str | Iterable[Card | str] | None = (),
    community: CommunityLike = None,
    method: str = "auto",
    trials: int | None = None,
    seed: int | None = None,
) -> CategoryResult:
    """Each player's distribution of final hand categories; the arguments are those of
    :func:`studpoker.equity.equity` (any hand may be a range). ``method``: ``"exact"`` counts every final hand
    (refused beyond :data:`MAX_EXACT_SECONDS`), ``"montecarlo"`` samples ``trials`` deals (reproducibly with
    ``seed``), ``"auto"`` counts when the estimate is at most :data:`AUTO_SECONDS` and samples otherwise."""
    check_method(method, trials, seed)
    start = time.perf_counter()
    q = _question(hands, variant, dead, community)
    if method == "auto":
        method = "exact" if trials is None and estimate(q.spot, q.ranges) <= AUTO_SECONDS else "montecarlo"
    if method == "exact":
        seconds = estimate(q.spot, q.ranges)
        if seconds > MAX_EXACT_SECONDS:
            why = "too many assignments of the ranges' down cards" if math.isinf(seconds) else f"about {seconds:,.0f} s"
            raise EquityError(
                f"counting every final hand would take too long ({why}; at most {MAX_EXACT_SECONDS:.0f} s):"
                " use Monte Carlo (trials)"
            )
        histograms, outcomes = _final_hands.count(q.spot, q.ranges)
        players = _players(q, histograms, outcomes, monte=False)
        return CategoryResult(q.spot, "exact", sum(outcomes), players, time.perf_counter() - start)
    count = trials or DEFAULT_TRIALS
    histograms = _sample(q, count, seed)
    players = _players(q, histograms, [count] * q.spot.n, monte=True)
    return CategoryResult(q.spot, "montecarlo", count, players, time.perf_counter() - start, seed)


# -- turning value counts into categories -----------------------------------------------------------------------------


@cache
def _buckets() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """For every value, its place in :data:`HIGH_KEYS`, :data:`LOW8_KEYS` (value 0: no low), and razz's
    :data:`RAZZ_TOPS` followed by :data:`RAZZ_PAIRED`. A low's top card is the first of its ranks as named
    (``_tables``: the largest group first, then the higher rank in low order, the ace counting one)."""
    high = np.zeros(HIGH_CLASSES + 1, dtype=np.intp)
    high[1:] = len(HIGH_KEYS) - 1 - high_categories(np.arange(1, HIGH_CLASSES + 1)).astype(np.intp)
    low8 = np.full(LOW8_CLASSES + 1, LOW8_KEYS.index(NO_LOW), dtype=np.intp)
    for value, cls in enumerate(low8_classes(), 1):
        low8[value] = LOW8_KEYS.index(RANK_CHARS[cls.ranks[0]])
    razz = np.zeros(RAZZ_CLASSES + 1, dtype=np.intp)
    for value, cls in enumerate(razz_classes(), 1):
        if cls.category == LowCategory.NO_PAIR:
            razz[value] = RAZZ_TOPS.index(RANK_CHARS[cls.ranks[0]])
        else:
            razz[value] = len(RAZZ_TOPS) + RAZZ_PAIRED.index(LowCategory(cls.category))
    return high, low8, razz


def _players(
    q: _Question, histograms: Sequence[Histogram], outcomes: Sequence[int], *, monte: bool
) -> tuple[PlayerCategories, ...]:
    high_of, low8_of, razz_of = _buckets()
    variant = q.spot.variant
    out = []
    for p, histogram in enumerate(histograms):
        total = float(histogram.main.sum())
        if not total > 0:
            raise EquityError(f"hand {p + 1}: no final hand is possible (the ranges leave it none)")
        n = outcomes[p]

        def se(fraction: float, n: int = n) -> float | None:
            return math.sqrt(max(fraction * (1 - fraction), 0.0) / (n - 1)) if monte and n > 1 else None

        def shares(
            buckets: npt.NDArray[np.intp], counts: Floats, keys: Sequence[object], total: float = total
        ) -> list[float]:
            summed: Floats = np.bincount(buckets, weights=counts, minlength=len(keys)) / total
            return [float(x) for x in summed]

        high = low = paired = None
        makes_low = None
        if variant is Variant.RAZZ:
            razz = shares(razz_of, histogram.main, RAZZ_TOPS + RAZZ_PAIRED)
            low = dict(zip(RAZZ_TOPS, razz[: len(RAZZ_TOPS)], strict=True))
            paired = dict(zip(RAZZ_PAIRED, razz[len(RAZZ_TOPS) :], strict=True))
        else:
            high = dict(zip(HIGH_KEYS, shares(high_of, histogram.main, HIGH_KEYS), strict=True))
        if histogram.low is not None:
            low = dict(zip(LOW8_KEYS, shares(low8_of, histogram.low, LOW8_KEYS), strict=True))
            makes_low = 1.0 - low[NO_LOW]
        out.append(
            PlayerCategories(
                hand=q.spot.hands[p],
                outcomes=n,
                high=high,
                low=low,
                paired=paired,
                makes_low=makes_low,
                high_se=None if high is None or not monte else {k: se(v) or 0.0 for k, v in high.items()},
                low_se=None if low is None or not monte else {k: se(v) or 0.0 for k, v in low.items()},
                paired_se=None if paired is None or not monte else {k: se(v) or 0.0 for k, v in paired.items()},
                makes_low_se=se(makes_low) if makes_low is not None else None,
                range=q.texts[p],
            )
        )
    return tuple(out)


# -- Monte Carlo ------------------------------------------------------------------------------------------------------


def _sample(q: _Question, trials: int, seed: int | None) -> list[Histogram]:
    """``trials`` random deals (the ranges' down cards picked by weight), every player's final hand valued."""
    from . import montecarlo

    given = [None if r is None else (r.rows, r.weights) for r in q.ranges] if q.ranged else None
    histograms = [Histogram(q.spot.variant) for _ in range(q.spot.n)]
    for rows in montecarlo.deal(q.spot, trials, seed=seed, ranges=given):
        for p, histogram in enumerate(histograms):
            histogram.add(np.ascontiguousarray(rows[:, p, :]))
    return histograms
