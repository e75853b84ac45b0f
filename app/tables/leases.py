"""This worker's leases: which tables it owns while several workers share one database.

A worker owns a table while it holds the table's lease (``app/store/leases.py``): a row
naming the worker, a time it runs until, and an epoch that every acquisition moves up. The
owner renews its leases every third of ``seconds``; a worker that dies stops renewing, and
once its leases have run out another worker takes them over (each with a new epoch). Every
commit is fenced by the epoch its writer holds, so a former owner that has not noticed yet
(paused, cut off from the database) can never store anything: exclusivity rests on the
lease, safety on the fence.

Times come from ``clock`` (seconds since the epoch; the workers' clocks need only agree to
well within ``seconds``, and a wrong clock can cost availability, never correctness).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.store import leases as lease_store
from app.store.db import AsyncSession


class Leases:
    """Take, renew, look up and give up table leases for the worker ``worker``."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        worker: str,
        seconds: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.sessions = sessions
        self.worker = worker
        self.seconds = seconds
        self.clock = clock

    async def acquire(self, table_id: str) -> int | None:
        """Take the table's lease (free, run out, or already ours); its new epoch, or None
        while another worker holds it."""
        async with self.sessions.begin() as session:
            return await lease_store.acquire(
                session, table_id, self.worker, self.clock(), self.seconds
            )

    async def holder(self, table_id: str) -> str | None:
        """The worker holding the table's lease now, or None."""
        async with self.sessions() as session:
            return await lease_store.holder(session, table_id, self.clock())

    async def holders(self, table_ids: list[str]) -> dict[str, str]:
        """The worker holding each of these tables' leases now (tables nobody holds are
        missing)."""
        async with self.sessions() as session:
            return await lease_store.holders(session, table_ids, self.clock())

    async def renew(self, held: Mapping[str, int]) -> set[str]:
        """Extend each lease held (table id -> epoch); the ids this worker lost."""
        async with self.sessions.begin() as session:
            renewed = await lease_store.renew(
                session, self.worker, held.items(), self.clock(), self.seconds
            )
        return set(held) - renewed

    async def release(self, held: Mapping[str, int]) -> None:
        """Give these leases up (the tables left memory, or the worker stops)."""
        async with self.sessions.begin() as session:
            for table_id, epoch in held.items():
                await lease_store.release(session, table_id, self.worker, epoch)

    async def orphans(self) -> list[str]:
        """Live tables whose owner stopped renewing: their matches wait for a new owner."""
        async with self.sessions() as session:
            return await lease_store.orphans(session, self.clock())
