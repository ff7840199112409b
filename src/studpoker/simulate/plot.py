"""The simulation's picture: each bot's cumulative big bets against hands, with its 95 % band (matplotlib).

matplotlib is optional (the ``plot`` extra) and imported only here, drawing on the Agg canvas (no display, no
pyplot state); the curve has a point per chunk end, at most about a thousand, whatever the number of hands.
"""

from __future__ import annotations

import os
from pathlib import Path

from .._extras import install_hint
from .result import SimulationResult
from .spec import SimulateError

__all__ = ["PLOT_FORMATS", "check_plot_path", "save_plot"]

#: File suffixes :func:`save_plot` writes, and matplotlib's format names for them.
PLOT_FORMATS = {".png": "png", ".svg": "svg"}

_NEEDS_MATPLOTLIB = f"plotting needs matplotlib, which is not installed: {install_hint('plot')}"


def check_plot_path(path: str | os.PathLike[str]) -> str:
    """The format of ``path`` (``png`` or ``svg``, by its suffix), or :class:`SimulateError`; also refuses a
    missing matplotlib, before any hand is played."""
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise SimulateError(f"a plot is written as .png or .svg, got {os.fspath(path)!r}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise SimulateError(_NEEDS_MATPLOTLIB) from None
    return PLOT_FORMATS[suffix]


def save_plot(result: SimulationResult, path: str | os.PathLike[str]) -> None:
    """Draw ``result``'s curves to ``path`` (``.png`` or ``.svg``): per bot, big bets won so far against hands
    played, and a shaded band of ± 1.96 standard deviations of that total around it."""
    fmt = check_plot_path(path)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import StrMethodFormatter

    spec = result.spec
    figure = Figure(figsize=(9, 5.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for i, line in enumerate(result.bots):
        hands, big_bets, bands = result.curve(i)
        xs = [0, *hands]
        ys = [0.0, *big_bets]
        lows = [0.0, *(y - b for y, b in zip(big_bets, bands, strict=True))]
        highs = [0.0, *(y + b for y, b in zip(big_bets, bands, strict=True))]
        interval = "" if line.low is None else f" [{line.low:+.1f}, {line.high:+.1f}]"
        (drawn,) = axes.plot(xs, ys, label=f"{line.label}: {line.bb_per_100:+.1f} bb/100{interval}", linewidth=1.6)
        axes.fill_between(xs, lows, highs, color=drawn.get_color(), alpha=0.18, linewidth=0)
    axes.axhline(0, color="0.4", linewidth=0.8)
    mode = ", duplicate" if spec.duplicate else ""
    axes.set_title(
        f"{spec.rules().variant.title} ({spec.preset}) {spec.small_bet}/{spec.big_bet}: {result.hands:,} hands,"
        f" seed {spec.seed}{mode}",
        fontsize=11,
    )
    axes.set_xlabel("hands")
    axes.set_ylabel("big bets won (95% band)")
    axes.xaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    axes.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    axes.grid(True, alpha=0.3)
    axes.legend(loc="best", fontsize=9)
    figure.tight_layout()
    try:
        figure.savefig(os.fspath(path), format=fmt)
    except OSError as error:
        raise SimulateError(f"cannot write the plot {os.fspath(path)}: {error.strerror or error}") from None
