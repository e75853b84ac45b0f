"""Apply Alembic migrations programmatically (used by `talon migrate` and `talon serve`)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

ROOT = Path(__file__).resolve().parents[2]


def alembic_config(database_url: str) -> Config:
    """An Alembic config pointing at this project's migrations and at ``database_url``."""
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["database_url"] = database_url
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    """Bring the database at ``database_url`` up to ``revision``."""
    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str) -> None:
    """Take the database at ``database_url`` down to ``revision``."""
    command.downgrade(alembic_config(database_url), revision)
