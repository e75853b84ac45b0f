"""Database engine and session factory. Nothing is created at import time."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, Executable, event
from sqlalchemy import create_engine as create_sync_engine
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

# A prebuilt statement and its parameters: a change that runs inside another transaction
# (an action's result updates ride in the group commit's batch).
BoundStatement = tuple[Executable, dict[str, Any]]


def is_sqlite(url: str) -> bool:
    """True for a SQLite URL."""
    return make_url(url).get_backend_name() == "sqlite"


def ensure_sqlite_dir(url: str) -> None:
    """Create the folder that will hold a SQLite file, so a first start just works."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)


def _tune_sqlite(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    # WAL with synchronous=NORMAL survives a killed process (every commit is in the WAL
    # before the call returns); only a power cut can lose the last commits.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def create_writer_engine(url: str) -> Engine | None:
    """A synchronous engine for a SQLite file, for the group commit's own thread (None for
    other databases and for an in-memory SQLite, which a second connection would not see).

    The commit of a batch then runs start to end in that thread, while the event loop goes on
    serving; through the async engine every statement would wait for a turn of the loop.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    ensure_sqlite_dir(url)
    engine = create_sync_engine(
        parsed.set(drivername="sqlite"), pool_size=1, max_overflow=0, hide_parameters=True
    )
    event.listen(engine, "connect", _tune_sqlite)
    return engine


def create_engine(url: str) -> AsyncEngine:
    """An async engine for ``url``; SQLite gets one shared connection (one writer anyway)."""
    if is_sqlite(url):
        ensure_sqlite_dir(url)
        # aiosqlite's debug lines carry every statement's parameters (token hashes included).
        logging.getLogger("aiosqlite").setLevel(max(logging.INFO, logging.root.level))
        engine = create_async_engine(
            url, pool_size=1, max_overflow=0, pool_timeout=60, hide_parameters=True
        )
        event.listen(engine.sync_engine, "connect", _tune_sqlite)
        return engine
    # Hidden parameters: a failed statement's log line must not carry a token hash or a seed.
    return create_async_engine(
        url, pool_size=10, max_overflow=10, pool_pre_ping=True, hide_parameters=True
    )


def session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)
