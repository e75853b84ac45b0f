"""Queries on tables and their seats. Never commits: the caller owns the transaction."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, String, bindparam, cast, delete, select, tuple_, update

from app.store.db import AsyncSession, BoundStatement, execute_rows
from app.store.models import Table, TableSeat
from app.store.players import SeatRow, seated


async def add_table(session: AsyncSession, **fields: Any) -> Table:
    """Add a table (``id``, ``invite_code``, ``variant``, ``options``, ``visibility``, ...)."""
    table = Table(version=0, status="open", **fields)
    session.add(table)
    await session.flush()
    return table


async def get_table(session: AsyncSession, table_id: str) -> Table | None:
    """One table by id."""
    return await session.get(Table, table_id)


async def list_tables(
    session: AsyncSession,
    status: str,
    *,
    visibility: str = "public",
    watchable: bool = False,
    limit: int = 100,
) -> list[Table]:
    """Tables with this status and visibility, newest first (``watchable``: only those that
    let spectators in)."""
    query = (
        select(Table)
        .where(Table.status == status, Table.visibility == visibility)
        .order_by(Table.created_at.desc(), Table.id)
        .limit(limit)
    )
    if watchable:
        query = query.where(Table.spectators.is_(True))
    return list(await session.scalars(query))


async def live_tables(session: AsyncSession) -> list[Table]:
    """Every table whose match is under way (rebuilt from the log on start)."""
    return list(await session.scalars(select(Table).where(Table.status == "live")))


async def seats_of(session: AsyncSession, table_ids: Iterable[str]) -> dict[str, list[SeatRow]]:
    """For each table id, its occupied seats as ``(seat, player)`` in seat order."""
    return await seated(session, TableSeat.table_id, TableSeat.seat, TableSeat.player_id, table_ids)


async def open_tables_of(session: AsyncSession, player_id: str) -> list[str]:
    """The ids of the open tables (waiting for players) where the player has a seat."""
    query = (
        select(TableSeat.table_id)
        .join(Table, Table.id == TableSeat.table_id)
        .where(TableSeat.player_id == player_id, Table.status == "open")
    )
    return list(await session.scalars(query))


async def tables_of(session: AsyncSession, player_id: str, limit: int) -> list[Table]:
    """The tables waiting or under way where the player holds a seat (private ones too),
    newest first."""
    query = (
        select(Table)
        .join(TableSeat, TableSeat.table_id == Table.id)
        .where(TableSeat.player_id == player_id, Table.status.in_(("open", "live")))
        .order_by(Table.created_at.desc(), Table.id)
        .limit(limit)
    )
    return list(await session.scalars(query))


async def taken_over_from(session: AsyncSession, player_id: str, limit: int) -> list[Table]:
    """The live tables whose record of abandoned seats names the player, newest first (a
    match on the record's text: the caller checks the seat)."""
    query = (
        select(Table)
        .where(
            Table.status == "live",
            Table.abandoned.is_not(None),
            cast(Table.abandoned, String).contains(f'"{player_id}"'),
        )
        .order_by(Table.created_at.desc(), Table.id)
        .limit(limit)
    )
    return list(await session.scalars(query))


async def take_seat(session: AsyncSession, table_id: str, seat: int, player_id: str) -> None:
    """Seat a player (the unique constraints reject a taken seat or a second seat)."""
    session.add(TableSeat(table_id=table_id, seat=seat, player_id=player_id))
    await session.flush()


async def free_seat(session: AsyncSession, table_id: str, player_id: str) -> None:
    """Remove a player from a table."""
    await session.execute(
        delete(TableSeat).where(TableSeat.table_id == table_id, TableSeat.player_id == player_id)
    )


async def set_status(
    session: AsyncSession, table_id: str, status: str, *, match_id: int | None = None
) -> None:
    """Change a table's status, and its current match when one is given."""
    values: dict[str, Any] = {"status": status}
    if match_id is not None:
        values["match_id"] = match_id
    await session.execute(update(Table).where(Table.id == table_id).values(**values))


async def back_to_waiting(session: AsyncSession, table_id: str, status: str) -> None:
    """A table whose match was aborted: ``status`` (``open``, or ``finished`` when no player
    is left), no current match, no running clock and no abandoned seats."""
    await session.execute(
        update(Table)
        .where(Table.id == table_id)
        .values(status=status, match_id=None, turn_clock=None, clock_deadline=None, abandoned=None)
    )


STATUS_UPDATE = (
    update(Table).where(Table.id == bindparam("table")).values(status=bindparam("status"))
)


def status_update(table_id: str, status: str) -> BoundStatement:
    """The change that sets a table's status (prebuilt, for the group commit)."""
    return STATUS_UPDATE, {"table": table_id, "status": status}


# SQLite steps a batch of tables in one statement (``execute_rows``), as the action log is
# appended; row values need SQLite 3.15 or later.
SQLITE_BUMP = (
    "UPDATE tables SET version = version + 1 WHERE (id, version, lease_epoch) IN (VALUES {rows})"
)
SQLITE_TABLES_PER_STATEMENT = 300


def bump_versions(connection: Connection, moves: list[tuple[str, int, int]]) -> int:
    """Move each ``(table_id, expected, epoch)`` table one version up; how many rows moved.

    A count below ``len(moves)`` means some table was not at its expected version, or its
    lease has moved to another epoch (another worker took it over: the fence).
    Synchronous: it runs inside the group commit's transaction (see ``tables.committer``).
    """
    dialect = connection.dialect.name
    if dialect == "sqlite":
        return execute_rows(connection, SQLITE_BUMP, moves, SQLITE_TABLES_PER_STATEMENT)
    if len(moves) > 1 and dialect == "postgresql":
        # asyncpg reports no row count for a many-parameter statement: one UPDATE over
        # every (id, expected, epoch) triple, counting the rows it returns.
        returning = (
            update(Table)
            .where(tuple_(Table.id, Table.version, Table.lease_epoch).in_(moves))
            .values(version=Table.version + 1)
            .returning(Table.id)
        )
        return len(connection.execute(returning).all())
    bump = (
        update(Table)
        .where(
            Table.id == bindparam("t_id"),
            Table.version == bindparam("expected"),
            Table.lease_epoch == bindparam("epoch"),
        )
        .values(version=bindparam("expected") + 1)
    )
    params = [
        {"t_id": table_id, "expected": expected, "epoch": epoch}
        for table_id, expected, epoch in moves
    ]
    return int(connection.execute(bump, params).rowcount)


async def lock_table(session: AsyncSession, table_id: str) -> int | None:
    """Hold the table's row until the transaction ends (``SELECT ... FOR UPDATE``); its
    lease epoch, which the caller checks against its own (a fenced lobby change), or None
    for an unknown table. SQLite ignores the lock (one writer anyway)."""
    found = await session.execute(
        select(Table.lease_epoch).where(Table.id == table_id).with_for_update()
    )
    return found.scalar_one_or_none()


CLOCK_UPDATE = (
    update(Table)
    .where(Table.id == bindparam("table"))
    .values(turn_clock=bindparam("running"), clock_deadline=bindparam("due"))
)


# The clock of a table the same batch has just stepped (not of one fenced off).
FENCED_CLOCK_UPDATE = CLOCK_UPDATE.where(
    Table.version == bindparam("stepped"), Table.lease_epoch == bindparam("epoch")
)


def clock_update(
    table_id: str, clock: dict[str, Any] | None, deadline: float | None
) -> BoundStatement:
    """The change that stores a table's running turn clock and its deadline (prebuilt, for
    the group commit of the action that moved it)."""
    return CLOCK_UPDATE, {"table": table_id, "running": clock, "due": deadline}


# A batch of timed tables steps its versions and stores its turn clocks in one statement: each
# row is written once, and the clocks need no statement of their own per table.
# (The values' columns go by SQLite's names, column1 to column5: id, expected version, epoch,
# clock, deadline. A statement that starts with WITH would get no row count from sqlite3.)
SQLITE_STEP_CLOCKED = (
    "UPDATE tables SET version = tables.version + 1, turn_clock = step.column4, "
    "clock_deadline = step.column5 FROM (VALUES {rows}) AS step "
    "WHERE tables.id = step.column1 AND tables.version = step.column2 "
    "AND tables.lease_epoch = step.column3"
)

Clock = tuple[dict[str, Any] | None, float | None]  # a running turn clock and its deadline


def step_versions(connection: Connection, steps: list[tuple[str, int, int, Clock | None]]) -> int:
    """Move each ``(table_id, expected, epoch, clock)`` table one version up, storing its
    running turn clock and deadline where ``clock`` is given; how many rows moved (fenced as
    ``bump_versions``). Synchronous: the group commit's transaction runs it."""
    if connection.dialect.name != "sqlite":
        moved = bump_versions(connection, [step[:3] for step in steps])
        clocks = [
            {"table": t, "stepped": expected + 1, "epoch": epoch, "running": c[0], "due": c[1]}
            for t, expected, epoch, c in steps
            if c is not None
        ]
        if clocks:
            connection.execute(FENCED_CLOCK_UPDATE, clocks)
        return moved
    moved = bump_versions(connection, [step[:3] for step in steps if step[3] is None])
    if all(step[3] is None for step in steps):
        return moved
    # The column's own converter, so the stored text is what the ORM writes and reads.
    dialect = connection.dialect
    to_json = Table.__table__.c.turn_clock.type.dialect_impl(dialect).bind_processor(dialect)
    assert to_json is not None
    clocked = [
        (table_id, expected, epoch, to_json(clock[0]), clock[1])
        for table_id, expected, epoch, clock in steps
        if clock is not None
    ]
    return moved + execute_rows(
        connection, SQLITE_STEP_CLOCKED, clocked, SQLITE_TABLES_PER_STATEMENT
    )


async def set_clock(
    session: AsyncSession, table_id: str, clock: dict[str, Any] | None, deadline: float | None
) -> None:
    """Store a table's running turn clock and its deadline."""
    statement, values = clock_update(table_id, clock, deadline)
    await session.execute(statement, values)


async def due_clocks(session: AsyncSession, before: float, limit: int = 500) -> list[str]:
    """The live tables whose turn clock runs out before ``before`` (seconds since the
    epoch), soonest first."""
    query = (
        select(Table.id)
        .where(Table.status == "live", Table.clock_deadline <= before)
        .order_by(Table.clock_deadline)
        .limit(limit)
    )
    return list(await session.scalars(query))


async def hand_seat(
    session: AsyncSession,
    table_id: str,
    seat: int,
    player_id: str,
    abandoned: dict[str, Any] | None,
) -> None:
    """Give a seat of a match under way to another player (a computer player taking over,
    or the player who left it reclaiming it), with the table's record of abandoned seats."""
    await session.execute(
        update(TableSeat)
        .where(TableSeat.table_id == table_id, TableSeat.seat == seat)
        .values(player_id=player_id)
    )
    await session.execute(update(Table).where(Table.id == table_id).values(abandoned=abandoned))


async def fence(session: AsyncSession, table_id: str) -> tuple[int, int] | None:
    """Hold the table's row until the transaction ends (as ``lock_table``); its lease epoch
    and version, or None for an unknown table."""
    found = await session.execute(
        select(Table.lease_epoch, Table.version).where(Table.id == table_id).with_for_update()
    )
    row = found.one_or_none()
    return None if row is None else (row[0], row[1])
