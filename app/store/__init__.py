"""Persistence: SQLAlchemy models and query functions. Never commits on its own.

Query modules: ``players``, ``tables``, ``matches``, ``ratings``, ``chat``. ``db`` builds
engines and sessions.
"""

from app.store.models import (
    ActionRecord,
    Base,
    ChatMessage,
    ChatMute,
    ChatReport,
    ChatSetting,
    Match,
    MatchSeat,
    Player,
    PlayerToken,
    Rating,
    RatingChange,
    Table,
    TableSeat,
)

__all__ = [
    "ActionRecord",
    "Base",
    "ChatMessage",
    "ChatMute",
    "ChatReport",
    "ChatSetting",
    "Match",
    "MatchSeat",
    "Player",
    "PlayerToken",
    "Rating",
    "RatingChange",
    "Table",
    "TableSeat",
]
