"""Database engine and session factory. Nothing is created at import time."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, Executable, event
from sqlalchemy import create_engine as create_sync_engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

__all__ = ["AsyncEngine", "AsyncSession", "async_sessionmaker"]

log = logging.getLogger(__name__)

# A prebuilt statement and its parameters: a change that runs inside another transaction
# (an action's result updates ride in the group commit's batch).
BoundStatement = tuple[Executable, dict[str, Any]]
# A change that needs to read before it writes (a rating update), run the same way.
Step = Callable[[Connection], None]


def json_text(value: Any) -> str:
    """The text every engine here writes to a JSON column: orjson's, as compact as the
    protocol's frames (keys that are not strings written as strings, as ``json.dumps``
    does). The group commit encodes every action and turn clock it stores: ``json.dumps``
    took about a sixth of its thread's time. Either text reads back the same. Unlike
    ``json.dumps`` it refuses integers beyond 64 bits, which no column holds."""
    return orjson.dumps(value, default=_as_float, option=orjson.OPT_NON_STR_KEYS).decode()


def _as_float(value: Any) -> float:
    """A subclass of ``float`` (numpy's, from an analysis) as ``json.dumps`` writes it."""
    if isinstance(value, float):
        return float(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def execute_rows(
    connection: Connection, template: str, rows: Sequence[Sequence[object]], per_statement: int
) -> int:
    """Run a multi-row statement through SQLite's driver, ``per_statement`` rows at a time:
    ``template`` holds ``{rows}`` where the rows' ``(?, ...)`` groups go. One step of SQLite's
    engine per statement instead of one per row, and none of SQLAlchemy's per-row parameter
    handling (the group commit writes hundreds of rows a batch). How many rows it changed."""
    changed = 0
    for start in range(0, len(rows), per_statement):
        chunk = rows[start : start + per_statement]
        group = "(" + ", ".join("?" * len(chunk[0])) + ")"
        statement = template.format(rows=", ".join([group] * len(chunk)))
        values = tuple(value for row in chunk for value in row)
        changed += int(connection.exec_driver_sql(statement, values).rowcount)
    return changed


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


# The group commit's connection checkpoints only when its write-ahead log reaches this many
# pages (SQLite's default: 1,000). A checkpoint inside a commit holds up every table waiting
# on the next batch; with a ``Checkpointer`` folding the log back in the background, the rare
# one left to the commit has little to copy, and the log still stays bounded (about 40 MB).
WRITER_AUTOCHECKPOINT_PAGES = 10_000


def _rare_checkpoints(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA wal_autocheckpoint={WRITER_AUTOCHECKPOINT_PAGES}")
    cursor.close()


def sqlite_file_engine(url: str, *, writer: bool = False) -> Engine | None:
    """A synchronous engine with one connection to a SQLite file, for a thread of its own
    (None for other databases and for an in-memory SQLite, which a second connection would
    not see). The ``writer``'s connection checkpoints rarely (see above)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    ensure_sqlite_dir(url)
    engine = create_sync_engine(
        parsed.set(drivername="sqlite"),
        pool_size=1,
        max_overflow=0,
        hide_parameters=True,
        json_serializer=json_text,
    )
    event.listen(engine, "connect", _tune_sqlite)
    if writer:
        event.listen(engine, "connect", _rare_checkpoints)
    return engine


def create_writer_engine(url: str) -> Engine | None:
    """The group commit's engine for a SQLite file (see ``sqlite_file_engine``).

    The commit of a batch runs start to end in the committer's thread, while the event loop
    goes on serving; through the async engine every statement would wait for a turn of the
    loop. Most of its checkpointing is left to a ``Checkpointer``.
    """
    return sqlite_file_engine(url, writer=True)


class Checkpointer:
    """Folds a SQLite file's write-ahead log back into the database every ``interval``
    seconds (``PRAGMA wal_checkpoint(PASSIVE)``), from a connection and a thread of its own:
    a passive checkpoint waits for no reader or writer, and no commit waits for it. Under a
    steady stream of commits it never quite reaches the end of the log, so the log would
    never restart from its beginning: the group commit's own rare checkpoint does that."""

    def __init__(self, engine: Engine, interval: float = 0.1) -> None:
        self.engine, self.interval = engine, interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="checkpointer", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop (a checkpoint under way finishes first) and close the connection."""
        self._stop.set()
        self._thread.join()
        self.engine.dispose()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                with self.engine.connect() as connection:
                    connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except SQLAlchemyError as exc:  # the next round tries again
                log.warning("a WAL checkpoint failed (%s)", type(exc).__name__)


def create_engine(url: str) -> AsyncEngine:
    """An async engine for ``url``; SQLite gets one shared connection (one writer anyway)."""
    if is_sqlite(url):
        ensure_sqlite_dir(url)
        # aiosqlite's debug lines carry every statement's parameters (token hashes included).
        logging.getLogger("aiosqlite").setLevel(max(logging.INFO, logging.root.level))
        engine = create_async_engine(
            url,
            pool_size=1,
            max_overflow=0,
            pool_timeout=60,
            hide_parameters=True,
            json_serializer=json_text,
        )
        event.listen(engine.sync_engine, "connect", _tune_sqlite)
        return engine
    # Hidden parameters: a failed statement's log line must not carry a token hash or a seed.
    return create_async_engine(
        url,
        pool_size=10,
        max_overflow=10,
        pool_pre_ping=True,
        hide_parameters=True,
        json_serializer=json_text,
    )


def session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)
