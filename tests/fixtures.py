"""Fixtures shared by the store, service and API tests (imported by their conftest files).

``database_url`` is a fresh, migrated database per test: SQLite, or PostgreSQL when the test
is parametrized with the ``backend`` fixture's ``postgres`` value.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.store.migrate import upgrade
from tests.pg import TEMPLATE, PostgresCluster
from tests.support import in_thread, migrated_sqlite


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the migrated SQLite template lives (created on first use)."""
    return tmp_path_factory.mktemp("sqlite") / "template.db"


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PostgresCluster]:
    """A throwaway PostgreSQL cluster with a migrated template database."""
    cluster = PostgresCluster()
    cluster.start()
    try:
        in_thread(lambda: asyncio.run(cluster.execute(f"CREATE DATABASE {TEMPLATE}")))
        in_thread(lambda: upgrade(cluster.url(TEMPLATE)))
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> str:
    """Which database a store or API test runs on."""
    return str(request.param)


@pytest.fixture
def database_url(
    request: pytest.FixtureRequest, backend: str, sqlite_template: Path, tmp_path: Path
) -> str:
    """A fresh migrated database for this test."""
    if backend == "postgres":
        cluster: PostgresCluster = request.getfixturevalue("pg_cluster")
        return in_thread(lambda: asyncio.run(cluster.fresh_database()))
    return in_thread(lambda: migrated_sqlite(sqlite_template, tmp_path / "talon.db"))
