"""Persistence: SQLAlchemy models and query functions. Never commits on its own.

Query modules: ``players``, ``passkeys``, ``tables``, ``matches``, ``ratings``. ``db`` builds
engines and sessions.
"""

from app.store.models import (
    ActionRecord,
    Base,
    Match,
    MatchSeat,
    Passkey,
    PasskeyChallenge,
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
    "Match",
    "MatchSeat",
    "Passkey",
    "PasskeyChallenge",
    "Player",
    "PlayerToken",
    "Rating",
    "RatingChange",
    "Table",
    "TableSeat",
]
