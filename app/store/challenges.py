"""Queries on challenges. Never commits: the caller owns the transaction.

A challenge leaves ``pending`` by one conditional update (``settle``), so that of two
requests racing to accept, decline or cancel the same challenge exactly one changes it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, or_, select, update

from app.store.db import AsyncSession
from app.store.models import Challenge

PENDING = "pending"


async def add_challenge(session: AsyncSession, **fields: Any) -> Challenge:
    """Add a pending challenge (``id``, ``challenger_id``, ``challenged_id``, ``variant``,
    ``options``, ``clock``, ``rated``, ``expires_at``)."""
    challenge = Challenge(status=PENDING, **fields)
    session.add(challenge)
    await session.flush()
    return challenge


async def get_challenge(session: AsyncSession, challenge_id: str) -> Challenge | None:
    """One challenge by id."""
    return await session.get(Challenge, challenge_id)


async def pending_of(
    session: AsyncSession, player_id: str, now: float, limit: int = 50
) -> list[Challenge]:
    """The challenges still pending at ``now`` that ``player_id`` made or received, newest
    first (at most ``limit``)."""
    query = (
        select(Challenge)
        .where(
            Challenge.status == PENDING,
            Challenge.expires_at > now,
            or_(Challenge.challenger_id == player_id, Challenge.challenged_id == player_id),
        )
        .order_by(Challenge.created_at.desc())
        .limit(limit)
    )
    return list(await session.scalars(query))


async def count_pending_from(session: AsyncSession, player_id: str, now: float) -> int:
    """How many of ``player_id``'s own challenges are still pending at ``now``."""
    query = select(func.count()).where(
        Challenge.challenger_id == player_id,
        Challenge.status == PENDING,
        Challenge.expires_at > now,
    )
    return int(await session.scalar(query) or 0)


async def settle(
    session: AsyncSession, challenge_id: str, status: str, now: float, **fields: Any
) -> bool:
    """Move a challenge still pending at ``now`` to ``status`` (with ``fields``, such as
    ``accepted_by`` and ``table_id``); False when it was no longer pending or had expired."""
    result = await session.execute(
        update(Challenge)
        .where(
            Challenge.id == challenge_id,
            Challenge.status == PENDING,
            Challenge.expires_at > now,
        )
        .values(status=status, **fields)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount == 1)  # type: ignore[attr-defined]
