"""Group commit: the writes of actions accepted at the same moment share one transaction.

Each table's authority still holds its own lock until its write is durable, so actions on one
table stay strictly one at a time; across tables, a single transaction carries every write
that is waiting, which is what lets one SQLite file take thousands of actions per second.
If a batch fails, each write is retried alone so that only the faulty one is refused; when
the database cannot be reached at all, every waiting write is refused ``unavailable`` at once.
A write whose commit was cut off may still have been stored: the authority then reads the
table back from the store before it takes another action (``TableAuthority.in_doubt``).

A batch is written by one synchronous function (``store_batch``). On a SQLite file it runs in
the committer's own thread with its own connection, start to end, while the event loop goes
on serving the other tables; on other databases it runs on the async engine (``run_sync``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.services.errors import (
    STORE_ERRORS,
    Conflict,
    Unavailable,
    database_unavailable,
    unreachable,
)
from app.store import matches as match_store
from app.store import tables as table_store
from app.store.db import BoundStatement, create_writer_engine

log = logging.getLogger(__name__)


@dataclass
class Write:
    """One accepted action to store: the log row, the version step and any result updates
    (``extras``: statements run in the same transaction, such as a finished deal's result)."""

    table_id: str
    match_id: int
    version: int  # the version this action produces
    seat: int
    action: dict[str, Any]
    extras: list[BoundStatement] = field(default_factory=list)
    done: asyncio.Future[None] | None = None

    def row(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "match_id": self.match_id,
            "version": self.version,
            "seat": self.seat,
            "action": self.action,
        }


class VersionMoved(Exception):
    """A table was not at the version its authority expected (another writer)."""


class Committer:
    """Collects ``Write``s and commits whatever is waiting in one transaction."""

    def __init__(self, engine: AsyncEngine, max_batch: int = 512) -> None:
        self.engine = engine
        self.max_batch = max_batch
        # SQLite file: a synchronous engine and the one thread that uses it.
        self.writer = create_writer_engine(engine.url.render_as_string(hide_password=False))
        self._thread = (
            ThreadPoolExecutor(1, thread_name_prefix="committer") if self.writer else None
        )
        self._queue: asyncio.Queue[Write] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    async def submit(self, write: Write) -> None:
        """Return once ``write`` is committed; ``Conflict`` or ``Unavailable`` otherwise."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        write.done = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(write)
        await write.done

    async def close(self) -> None:
        """Stop the background task (waiting writes are refused) and the writer thread."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._thread is not None and self.writer is not None:
            # A batch already handed to the thread finishes first; then its connection closes.
            await asyncio.get_running_loop().run_in_executor(self._thread, self.writer.dispose)
            self._thread.shutdown()

    async def _run(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < self.max_batch:
                batch.append(self._queue.get_nowait())
            try:
                await self._store(batch)
            except Exception as exc:  # never let the loop die: every write gets its answer
                if isinstance(exc, STORE_ERRORS) and unreachable(exc):
                    log.warning("the database is unreachable (%s)", type(exc).__name__)
                    for write in batch:  # nobody's fault; trying each alone would not help
                        _resolve(write, database_unavailable())
                    continue
                for write in batch:  # find the faulty write: each alone
                    await self._store_alone(write)
            else:
                for write in batch:
                    _resolve(write, None)

    async def _store(self, batch: list[Write]) -> None:
        if self._thread is not None:
            await asyncio.get_running_loop().run_in_executor(self._thread, self._write, batch)
            return
        async with self.engine.begin() as connection:
            await connection.run_sync(store_batch, batch)

    def _write(self, batch: list[Write]) -> None:
        """In the writer thread: one transaction for the batch."""
        assert self.writer is not None
        with self.writer.begin() as connection:
            store_batch(connection, batch)

    async def _store_alone(self, write: Write) -> None:
        try:
            await self._store([write])
        except (VersionMoved, IntegrityError):
            _resolve(write, Conflict("stale_version", "Another writer changed this table."))
        except STORE_ERRORS as exc:
            fields = fields_of(write)
            if unreachable(exc):
                log.warning("the database is unreachable (%s)", type(exc).__name__, extra=fields)
                _resolve(write, database_unavailable())
            else:
                log.exception("the database refused an action's write", extra=fields)
                _resolve(write, Unavailable("storage_failed", "The action could not be stored."))
        except Exception as exc:
            log.exception("storing an action failed", extra=fields_of(write))
            _resolve(write, exc)
        else:
            _resolve(write, None)


def store_batch(connection: Connection, batch: list[Write]) -> None:
    """Step every table's version, append the actions and run their extras (no commit)."""
    moved = table_store.bump_versions(connection, [(w.table_id, w.version - 1) for w in batch])
    if moved != len(batch):
        raise VersionMoved
    match_store.append_actions(connection, [w.row() for w in batch])
    for write in batch:
        for statement, parameters in write.extras:
            connection.execute(statement, parameters)


def fields_of(write: Write) -> dict[str, Any]:
    """Log fields of a write: its table and the version it was meant to follow."""
    return {"table_id": write.table_id, "version": write.version - 1}


def _resolve(write: Write, error: Exception | None) -> None:
    if write.done is None or write.done.done():
        return
    if error is None:
        write.done.set_result(None)
    else:
        write.done.set_exception(error)
