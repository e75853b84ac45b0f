"""Queries on players. Never commits: the caller owns the transaction."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from typing import Any, TypeVar

from sqlalchemy import delete, select
from sqlalchemy.orm import InstrumentedAttribute

from app.store.db import AsyncSession
from app.store.models import Player, PlayerToken

Owner = TypeVar("Owner", bound=Hashable)  # a table id or a match id
SeatRow = tuple[int, Player]


async def add_player(
    session: AsyncSession, player_id: str, name: str, token_hash: str | None
) -> Player:
    """Add a guest player whose bearer token hashes to ``token_hash`` (None: no token, as for
    a computer player)."""
    player = Player(id=player_id, name=name)
    session.add(player)
    await session.flush()
    if token_hash is not None:
        await add_token(session, player_id, token_hash)
    return player


async def add_token(session: AsyncSession, player_id: str, token_hash: str) -> None:
    """Give the player one more bearer token (a device signing in)."""
    session.add(PlayerToken(token_hash=token_hash, player_id=player_id))
    await session.flush()


async def token_owner(session: AsyncSession, token_hash: str) -> tuple[str, Player] | None:
    """The stored hash and the player holding the token with this hash, if any."""
    query = (
        select(PlayerToken.token_hash, Player)
        .join(Player, Player.id == PlayerToken.player_id)
        .where(PlayerToken.token_hash == token_hash)
    )
    row = (await session.execute(query)).first()
    return None if row is None else (row[0], row[1])


async def revoke_token(session: AsyncSession, token_hash: str) -> None:
    """Forget one token (signing out on one device)."""
    await session.execute(delete(PlayerToken).where(PlayerToken.token_hash == token_hash))


async def revoke_all_tokens(session: AsyncSession, player_id: str) -> None:
    """Forget every token of the player (signed out everywhere)."""
    await session.execute(delete(PlayerToken).where(PlayerToken.player_id == player_id))


async def player_by_handle_key(session: AsyncSession, handle_key: str) -> Player | None:
    """The account whose handle has this skeleton, if any."""
    return await session.scalar(select(Player).where(Player.handle_key == handle_key))


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


async def all_accounts(session: AsyncSession, player_ids: Iterable[str]) -> bool:
    """True when every one of these players is an account (not a guest, not deleted; a
    computer player is never one)."""
    wanted = set(player_ids)
    query = select(Player).where(Player.id.in_(wanted))
    found = [p for p in await session.scalars(query) if p.is_account and p.deleted_at is None]
    return len(found) == len(wanted)
