"""Queries on players. Never commits: the caller owns the transaction."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import InstrumentedAttribute

from app.store.db import AsyncSession
from app.store.models import Player

Owner = TypeVar("Owner", bound=Hashable)  # a table id or a match id
SeatRow = tuple[int, Player]


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


async def seated(
    session: AsyncSession,
    owner: InstrumentedAttribute[Any],
    seat: InstrumentedAttribute[int],
    player_id: InstrumentedAttribute[str],
    owners: Iterable[Owner],
) -> dict[Owner, list[SeatRow]]:
    """For each owner (a table's or a match's id, in a seats model's ``owner`` column), its
    ``(seat, player)`` rows in seat order, in one query."""
    wanted = set(owners)
    result: dict[Owner, list[SeatRow]] = defaultdict(list)
    if not wanted:
        return result
    query = (
        select(owner, seat, Player)
        .join(Player, Player.id == player_id)
        .where(owner.in_(wanted))
        .order_by(owner, seat)
    )
    for key, number, player in await session.execute(query):
        result[key].append((number, player))
    return result
