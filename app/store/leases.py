"""Queries on leases: which worker owns a table (a pool, an event), until when, and its
fencing epoch. The lease queries every kind of row shares (``take``, ``extend``, ``fence``,
``give_up``) are given the row's key column (``Table.id``, ``PoolLease.pool_id``,
``Tournament.id``); the row carries ``owner``, ``lease_until`` and ``lease_epoch``.

The lease lives in the table's own row (``owner``, ``lease_until``, ``lease_epoch``), so that
taking it and committing an action contend for one row lock: once a new owner's acquisition
has committed, no commit fenced with the former epoch can match the row any more, and a commit
that got in first is seen by the new owner's load. Times are seconds since the epoch, given by
the caller (the service's clock), so tests need no waiting. Never commits.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import and_, or_, select, tuple_, update
from sqlalchemy.orm import InstrumentedAttribute

from app.store.db import AsyncSession
from app.store.models import Table


async def take(
    session: AsyncSession,
    key: InstrumentedAttribute[Any],
    value: str,
    owner: str,
    now: float,
    seconds: float,
) -> int | None:
    """Take the lease of the row whose ``key`` is ``value`` for ``owner`` until ``now +
    seconds`` when nobody holds it, its holder let it run out, or ``owner`` holds it already;
    a new epoch every time. The epoch, or None when another worker holds it (or there is no
    such row)."""
    row = key.class_
    taken = await session.execute(
        update(row)
        .where(
            key == value,
            or_(row.owner.is_(None), row.lease_until < now, row.owner == owner),
        )
        .values(owner=owner, lease_until=now + seconds, lease_epoch=row.lease_epoch + 1)
        .returning(row.lease_epoch)
    )
    epoch: int | None = taken.scalar_one_or_none()
    return epoch


def _held(key: InstrumentedAttribute[Any], value: str, owner: str, epoch: int) -> Any:
    """The condition that ``owner`` still holds the row's lease at ``epoch``."""
    row = key.class_
    return and_(key == value, row.owner == owner, row.lease_epoch == epoch)


async def extend(
    session: AsyncSession,
    key: InstrumentedAttribute[Any],
    value: str,
    owner: str,
    epoch: int,
    now: float,
    seconds: float,
) -> bool:
    """Extend the lease ``owner`` holds at ``epoch``; False when it was taken over."""
    renewed = await session.execute(
        update(key.class_)
        .where(_held(key, value, owner, epoch))
        .values(lease_until=now + seconds)
        .returning(key)
    )
    return renewed.scalar_one_or_none() is not None


async def fence(
    session: AsyncSession, key: InstrumentedAttribute[Any], value: str, owner: str, epoch: int
) -> bool:
    """Lock the row if ``owner`` still holds its lease at ``epoch`` (the first write of each
    of the owner's transactions); False when it was taken over."""
    row = key.class_
    held = await session.execute(
        update(row)
        .where(_held(key, value, owner, epoch))
        .values(lease_epoch=row.lease_epoch)
        .returning(key)
    )
    return held.scalar_one_or_none() is not None


async def give_up(
    session: AsyncSession, key: InstrumentedAttribute[Any], value: str, owner: str, epoch: int
) -> None:
    """Give the lease up (the worker lets the row go); a no-op once taken over."""
    await session.execute(
        update(key.class_)
        .where(_held(key, value, owner, epoch))
        .values(owner=None, lease_until=None)
    )


async def acquire(
    session: AsyncSession, table_id: str, owner: str, now: float, seconds: float
) -> int | None:
    """Take the table's lease for ``owner`` (``take``): also a table it dropped and loads
    again. The epoch, or None when another worker holds it (or there is no such table)."""
    return await take(session, Table.id, table_id, owner, now, seconds)


async def renew(
    session: AsyncSession,
    owner: str,
    held: Iterable[tuple[str, int]],
    now: float,
    seconds: float,
) -> set[str]:
    """Extend every lease ``owner`` still holds at the given ``(table_id, epoch)``; the ids
    renewed (a table missing from the answer was taken over: this worker must let it go)."""
    pairs = list(held)
    if not pairs:
        return set()
    renewed = await session.execute(
        update(Table)
        .where(Table.owner == owner, tuple_(Table.id, Table.lease_epoch).in_(pairs))
        .values(lease_until=now + seconds)
        .returning(Table.id)
    )
    return set(renewed.scalars())


async def release(session: AsyncSession, table_id: str, owner: str, epoch: int) -> None:
    """Give the lease up (the table left this worker's memory); a no-op once taken over."""
    await give_up(session, Table.id, table_id, owner, epoch)


async def holder(session: AsyncSession, table_id: str, now: float) -> str | None:
    """The worker whose lease on the table is running at ``now``, or None."""
    found = await session.execute(
        select(Table.owner).where(
            Table.id == table_id, Table.owner.is_not(None), Table.lease_until >= now
        )
    )
    return found.scalar_one_or_none()


async def holders(session: AsyncSession, table_ids: Iterable[str], now: float) -> dict[str, str]:
    """For each of these tables whose lease is running at ``now``, its owner."""
    wanted = list(table_ids)
    if not wanted:
        return {}
    found = await session.execute(
        select(Table.id, Table.owner).where(
            Table.id.in_(wanted), Table.owner.is_not(None), Table.lease_until >= now
        )
    )
    return {table_id: owner for table_id, owner in found if owner is not None}


async def orphans(session: AsyncSession, now: float, limit: int = 100) -> list[str]:
    """Live tables whose owner stopped renewing (it died): their matches wait for a new
    owner. A lease given up on purpose (``release``) leaves no orphan."""
    found = await session.scalars(
        select(Table.id)
        .where(
            Table.status == "live",
            and_(Table.owner.is_not(None), Table.lease_until < now),
        )
        .limit(limit)
    )
    return list(found)
