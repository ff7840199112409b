"""The tracker's report table: per player (and, if asked, per room, game, stakes or table size) the hands and the
chosen statistics, from the summed counts :meth:`studpoker.tracker.store.Store.totals` gives; and its text, JSON
and CSV forms. Pure: no database, no files, no printing.

A column is a statistic of :data:`studpoker.tracker.stats.STATS` (its value is what
:func:`~studpoker.tracker.stats.ratios` says, shown with its numerator and denominator) or a count field summed
(``hands``, ``net``). Rows with the same player and groups are one row: the same name in two rooms is one player
unless the report is grouped by room.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .counts import COUNT_FIELDS
from .stats import STATS, Stat, ratios

__all__ = [
    "DEFAULT_COLUMNS",
    "GAMES",
    "GROUPS",
    "Cell",
    "Column",
    "Report",
    "ReportError",
    "Row",
    "build",
    "column",
    "csv_text",
    "default_columns",
    "json_document",
    "shown",
    "text_table",
]

# -- the names the reports and graphs rely on besides Stat, STATS and ratios(): check them at merge ----------------

#: Count fields (:data:`studpoker.tracker.counts.COUNT_FIELDS`) read by name.
HANDS = "hands"
NET = "net"  # chips won or lost in the hand
NET_BB = "net_bb"  # the same in big bets
SHOWDOWN = "showdown"  # 1 if the player went to showdown
ALLIN_EV = "allin_ev"  # chips the all-in equity implies; equals net where there was no shown all-in
ALLIN_EV_BB = "allin_ev_bb"  # the same in big bets
STREET_REACHED = "street_reached"  # 3..7, the last street the player saw
BRING_IN_POSITION = "bring_in_position"  # 0 the bring-in, 1 the first to act after him, ...
#: An identity column of a player's hand (not summed): the door card, such as ``Kh`` (``""`` if unknown).
DOOR_CARD = "door_card"
#: The report's columns unless ``--stat`` is given: statistic keys of STATS or count fields; a key STATS lacks
#: is left out (tests/tracker/test_report.py checks that none is).
DEFAULT_COLUMNS = ("hands", "vpip", "raise3", "steal_door", "wtsd", "wsd", "af", "bb100", "net")
#: What a report may be grouped by besides the player (columns of the store's ``player_days``).
GROUPS = ("room", "game", "stakes", "table_size")
#: The games' names as the store keeps them, by their short names on the command line.
GAMES = {"7stud": "Seven-card stud", "stud8": "Stud hi/lo", "razz": "Razz", "5stud": "Five-card stud"}


class ReportError(ValueError):
    """A report that cannot be made as asked (an unknown statistic): the message says which and what exists."""


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the report: a statistic (``stat``) or, when ``stat`` is ``None``, a count field summed."""

    key: str
    label: str
    stat: Stat | None = None

    @property
    def percent(self) -> bool:
        return self.stat is not None and self.stat.percent


def _names(names: str | tuple[str, ...] | None) -> tuple[str, ...]:
    """The fields a side of a statistic sums (none for a total's denominator)."""
    if names is None:
        return ()
    return (names,) if isinstance(names, str) else tuple(names)


def column(key: str, stats: Mapping[str, Stat] | None = None) -> Column:
    """The column ``key`` names: a statistic's key or label (any case), else a count field; or
    :class:`ReportError` listing what exists."""
    stats = STATS if stats is None else stats
    if key in stats:
        return Column(key, stats[key].label, stats[key])
    wanted = key.casefold()
    for stat in stats.values():
        if wanted in (stat.key.casefold(), stat.label.casefold()):
            return Column(stat.key, stat.label, stat)
    for name in COUNT_FIELDS:
        if wanted == name.casefold():
            return Column(name, name)
    raise ReportError(
        f"no statistic {key!r}: use one of {', '.join(stats)} (stud stats --list-stats says what each is),"
        f" or a count such as {HANDS} or {NET}"
    )


def default_columns() -> list[Column]:
    """The columns of :data:`DEFAULT_COLUMNS` that exist."""
    out = []
    for key in DEFAULT_COLUMNS:
        try:
            out.append(column(key))
        except ReportError:
            continue
    return out


@dataclass(frozen=True, slots=True)
class Cell:
    """One value of the report: a statistic's value (``None`` when its denominator is 0) with its summed
    numerator and denominator, or a count's sum (numerator and denominator ``None``)."""

    value: float | None
    numerator: float | None = None
    denominator: float | None = None


@dataclass(slots=True)
class Row:
    """One player's (and group's) line: ``keys`` (``player`` and the groups), the summed counts, the cells."""

    keys: dict[str, Any]
    totals: dict[str, float]
    cells: dict[str, Cell]

    @property
    def hands(self) -> int:
        return int(self.totals.get(HANDS, 0))


@dataclass(slots=True)
class Report:
    """The table: its groups (after the player), its columns and its rows."""

    by: tuple[str, ...]
    columns: list[Column]
    rows: list[Row]


def _total(totals: Mapping[str, float], names: str | tuple[str, ...]) -> float:
    return sum(totals[name] for name in _names(names))


def _cell(col: Column, totals: Mapping[str, float], values: Mapping[str, float | None]) -> Cell:
    if col.stat is None:
        return Cell(totals[col.key])
    stat = col.stat
    bottom = None if stat.denominator is None else _total(totals, stat.denominator)  # a total has none
    return Cell(values.get(col.key), _total(totals, stat.numerator), bottom)


def build(
    totals: Iterable[Mapping[str, Any]],
    columns: Sequence[Column],
    *,
    by: Sequence[str] = (),
    min_hands: int = 0,
    sort: Column | None = None,
) -> Report:
    """The report of ``totals`` (rows of :meth:`Store.totals` grouped by the player and ``by``): rows with the
    same keys summed, those with fewer than ``min_hands`` hands left out, sorted by ``sort`` (largest first, no
    value last; the player's name breaks ties) or else by the keys."""
    keys = ("player", *by)
    merged: dict[tuple[Any, ...], dict[str, float]] = {}
    for row in totals:
        key = tuple(row[name] for name in keys)
        counts = merged.get(key)
        if counts is None:
            merged[key] = {name: row[name] for name in COUNT_FIELDS}
        else:
            for name in COUNT_FIELDS:
                counts[name] += row[name]
    wanted = list(columns)
    if sort is not None and all(col.key != sort.key for col in wanted):
        wanted.append(sort)
    rows = []
    for key, counts in merged.items():
        if counts.get(HANDS, 0) < min_hands:
            continue
        values = ratios(counts)
        cells = {col.key: _cell(col, counts, values) for col in wanted}
        rows.append(Row(dict(zip(keys, key, strict=True)), counts, cells))
    rows.sort(key=lambda r: tuple(_order(r.keys[name]) for name in keys))
    if sort is not None:
        rows.sort(key=lambda r: (r.cells[sort.key].value is None, -(r.cells[sort.key].value or 0.0)))
    return Report(tuple(by), list(columns), rows)


def _order(value: Any) -> tuple[int, Any]:
    """Keys sorted without comparing a number with ``None``; names in any case together."""
    if value is None:
        return (2, 0)
    return (1, value.casefold()) if isinstance(value, str) else (0, value)


# -- text, JSON, CSV ---------------------------------------------------------------------------------------------


def shown(col: Column, value: float | None) -> str:
    """A value as the text table shows it: ``-`` for none, a percentage with one decimal, a count whole (with
    thousands separated), another statistic with two decimals."""
    if value is None:
        return "-"
    if col.percent:
        return f"{value * 100:.1f}%"
    if col.stat is None or col.stat.denominator is None:  # a count, or a total (net won)
        return f"{int(value):,}" if float(value).is_integer() else f"{value:,.2f}"
    return f"{value:,.2f}"


def text_table(report: Report) -> str:
    """The report as aligned text: the player and groups left-aligned, the numbers right-aligned."""
    keys = ("player", *report.by)
    header = [*keys, *(col.label for col in report.columns)]
    lines = [
        [*(str(row.keys[name]) for name in keys), *(shown(col, row.cells[col.key].value) for col in report.columns)]
        for row in report.rows
    ]
    widths = [max(len(line[i]) for line in [header, *lines]) for i in range(len(header))]
    left = len(keys)

    def joined(cells: list[str]) -> str:
        parts = [
            cell.ljust(w) if i < left else cell.rjust(w) for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([joined(header), rule, *(joined(line) for line in lines)]) + "\n"


def _number(value: float | None) -> float | int | None:
    """A JSON number: whole numbers as integers."""
    if value is None:
        return None
    if isinstance(value, int) or float(value).is_integer():
        return int(value)
    return float(value)


def json_document(report: Report, filters: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The report as one JSON-ready document: the filters, the groups, the columns (each statistic with its
    numerator's and denominator's fields and whether it is a percentage: then its value is a fraction, 0.25 for
    25 %) and the rows, each column's ``value`` with, for a statistic, its ``numerator`` and ``denominator``."""
    columns = []
    for col in report.columns:
        entry: dict[str, Any] = {"key": col.key, "label": col.label, "percent": col.percent}
        if col.stat is not None:
            entry["numerator"] = list(_names(col.stat.numerator))
            entry["denominator"] = list(_names(col.stat.denominator))
            entry["doc"] = col.stat.doc
        columns.append(entry)
    rows = []
    for row in report.rows:
        values: dict[str, Any] = {}
        for col in report.columns:
            cell = row.cells[col.key]
            if col.stat is None:
                values[col.key] = {"value": _number(cell.value)}
            else:
                values[col.key] = {
                    "value": None if cell.value is None else float(cell.value),
                    "numerator": _number(cell.numerator),
                    "denominator": _number(cell.denominator),
                }
        rows.append({**row.keys, "hands": row.hands, "values": values})
    return {"filters": dict(filters or {}), "by": list(report.by), "columns": columns, "rows": rows}


def csv_text(report: Report) -> str:
    """The report as CSV: a header of ``player``, the groups and the columns' keys, then a line a row; values as
    numbers (a percentage as a fraction, 0.25 for 25 %), an empty field for none."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    keys = ("player", *report.by)
    writer.writerow([*keys, *(col.key for col in report.columns)])
    for row in report.rows:
        values = [row.cells[col.key].value for col in report.columns]
        writer.writerow([*(row.keys[name] for name in keys), *("" if v is None else _csv(v) for v in values)])
    return out.getvalue()


def _csv(value: float) -> str:
    number = _number(value)
    return str(number) if isinstance(number, int) else repr(round(float(value), 6))
