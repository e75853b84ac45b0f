"""Who is a computer player: the ids and names of bot players.

A bot player is an ordinary ``players`` row whose id names its level and seat
(``bot.hard.1``); nobody holds its token.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.bots import LEVELS
from app.store import players as player_store
from app.store.db import AsyncSession

BOT_PREFIX = "bot."


def bot_player_id(level: str, seat: int) -> str:
    """The id of the bot player of ``level`` for ``seat`` (no random id contains a dot)."""
    return f"{BOT_PREFIX}{level}.{seat}"


def bot_level(player_id: str | None) -> str | None:
    """The level of a bot player, or None for a human."""
    if player_id is None or not player_id.startswith(BOT_PREFIX):
        return None
    level = player_id[len(BOT_PREFIX) :].split(".", 1)[0]
    return level if level in LEVELS else None


def bot_name(level: str) -> str:
    """The name a bot player shows at the table."""
    return f"Computer ({level})"


async def ensure_bot_players(
    sessions: async_sessionmaker[AsyncSession], bots: Mapping[int, str]
) -> None:
    """Create the bot players these seats (seat -> level) need, once."""
    for seat, level in bots.items():
        bot_id = bot_player_id(level, seat)
        async with sessions() as session:
            if await player_store.get_player(session, bot_id) is not None:
                continue
        try:
            async with sessions.begin() as session:
                await player_store.add_player(session, bot_id, bot_name(level), None)
        except IntegrityError:
            pass  # created at the same moment by another request
