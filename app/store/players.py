"""Queries on players. Never commits: the caller owns the transaction."""

from __future__ import annotations

from sqlalchemy import select

from app.store.db import AsyncSession
from app.store.models import Player


async def add_player(session: AsyncSession, player_id: str, name: str, token_hash: str) -> Player:
    """Add a guest player whose bearer token hashes to ``token_hash``."""
    player = Player(id=player_id, name=name, token_hash=token_hash)
    session.add(player)
    await session.flush()
    return player


async def player_by_token_hash(session: AsyncSession, token_hash: str) -> Player | None:
    """The player holding the token with this hash, if any."""
    return await session.scalar(select(Player).where(Player.token_hash == token_hash))


async def get_player(session: AsyncSession, player_id: str) -> Player | None:
    """One player by id."""
    return await session.get(Player, player_id)
