"""Fixtures of the tests of the areas under ``app/`` (tables, players, chat, history): a fresh
SQLite file per test (the in-memory stand-in for a store) and services started on it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from app.services import Services
from tests.fixtures import database_url, sqlite_template
from tests.support import settings_for

__all__ = ["backend", "database_url", "services", "sqlite_template"]


@pytest.fixture
def backend() -> str:
    """These tests need only one database: SQLite."""
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
