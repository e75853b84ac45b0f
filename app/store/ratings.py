"""Queries on ratings. The writes are synchronous: they run inside the group commit's
transaction that stores a match's result (see ``players.ratings.rating_step``). Never
commits."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, func, insert, select, update

from app.store.db import AsyncSession
from app.store.matches import visible_to
from app.store.models import Match, MatchSeat, Player, Rating, RatingChange, utcnow


@dataclass(frozen=True)
class Change:
    """One player's rating before and after a match."""

    player_id: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


def claim_rating(connection: Connection, match_id: int) -> bool:
    """Mark a rated match's rating as applied; False when it is not rated or already was
    (the marker that makes a match rate at most once)."""
    result = connection.execute(
        update(Match)
        .where(Match.id == match_id, Match.rated.is_(True), Match.rating_applied.is_(False))
        .values(rating_applied=True)
    )
    return result.rowcount == 1


def match_options(connection: Connection, match_id: int) -> dict[str, Any]:
    """The house-rule options a match was stored with."""
    options = connection.scalar(select(Match.rules).where(Match.id == match_id))
    return dict(options or {})


def match_players(connection: Connection, match_id: int) -> dict[int, str]:
    """Seat -> player id of a match."""
    query = select(MatchSeat.seat, MatchSeat.player_id).where(MatchSeat.match_id == match_id)
    return {seat: player_id for seat, player_id in connection.execute(query)}


def current_ratings(
    connection: Connection, family: str, player_ids: Iterable[str]
) -> dict[str, tuple[float, float]]:
    """The players' ratings in a family that exist, as ``(mu, sigma)``, locked for this
    transaction on PostgreSQL (two workers finishing two matches of one player take turns)."""
    query = (
        select(Rating.player_id, Rating.mu, Rating.sigma)
        .where(Rating.family == family, Rating.player_id.in_(list(player_ids)))
        .with_for_update()
    )
    return {pid: (mu, sigma) for pid, mu, sigma in connection.execute(query)}


def save_ratings(
    connection: Connection, match_id: int, family: str, changes: list[Change], exists: set[str]
) -> None:
    """Store the players' new ratings (``exists``: those who had one) and the changes."""
    now = utcnow()
    for change in changes:
        if change.player_id in exists:
            connection.execute(
                update(Rating)
                .where(Rating.player_id == change.player_id, Rating.family == family)
                .values(
                    mu=change.mu_after,
                    sigma=change.sigma_after,
                    matches=Rating.matches + 1,
                    updated_at=now,
                )
            )
        else:
            connection.execute(
                insert(Rating).values(
                    player_id=change.player_id,
                    family=family,
                    mu=change.mu_after,
                    sigma=change.sigma_after,
                    matches=1,
                    updated_at=now,
                )
            )
    connection.execute(
        insert(RatingChange),
        [
            {
                "match_id": match_id,
                "player_id": c.player_id,
                "family": family,
                "mu_before": c.mu_before,
                "sigma_before": c.sigma_before,
                "mu_after": c.mu_after,
                "sigma_after": c.sigma_after,
                "created_at": now,
            }
            for c in changes
        ],
    )


async def ratings_of(session: AsyncSession, player_id: str) -> list[Rating]:
    """A player's ratings, one per family played rated."""
    query = select(Rating).where(Rating.player_id == player_id).order_by(Rating.family)
    return list(await session.scalars(query))


async def recent_changes(
    session: AsyncSession, player_id: str, family: str, limit: int
) -> list[RatingChange]:
    """A player's last rating changes in a family, newest first (a profile's trend), from
    the matches anyone may see (a private table's kept from history names none)."""
    query = (
        select(RatingChange)
        .join(Match, Match.id == RatingChange.match_id)
        .where(
            RatingChange.player_id == player_id,
            RatingChange.family == family,
            visible_to(None),
        )
        .order_by(RatingChange.match_id.desc())
        .limit(limit)
    )
    return list(await session.scalars(query))


async def leaderboard(
    session: AsyncSession,
    family: str,
    min_matches: int,
    after: tuple[float, str] | None,
    limit: int,
) -> list[tuple[Rating, Player]]:
    """Ratings of a family, best first (ties by player id), of players with at least
    ``min_matches`` rated matches who are not deleted; ``after`` is the last row's
    ``(mu, player_id)`` of the previous page."""
    query = (
        select(Rating, Player)
        .join(Player, Player.id == Rating.player_id)
        .where(
            Rating.family == family,
            Rating.matches >= min_matches,
            Player.deleted_at.is_(None),
        )
        .order_by(Rating.mu.desc(), Rating.player_id)
        .limit(limit)
    )
    if after is not None:
        mu, player_id = after
        query = query.where((Rating.mu < mu) | and_(Rating.mu == mu, Rating.player_id > player_id))
    return [(rating, player) for rating, player in await session.execute(query)]


async def rank_of(session: AsyncSession, family: str, min_matches: int, mu: float) -> int:
    """The place a rating of ``mu`` holds on the family's leaderboard (1 for the best)."""
    query = (
        select(func.count())
        .select_from(Rating)
        .join(Player, Player.id == Rating.player_id)
        .where(
            Rating.family == family,
            Rating.matches >= min_matches,
            Player.deleted_at.is_(None),
            Rating.mu > mu,
        )
    )
    return int(await session.scalar(query) or 0) + 1
