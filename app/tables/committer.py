"""Group commit: the writes of actions accepted at the same moment share one transaction.

Each table's authority still holds its own lock until its write is durable, so actions on one
table stay strictly one at a time; across tables, a single transaction carries every write
that is waiting, which is what lets one SQLite file take thousands of actions per second.
If a batch fails, each write is retried alone so that only the faulty one is refused; when
the database cannot be reached at all, every waiting write is refused ``unavailable`` at once.
A write whose commit was cut off may still have been stored: the authority then reads the
table back from the store before it takes another action (``TableAuthority.in_doubt``).

A batch is committed by a thread of the committer's own: it takes whatever writes are
waiting, commits them, and answers the whole batch with one callback into the event loop, so
the loop never waits on a statement and a batch costs it one turn. On a SQLite file the thread
writes through a synchronous connection of its own (``store_batch``); on other databases
(PostgreSQL) it hands the same function to the event loop's async engine (``run_sync``) and
waits for it. Each transaction is counted in the metrics: its actions, its wall time and the
thread's CPU time in it (``metrics.committed``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.common import metrics
from app.common.errors import (
    STORE_ERRORS,
    Conflict,
    Unavailable,
    database_unavailable,
    unreachable,
)
from app.common.faults import crash_point
from app.store import matches as match_store
from app.store import tables as table_store
from app.store.db import (
    BoundStatement,
    Checkpointer,
    Step,
    create_writer_engine,
    sqlite_file_engine,
)

log = logging.getLogger(__name__)


@dataclass
class Write:
    """One accepted action to store: the log row, the version step and any result updates
    (``extras``: statements or steps run in the same transaction, such as a finished deal's
    result or a finished match's rating update; ``ends_match`` when this action ends one)."""

    table_id: str
    match_id: int
    version: int  # the version this action produces
    seat: int
    action: dict[str, Any]
    extras: list[BoundStatement | Step] = field(default_factory=list)
    # The table's running turn clock and its deadline after this action (a timed table):
    # stored for the whole batch in one statement.
    clock: table_store.Clock | None = None
    ends_match: bool = False
    epoch: int = 0  # the table's lease epoch its writer holds (the fence, store/leases.py)
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
    """A table was not at the version its authority expected, or its lease moved on
    (another writer)."""


Answer = tuple[Write, Exception | None]  # a write and its refusal (None: committed)
STOP = None  # put in the writer thread's inbox: finish what is queued, then end


class Committer:
    """Collects ``Write``s and commits whatever is waiting in one transaction."""

    def __init__(self, engine: AsyncEngine, max_batch: int = 512) -> None:
        self.engine = engine
        self.max_batch = max_batch
        # SQLite file: a synchronous engine of the writer thread's own, and the write-ahead
        # log folded back into the database beside it.
        self._url = engine.url.render_as_string(hide_password=False)
        self.writer = create_writer_engine(self._url)
        self._checkpointer: Checkpointer | None = None
        self._inbox: queue.SimpleQueue[Write | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def submit(self, write: Write) -> None:
        """Return once ``write`` is committed; ``Conflict`` or ``Unavailable`` otherwise."""
        loop = asyncio.get_running_loop()
        write.done = loop.create_future()
        if self._thread is None or not self._thread.is_alive() or self._loop is not loop:
            self._start(loop)
        self._inbox.put(write)
        await write.done

    async def close(self) -> None:
        """Stop the writer thread (writes already queued are committed first) and release
        its connection."""
        if self._thread is not None:
            self._inbox.put(STOP)
            await asyncio.get_running_loop().run_in_executor(None, self._thread.join)
            self._thread = None
        if self.writer is not None:
            self.writer.dispose()
        if self._checkpointer is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._checkpointer.close)
            self._checkpointer = None

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        if self.writer is not None and self._checkpointer is None:
            checkpoints = sqlite_file_engine(self._url)
            assert checkpoints is not None  # a SQLite file, as for the writer
            self._checkpointer = Checkpointer(checkpoints)
        if self._thread is not None:
            self._inbox.put(STOP)  # a thread serving another (older) event loop
        self._inbox, self._loop = queue.SimpleQueue(), loop
        self._thread = threading.Thread(
            target=self._serve, args=(self._inbox, loop), name="committer", daemon=True
        )
        self._thread.start()

    def _serve(
        self, inbox: queue.SimpleQueue[Write | None], loop: asyncio.AbstractEventLoop
    ) -> None:
        """The writer thread: take what is waiting, commit it, answer it; until STOP."""
        store = self._write if self.writer is not None else self._in_loop(loop)
        while True:
            batch, stop = take(inbox, self.max_batch)
            if batch:
                started, cpu = time.perf_counter(), time.thread_time()
                answers = commit_batch(batch, store)
                # Counted before anyone hears of it: a caller that reads the metrics after
                # its action finds the action's transaction there.
                metrics.committed(
                    len(batch), time.perf_counter() - started, time.thread_time() - cpu
                )
                if any(write.ends_match for write in batch):
                    crash_point("after_result_commit")
                with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                    loop.call_soon_threadsafe(resolve, answers)
            if stop:
                return

    def _write(self, batch: list[Write]) -> None:
        """SQLite: one transaction for the batch on the thread's own connection."""
        assert self.writer is not None
        with self.writer.begin() as connection:
            store_batch(connection, batch)

    def _in_loop(self, loop: asyncio.AbstractEventLoop) -> Callable[[list[Write]], None]:
        """Other databases: one transaction for the batch on the event loop's async engine,
        waited for from the writer thread."""

        async def store(batch: list[Write]) -> None:
            async with self.engine.begin() as connection:
                await connection.run_sync(store_batch, batch)

        return lambda batch: asyncio.run_coroutine_threadsafe(store(batch), loop).result()


def take(inbox: queue.SimpleQueue[Write | None], most: int) -> tuple[list[Write], bool]:
    """Block for one write, then take whatever else is waiting (at most ``most``); the flag
    says STOP came."""
    first = inbox.get()
    if first is STOP:
        return [], True
    batch = [first]
    while len(batch) < most:
        try:
            write = inbox.get_nowait()
        except queue.Empty:
            break
        if write is STOP:
            return batch, True
        batch.append(write)
    return batch, False


def store_batch(connection: Connection, batch: list[Write]) -> None:
    """Step every table's version (with its turn clock), append the actions and run their
    extras (no commit)."""
    moved = table_store.step_versions(
        connection, [(w.table_id, w.version - 1, w.epoch, w.clock) for w in batch]
    )
    if moved != len(batch):
        raise VersionMoved
    match_store.append_actions(connection, [w.row() for w in batch])
    for write in batch:
        for extra in write.extras:
            if callable(extra):
                extra(connection)
            else:
                connection.execute(*extra)


def commit_batch(batch: list[Write], store: Callable[[list[Write]], None]) -> list[Answer]:
    """Store ``batch`` in one transaction; if that fails, each write alone (see the module)."""
    try:
        store(batch)
    except Exception as exc:  # never let the writer die: every write gets its answer
        if unreachable_store(exc):
            return [(write, database_unavailable()) for write in batch]
        answers: list[Answer] = []
        for write in batch:  # find the faulty write: each alone
            try:
                store([write])
            except Exception as alone:
                answers.append((write, refusal(write, alone)))
            else:
                answers.append((write, None))
        return answers
    return [(write, None) for write in batch]


def unreachable_store(exc: Exception) -> bool:
    """True (and logged) when a batch failed because the database cannot be reached: nobody's
    fault, and trying each write alone would not help."""
    if isinstance(exc, STORE_ERRORS) and unreachable(exc):
        log.warning("the database is unreachable (%s)", type(exc).__name__)
        return True
    return False


def refusal(write: Write, exc: Exception) -> Exception:
    """The answer to a write that failed alone: a conflict, ``unavailable``, or the error."""
    fields = fields_of(write)
    if isinstance(exc, (VersionMoved, IntegrityError)):
        return Conflict("stale_version", "Another writer changed this table.")
    if isinstance(exc, STORE_ERRORS):
        if unreachable(exc):
            log.warning("the database is unreachable (%s)", type(exc).__name__, extra=fields)
            return database_unavailable()
        log.error("the database refused an action's write", exc_info=exc, extra=fields)
        return Unavailable("storage_failed", "The action could not be stored.")
    log.error("storing an action failed", exc_info=exc, extra=fields)
    return exc


def fields_of(write: Write) -> dict[str, Any]:
    """Log fields of a write: its table and the version it was meant to follow."""
    return {"table_id": write.table_id, "version": write.version - 1}


def resolve(answers: list[Answer]) -> None:
    """In the event loop: settle each write's future (a write whose waiter left is skipped)."""
    for write, error in answers:
        if write.done is None or write.done.done():
            continue
        if error is None:
            write.done.set_result(None)
        else:
            write.done.set_exception(error)
