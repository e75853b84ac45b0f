"""The pool service's tests run on a fresh SQLite file per test (``tests/service_fixtures.py``)."""

from tests.service_fixtures import backend, database_url, sqlite_template

__all__ = ["backend", "database_url", "sqlite_template"]
