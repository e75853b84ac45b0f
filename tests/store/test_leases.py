"""Table leases on SQLite and PostgreSQL: one owner at a time, taken over only once its
holder stops renewing, and every commit fenced by the epoch of the lease its writer holds."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.store import leases
from app.store import tables as table_store
from app.store.db import create_engine, session_factory
from tests.store.test_store import bump, seed_match, seed_table

LEASE = 5.0  # seconds


@pytest.fixture
async def sessions(database_url: str) -> AsyncIterator[Any]:
    engine = create_engine(database_url)
    yield session_factory(engine)
    await engine.dispose()


async def test_the_lease_moves_only_after_its_owner_stops_renewing(sessions: Any) -> None:
    async with sessions.begin() as session:
        await seed_table(session)
    async with sessions.begin() as session:
        dropped = await leases.acquire(session, "t1", "worker-a", 99.0, LEASE)
        # The owner loads the table again (it evicted it, its release not yet stored).
        first = await leases.acquire(session, "t1", "worker-a", 100.0, LEASE)
        assert await leases.acquire(session, "t1", "worker-b", 101.0, LEASE) is None
    assert dropped is not None and first is not None and first > dropped
    async with sessions.begin() as session:
        # The owner renews at 104: another worker still cannot take it at 108.
        assert await leases.renew(session, "worker-a", [("t1", first)], 104.0, LEASE) == {"t1"}
        assert await leases.acquire(session, "t1", "worker-b", 108.0, LEASE) is None
        assert await leases.holder(session, "t1", 108.0) == "worker-a"
        assert await leases.orphans(session, 108.0) == []
    # worker-a stops renewing (it died): past 109 its lease has run out.
    async with sessions.begin() as session:
        assert await leases.holder(session, "t1", 109.5) is None
        second = await leases.acquire(session, "t1", "worker-b", 109.5, LEASE)
    assert second is not None and second > first
    async with sessions.begin() as session:
        assert await leases.holder(session, "t1", 110.0) == "worker-b"
        # The former owner's renewal finds nothing: it must let the table go.
        assert await leases.renew(session, "worker-a", [("t1", first)], 110.0, LEASE) == set()
        assert await leases.holder(session, "t1", 110.0) == "worker-b"


async def test_a_stale_owners_commit_is_refused(sessions: Any) -> None:
    async with sessions.begin() as session:
        await seed_match(session)
    async with sessions.begin() as session:
        first = await leases.acquire(session, "t1", "worker-a", 100.0, LEASE)
    assert first is not None
    async with sessions.begin() as session:
        assert await bump(session, [("t1", 0)], epoch=first) == 1
    async with sessions.begin() as session:
        second = await leases.acquire(session, "t1", "worker-b", 200.0, LEASE)
    assert second is not None
    # worker-a still believes it owns the table at version 1: its step is refused, though
    # the version matches; the new owner's goes through.
    async with sessions.begin() as session:
        assert await bump(session, [("t1", 1)], epoch=first) == 0
        assert await bump(session, [("t1", 1)], epoch=second) == 1
    async with sessions() as session:
        assert (await table_store.get_table(session, "t1")).version == 2


async def test_a_released_lease_is_free_and_leaves_no_orphan(sessions: Any) -> None:
    async with sessions.begin() as session:
        await seed_match(session)
        await table_store.set_status(session, "t1", "live")
    async with sessions.begin() as session:
        epoch = await leases.acquire(session, "t1", "worker-a", 100.0, LEASE)
    assert epoch is not None
    async with sessions() as session:
        assert await leases.orphans(session, 200.0) == ["t1"]  # its owner went silent
    async with sessions.begin() as session:
        await leases.release(session, "t1", "worker-a", epoch)
    async with sessions.begin() as session:
        assert await leases.orphans(session, 200.0) == []
        assert await leases.holder(session, "t1", 100.0) is None
        assert await leases.acquire(session, "t1", "worker-b", 100.0, LEASE) == epoch + 1
