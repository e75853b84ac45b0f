"""Service tests run on a fresh SQLite file per test (the in-memory stand-in for a store)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from app.services import Services
from tests.fixtures import database_url, sqlite_template
from tests.support import settings_for

__all__ = ["database_url", "sqlite_template"]


@pytest.fixture
def backend() -> str:
    """Service tests need only one database: SQLite."""
    return "sqlite"


@pytest.fixture
async def services(database_url: str) -> AsyncIterator[Services]:
    """Started services on a fresh database."""
    built = Services.build(settings_for(database_url))
    await built.start()
    try:
        yield built
    finally:
        await built.close()
