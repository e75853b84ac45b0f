"""Queries on match analyses (``MatchAnalysis`` rows)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update

from app.store.db import AsyncSession
from app.store.models import MatchAnalysis, utcnow


async def get_analysis(session: AsyncSession, match_id: int) -> MatchAnalysis | None:
    """The match's analysis row, if it was asked for."""
    return await session.get(MatchAnalysis, match_id)


async def statuses(session: AsyncSession, match_ids: list[int]) -> dict[int, str]:
    """How the analysis of each of these matches stands (matches nobody asked about: absent)."""
    if not match_ids:
        return {}
    query = select(MatchAnalysis.match_id, MatchAnalysis.status).where(
        MatchAnalysis.match_id.in_(match_ids)
    )
    return {row[0]: row[1] for row in await session.execute(query)}


async def add_analysis(session: AsyncSession, match_id: int, player_id: str) -> None:
    """Queue a match's analysis for ``player_id`` (a second one for the match is refused by
    the primary key)."""
    session.add(MatchAnalysis(match_id=match_id, requested_by=player_id, status="queued"))
    await session.flush()


async def asked_since(session: AsyncSession, player_id: str, since: datetime) -> int:
    """How many analyses the player has asked for since ``since``."""
    query = select(func.count()).where(
        MatchAnalysis.requested_by == player_id, MatchAnalysis.requested_at >= since
    )
    return int(await session.scalar(query) or 0)


async def set_analysis(
    session: AsyncSession, match_id: int, status: str, moves: list[Any] | None = None
) -> None:
    """Record how a match's analysis stands (``done`` and ``failed`` are final)."""
    final = status in ("done", "failed")
    values: dict[str, Any] = {"status": status, "moves": moves}
    if final:
        values["finished_at"] = utcnow()
    await session.execute(
        update(MatchAnalysis).where(MatchAnalysis.match_id == match_id).values(**values)
    )


async def unfinished(session: AsyncSession) -> list[tuple[int, str]]:
    """``(match_id, requested_by)`` of every analysis queued or under way, oldest first."""
    query = (
        select(MatchAnalysis.match_id, MatchAnalysis.requested_by)
        .where(MatchAnalysis.status.in_(("queued", "running")))
        .order_by(MatchAnalysis.requested_at)
    )
    return [(row[0], row[1]) for row in await session.execute(query)]
