"""The accounts migration keeps what a running site already has: guests (with the tokens in
their browsers), tables, matches and their action logs."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

from sqlalchemy import text

from app.history.service import HistoryService
from app.players.identity import find_player
from app.store.db import create_engine, session_factory
from app.store.migrate import downgrade, upgrade
from tests.support import in_thread

BEFORE = "0001"
NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def fill_previous_schema(database_url: str) -> None:
    """Guests, a table, a finished match with its log, written as the previous head stored
    them (plain SQL: today's models no longer match that schema)."""
    engine = create_engine(database_url)
    try:
        async with engine.begin() as connection:
            for player_id, name in (("p0", "Anna"), ("p1", "Bela")):
                await connection.execute(
                    text(
                        "INSERT INTO players (id, name, token_hash, created_at) "
                        "VALUES (:id, :name, :hash, :at)"
                    ),
                    {
                        "id": player_id,
                        "name": name,
                        "hash": digest(f"token-{player_id}"),
                        "at": NOW,
                    },
                )
            await connection.execute(
                text(
                    "INSERT INTO tables (id, invite_code, variant, options, visibility, status, "
                    "seats, version, match_id, created_by, created_at) VALUES ('t1', 'code', "
                    "'sixty-six', '{}', 'public', 'finished', 2, 1, 1, 'p0', :at)"
                ),
                {"at": NOW},
            )
            await connection.execute(
                text(
                    "INSERT INTO matches (id, table_id, variant, rules, seed, dealer, status, "
                    "base_version, winner, game_points, deals, started_at, finished_at) VALUES "
                    "(1, 't1', 'sixty-six', '{}', 'seed', 0, 'finished', 0, 1, '[0, 7]', '[]', "
                    ":at, :at)"
                ),
                {"at": NOW},
            )
            for seat, player_id in enumerate(("p0", "p1")):
                await connection.execute(
                    text("INSERT INTO match_seats (match_id, seat, player_id) VALUES (1, :s, :p)"),
                    {"s": seat, "p": player_id},
                )
            await connection.execute(
                text(
                    "INSERT INTO actions (table_id, match_id, version, seat, action, created_at) "
                    "VALUES ('t1', 1, 1, 0, '{\"type\": \"resign\"}', :at)"
                ),
                {"at": NOW},
            )
    finally:
        await engine.dispose()


async def test_guests_tables_and_matches_survive_the_accounts_migration(
    database_url: str,
) -> None:
    in_thread(lambda: downgrade(database_url, BEFORE))
    await fill_previous_schema(database_url)
    in_thread(lambda: upgrade(database_url))

    engine = create_engine(database_url)
    sessions = session_factory(engine)
    try:
        async with sessions() as session:
            for player_id, name in (("p0", "Anna"), ("p1", "Bela")):
                player = await find_player(session, f"token-{player_id}")  # still signed in
                assert (player.id, player.name, player.handle) == (player_id, name, None)
            rated = await session.scalar(text("SELECT rated FROM tables WHERE id = 't1'"))
            assert not rated
        history = HistoryService(sessions, 100)
        log = await history.match_log(1)
        assert [p["name"] for p in log["players"]] == ["Anna", "Bela"]
        assert log["winner"] == 1 and log["game_points"] == [0, 7]
        assert [a["action"] for a in log["actions"]] == [{"type": "resign"}]
        assert log["rated"] is False
    finally:
        await engine.dispose()
