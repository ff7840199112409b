"""The tracker's graphs of one to five players' hands: ``winnings`` (cumulative big bets won against hands: in
total, at showdown, without showdown, and at the all-in equity), big bets won by ``streets`` reached, by ``doors``
(the door card's rank) and by ``positions`` (seats after the bring-in), and the ``matrix`` of door card by position.

The numbers are summed by the database (:func:`from_store`: running sums read at :data:`POINTS` hands, or one row a
group), so that a million hands cost the database's scan of its index, not a Python loop; NumPy arranges them.
matplotlib is optional (the ``plot`` extra), imported only to draw, on the Agg canvas.

Amounts are in big bets: each hand's ``net_bb``, and its ``allin_ev_bb`` for the all-in equity line (the net, or
for a shown all-in what the player's equity was worth, in that hand's big bets).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._extras import install_hint
from .report import BRING_IN_POSITION, DOOR_CARD, STREET_REACHED
from .store import Filters, Store

__all__ = [
    "FORMATS",
    "KINDS",
    "MAX_PLAYERS",
    "Buckets",
    "GraphError",
    "Matrix",
    "Winnings",
    "check_graph_path",
    "draw",
    "from_store",
]

#: The kinds of graph.
KINDS = ("winnings", "streets", "doors", "positions", "matrix")
#: File suffixes a graph is written as, and matplotlib's format names for them.
FORMATS = {".png": "png", ".svg": "svg"}
#: The most players a graph draws.
MAX_PLAYERS = 5
#: The most points of a curve.
POINTS = 2_000
RANKS = "23456789TJQKA"
_RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)} | {"10": 8}

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


class GraphError(ValueError):
    """A graph that cannot be drawn (no matplotlib, a file it cannot be written to): the message says why."""


def check_graph_path(path: str | os.PathLike[str]) -> str:
    """The format of ``path`` (``png`` or ``svg``, by its suffix), or :class:`GraphError`; also refuses a missing
    matplotlib, before any hand is read."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in FORMATS:
        raise GraphError(f"a graph is written as .png or .svg, got {os.fspath(path)!r}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise GraphError(f"graphs need matplotlib, which is not installed: {install_hint('plot')}") from None
    return FORMATS[suffix]


# -- the numbers ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Winnings:
    """Cumulative big bets after each of ``hands`` hands, at the hand numbers ``x`` (0, then at most
    :data:`POINTS` of 1..hands): in total, in hands that went to showdown, in those that did not, and with each
    shown all-in counted at its equity."""

    hands: int
    x: Ints
    total: Floats
    showdown: Floats
    non_showdown: Floats
    expected: Floats


@dataclass(frozen=True)
class Buckets:
    """Per bucket (a street reached, a door rank, a position): its label, hands, big bets won in total and as
    the all-in equity says; ``unknown`` hands fell in no bucket (a door card not recorded)."""

    kind: str
    labels: tuple[str, ...]
    hands: Ints
    net_bb: Floats
    expected_bb: Floats
    unknown: int = 0

    @property
    def total_hands(self) -> int:
        return int(self.hands.sum())

    def per_100(self, values: Floats) -> Floats:
        """``values`` per 100 hands of each bucket (NaN where it has none)."""
        out = np.full(values.shape, np.nan)
        np.divide(values * 100.0, self.hands, out=out, where=self.hands > 0)
        return out


@dataclass(frozen=True)
class Matrix:
    """Results by door card (rows: the door card's rank, deuce to ace) and position after the bring-in (columns:
    the bring-in, then +1, +2...): each cell's hands, big bets won and big bets at the all-in equity; ``unknown``
    hands had no door card recorded."""

    ranks: tuple[str, ...]
    positions: tuple[str, ...]
    hands: Ints
    net_bb: Floats
    expected_bb: Floats
    unknown: int = 0

    def per_100(self, values: Floats) -> Floats:
        """``values`` per 100 hands of each cell (NaN where it has none)."""
        out = np.full(values.shape, np.nan)
        np.divide(values * 100.0, self.hands, out=out, where=self.hands > 0)
        return out


def _matrix(groups: Iterable[tuple[Any, ...]]) -> Matrix:
    """A :class:`Matrix` of ``(door card, position, hands, big bets, expected big bets)`` groups."""
    cells = [(_rank(door), int(position or 0), n, bb, ev) for door, position, n, bb, ev in groups]
    last = max([7, *(p for _, p, _, _, _ in cells if 0 <= p <= 9)])
    shape = (len(RANKS), last + 1)
    hands, net_bb, expected = np.zeros(shape, np.int64), np.zeros(shape), np.zeros(shape)
    unknown = 0
    for rank, position, n, bb, ev in cells:
        if rank < 0 or not 0 <= position <= last:
            unknown += n
            continue
        hands[rank, position] += n
        net_bb[rank, position] += bb
        expected[rank, position] += ev
    positions = ("bring-in", *(f"+{n}" for n in range(1, last + 1)))
    return Matrix(tuple(RANKS), positions, hands, net_bb, expected, unknown)


def _points(n: int) -> Ints:
    if n <= POINTS:
        return np.arange(n, dtype=np.int64)
    return np.unique(np.linspace(0, n - 1, POINTS).round().astype(np.int64))


def _rank(card: Any) -> int:
    text = str(card or "").strip()
    return _RANK_INDEX.get(text[:-1].upper(), -1) if len(text) >= 2 else -1


def _ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n, 'th') }"


def _buckets(kind: str, keys: Ints, hands: Ints, bb: Floats, expected: Floats) -> Buckets:
    """The buckets of ``kind`` from each key's ``hands``, big bets and expected big bets (one entry a hand, or one
    a group of hands)."""
    if kind == "doors":
        first, last = 0, len(RANKS) - 1
        labels = tuple(RANKS)
    elif kind == "streets":
        present = keys[(keys >= 1) & (keys <= 7)]
        first = min(3, int(present.min())) if len(present) else 3
        last = 7
        labels = tuple(_ordinal(n) for n in range(first, last + 1))
    elif kind == "positions":
        present = keys[(keys >= 0) & (keys <= 9)]
        first, last = 0, max(7, int(present.max()) if len(present) else 0)
        labels = ("bring-in", *(f"+{n}" for n in range(1, last + 1)))
    else:
        raise GraphError(f"no graph of kind {kind!r}: use {', '.join(KINDS)}")
    inside = (keys >= first) & (keys <= last)
    index = keys[inside] - first
    size = last - first + 1
    return Buckets(
        kind,
        labels,
        np.bincount(index, weights=hands[inside], minlength=size).astype(np.int64),
        np.bincount(index, weights=bb[inside], minlength=size).astype(np.float64),
        np.bincount(index, weights=expected[inside], minlength=size).astype(np.float64),
        unknown=int(hands[~inside].sum()),
    )


#: The column each bucket graph groups a player's hands by.
GROUPED = {"streets": STREET_REACHED, "doors": DOOR_CARD, "positions": BRING_IN_POSITION}


def from_store(store: Store, kind: str, filters: Filters) -> Winnings | Buckets | Matrix:
    """The numbers of a graph of ``kind`` over the hands ``filters`` select, summed by the database: two thousand
    running sums for the winnings, a row a street, door card or position for the others (what a million hands
    costs is the database's scan, not Python's)."""
    if kind == "winnings":
        count, rows = store.running(filters, POINTS)
        data = np.array([(0, 0.0, 0.0, 0.0), *rows], dtype=np.float64).reshape(-1, 4)
        return Winnings(
            count,
            data[:, 0].astype(np.int64),
            data[:, 1],
            data[:, 2],
            data[:, 1] - data[:, 2],
            data[:, 3],
        )
    if kind == "matrix":
        return _matrix(store.grouped(filters, DOOR_CARD, BRING_IN_POSITION))
    if kind not in GROUPED:
        raise GraphError(f"no graph of kind {kind!r}: use {', '.join(KINDS)}")
    groups = store.grouped(filters, GROUPED[kind])
    keys = [_rank(value) if kind == "doors" else int(value or 0) for value, _, _, _ in groups]
    return _buckets(
        kind,
        np.array(keys, dtype=np.int64),
        np.array([n for _, n, _, _ in groups], dtype=np.int64),
        np.array([bb for _, _, bb, _ in groups], dtype=np.float64),
        np.array([ev for _, _, _, ev in groups], dtype=np.float64),
    )


def hands_in(numbers: Winnings | Buckets | Matrix) -> int:
    """The hands a graph's numbers count."""
    if isinstance(numbers, Winnings):
        return numbers.hands
    if isinstance(numbers, Matrix):
        return int(numbers.hands.sum()) + numbers.unknown
    return numbers.total_hands + numbers.unknown


# -- the picture ------------------------------------------------------------------------------------------------

_TITLES = {
    "winnings": "winnings",
    "streets": "big bets won by the last street reached",
    "doors": "big bets won per 100 hands by door card",
    "positions": "big bets won per 100 hands by seat after the bring-in",
    "matrix": "big bets won per 100 hands by door card and seat after the bring-in",
}


def draw(
    kind: str, series: Mapping[str, Winnings | Buckets | Matrix], path: str | os.PathLike[str], subtitle: str = ""
) -> None:
    """Draw ``series`` (each player's numbers of ``kind``) to ``path`` (``.png`` or ``.svg``), or
    :class:`GraphError`."""
    fmt = check_graph_path(path)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(9, 6), dpi=100)
    FigureCanvasAgg(figure)
    players = ", ".join(series)
    title = f"{players}: {_TITLES[kind]}" + (f"\n{subtitle}" if subtitle else "")
    if kind == "winnings":
        _draw_winnings(figure, {name: s for name, s in series.items() if isinstance(s, Winnings)})
    elif kind == "matrix":
        matrices = [s for s in series.values() if isinstance(s, Matrix)]
        if len(matrices) != 1:
            raise GraphError("the door card and position matrix is drawn for one player")
        _draw_matrix(figure, matrices[0])
    else:
        _draw_buckets(figure, kind, {name: s for name, s in series.items() if isinstance(s, Buckets)})
    figure.suptitle(title, fontsize=11)
    figure.tight_layout()
    try:
        figure.savefig(os.fspath(path), format=fmt)
    except OSError as error:
        raise GraphError(f"cannot write the graph {os.fspath(path)}: {error.strerror or error}") from None


def _draw_winnings(figure: Any, series: Mapping[str, Winnings]) -> None:
    from matplotlib.ticker import StrMethodFormatter

    axes = figure.add_subplot()
    if len(series) == 1:
        ((name, w),) = series.items()
        for values, label, style in (
            (w.total, "total", {"color": "tab:green", "linewidth": 1.8, "zorder": 3}),
            (w.showdown, "at showdown", {"color": "tab:blue", "linewidth": 1.2}),
            (w.non_showdown, "without showdown", {"color": "tab:red", "linewidth": 1.2}),
            (w.expected, "all-in equity (expected)", {"color": "0.2", "linewidth": 1.2, "linestyle": "--"}),
        ):
            axes.plot(w.x, values, label=f"{label}: {values[-1]:+,.1f} BB", **style)
    else:
        for name, w in series.items():
            rate = 100 * w.total[-1] / w.hands if w.hands else 0.0
            axes.plot(w.x, w.total, label=f"{name}: {w.total[-1]:+,.1f} BB ({rate:+.2f} BB/100)", linewidth=1.5)
    axes.axhline(0, color="0.4", linewidth=0.8)
    axes.set_xlabel("hands")
    axes.set_ylabel("big bets won")
    axes.xaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    axes.grid(True, alpha=0.3)
    axes.legend(loc="best", fontsize=9)


def _draw_matrix(figure: Any, matrix: Matrix) -> None:
    """A heat map of big bets per 100 hands, door card by position after the bring-in, each cell with its hands."""
    axes = figure.add_subplot()
    rate = matrix.per_100(matrix.net_bb)
    finite = rate[np.isfinite(rate)]
    bound = float(np.abs(finite).max()) if len(finite) else 1.0
    image = axes.imshow(rate, cmap="RdYlGn", vmin=-bound, vmax=bound, aspect="auto", origin="lower")
    axes.set_xticks(np.arange(len(matrix.positions)), matrix.positions)
    axes.set_yticks(np.arange(len(matrix.ranks)), matrix.ranks)
    axes.set_xlabel("seat after the bring-in")
    axes.set_ylabel("door card")
    for (row, col), n in np.ndenumerate(matrix.hands):
        if n:
            axes.text(col, row, f"{rate[row, col]:+.0f}\n{n:,}", ha="center", va="center", fontsize=6.5, color="0.1")
    figure.colorbar(image, ax=axes, label="big bets / 100 hands (cell: BB/100 and hands)")


def _draw_buckets(figure: Any, kind: str, series: Mapping[str, Buckets]) -> None:
    top, bottom = figure.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [3, 1.4]})
    first = next(iter(series.values()))
    positions = np.arange(len(first.labels))
    width = 0.8 / len(series)
    total = kind == "streets"  # a street's big bets in total; a door's or position's per 100 hands
    for i, (name, b) in enumerate(series.items()):
        where = positions - 0.4 + width * (i + 0.5)
        values = b.net_bb if total else b.per_100(b.net_bb)
        expected = b.expected_bb if total else b.per_100(b.expected_bb)
        label = name if len(series) > 1 else ("big bets won" if total else "BB/100")
        bars = top.bar(where, np.nan_to_num(values), width * 0.9, label=label)
        top.plot(
            where,
            expected,
            linestyle="none",
            marker="_",
            markersize=max(6.0, 40 * width),
            markeredgewidth=2,
            color="0.15",
            label="all-in adjusted" if i == 0 else None,
        )
        bottom.bar(where, b.hands, width * 0.9, color=bars.patches[0].get_facecolor() if bars.patches else None)
    top.axhline(0, color="0.4", linewidth=0.8)
    top.set_ylabel("big bets won" if total else "big bets / 100 hands")
    top.grid(True, axis="y", alpha=0.3)
    top.legend(loc="best", fontsize=9)
    if all(b.total_hands == 0 for b in series.values()):
        note = "no door card recorded in these hands" if kind == "doors" else "no hands"
        top.text(0.5, 0.5, note, transform=top.transAxes, ha="center", va="center", color="0.3")
    bottom.set_ylabel("hands")
    bottom.grid(True, axis="y", alpha=0.3)
    bottom.set_xticks(positions, first.labels)
    bottom.set_xlabel({"streets": "last street reached", "doors": "door card", "positions": "seat"}[kind])
