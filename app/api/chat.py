"""Table chat on the table's socket (``chat*`` messages, docs/protocol.md "Chat") and its
wiring into the application.

The socket route hands every message whose type starts with ``chat`` to ``answer`` and calls
``leave`` when the socket closes; the service (``app.chat.service``) does the rest.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from limits.aio.strategies import MovingWindowRateLimiter

from app.api.limits import AddressLimit, Limits
from app.chat.service import ChatService, Reader, Table
from app.services import Services
from app.settings import Settings
from app.store.db import session_factory


async def install(
    app: FastAPI, settings: Settings, services: Services
) -> Callable[[], Awaitable[None]]:
    """Build the chat service into ``app.state.chat`` (with its Redis channel when
    ``REDIS_URL`` is set); returns what stops it."""
    limits: Limits = app.state.limits
    # Mutes and reports are counted like lines (CHAT_MESSAGES_PER_MINUTE per player), each
    # apart: every one is a write to the database.
    limiter = MovingWindowRateLimiter(limits.storage)
    per_minute = settings.chat_messages_per_minute
    chat = ChatService(
        session_factory(services.engine),
        limits.chat,
        mutes=AddressLimit("chat_mutes", per_minute, limiter),
        reports=AddressLimit("chat_reports", per_minute, limiter),
        max_length=settings.chat_max_length,
        history=settings.chat_history,
    )
    app.state.chat = chat
    bus = chat.connect_bus(settings.redis_url) if settings.redis_url else None
    if bus is not None:
        await bus.start()

    async def stop() -> None:
        if bus is not None:
            await bus.close()

    return stop


def get_chat(request: Request) -> ChatService:
    """The application's chat service."""
    chat: ChatService = request.app.state.chat
    return chat


ChatDep = Annotated[ChatService, Depends(get_chat)]


def reference(message: dict[str, Any]) -> str | int | None:
    """The client's ``id`` of a message, echoed in the answer (null unless a string or an
    integer)."""
    ref = message.get("id")
    return ref if isinstance(ref, (str, int)) and not isinstance(ref, bool) else None


async def answer(
    chat: ChatService, connection: Reader, table: Table, message: dict[str, Any]
) -> None:
    """One ``chat*`` message of a greeted connection; a refusal raises ``ServiceError``."""
    if message["type"] == "chat_join":
        await chat.join(connection, table)
        return
    await chat.handle(chat.listener_of(connection), message, reference(message))
