"""The tracker's hand database: SQLite in the user's data folder by default, PostgreSQL for large ones, the same
migrations for both.

Tables: ``hands`` (one row per hand, imported or refused, unique by room and hand id), ``players`` (unique by room
and name), ``player_hands`` (one player's counts in one hand, :class:`~studpoker.tracker.counts.PlayerHand`) and
``player_days``: the same counts summed by player, room, game, stakes, day and table size as the hands are added, so
a report over millions of hands sums a few thousand rows, as trackers keep their caches. SQLite is the standard
library's; PostgreSQL needs psycopg (the ``postgres`` extra). Only :class:`Store` writes; one importer at a time.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .._extras import install_hint
from .._userdata import data_folder
from .counts import COUNT_FIELDS, PlayerHand

__all__ = [
    "Filters",
    "HandEntry",
    "Store",
    "StoreError",
    "default_path",
]

#: Each migration: the statements that bring the schema from the version before it (``{real}``, ``{big}`` and
#: ``{id}`` are the dialect's types). The counts' columns are written out as :data:`COUNT_FIELDS` named them when the
#: migration was written, so that it makes the same tables whenever it runs; a change in the counts is a new
#: migration (and :class:`Store` refuses a database whose columns are not the counts').
_COUNTS_1 = (
    "hands",
    "vpip_chance",
    "vpip",
    "raise3",
    "three_bet_chance",
    "three_bet",
    "steal_seat_chance",
    "steal_seat",
    "steal_seat_success",
    "steal_door_chance",
    "steal_door",
    "steal_door_success",
    "bring_in",
    "bring_in_completed",
    "bring_in_faced_completion",
    "bring_in_folded_to_completion",
    "bring_in_defended",
    "saw4",
    "saw5",
    "saw6",
    "saw7",
    "showdown",
    "won_showdown",
    "won_saw4",
    "bets_s3",
    "bets_s4",
    "bets_s5",
    "bets_s6",
    "bets_s7",
    "calls_s3",
    "calls_s4",
    "calls_s5",
    "calls_s6",
    "calls_s7",
    "faced_bet_s3",
    "faced_bet_s4",
    "faced_bet_s5",
    "faced_bet_s6",
    "faced_bet_s7",
    "fold_to_bet_s3",
    "fold_to_bet_s4",
    "fold_to_bet_s5",
    "fold_to_bet_s6",
    "fold_to_bet_s7",
    "scoop_chance",
    "scoop",
    "called5",
    "showdown_after_call5",
    "allin",
    "allin_ev",
    "allin_ev_bb",
    "bring_in_position",
    "street_reached",
    "won",
    "net",
    "net_bb",
)
_REAL_1 = ("allin_ev", "allin_ev_bb", "net_bb")
_COUNT_COLUMNS = ", ".join(
    f"{name} {{{'real' if name in _REAL_1 else 'big'}}} NOT NULL DEFAULT 0" for name in _COUNTS_1
)
_REAL = {f.name for f in fields(PlayerHand) if f.type in ("float", float)}
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        "CREATE TABLE tracker_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE TABLE players (id {id}, room TEXT NOT NULL, name TEXT NOT NULL, UNIQUE (room, name))",
        "CREATE TABLE hands (id {big} PRIMARY KEY, room TEXT NOT NULL, hand_id TEXT NOT NULL, status TEXT NOT NULL,"
        " reason TEXT, game TEXT, stakes TEXT, big_bet {big}, currency TEXT, chip_value {real}, played_at TEXT,"
        " table_name TEXT, table_size {big}, source TEXT, line {big}, UNIQUE (room, hand_id))",
        "CREATE INDEX hands_refused ON hands (status, source)",
        "CREATE INDEX hands_played ON hands (played_at, id)",
        f"CREATE TABLE player_hands (hand {{big}} NOT NULL, player {{big}} NOT NULL, played {{big}} NOT NULL,"
        f" seat {{big}} NOT NULL, door_card TEXT NOT NULL, {_COUNT_COLUMNS}, PRIMARY KEY (hand, player))",
        # a player's hands in the order played, with what the graphs sum and group by: read from the index alone
        "CREATE INDEX player_hands_player ON player_hands (player, played, hand, net_bb, showdown, allin_ev_bb,"
        " street_reached, bring_in_position, door_card)",
        f"CREATE TABLE player_days (player {{big}} NOT NULL, room TEXT NOT NULL, game TEXT NOT NULL,"
        f" stakes TEXT NOT NULL, day TEXT NOT NULL, table_size {{big}} NOT NULL, {_COUNT_COLUMNS},"
        f" PRIMARY KEY (player, room, game, stakes, day, table_size))",
    ),
)
_TYPES = {
    "sqlite": {"id": "INTEGER PRIMARY KEY", "big": "INTEGER", "real": "REAL"},
    "postgresql": {"id": "BIGSERIAL PRIMARY KEY", "big": "BIGINT", "real": "DOUBLE PRECISION"},
}
_COUNTS_KEY = "counts"  # the COUNT_FIELDS the player_hands columns hold, checked at each open


class StoreError(ValueError):
    """A hand database that cannot be opened or used: the message says which and why."""


def default_path() -> Path:
    """Where the hand database lives unless told: ``$STUDPOKER_TRACKER_DB``, else ``hands.db`` in the user's data
    folder (``$XDG_DATA_HOME/studpoker``, ``~/.local/share/studpoker``; ``%LOCALAPPDATA%`` on Windows, ``~/Library/
    Application Support`` on macOS)."""
    if os.environ.get("STUDPOKER_TRACKER_DB"):
        return Path(os.environ["STUDPOKER_TRACKER_DB"])
    return data_folder() / "hands.db"


def _played(when: str | None) -> int:
    """A hand's time as a number that sorts as the time does (``2026-01-31 12:00:30`` -> 20260131120030; 0 when
    the file does not say): kept with each player's row, so a player's hands are read in order from the index."""
    if not when:
        return 0
    digits = "".join(ch for ch in when if ch.isdigit())
    return int(digits[:14].ljust(14, "0")) if digits else 0


@dataclass(slots=True)
class HandEntry:
    """One hand as the importer hands it to the store: where it is from, what it was (``game`` is the variant's
    name, ``stakes`` the limits as the sign says them, ``played_at`` ``YYYY-MM-DD HH:MM:SS`` when the file says),
    and its players' rows (:func:`~studpoker.tracker.tally.count_rows`: plain tuples of :class:`PlayerHand`'s
    fields, cheap to send between processes); a refused hand has ``reason`` and no rows."""

    room: str
    hand_id: str
    source: str
    line: int
    reason: str | None = None
    game: str = ""
    stakes: str = ""
    big_bet: int = 0
    currency: str | None = None
    chip_value: float = 1.0
    played_at: str | None = None
    table_name: str | None = None
    table_size: int = 0
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    played: int = field(init=False)  # ``played_at`` as the number the store sorts by (worked out where it is made)

    def __post_init__(self) -> None:
        self.played = _played(self.played_at)


@dataclass(frozen=True, slots=True)
class Filters:
    """Which hands a report counts; ``None`` counts all. Days are ``YYYY-MM-DD``, both ends included."""

    players: tuple[str, ...] | None = None
    games: tuple[str, ...] | None = None
    stakes: tuple[str, ...] | None = None
    rooms: tuple[str, ...] | None = None
    table_sizes: tuple[int, ...] | None = None
    since: str | None = None
    until: str | None = None

    def where(self) -> tuple[str, list[Any]]:
        """The SQL condition over the daily sums (``player_days`` aliased ``d``) and the players (``p``), and its
        parameters."""
        parts: list[str] = ["1 = 1"]
        args: list[Any] = []
        for column, values in (
            ("p.name", self.players),
            ("d.game", self.games),
            ("d.stakes", self.stakes),
            ("d.room", self.rooms),
            ("d.table_size", self.table_sizes),
        ):
            if values is not None:
                parts.append(f"{column} IN ({', '.join('?' for _ in values)})")
                args.extend(values)
        if self.since is not None:
            parts.append("d.day >= ?")
            args.append(self.since)
        if self.until is not None:
            parts.append("d.day <= ?")
            args.append(self.until)
        return " AND ".join(parts), args


@dataclass
class Added:
    """What :meth:`Store.add` did with a batch: hands stored, refused hands stored, hands already there."""

    imported: int = 0
    refused: int = 0
    duplicates: int = 0

    def __iadd__(self, other: Added) -> Added:
        self.imported += other.imported
        self.refused += other.refused
        self.duplicates += other.duplicates
        return self


class Store:
    """A hand database, migrated to the current schema when opened. ``where`` is a path (SQLite, the folder made)
    or a ``postgresql://`` URL. Use as a context manager, or :meth:`close`."""

    def __init__(self, where: str | os.PathLike[str] | None = None) -> None:
        text = os.fspath(where) if where is not None else os.fspath(default_path())
        if text.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
            self.dialect = "postgresql"
            self._conn: Any = self._postgres(text)
        else:
            if "://" in text:
                raise StoreError(f"{text}: a hand database is a file path or a postgresql:// URL")
            self.dialect = "sqlite"
            path = Path(text.removeprefix("sqlite:"))
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=60)
                self._conn.execute("PRAGMA busy_timeout = 60000")  # an importer's transaction: wait for it
                self._conn.execute("PRAGMA journal_mode = WAL")  # readers go on while it writes
                self._conn.execute("PRAGMA synchronous = NORMAL")
                self._conn.execute("PRAGMA cache_size = -65536")  # 64 MB: an import writes into a large index
            except (OSError, sqlite3.Error) as error:
                raise StoreError(f"{path}: cannot open the hand database: {error}") from None
        self.where = text
        self._players: dict[tuple[str, str], int] = {}
        self._next_hand = 0
        try:
            self._migrate()
        except Exception:
            self._conn.close()
            raise

    @staticmethod
    def _postgres(url: str) -> Any:
        try:
            import psycopg
        except ImportError:
            raise StoreError(f"a PostgreSQL hand database needs psycopg: {install_hint('postgres')}") from None
        url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        try:
            return psycopg.connect(url, autocommit=True)
        except psycopg.Error as error:
            raise StoreError(f"cannot connect to the hand database: {error}".strip()) from None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._conn.close()

    # -- SQL ------------------------------------------------------------------------------------------------------

    def _sql(self, statement: str) -> str:
        if self.dialect == "postgresql":  # psycopg's placeholders: a % of the SQL itself is doubled
            return statement.replace("%", "%%").replace("?", "%s")
        return statement

    def _execute(self, statement: str, args: Sequence[Any] = ()) -> Any:
        return self._conn.execute(self._sql(statement), args)

    def _many(self, statement: str, rows: Iterable[Sequence[Any]]) -> None:
        if self.dialect == "postgresql":
            with self._conn.cursor() as cursor:
                cursor.executemany(self._sql(statement), list(rows))
        else:
            self._conn.executemany(statement, rows)

    def _begin(self) -> None:
        self._execute("BEGIN IMMEDIATE" if self.dialect == "sqlite" else "BEGIN")
        if self.dialect == "postgresql":  # one importer at a time: the hand ids are given here
            self._execute("LOCK TABLE hands IN SHARE ROW EXCLUSIVE MODE")

    def _migrate(self) -> None:
        """Bring the schema to the current version in one transaction that holds the database's write lock (SQLite)
        or an advisory lock (PostgreSQL) from the first read: two processes opening a new database at once (an
        importer and a report) migrate it once."""
        self._begin_plain()
        try:
            if self.dialect == "postgresql":
                self._execute("SELECT pg_advisory_xact_lock(72026120)")
            self._migrate_locked()
        except BaseException:
            self._execute("ROLLBACK")
            raise
        self._execute("COMMIT")
        row = self._execute("SELECT value FROM tracker_meta WHERE key = ?", (_COUNTS_KEY,)).fetchone()
        if row is None or row[0] != _counts_text():
            raise StoreError(
                f"{self.where}: its counts are another studpoker's: import the hands again into a new database"
            )

    def _migrate_locked(self) -> None:
        exists = self._execute(
            "SELECT 1 FROM sqlite_master WHERE name = 'tracker_meta'"
            if self.dialect == "sqlite"
            else "SELECT 1 FROM information_schema.tables WHERE table_name = 'tracker_meta'"
        ).fetchone()
        version = 0
        if exists:
            row = self._execute("SELECT value FROM tracker_meta WHERE key = 'version'").fetchone()
            version = int(row[0]) if row else 0
        if version > len(MIGRATIONS):
            raise StoreError(f"{self.where}: made by a newer studpoker (schema {version}): upgrade studpoker")
        for number in range(version, len(MIGRATIONS)):
            for statement in MIGRATIONS[number]:
                self._execute(statement.format(**_TYPES[self.dialect]))
            if number == 0:
                self._execute("INSERT INTO tracker_meta (key, value) VALUES (?, ?)", (_COUNTS_KEY, _counts_text()))
                self._execute("INSERT INTO tracker_meta (key, value) VALUES ('version', '0')")
            self._execute("UPDATE tracker_meta SET value = ? WHERE key = 'version'", (str(number + 1),))

    def _begin_plain(self) -> None:
        self._execute("BEGIN IMMEDIATE" if self.dialect == "sqlite" else "BEGIN")

    # -- writing --------------------------------------------------------------------------------------------------

    def add(self, entries: Sequence[HandEntry]) -> Added:
        """Store a batch of hands in one transaction: a hand already stored (same room and hand id) is not stored
        again, except that a hand stored as refused is replaced by a readable copy (a file read while it was
        still being written)."""
        added = Added()
        if not entries:
            return added
        self._begin()
        try:
            self._add(entries, added)
        except BaseException:
            self._execute("ROLLBACK")
            raise
        self._execute("COMMIT")
        return added

    def _add(self, entries: Sequence[HandEntry], added: Added) -> None:
        fresh: dict[tuple[str, str], HandEntry] = {}
        for entry in entries:
            key = (entry.room, entry.hand_id)
            if key in fresh and (fresh[key].reason is None or entry.reason is not None):
                added.duplicates += 1
                continue
            if key in fresh:
                added.duplicates += 1
            fresh[key] = entry
        known = self._known(list(fresh))
        replaced = []
        for key, status in known.items():
            if status == "refused" and fresh[key].reason is None:
                replaced.append(key)
            else:
                del fresh[key]
                added.duplicates += 1
        replaced += self._unreadable_before(fresh.values())
        if replaced:
            self._many("DELETE FROM hands WHERE room = ? AND hand_id = ?", replaced)
        if not fresh:
            return
        if not self._next_hand:
            row = self._execute("SELECT COALESCE(MAX(id), 0) FROM hands").fetchone()
            self._next_hand = int(row[0]) + 1
        hands, rows = [], []
        first = self._next_hand
        for entry in fresh.values():
            hand = self._next_hand
            self._next_hand += 1
            status = "refused" if entry.reason is not None else "imported"
            hands.append(
                (
                    hand, entry.room, entry.hand_id, status, entry.reason, entry.game, entry.stakes, entry.big_bet,
                    entry.currency, entry.chip_value, entry.played_at, entry.table_name, entry.table_size,
                    entry.source, entry.line,
                )
            )  # fmt: skip
            if entry.reason is not None:
                added.refused += 1
                continue
            added.imported += 1
            room, played = entry.room, entry.played
            for row in entry.rows:
                rows.append((hand, self._player(room, row[0]), played, *row[1:]))
        self._many(
            "INSERT INTO hands (id, room, hand_id, status, reason, game, stakes, big_bet, currency, chip_value,"
            " played_at, table_name, table_size, source, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            hands,
        )
        marks = ", ".join("?" for _ in COUNT_FIELDS)
        names = ", ".join(COUNT_FIELDS)
        self._many(
            f"INSERT INTO player_hands (hand, player, played, seat, door_card, {names})"
            f" VALUES (?, ?, ?, ?, ?, {marks})",
            rows,
        )
        # the batch's rows summed into the daily sums by the database itself
        day = "substr(COALESCE(h.played_at, ''), 1, 10)"
        sums = ", ".join(f"SUM(r.{name})" for name in COUNT_FIELDS)
        update = ", ".join(f"{name} = player_days.{name} + excluded.{name}" for name in COUNT_FIELDS)
        self._execute(
            f"INSERT INTO player_days (player, room, game, stakes, day, table_size, {names})"
            f" SELECT r.player, h.room, h.game, h.stakes, {day}, h.table_size, {sums}"
            f" FROM player_hands r JOIN hands h ON h.id = r.hand WHERE r.hand >= ? AND r.hand < ?"
            f" GROUP BY r.player, h.room, h.game, h.stakes, {day}, h.table_size"
            f" ON CONFLICT (player, room, game, stakes, day, table_size) DO UPDATE SET {update}",
            (first, self._next_hand),
        )

    def _unreadable_before(self, entries: Iterable[HandEntry]) -> list[tuple[str, str]]:
        """The refused hands that could not be read, at the file and line where a hand now reads (the file was
        read while the room was still writing that hand)."""
        readable: dict[str, set[int]] = {}
        for entry in entries:
            if entry.reason is None:
                readable.setdefault(entry.source, set()).add(entry.line)
        found = []
        for source, lines in readable.items():
            for room, hand_id, line in self._execute(
                "SELECT room, hand_id, line FROM hands WHERE status = 'refused' AND source = ?", (source,)
            ).fetchall():
                if line in lines and hand_id == f"{source}:{line}":
                    found.append((room, hand_id))
        return found

    def _known(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
        """The status of each of ``keys`` already stored."""
        found: dict[tuple[str, str], str] = {}
        by_room: dict[str, list[str]] = {}
        for room, hand_id in keys:
            by_room.setdefault(room, []).append(hand_id)
        for room, ids in by_room.items():
            for start in range(0, len(ids), 500):
                part = ids[start : start + 500]
                marks = ", ".join("?" for _ in part)
                for hand_id, status in self._execute(
                    f"SELECT hand_id, status FROM hands WHERE room = ? AND hand_id IN ({marks})", (room, *part)
                ).fetchall():
                    found[(room, hand_id)] = status
        return found

    def _player(self, room: str, name: str) -> int:
        key = (room, name)
        player = self._players.get(key)
        if player is None:
            row = self._execute("SELECT id FROM players WHERE room = ? AND name = ?", key).fetchone()
            if row is None:
                self._execute("INSERT INTO players (room, name) VALUES (?, ?)", key)
                row = self._execute("SELECT id FROM players WHERE room = ? AND name = ?", key).fetchone()
            player = self._players[key] = int(row[0])
        return player

    # -- reading --------------------------------------------------------------------------------------------------

    def counts(self) -> dict[str, int]:
        """How many hands are stored, imported and refused."""
        out = {"imported": 0, "refused": 0}
        for status, count in self._execute("SELECT status, COUNT(*) FROM hands GROUP BY status").fetchall():
            out[str(status)] = int(count)
        return out

    def refused(self, limit: int = 100) -> list[dict[str, Any]]:
        """The refused hands (the first ``limit``): where they are and why."""
        rows = self._execute(
            "SELECT room, hand_id, source, line, reason FROM hands WHERE status = 'refused' ORDER BY id LIMIT ?",
            (limit,),
        ).fetchall()
        return [dict(zip(("room", "hand_id", "source", "line", "reason"), row, strict=True)) for row in rows]

    def totals(self, filters: Filters = Filters(), *, by: Sequence[str] = ("player",)) -> list[dict[str, Any]]:
        """The counts summed per player (``by`` may add ``room``, ``game``, ``stakes``, ``day``, ``table_size``),
        from the daily sums: each row has ``player`` (the name), the ``by`` columns and every count."""
        allowed = {"player", "room", "game", "stakes", "day", "table_size"}
        unknown = [column for column in by if column not in allowed]
        if unknown:
            raise StoreError(f"cannot group by {', '.join(unknown)}: use {', '.join(sorted(allowed))}")
        where, args = filters.where()
        keys = ["p.name" if column == "player" else f"d.{column}" for column in by]
        sums = ", ".join(f"SUM(d.{name})" for name in COUNT_FIELDS)
        group = ", ".join(["p.id" if column == "player" else f"d.{column}" for column in by])
        rows = self._execute(
            f"SELECT {', '.join(keys)}, {sums} FROM player_days d JOIN players p ON p.id = d.player"
            f" WHERE {where} GROUP BY {group}, {', '.join(keys)} ORDER BY {', '.join(keys)}",
            args,
        ).fetchall()
        out = []
        for row in rows:  # PostgreSQL's SUM of a BIGINT is a NUMERIC (a Decimal): every sum as its count's type
            entry = dict(zip(by, row, strict=False))
            for name, value in zip(COUNT_FIELDS, row[len(by) :], strict=True):
                entry[name] = float(value) if name in _REAL else int(value)
            out.append(entry)
        return out

    def hands_of(self, filters: Filters, columns: Sequence[str]) -> Iterator[tuple[Any, ...]]:
        """Per hand, in the order played, the ``columns`` (counts, ``seat``, ``door_card``, ``played_at``) of the
        filtered players' rows: what the graphs draw."""
        allowed = set(COUNT_FIELDS) | {"seat", "door_card"}
        chosen = []
        for column in columns:
            if column == "played_at":
                chosen.append("h.played_at")
            elif column in allowed:
                chosen.append(f"r.{column}")
            else:
                raise StoreError(f"no column {column!r} in a player's hand")
        base, args = self._hands_from(filters, hands="played_at" in columns)
        cursor = self._execute(f"SELECT {', '.join(chosen)} {base} ORDER BY r.played, r.hand", args)
        while batch := cursor.fetchmany(10_000):
            yield from batch

    def _hands_from(self, filters: Filters, *, hands: bool = False) -> tuple[str, list[Any]]:
        """``FROM ... WHERE ...`` over a player's rows (``r``): the players' ids looked up first and the dates
        compared with ``played``, so that the rows are read from the index alone, and one player's (a name in one
        room) in the order played without a sort; the hands table (``h``) is joined only when a filter (or
        ``hands``) needs it."""
        parts: list[str] = ["1 = 1"]
        args: list[Any] = []
        if filters.players is not None:
            marks = ", ".join("?" for _ in filters.players)
            ids = [row[0] for row in self._execute(f"SELECT id FROM players WHERE name IN ({marks})", filters.players)]
            if len(ids) == 1:
                parts.append("r.player = ?")  # the index's order is the order played: no sort of a million rows
            else:
                parts.append(f"r.player IN ({', '.join('?' for _ in ids) or 'NULL'})")
            args.extend(ids)
        if filters.since is not None:
            parts.append("r.played >= ?")
            args.append(_played(f"{filters.since} 00:00:00"))
        if filters.until is not None:
            parts.append("r.played <= ?")
            args.append(_played(f"{filters.until} 23:59:59"))
        for column, values in (
            ("h.game", filters.games),
            ("h.stakes", filters.stakes),
            ("h.room", filters.rooms),
            ("h.table_size", filters.table_sizes),
        ):
            if values is not None:
                hands = True
                parts.append(f"{column} IN ({', '.join('?' for _ in values)})")
                args.extend(values)
        join = " JOIN hands h ON h.id = r.hand" if hands else ""
        return f"FROM player_hands r{join} WHERE {' AND '.join(parts)}", args

    def running(self, filters: Filters, points: int) -> tuple[int, list[tuple[int, float, float, float]]]:
        """The filtered rows' running sums in the order played, worked out by the database and read at no more
        than about ``points`` hands: the number of rows, then ``(n, big bets, big bets in hands that went to
        showdown, big bets at the all-in equity)`` after the n-th (the winnings graph over a million hands reads
        two thousand rows)."""
        base, args = self._hands_from(filters)
        count = int(self._execute(f"SELECT COUNT(*) {base}", args).fetchone()[0])
        if not count:
            return 0, []
        step = max(1, -(-count // max(1, points)))
        window = "OVER (ORDER BY r.played, r.hand ROWS UNBOUNDED PRECEDING)"
        rows = self._execute(
            f"SELECT n, t, s, e FROM (SELECT ROW_NUMBER() {window} AS n, SUM(r.net_bb) {window} AS t,"
            f" SUM(CASE WHEN r.showdown > 0 THEN r.net_bb ELSE 0 END) {window} AS s,"
            f" SUM(r.allin_ev_bb) {window} AS e {base}) q WHERE n % ? = 0 OR n = ? ORDER BY n",
            (*args, step, count),
        ).fetchall()
        return count, [(int(n), float(t), float(sd), float(e)) for n, t, sd, e in rows]

    def grouped(self, filters: Filters, *keys: str) -> list[tuple[Any, ...]]:
        """The filtered rows grouped by the columns ``keys`` (``street_reached``, ``bring_in_position``,
        ``door_card``, ``seat``): per group, its values, then the hands, the big bets won and the big bets at the
        all-in equity."""
        unknown = [key for key in keys if key not in ("street_reached", "bring_in_position", "door_card", "seat")]
        if unknown or not keys:
            raise StoreError(f"cannot group a player's hands by {', '.join(unknown) or 'nothing'}")
        base, args = self._hands_from(filters)
        columns = ", ".join(f"r.{key}" for key in keys)
        rows = self._execute(
            f"SELECT {columns}, COUNT(*), SUM(r.net_bb), SUM(r.allin_ev_bb) {base} GROUP BY {columns}", args
        ).fetchall()
        width = len(keys)
        return [(*row[:width], int(row[width]), float(row[width + 1]), float(row[width + 2])) for row in rows]

    def choices(self) -> Mapping[str, list[Any]]:
        """What the filters may take: the rooms, games, stakes and table sizes stored."""
        out: dict[str, list[Any]] = {}
        for column in ("room", "game", "stakes", "table_size"):
            rows = self._execute(f"SELECT DISTINCT {column} FROM player_days ORDER BY {column}").fetchall()
            out[column] = [row[0] for row in rows]
        return out


def _counts_text() -> str:
    return ",".join(f"{name}:{'real' if name in _REAL else 'int'}" for name in COUNT_FIELDS)
