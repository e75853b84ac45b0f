"""SQLAlchemy 2.0 models: the durable record of players, tables, matches and every action.

The store knows nothing of the rules: rules, actions and results are opaque JSON documents
written by the service layer.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base; ``Base.metadata`` is what Alembic compares against."""

    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Player(Base):
    """A guest identity. Only the SHA-256 of its bearer token is stored."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Table(Base):
    """A table: a variant with its options, its seats and its current match.

    ``version`` counts the actions accepted at this table over all its matches.
    """

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    invite_code: Mapped[str] = mapped_column(String(32))
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    visibility: Mapped[str] = mapped_column(String(16))
    # Whether anyone but the seated players may watch (a private table: with its invite code).
    spectators: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # When a private table's matches appear in history to those who did not play them:
    # ``after_match`` (once over) or ``never``.
    history: Mapped[str] = mapped_column(
        String(16), default="after_match", server_default="after_match"
    )
    status: Mapped[str] = mapped_column(String(16), index=True)
    seats: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer, default=0)
    match_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_by: Mapped[str] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TableSeat(Base):
    """Who sits where at a table."""

    __tablename__ = "table_seats"
    __table_args__ = (UniqueConstraint("table_id", "player_id", name="uq_table_seats_player"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)


class Match(Base):
    """One match at a table: its rules, its secret seed (public once over) and its result."""

    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    variant: Mapped[str] = mapped_column(String(32), index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(128))
    dealer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(16))
    base_version: Mapped[int] = mapped_column(Integer)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    game_points: Mapped[list[Any]] = mapped_column(JSON, default=list)
    deals: Mapped[list[Any]] = mapped_column(JSON, default=list)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class MatchSeat(Base):
    """Who played which seat in a match (kept even if the table's seats change later)."""

    __tablename__ = "match_seats"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)


class ActionRecord(Base):
    """One accepted action. ``version`` is the table version it produced; unique per table."""

    __tablename__ = "actions"
    __table_args__ = (
        UniqueConstraint("table_id", "version", name="uq_actions_table_version"),
        Index("ix_actions_match_version", "match_id", "version"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"))
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
