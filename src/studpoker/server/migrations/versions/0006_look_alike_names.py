"""Names that look alike are one name: each username and table name has two keys built on the UTS #39 skeleton.

* ``accounts.username_look`` (new, unique) beside ``accounts.username_key``; ``tables.name_look`` (new) beside
  ``tables.name_key``, each unique among tables not closed (``one_open_table_per_look``), both ``MAX_NAME_KEY``
  wide (a key may be longer than its name);
* every stored key recomputed with :func:`studpoker.server.names.name_key` and ``look_key``, in id order.

Names stored before may now look alike. The migration never fails on them, and never renames an account:

* the older account gets the new keys; a later one whose keys are taken **keeps its name**, with
  ``studpoker.server.auth.kept_key`` for both keys (``#`` and its name case-folded, which no name's key can be), so
  it still signs in with its name as written, in any case, and nobody can take a name that looks like it (it looks
  like the older account's);
* of two open tables, the older keeps its name; a later one becomes ``name #id`` (as revision 0002 did).

The keys are the ones this version computes; a later change of the rule or of Unicode's data
(tools/gen_confusables.py) comes with a revision that recomputes them again.

Revision ID: 0006
Revises: 0005
Create Date: 2027-04-01
"""

from __future__ import annotations

import unicodedata
from typing import Any

import sqlalchemy as sa
from alembic import op

from studpoker.server.names import look_key, name_key

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

KEY_WIDTH = 320  # studpoker.server.limits.MAX_NAME_KEY when this revision was written
USERNAME_KEY_WIDTH = 40
OLD_KEY_WIDTH = 60  # tables.name_key before this revision
OPEN = sa.text("status != 'closed'")


def _set_keys(connection: Any, table: str, columns: tuple[str, str], rows: list[dict[str, Any]]) -> None:
    """Write ``rows`` (``id`` and the two ``columns``) in two steps, each key first set to a value no real key
    has (keys are case-folded: an upper-case ``#TMP`` cannot be one), so that no row collides, while the others
    are rewritten, with a key it is giving up."""
    if not rows:
        return
    key, look = columns
    parking = [{"id": row["id"], "key": f"#TMP{row['id']}", "look": f"#TMP{row['id']}"} for row in rows]
    statement = sa.text(f"UPDATE {table} SET {key} = :key, {look} = :look WHERE id = :id")
    connection.execute(statement, parking)
    connection.execute(statement, [{"id": row["id"], "key": row[key], "look": row[look]} for row in rows])


def _account_keys(rows: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """The new keys of every account, in id order; an account whose keys an older one has keeps its name."""
    keys: set[str] = set()
    looks: set[str] = set()
    out = []
    for account_id, username in rows:
        key, look = name_key(username), look_key(username)
        if key in keys or look in looks or max(len(key), len(look)) > USERNAME_KEY_WIDTH:
            kept = "#" + username.casefold()  # studpoker.server.auth.kept_key
            if kept in keys or len(kept) > USERNAME_KEY_WIDTH:
                kept = f"#ID{account_id}"  # no name is that long or that odd today; it cannot fail all the same
            key = look = kept
        keys.add(key)
        looks.add(look)
        out.append({"id": account_id, "username_key": key, "username_look": look})
    return out


def _table_keys(rows: list[tuple[int, str, str]]) -> list[dict[str, Any]]:
    """The new keys of every table, in id order, and a new name for a later open table that looks like an older
    one; closed tables need no unique keys."""
    keys: set[str] = set()
    looks: set[str] = set()
    out = []
    for table_id, stored, status in rows:
        name = stored
        key, look = name_key(name), look_key(name)
        if status != "closed" and (key in keys or look in looks):
            suffix = f" #{table_id}"
            name = stored[: OLD_KEY_WIDTH - len(suffix)] + suffix
            key, look = name_key(name), look_key(name)
        if max(len(key), len(look)) > KEY_WIDTH or (status != "closed" and (key in keys or look in looks)):
            key = look = f"#ID{table_id}"  # no real key has capitals: unique, and it cannot fail
        if status != "closed":
            keys.add(key)
            looks.add(look)
        out.append({"id": table_id, "name": name, "name_key": key, "name_look": look})
    return out


def upgrade() -> None:
    connection = op.get_bind()
    op.drop_index("one_open_table_per_name", table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.alter_column(
            "name_key", type_=sa.String(KEY_WIDTH), existing_type=sa.String(OLD_KEY_WIDTH), existing_nullable=True
        )
        batch.add_column(sa.Column("name_look", sa.String(KEY_WIDTH), nullable=True))
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("username_look", sa.String(USERNAME_KEY_WIDTH), nullable=True))

    accounts = connection.execute(sa.text("SELECT id, username FROM accounts ORDER BY id")).all()
    _set_keys(connection, "accounts", ("username_key", "username_look"), _account_keys([tuple(a) for a in accounts]))
    tables = connection.execute(sa.text("SELECT id, name, status FROM tables ORDER BY id")).all()
    keyed = _table_keys([tuple(t) for t in tables])
    _set_keys(connection, "tables", ("name_key", "name_look"), keyed)
    renamed = [
        {"id": new["id"], "name": new["name"]} for new, old in zip(keyed, tables, strict=True) if new["name"] != old[1]
    ]
    if renamed:
        connection.execute(sa.text("UPDATE tables SET name = :name WHERE id = :id"), renamed)

    with op.batch_alter_table("accounts") as batch:
        batch.alter_column("username_look", existing_type=sa.String(USERNAME_KEY_WIDTH), nullable=False)
        batch.create_unique_constraint("uq_accounts_username_look", ["username_look"])
    for index, column in (("one_open_table_per_name", "name_key"), ("one_open_table_per_look", "name_look")):
        op.create_index(index, "tables", [column], unique=True, sqlite_where=OPEN, postgresql_where=OPEN)


def _old_key(name: str) -> str:
    """The key before this revision: NFKD without combining marks, case-folded."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.category(c).startswith("M")).casefold()


def _old_keys(rows: list[tuple[int, str]], width: int, only: set[int] | None = None) -> list[dict[str, Any]]:
    """The keys before this revision (a second holder of one gets ``#id`` after it); ``only``: the ids whose keys
    must be unique (the others' are kept apart)."""
    taken: set[str] = set()
    out = []
    for row_id, name in rows:
        key = _old_key(name)[:width]
        if only is None or row_id in only:
            if key in taken:
                key = f"{key[: width - 12]}#{row_id}"
            taken.add(key)
        out.append({"id": row_id, "key": key})
    return out


def downgrade() -> None:
    connection = op.get_bind()
    op.drop_index("one_open_table_per_look", table_name="tables")
    op.drop_index("one_open_table_per_name", table_name="tables")
    accounts = connection.execute(sa.text("SELECT id, username FROM accounts ORDER BY id")).all()
    keys = _old_keys([tuple(a) for a in accounts], USERNAME_KEY_WIDTH)
    parking = [{"id": row["id"], "key": f"#TMP{row['id']}"} for row in keys]
    for rows in (parking, keys):
        if rows:
            connection.execute(sa.text("UPDATE accounts SET username_key = :key WHERE id = :id"), rows)
    tables = connection.execute(sa.text("SELECT id, name, status FROM tables ORDER BY id")).all()
    still_open = {int(t[0]) for t in tables if t[2] != "closed"}
    keys = _old_keys([(int(t[0]), str(t[1])) for t in tables], OLD_KEY_WIDTH, still_open)
    if keys:
        connection.execute(sa.text("UPDATE tables SET name_key = :key WHERE id = :id"), keys)
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("uq_accounts_username_look", type_="unique")
        batch.drop_column("username_look")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("name_look")
        batch.alter_column(
            "name_key", type_=sa.String(OLD_KEY_WIDTH), existing_type=sa.String(KEY_WIDTH), existing_nullable=True
        )
    op.create_index(
        "one_open_table_per_name", "tables", ["name_key"], unique=True, sqlite_where=OPEN, postgresql_where=OPEN
    )
