"""The store on SQLite and PostgreSQL: the migrated schema, the log's uniqueness, queries."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from app.store import Base, Match, PlayerToken, Table
from app.store import matches as match_store
from app.store import players as player_store
from app.store import tables as table_store
from app.store.db import AsyncSession, create_engine, session_factory
from app.store.migrate import downgrade, upgrade
from app.tables.hub import LocalHub
from app.tables.service import TableService
from tests.support import in_thread


@pytest.fixture
async def sessions(database_url: str) -> AsyncIterator:
    engine = create_engine(database_url)
    yield session_factory(engine)
    await engine.dispose()


async def append(session: AsyncSession, rows: list[dict[str, Any]]) -> None:
    """The group commit's synchronous append, on this session's connection."""
    await session.run_sync(lambda sync: match_store.append_actions(sync.connection(), rows))


async def bump(session: AsyncSession, moves: list[tuple[str, int]], epoch: int = 0) -> int:
    """The group commit's synchronous version step, on this session's connection (every
    table fenced with ``epoch``)."""
    fenced = [(table_id, expected, epoch) for table_id, expected in moves]
    return await session.run_sync(lambda sync: table_store.bump_versions(sync.connection(), fenced))


async def seed_table(session: AsyncSession) -> None:
    await player_store.add_player(session, "p0", "Anna", "h0")
    await player_store.add_player(session, "p1", "Bela", "h1")
    await table_store.add_table(
        session,
        id="t1",
        invite_code="code",
        variant="sixty-six",
        options={"target": 7},
        visibility="public",
        seats=2,
        created_by="p0",
    )


async def add_tables(session: AsyncSession, *table_ids: str) -> None:
    """More tables beside the seeded one, created by p0."""
    for table_id in table_ids:
        await table_store.add_table(
            session,
            id=table_id,
            invite_code="code",
            variant="sixty-six",
            options={},
            visibility="public",
            seats=2,
            created_by="p0",
        )


async def seed_match(session: AsyncSession) -> Match:
    """The seeded table with a live match of p0 (seat 0) and p1 (seat 1)."""
    await seed_table(session)
    return await match_store.add_match(
        session,
        table_id="t1",
        variant="sixty-six",
        rules={},
        seed="s",
        dealer=None,
        base_version=0,
        players=[(0, "p0"), (1, "p1")],
    )


async def test_the_migrations_build_exactly_the_models_schema(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        async with engine.connect() as connection:
            diff = await connection.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)
            )
    finally:
        await engine.dispose()
    assert diff == []


async def test_migrations_go_down_and_up_again(database_url: str) -> None:
    in_thread(lambda: downgrade(database_url, "base"))
    in_thread(lambda: upgrade(database_url))
    engine = create_engine(database_url)
    try:
        async with session_factory(engine).begin() as session:
            await seed_table(session)
    finally:
        await engine.dispose()


async def test_the_log_holds_one_action_per_match_version(sessions) -> None:  # type: ignore[no-untyped-def]
    async with sessions.begin() as session:
        match = await seed_match(session)
        row = {"table_id": "t1", "match_id": match.id, "version": 1}
        await append(session, [{**row, "seat": 0, "action": {"type": "close"}}])
    with pytest.raises(IntegrityError):
        async with sessions.begin() as session:
            await append(session, [{**row, "seat": 1, "action": {"type": "x"}}])
    async with sessions() as session:
        rows = await match_store.actions_of_match(session, match.id)
    assert [(r.version, r.seat, r.action) for r in rows] == [(1, 0, {"type": "close"})]


async def test_the_log_keeps_its_actions_and_their_uniqueness_across_its_one_index_migration(
    database_url: str,
    sessions,  # type: ignore[no-untyped-def]
) -> None:
    # Migration 0014 leaves the log one index (match, version) in place of two.
    in_thread(lambda: downgrade(database_url, "0013"))
    async with sessions.begin() as session:
        match = await seed_match(session)
        rows = [
            {"table_id": "t1", "match_id": match.id, "version": v, "seat": v % 2, "action": {}}
            for v in (1, 2)
        ]
        await append(session, rows)
    in_thread(lambda: upgrade(database_url))
    async with sessions() as session:
        stored = await match_store.actions_of_match(session, match.id)
    assert [(r.table_id, r.version) for r in stored] == [("t1", 1), ("t1", 2)]
    with pytest.raises(IntegrityError):
        async with sessions.begin() as session:
            await append(session, [{**rows[1], "seat": 0}])


async def test_the_version_moves_only_from_the_expected_one(sessions) -> None:  # type: ignore[no-untyped-def]
    async with sessions.begin() as session:
        await seed_table(session)
    async with sessions.begin() as session:
        assert await bump(session, [("t1", 0)]) == 1
        assert await bump(session, [("t1", 0)]) == 0
        assert await bump(session, [("t1", 1)]) == 1
    async with sessions() as session:
        assert (await table_store.get_table(session, "t1")).version == 2


async def test_a_batch_of_version_steps_counts_every_table_that_moved(sessions) -> None:  # type: ignore[no-untyped-def]
    async with sessions.begin() as session:
        await seed_table(session)
        await add_tables(session, "t2", "t3")
    async with sessions.begin() as session:
        moves = [("t1", 0), ("t2", 0), ("t3", 0)]
        assert await bump(session, moves) == 3
        # t2 is no longer at 0: the batch reports one table short, which the committer sees.
        assert await bump(session, [("t1", 1), ("t2", 0)]) == 1


async def test_a_batch_steps_timed_tables_with_their_clocks_each_behind_its_fence(sessions) -> None:  # type: ignore[no-untyped-def]
    async with sessions.begin() as session:
        await seed_table(session)
        await add_tables(session, "t2", "t3")
    running = {"seat": 1, "left": [30.5, 29.0], "since": 12.25}
    steps: list[tuple[str, int, int, Any]] = [
        ("t1", 0, 0, (running, 1234.5)),  # timed
        ("t2", 0, 0, None),  # untimed: its clock stays as it is
        ("t3", 0, 7, ({"seat": 0}, 99.0)),  # another worker's epoch: fenced off
    ]
    async with sessions.begin() as session:
        moved = await session.run_sync(
            lambda sync: table_store.step_versions(sync.connection(), steps)
        )
    assert moved == 2  # the committer sees one table short and stores nothing of the batch
    async with sessions() as session:
        rows = {
            t.id: (t.version, t.turn_clock, t.clock_deadline)
            for t in await session.scalars(select(Table))
        }
    assert rows == {
        "t1": (1, running, 1234.5),
        "t2": (1, None, None),
        "t3": (0, None, None),
    }


async def test_nothing_is_stored_unless_the_caller_commits(sessions) -> None:  # type: ignore[no-untyped-def]
    async with sessions() as session:
        await seed_table(session)
        await session.rollback()
    async with sessions() as session:
        assert await table_store.get_table(session, "t1") is None


async def test_a_seat_cannot_be_taken_twice(sessions) -> None:  # type: ignore[no-untyped-def]
    async with sessions.begin() as session:
        await seed_table(session)
        await table_store.take_seat(session, "t1", 0, "p0")
    with pytest.raises(IntegrityError):
        async with sessions.begin() as session:
            await table_store.take_seat(session, "t1", 0, "p1")
    with pytest.raises(IntegrityError):
        async with sessions.begin() as session:
            await table_store.take_seat(session, "t1", 1, "p0")


async def test_tokens_are_stored_only_as_their_sha256(sessions) -> None:  # type: ignore[no-untyped-def]
    service = TableService(sessions, LocalHub(), None, "http://x")  # type: ignore[arg-type]
    player, token = await service.create_player("Anna")
    async with sessions() as session:
        stored = await session.scalar(select(PlayerToken).where(PlayerToken.player_id == player.id))
    assert stored.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in (stored.token_hash, stored.player_id)
    assert (await service.identify(token)).id == player.id


async def test_a_live_table_is_found_by_a_player_whose_seat_was_taken_over(sessions) -> None:  # type: ignore[no-untyped-def]
    async with sessions.begin() as session:
        await seed_table(session)
        await player_store.add_player(session, "p10", "Carla", "h10")
        left = {"1": {"player_id": "p1", "name": "Bela"}}
        await session.execute(
            update(Table).where(Table.id == "t1").values(status="live", abandoned=left)
        )
    async with sessions() as session:
        assert [t.id for t in await table_store.taken_over_from(session, "p1", 10)] == ["t1"]
        assert await table_store.taken_over_from(session, "p10", 10) == []  # "p1" is in it
        assert await table_store.taken_over_from(session, "p0", 10) == []
    async with sessions.begin() as session:
        await session.execute(update(Table).where(Table.id == "t1").values(status="finished"))
    async with sessions() as session:
        assert await table_store.taken_over_from(session, "p1", 10) == []
