"""API tests run against the real application under uvicorn, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from tests.fixtures import backend, database_url, pg_cluster, sqlite_template
from tests.support import Api, live_server, settings_for

__all__ = ["backend", "database_url", "pg_cluster", "sqlite_template"]


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[str]:
    """The base address (host:port) of a running server on a fresh database."""
    async with live_server(settings_for(database_url)) as base:
        yield base


@pytest.fixture
async def api(server: str) -> AsyncIterator[Api]:
    """A REST client for ``server``."""
    async with httpx.AsyncClient(base_url=f"http://{server}", timeout=10, verify=False) as client:
        yield Api(client)
