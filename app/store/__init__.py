"""Persistence: SQLAlchemy models and query functions. Never commits on its own.

Query modules: ``players``, ``tables``, ``matches``, ``ratings``. ``db`` builds engines and
sessions.
"""

from app.store.models import (
    ActionRecord,
    Base,
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
    "Match",
    "MatchSeat",
    "Player",
    "PlayerToken",
    "Rating",
    "RatingChange",
    "Table",
    "TableSeat",
]
