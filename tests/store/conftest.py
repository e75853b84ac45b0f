"""Store tests run on SQLite and on a throwaway PostgreSQL."""

from tests.fixtures import backend, database_url, pg_cluster, sqlite_template

__all__ = ["backend", "database_url", "pg_cluster", "sqlite_template"]
