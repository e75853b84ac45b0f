"""Persistence: SQLAlchemy models and query functions. Never commits on its own.

Query modules: ``players``, ``tables``, ``matches``. ``db`` builds engines and sessions.
"""

from app.store.models import ActionRecord, Base, Match, MatchSeat, Player, Table, TableSeat

__all__ = ["ActionRecord", "Base", "Match", "MatchSeat", "Player", "Table", "TableSeat"]
