"""Queries on what a match seed is made of: a table's next server seed and the seats'
contributions (docs/fairness.md). Never commits; every value here is secret until its match
is over."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select, update

from app.store.db import AsyncSession
from app.store.models import Match, OfferedSeed, Table, TableSeat


async def next_seed(session: AsyncSession, table_id: str) -> str | None:
    """The server's seed for the table's next match (None: none drawn yet)."""
    return await session.scalar(select(Table.next_seed).where(Table.id == table_id))


async def set_next_seed(session: AsyncSession, table_id: str, seed: str) -> None:
    """Keep the server's seed for the table's next match."""
    await session.execute(update(Table).where(Table.id == table_id).values(next_seed=seed))


async def set_contribution(session: AsyncSession, table_id: str, seat: int, value: str) -> None:
    """Keep a seated player's contribution to the next match's seed."""
    await session.execute(
        update(TableSeat)
        .where(TableSeat.table_id == table_id, TableSeat.seat == seat)
        .values(contribution=value)
    )


async def contributions_of(session: AsyncSession, table_id: str) -> dict[int, str]:
    """Every seat's stored contribution (seats that sent none are left out)."""
    rows = await session.execute(
        select(TableSeat.seat, TableSeat.contribution).where(
            TableSeat.table_id == table_id, TableSeat.contribution.is_not(None)
        )
    )
    return {seat: value for seat, value in rows if value is not None}


async def clear_contributions(session: AsyncSession, table_id: str) -> None:
    """Forget the seats' contributions once a match has used them."""
    await session.execute(
        update(TableSeat).where(TableSeat.table_id == table_id).values(contribution=None)
    )


async def set_match_parts(
    session: AsyncSession, match_id: int, server_seed: str, contributions: list[dict[str, Any]]
) -> None:
    """Record what a match's seed was made of (published once the match is over)."""
    await session.execute(
        update(Match)
        .where(Match.id == match_id)
        .values(server_seed=server_seed, contributions=contributions)
    )


async def offer_seed(session: AsyncSession, player_id: str, seed: str) -> None:
    """Keep a server seed for the next table this player opens (replacing an older one)."""
    await session.execute(delete(OfferedSeed).where(OfferedSeed.player_id == player_id))
    session.add(OfferedSeed(player_id=player_id, seed=seed))
    await session.flush()


async def take_offered_seed(session: AsyncSession, player_id: str) -> str | None:
    """The seed offered to this player, removed from the offers (None: there is none)."""
    seed = await session.scalar(select(OfferedSeed.seed).where(OfferedSeed.player_id == player_id))
    if seed is not None:
        await session.execute(delete(OfferedSeed).where(OfferedSeed.player_id == player_id))
    return seed
