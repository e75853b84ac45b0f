"""These tests start a server on a fresh SQLite file (``tests/fixtures.py``)."""

from tests.fixtures import sqlite_template

__all__ = ["sqlite_template"]
