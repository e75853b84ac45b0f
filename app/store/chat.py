"""Queries on table chat: messages, reports, mutes and a table's chat options. Never commits:
the caller owns the transaction."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import delete, select

from app.store.db import AsyncSession
from app.store.models import ChatMessage, ChatMute, ChatReport, ChatSetting


async def add_message(
    session: AsyncSession,
    table_id: str,
    room: str,
    sender_id: str,
    sender_name: str,
    *,
    phrase: str | None = None,
    text: str | None = None,
) -> ChatMessage:
    """Store one line; its ``id`` (the chat sequence) is set on return."""
    message = ChatMessage(
        table_id=table_id,
        room=room,
        sender_id=sender_id,
        sender_name=sender_name,
        phrase=phrase,
        text=text,
    )
    session.add(message)
    await session.flush()
    return message


async def recent_messages(
    session: AsyncSession, table_id: str, rooms: Iterable[str], limit: int
) -> list[ChatMessage]:
    """The table's last ``limit`` lines in ``rooms``, oldest first."""
    query = (
        select(ChatMessage)
        .where(ChatMessage.table_id == table_id, ChatMessage.room.in_(list(rooms)))
        .order_by(ChatMessage.id.desc())
        .limit(limit)
    )
    return list(reversed(list(await session.scalars(query))))


async def get_message(session: AsyncSession, message_id: int) -> ChatMessage | None:
    """One line by its sequence number."""
    return await session.get(ChatMessage, message_id)


async def add_report(session: AsyncSession, message: ChatMessage, reporter_id: str) -> bool:
    """Keep a copy of ``message`` reported by ``reporter_id``; False when it had already
    reported it (nothing added)."""
    found = await session.scalar(
        select(ChatReport.id).where(
            ChatReport.message_id == message.id, ChatReport.reporter_id == reporter_id
        )
    )
    if found is not None:
        return False
    session.add(
        ChatReport(
            message_id=message.id,
            reporter_id=reporter_id,
            table_id=message.table_id,
            sender_id=message.sender_id,
            room=message.room,
            phrase=message.phrase,
            text=message.text,
        )
    )
    await session.flush()
    return True


async def reports(session: AsyncSession, limit: int = 100) -> list[ChatReport]:
    """The latest reports, newest first (for an operator)."""
    query = select(ChatReport).order_by(ChatReport.id.desc()).limit(limit)
    return list(await session.scalars(query))


async def muted_by(session: AsyncSession, table_id: str, player_id: str) -> set[str]:
    """The players whose lines ``player_id`` has muted at this table."""
    query = select(ChatMute.muted_id).where(
        ChatMute.table_id == table_id, ChatMute.player_id == player_id
    )
    return set(await session.scalars(query))


async def is_muted(session: AsyncSession, table_id: str, player_id: str, muted_id: str) -> bool:
    """Whether ``player_id`` has muted ``muted_id`` at this table."""
    found = await session.scalar(
        select(ChatMute.muted_id).where(
            ChatMute.table_id == table_id,
            ChatMute.player_id == player_id,
            ChatMute.muted_id == muted_id,
        )
    )
    return found is not None


async def set_mute(
    session: AsyncSession, table_id: str, player_id: str, muted_id: str, muted: bool
) -> None:
    """Mute (or unmute) ``muted_id`` for ``player_id`` at this table; idempotent."""
    await session.execute(
        delete(ChatMute).where(
            ChatMute.table_id == table_id,
            ChatMute.player_id == player_id,
            ChatMute.muted_id == muted_id,
        )
    )
    if muted:
        session.add(ChatMute(table_id=table_id, player_id=player_id, muted_id=muted_id))
        await session.flush()


async def word_filter(session: AsyncSession, table_id: str) -> bool:
    """Whether the table's free text passes through the word filter."""
    return bool(
        await session.scalar(
            select(ChatSetting.word_filter).where(ChatSetting.table_id == table_id)
        )
    )


async def set_word_filter(session: AsyncSession, table_id: str, on: bool) -> None:
    """Turn the table's word filter on or off."""
    setting = await session.get(ChatSetting, table_id)
    if setting is None:
        session.add(ChatSetting(table_id=table_id, word_filter=on))
    else:
        setting.word_filter = on
    await session.flush()
