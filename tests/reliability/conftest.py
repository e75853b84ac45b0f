"""Reliability tests: the real server (in process or as a subprocess) on fresh databases.

They run on SQLite; the one that needs PostgreSQL starts its own throwaway cluster.
"""

from __future__ import annotations

import pytest

from tests.fixtures import database_url, sqlite_template

__all__ = ["database_url", "sqlite_template"]


@pytest.fixture
def backend() -> str:
    return "sqlite"
