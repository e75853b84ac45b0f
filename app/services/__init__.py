"""The service layer: one authority per table, the lobby, match history and the hub.

``Services`` bundles what the API needs; it is built by the application's lifespan.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.services.committer import Committer
from app.services.errors import Unavailable
from app.services.history import HistoryService
from app.services.hub import Hub, LocalHub
from app.services.tables import TableService
from app.settings import Settings
from app.store.db import create_engine, session_factory


@dataclass
class Services:
    """Everything the routes call; one per running application."""

    engine: AsyncEngine
    hub: Hub
    committer: Committer
    tables: TableService
    history: HistoryService

    @classmethod
    def build(cls, settings: Settings, hub: Hub | None = None) -> Services:
        """Wire the services to a new database engine (nothing is loaded yet)."""
        engine = create_engine(settings.database_url)
        sessions = session_factory(engine)
        hub = hub or LocalHub()
        committer = Committer(engine)
        return cls(
            engine=engine,
            hub=hub,
            committer=committer,
            tables=TableService(sessions, hub, committer, settings.public_url),
            history=HistoryService(sessions, settings.history_page_max),
        )

    async def start(self) -> int:
        """Rebuild every live table from its log; how many were rebuilt."""
        return await self.tables.rebuild_live_tables()

    async def check_database(self) -> None:
        """Raise ``Unavailable`` unless the database answers a trivial query."""
        try:
            async with self.engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
        except SQLAlchemyError:
            raise Unavailable("database_unavailable", "The database does not answer.") from None

    async def close(self) -> None:
        """Stop the committer and release the database connections."""
        await self.committer.close()
        await self.engine.dispose()
