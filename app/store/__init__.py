"""Persistence: SQLAlchemy models and query functions. Never commits on its own.

Query modules: ``players``, ``passkeys``, ``tables``, ``matches``, ``ratings``, ``chat``,
``challenges``, ``pools``.
``db`` builds engines and sessions.
"""

from app.store.models import (
    ActionRecord,
    Base,
    Challenge,
    ChatMessage,
    ChatMute,
    ChatReport,
    ChatSetting,
    Match,
    MatchSeat,
    Passkey,
    PasskeyChallenge,
    Player,
    PlayerToken,
    PoolEntry,
    PoolLease,
    PoolSeating,
    Rating,
    RatingChange,
    Table,
    TableSeat,
)

__all__ = [
    "ActionRecord",
    "Base",
    "Challenge",
    "ChatMessage",
    "ChatMute",
    "ChatReport",
    "ChatSetting",
    "Match",
    "MatchSeat",
    "Passkey",
    "PasskeyChallenge",
    "Player",
    "PlayerToken",
    "PoolEntry",
    "PoolLease",
    "PoolSeating",
    "Rating",
    "RatingChange",
    "Table",
    "TableSeat",
]
