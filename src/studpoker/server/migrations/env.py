"""Alembic environment of the card room: runs on the connection :func:`studpoker.server.db.migrate` gives it,
or on ``sqlalchemy.url`` when Alembic is run from the command line."""

from __future__ import annotations

from alembic import context
from alembic.config import Config
from sqlalchemy import create_engine

from studpoker.server.db import Base

target_metadata = Base.metadata


def _config() -> Config | None:
    """Alembic's configuration while it runs this file; ``None`` when the file is merely imported (doctests)."""
    try:
        return context.config
    except AttributeError:
        return None


config = _config()


def _run() -> None:
    assert config is not None
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite:///./studpoker.db")
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


if config is not None and context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()
elif config is not None:
    _run()
