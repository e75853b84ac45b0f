"""What an operator does with table chat (``talon chat-reports``, ``talon chat-mute``): read
the reported lines, and mute a player at every table."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.common.errors import NotFound
from app.store import chat as chat_store
from app.store import players as player_store
from app.store.db import AsyncSession

# An operator's mute is stored as a mute "by everybody at every table".
EVERYWHERE = "*"


async def operator_mute(
    sessions: async_sessionmaker[AsyncSession], player_id: str, muted: bool
) -> None:
    """Mute (or unmute) a player in every table's chat: its lines are then refused with
    ``chat_muted``. ``NotFound`` for an unknown player."""
    async with sessions.begin() as session:
        if await player_store.get_player(session, player_id) is None:
            raise NotFound("player_not_found", "There is no such player.")
        await chat_store.set_mute(session, EVERYWHERE, EVERYWHERE, player_id, muted)


async def latest_reports(
    sessions: async_sessionmaker[AsyncSession], limit: int = 100
) -> list[dict[str, Any]]:
    """The latest reported lines, newest first, as an operator reads them."""
    async with sessions() as session:
        found = await chat_store.reports(session, limit)
    return [
        {
            "report": report.id,
            "reported_at": report.reported_at.isoformat(),
            "reporter_id": report.reporter_id,
            "table_id": report.table_id,
            "room": report.room,
            "seq": report.message_id,
            "sender_id": report.sender_id,
            "phrase": report.phrase,
            "text": report.text,
        }
        for report in found
    ]
