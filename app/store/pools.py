"""Queries on pools: the entries waiting, the table each player was last seated at, and each
pool's lease with its fencing epoch.

A pool's lease is a row of its own (``pool_leases``), taken, renewed and fenced as a table's
is (``app/store/leases.py``): a seating's transaction first touches the lease row with the
epoch its writer holds, so that once another worker has taken the pool over, no seating of
the former owner can commit. Times are seconds since the epoch, given by the caller. Never
commits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from app.store import leases
from app.store.db import AsyncSession
from app.store.models import PoolEntry, PoolLease, PoolSeating

# -- entries ---------------------------------------------------------------------------------


async def entry_of(session: AsyncSession, player_id: str) -> PoolEntry | None:
    """The player's entry, in whatever pool."""
    return await session.get(PoolEntry, player_id)


async def add_entry(session: AsyncSession, entry: PoolEntry) -> None:
    """Enter a player (its row must not exist: one pool per player)."""
    session.add(entry)
    await session.flush()


async def remove_entry(session: AsyncSession, player_id: str) -> bool:
    """Take the player out of its pool; False when it was in none."""
    gone = await session.execute(delete(PoolEntry).where(PoolEntry.player_id == player_id))
    return bool(getattr(gone, "rowcount", 0))


async def entries_in(session: AsyncSession, pool_id: str) -> list[PoolEntry]:
    """Every entry waiting in the pool, the longest waiting first."""
    found = await session.scalars(
        select(PoolEntry).where(PoolEntry.pool_id == pool_id).order_by(PoolEntry.joined_at)
    )
    return list(found)


async def waiting_counts(session: AsyncSession) -> dict[str, int]:
    """How many wait in each pool that has anyone waiting."""
    found = await session.execute(
        select(PoolEntry.pool_id, func.count()).group_by(PoolEntry.pool_id)
    )
    return {pool_id: int(count) for pool_id, count in found}


async def take_entries(session: AsyncSession, entry_ids: Sequence[str]) -> bool:
    """Delete these entries if every one is still there; False (and nothing to keep: the
    caller rolls back) when any was taken out or seated meanwhile."""
    gone = await session.execute(delete(PoolEntry).where(PoolEntry.id.in_(list(entry_ids))))
    return getattr(gone, "rowcount", 0) == len(set(entry_ids))


async def drop_entries(session: AsyncSession, entry_ids: Iterable[str]) -> int:
    """Delete these entries where they still are (players gone offline); how many."""
    wanted = list(entry_ids)
    if not wanted:
        return 0
    gone = await session.execute(delete(PoolEntry).where(PoolEntry.id.in_(wanted)))
    return int(getattr(gone, "rowcount", 0))


# -- seatings --------------------------------------------------------------------------------


async def seating_of(session: AsyncSession, player_id: str) -> PoolSeating | None:
    """The table a pool last seated the player at."""
    return await session.get(PoolSeating, player_id)


async def record_seating(
    session: AsyncSession,
    pool_id: str,
    table_id: str,
    joined: Mapping[str, float],
    now: float,
) -> None:
    """Remember, for every player of a new table (with when it joined), the table, how long
    it waited and who it sat with."""
    players = list(joined)
    await session.execute(delete(PoolSeating).where(PoolSeating.player_id.in_(players)))
    for player_id in players:
        session.add(
            PoolSeating(
                player_id=player_id,
                pool_id=pool_id,
                table_id=table_id,
                seated_at=now,
                waited=now - joined[player_id],
                opponents=[other for other in players if other != player_id],
            )
        )
    await session.flush()


async def seatings_in(session: AsyncSession, pool_id: str, since: float) -> list[PoolSeating]:
    """The seatings the pool made since ``since`` (a new owner's look at its last tables)."""
    found = await session.scalars(
        select(PoolSeating).where(PoolSeating.pool_id == pool_id, PoolSeating.seated_at >= since)
    )
    return list(found)


# -- the pool's lease ------------------------------------------------------------------------


async def acquire(
    session: AsyncSession, pool_id: str, owner: str, now: float, seconds: float
) -> int | None:
    """Take the pool's lease for ``owner`` until ``now + seconds`` when nobody holds it, its
    holder let it run out, or ``owner`` holds it already; a new epoch every time. The epoch,
    or None while another worker holds it."""
    epoch = await leases.take(session, PoolLease.pool_id, pool_id, owner, now, seconds)
    if epoch is not None or await session.get(PoolLease, pool_id) is not None:
        return epoch
    try:  # the pool's first lease: its row
        async with session.begin_nested():
            session.add(PoolLease(pool_id=pool_id, owner=owner, lease_until=now + seconds))
    except IntegrityError:  # another worker made it first, and holds it
        return None
    return 0


async def renew(
    session: AsyncSession, pool_id: str, owner: str, epoch: int, now: float, seconds: float
) -> bool:
    """Extend the lease ``owner`` holds at ``epoch``; False when it was taken over."""
    return await leases.extend(session, PoolLease.pool_id, pool_id, owner, epoch, now, seconds)


async def fence(session: AsyncSession, pool_id: str, owner: str, epoch: int) -> bool:
    """Lock the pool's lease row if ``owner`` still holds it at ``epoch`` (the first write of
    a seating's transaction); False when the pool was taken over."""
    return await leases.fence(session, PoolLease.pool_id, pool_id, owner, epoch)


async def release(session: AsyncSession, pool_id: str, owner: str, epoch: int) -> None:
    """Give the lease up (the worker stops); a no-op once taken over."""
    await leases.give_up(session, PoolLease.pool_id, pool_id, owner, epoch)
