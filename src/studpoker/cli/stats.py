"""``stud stats``: the tracker's reports and graphs, from the hand database ``stud import`` fills.

The table reads the per-day sums (fast whatever the number of hands); a graph reads the chosen players' hands one
by one. Every mistake (an unknown statistic, a bad day, a graph without a player, a database that is not there) is
a one-line ``stud stats: error: ...`` with exit status 2, checked before the database is read.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
from pathlib import Path
from typing import Any, NoReturn

from . import options
from .options import UsageError
from .tracker import DB_HELP, open_store

__all__ = ["add_commands"]

_table_size = options.WholeNumber("--table-size", 2, 10)
_min_hands = options.WholeNumber("--min-hands", 0, 10**12, "10**12")
#: The short names ``--game`` takes; the store's names (report.GAMES) are also accepted.
_GAME_KEYS = ("7stud", "stud8", "razz", "5stud")
_REFUSED_SHOWN = 100


class _Day:
    """``--since``/``--until``: a day, ``YYYY-MM-DD``."""

    def __init__(self, option: str) -> None:
        self.option = option
        self.__name__ = "day"

    def __call__(self, text: str) -> str:
        try:
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()):
                raise ValueError(text)
            return dt.date.fromisoformat(text.strip()).isoformat()
        except ValueError:
            raise argparse.ArgumentTypeError(f"{self.option} takes a day as YYYY-MM-DD, got {text!r}") from None


def _game(text: str) -> str:
    """``--game``: 7stud, stud8, razz or 5stud (or any name of the game), as the store names it."""
    from ..tracker.report import GAMES

    wanted = text.strip().casefold()
    for key, name in GAMES.items():
        if wanted in (key, name.casefold()):
            return name
    try:
        from ..variant import Variant

        short = Variant.parse(text).short_name
    except ValueError:
        short = ""
    short = {"7stud8": "stud8"}.get(short, short)
    if short in GAMES:
        return GAMES[short]
    raise argparse.ArgumentTypeError(f"--game takes {', '.join(_GAME_KEYS)}, got {text!r}")


_game.__name__ = "game"


def add_commands(sub: Any) -> None:
    """Register ``stats`` on the ``stud`` sub-parser collection."""
    from ..tracker.graphs import KINDS
    from ..tracker.report import DEFAULT_COLUMNS, GROUPS

    st = sub.add_parser(
        "stats",
        help="the tracker's reports and graphs from the hand database",
        description=(
            "Print each player's hands and statistics from the hand database `stud import` fills, as a table, "
            "JSON or CSV; or draw a graph of one to five players' results. Filters: --player, --game, --stakes, "
            "--room, --since, --until, --table-size (each may be given more than once). "
            f"Default statistics: {', '.join(DEFAULT_COLUMNS)}."
        ),
        epilog=(
            "examples: stud stats --player Hero --by game; stud stats --game razz --min-hands 500 --sort vpip; "
            "stud stats --player Hero --graph hero.png --kind winnings"
        ),
    )
    st.add_argument("--db", metavar="DB", help=DB_HELP)
    st.add_argument("--player", action="append", metavar="NAME", help="only this player (repeatable)")
    st.add_argument("--game", action="append", type=_game, metavar="GAME", help="7stud, stud8, razz or 5stud")
    st.add_argument("--stakes", action="append", metavar="STAKES", help="stakes as imported, e.g. $0.04/$0.08")
    st.add_argument("--room", action="append", metavar="ROOM", help="the poker room, e.g. PokerStars")
    st.add_argument("--since", type=_Day("--since"), metavar="YYYY-MM-DD", help="hands played on or after the day")
    st.add_argument("--until", type=_Day("--until"), metavar="YYYY-MM-DD", help="hands played on or before the day")
    st.add_argument("--table-size", action="append", type=_table_size, metavar="N", help="tables of N seats")
    st.add_argument("--by", action="append", choices=GROUPS, help="a line per player and this too (repeatable)")
    st.add_argument("--stat", action="append", metavar="KEY", help="a statistic to show (repeatable; --list-stats)")
    st.add_argument("--min-hands", type=_min_hands, default=0, metavar="N", help="only lines of N hands or more")
    st.add_argument("--sort", metavar="STAT", help="order the lines by this statistic, largest first")
    form = st.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print one JSON document")
    form.add_argument("--csv", action="store_true", help="print CSV")
    st.add_argument("--refused", action="store_true", help="list the hands refused at import, with why")
    st.add_argument("--list-stats", action="store_true", help="list every statistic and what it counts")
    st.add_argument("--graph", type=Path, metavar="FILE", help="draw a graph to FILE.png or FILE.svg")
    st.add_argument(
        "--kind",
        choices=KINDS,
        help="the graph: winnings (default), streets, doors, positions or matrix (door card by position)",
    )
    st.set_defaults(run=_stats)
    _one_line_errors(st)


def _one_line_errors(parser: argparse.ArgumentParser) -> None:
    """Every mistake argparse finds as one line, ``stud stats: error: ...``, exit status 2."""

    def error(message: str) -> NoReturn:
        head, sep, rest = message.partition(": ")
        option = head.removeprefix("argument ")
        if sep and head.startswith("argument ") and rest.startswith(f"{option.split('/')[0]} "):
            message = rest
        parser.exit(2, f"{parser.prog}: error: {message}\n")

    parser.error = error  # type: ignore[method-assign]


def _stats(args: argparse.Namespace) -> int:
    from ..tracker.report import ReportError, column, default_columns

    if args.list_stats:
        return _list_stats(args.json)
    try:
        columns = [column(key) for key in args.stat] if args.stat else default_columns()
        sort = column(args.sort) if args.sort else None
    except ReportError as error:
        raise UsageError(str(error)) from None
    if args.since and args.until and args.since > args.until:
        raise UsageError(f"--since {args.since} is after --until {args.until}")
    if args.kind and args.graph is None:
        raise UsageError("--kind chooses the graph: give --graph FILE.png too")
    if args.graph is not None:
        _check_graph(args)
    _check_database(args.db)
    with open_store(args.db) as store:
        if args.refused:
            return _refused(store, args.json)
        filters = _filters(store, args)
        if args.graph is not None:
            return _graph(store, filters, args)
        return _report(store, filters, args, columns, sort)


def _list_stats(as_json: bool) -> int:
    from ..tracker.counts import COUNT_FIELDS
    from ..tracker.stats import STATS

    def side(names: str | tuple[str, ...] | None) -> str:
        if names is None:
            return "(a total)"
        return names if isinstance(names, str) else " + ".join(names)

    def listed(names: str | tuple[str, ...] | None) -> list[str]:
        return [] if names is None else [names] if isinstance(names, str) else list(names)

    if as_json:
        entries = [
            {
                "key": stat.key,
                "label": stat.label,
                "percent": stat.percent,
                "numerator": listed(stat.numerator),
                "denominator": listed(stat.denominator),
                "doc": stat.doc,
            }
            for stat in STATS.values()
        ]
        print(json.dumps({"stats": entries, "counts": list(COUNT_FIELDS)}))
        return 0
    rows = [
        (
            stat.key,
            stat.label,
            side(stat.numerator) if stat.denominator is None else f"{side(stat.numerator)} / {side(stat.denominator)}",
            stat.doc,
        )
        for stat in STATS.values()
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(3)] if rows else [0, 0, 0]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths, strict=True)) + "  " + row[3])
    print(f"\ncounts (also usable with --stat, summed): {', '.join(COUNT_FIELDS)}")
    return 0


def _check_graph(args: argparse.Namespace) -> None:
    from ..tracker.graphs import MAX_PLAYERS, GraphError, check_graph_path
    from .progress import check_writable

    if args.json or args.csv or args.refused:
        raise UsageError("--graph draws a file: it does not take --json, --csv or --refused")
    if not args.player:
        raise UsageError("--graph draws one player's hands: name him with --player NAME")
    if len(args.player) > MAX_PLAYERS:
        raise UsageError(f"--graph draws at most {MAX_PLAYERS} players, got {len(args.player)}")
    if args.by:
        raise UsageError("--by groups the table's lines; a graph is drawn per player")
    try:
        check_graph_path(args.graph)
    except GraphError as error:
        raise UsageError(str(error)) from None
    check_writable(args.graph, f"cannot write the graph to {args.graph}")


def _check_database(db: str | None) -> None:
    """Refuse a SQLite database that is not there: reading must not leave an empty one behind."""
    from ..tracker.store import default_path

    text = db if db is not None else str(default_path())
    if "://" in text:
        return
    path = Path(text.removeprefix("sqlite:"))
    if not path.is_file():
        what = "is not a file" if path.exists() else "does not exist"
        raise UsageError(f"{path}: no hand database there (it {what}): import hands first with stud import FILES")


def _match(values: list[str] | None, stored: list[Any], option: str, key: Any = str) -> tuple[Any, ...] | None:
    """The stored values ``values`` name (any case; stakes with or without their currency sign), or
    :class:`UsageError` naming what is stored."""
    if values is None:
        return None
    found = []
    for value in values:
        hits = [s for s in stored if key(s) == key(value)]
        if not hits:
            there = ", ".join(str(s) for s in stored) or "nothing yet"
            raise UsageError(f"{option} {value!r}: the hand database has no such hands (it has {there})")
        found.extend(hits)
    return tuple(dict.fromkeys(found))


def _fold(text: Any) -> str:
    return str(text).casefold()


def _stakes_key(text: Any) -> str:
    return re.sub(r"[^0-9./]", "", str(text))


def _filters(store: Any, args: argparse.Namespace) -> Any:
    from ..tracker.store import Filters

    choices = store.choices()
    players = tuple(dict.fromkeys(args.player)) if args.player else None
    for name in players or ():
        if not store.totals(Filters(players=(name,))):
            raise UsageError(f"--player {name!r}: no such player in the hand database (names are case-sensitive)")
    return Filters(
        players=players,
        games=_match(args.game, choices["game"], "--game"),
        stakes=_match(args.stakes, choices["stakes"], "--stakes", _stakes_key),
        rooms=_match(args.room, choices["room"], "--room", _fold),
        table_sizes=_match(args.table_size, choices["table_size"], "--table-size", int),
        since=args.since,
        until=args.until,
    )


def _describe(filters: Any) -> dict[str, Any]:
    """The filters in force, for the JSON document and the graph's title."""
    out: dict[str, Any] = {}
    for name in ("players", "games", "stakes", "rooms", "table_sizes", "since", "until"):
        value = getattr(filters, name)
        if value is not None:
            out[name] = list(value) if isinstance(value, tuple) else value
    return out


def _report(store: Any, filters: Any, args: argparse.Namespace, columns: list[Any], sort: Any) -> int:
    from ..tracker.report import build, csv_text, json_document, text_table

    by = tuple(dict.fromkeys(args.by or ()))
    report = build(store.totals(filters, by=("player", *by)), columns, by=by, min_hands=args.min_hands, sort=sort)
    if args.json:
        print(json.dumps(json_document(report, _describe(filters))))
    elif args.csv:
        sys.stdout.write(csv_text(report))
    else:
        sys.stdout.write(text_table(report))
        if not report.rows:
            print("stud stats: no hands match these filters", file=sys.stderr)
        refused = store.counts().get("refused", 0)
        if refused:
            hands = "hand was" if refused == 1 else "hands were"
            print(f"({refused:,} {hands} refused at import: stud stats --refused lists them)", file=sys.stderr)
    return 0


def _refused(store: Any, as_json: bool) -> int:
    rows = store.refused(limit=_REFUSED_SHOWN)
    total = store.counts().get("refused", 0)
    if as_json:
        print(json.dumps({"refused": total, "hands": rows}))
        return 0
    for row in rows:
        where = f"{row['source']}:{row['line']}"
        hand = "" if row["hand_id"] == where else f" hand {row['hand_id']}"
        print(f"{row['room']}{hand}  {where}  {row['reason']}")
    if total > len(rows):
        print(f"... and {total - len(rows):,} more ({total:,} refused)")
    elif not rows:
        print("no hand was refused")
    return 0


def _graph(store: Any, filters: Any, args: argparse.Namespace) -> int:
    import dataclasses

    from ..tracker.graphs import GraphError, draw, from_store, hands_in

    kind = args.kind or "winnings"
    series = {}
    for name in filters.players:
        numbers = from_store(store, kind, dataclasses.replace(filters, players=(name,)))
        if hands_in(numbers) == 0:
            raise UsageError(f"no hands of {name!r} match these filters: nothing to draw")
        series[name] = numbers
    described = _describe(filters)
    described.pop("players", None)
    subtitle = "; ".join(
        f"{key}: {', '.join(map(str, v)) if isinstance(v, list) else v}" for key, v in described.items()
    )
    try:
        draw(kind, series, args.graph, subtitle)
    except GraphError as error:
        raise UsageError(str(error)) from None
    total = sum(hands_in(numbers) for numbers in series.values())
    print(f"{args.graph}: {kind} of {', '.join(series)} ({total:,} hands)")
    return 0
