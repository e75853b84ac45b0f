"""Queries on matches, their seats and their action log. Never commits."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    String,
    and_,
    bindparam,
    cast,
    func,
    insert,
    or_,
    select,
    update,
)

from app.store.db import AsyncSession, BoundStatement, Step, execute_rows
from app.store.models import ActionRecord, Match, MatchSeat, Table, TournamentGame, utcnow
from app.store.players import SeatRow, seated

OVER = ("finished", "aborted")
"""The statuses of a match that is over: played to its end, or aborted before every seat
acted (no winner, no rating change, no statistics); either way its log is public."""


async def add_match(
    session: AsyncSession,
    *,
    table_id: str,
    variant: str,
    rules: dict[str, Any],
    seed: str,
    dealer: int | None,
    base_version: int,
    players: Iterable[tuple[int, str]],
    rated: bool = False,
) -> Match:
    """Add a live match and record who plays which seat."""
    match = Match(
        table_id=table_id,
        variant=variant,
        rules=rules,
        seed=seed,
        dealer=dealer,
        status="live",
        base_version=base_version,
        game_points=[],
        deals=[],
        rated=rated,
    )
    session.add(match)
    await session.flush()
    for seat, player_id in players:
        session.add(MatchSeat(match_id=match.id, seat=seat, player_id=player_id))
    await session.flush()
    return match


async def get_match(session: AsyncSession, match_id: int) -> Match | None:
    """One match by id."""
    return await session.get(Match, match_id)


def visible_to(viewer_id: str | None) -> ColumnElement[bool]:
    """Which matches ``viewer_id`` (None: anyone) may find in history: every match of a
    public table; a private table's once it is over, unless its players chose ``never``;
    and every match the viewer played in."""
    shown = or_(
        Table.visibility == "public",
        and_(Match.status.in_(OVER), Table.history == "after_match"),
    )
    if viewer_id is not None:
        played = select(MatchSeat.match_id).where(MatchSeat.player_id == viewer_id)
        shown = or_(shown, Match.id.in_(played))
    table_of_match = select(Table.id).where(Table.id == Match.table_id, shown)
    return table_of_match.exists()


async def get_visible_match(
    session: AsyncSession, match_id: int, viewer_id: str | None
) -> Match | None:
    """One match by id, if ``viewer_id`` may see it (``visible_to``)."""
    query = select(Match).where(Match.id == match_id, visible_to(viewer_id))
    return (await session.scalars(query)).first()


# Prebuilt once: building a statement costs more than running it, and a deal ends every
# couple of dozen actions.
DEALS_UPDATE = (
    update(Match)
    .where(Match.id == bindparam("match"))
    .values(deals=bindparam("deals"), game_points=bindparam("points"))
)
FINISH_UPDATE = (
    update(Match)
    .where(Match.id == bindparam("match"))
    .values(
        status="finished",
        winner=bindparam("winner"),
        deals=bindparam("deals"),
        game_points=bindparam("points"),
        finished_at=bindparam("finished_at"),
    )
)


def deals_update(match_id: int, deals: list[Any], game_points: list[int]) -> BoundStatement:
    """The change that stores the results of the deals played so far."""
    return DEALS_UPDATE, {"match": match_id, "deals": deals, "points": game_points}


ABORT_UPDATE = (
    update(Match)
    .where(Match.id == bindparam("match"), Match.status == "live")
    .values(status="aborted", winner=None, finished_at=bindparam("finished_at"))
)


def abort_update(match_id: int) -> BoundStatement:
    """The change that marks a live match aborted: over with no winner (its deals and game
    points stay as they were, empty and zero, since its first deal never ended)."""
    return ABORT_UPDATE, {"match": match_id, "finished_at": utcnow()}


def finish_update(
    match_id: int, *, winner: int | None, deals: list[Any], game_points: list[int]
) -> BoundStatement:
    """The change that marks a match finished with its result."""
    return FINISH_UPDATE, {
        "match": match_id,
        "winner": winner,
        "deals": deals,
        "points": game_points,
        "finished_at": utcnow(),
    }


@dataclass(frozen=True)
class MatchFilter:
    """Which matches a history page shows. ``result`` ("won" or "lost") and ``opponent`` are
    seen from ``player_id``'s seat; ``since`` and ``until`` bound the start time;
    ``tournament``: only the matches of that event's tables."""

    player_id: str | None = None
    variant: str | None = None
    opponent: str | None = None
    result: str | None = None
    rated: bool | None = None
    since: datetime | None = None
    until: datetime | None = None
    finished_only: bool = False
    tournament: str | None = None


async def list_matches(
    session: AsyncSession,
    *,
    player_id: str | None = None,
    variant: str | None = None,
    before: int | None = None,
    limit: int = 20,
    where: MatchFilter | None = None,
    viewer_id: str | None = None,
) -> list[Match]:
    """Matches ``viewer_id`` may see (``visible_to``), newest first; ``before`` is the id of
    the last match of the previous page; ``where`` narrows them (see ``MatchFilter``)."""
    where = where or MatchFilter(player_id=player_id, variant=variant)
    query = select(Match).where(visible_to(viewer_id)).order_by(Match.id.desc()).limit(limit)
    if where.player_id is not None:
        mine = (
            select(MatchSeat.seat)
            .where(MatchSeat.match_id == Match.id, MatchSeat.player_id == where.player_id)
            .scalar_subquery()
        )
        query = query.where(mine.is_not(None))
        if where.result == "won":
            query = query.where(Match.status == "finished", Match.winner == mine)
        elif where.result == "lost":
            query = query.where(Match.status == "finished", Match.winner != mine)
    if where.opponent is not None:
        query = query.where(
            Match.id.in_(select(MatchSeat.match_id).where(MatchSeat.player_id == where.opponent))
        )
    if where.variant is not None:
        query = query.where(Match.variant == where.variant)
    if where.rated is not None:
        query = query.where(Match.rated.is_(where.rated))
    if where.since is not None:
        query = query.where(Match.started_at >= where.since)
    if where.until is not None:
        query = query.where(Match.started_at < where.until)
    if where.finished_only:
        query = query.where(Match.status.in_(OVER))
    if where.tournament is not None:
        played_for = select(TournamentGame.table_id).where(
            TournamentGame.tournament_id == where.tournament
        )
        query = query.where(Match.table_id.in_(played_for))
    if before is not None:
        query = query.where(Match.id < before)
    return list(await session.scalars(query))


async def seats_of_matches(
    session: AsyncSession, match_ids: Iterable[int]
) -> dict[int, list[SeatRow]]:
    """For each match id, ``(seat, player)`` in seat order."""
    return await seated(session, MatchSeat.match_id, MatchSeat.seat, MatchSeat.player_id, match_ids)


async def actions_of_match(session: AsyncSession, match_id: int) -> list[ActionRecord]:
    """A match's action log in version order."""
    query = (
        select(ActionRecord).where(ActionRecord.match_id == match_id).order_by(ActionRecord.version)
    )
    return list(await session.scalars(query))


# SQLite takes a batch of log rows as one multi-row INSERT through the driver (``execute_rows``).
SQLITE_APPEND = (
    "INSERT INTO actions (table_id, match_id, version, seat, action, created_at) VALUES {rows}"
)
SQLITE_ROWS_PER_STATEMENT = 500  # 3,000 parameters, well under SQLite's limit of 32,766


def append_actions(connection: Connection, rows: list[dict[str, Any]]) -> None:
    """Append many accepted actions at once (keys: table_id, match_id, version, seat, action).

    Synchronous: it runs inside the group commit's transaction (see ``tables.committer``).
    """
    now = utcnow()
    dialect = connection.dialect
    if dialect.name != "sqlite":
        connection.execute(insert(ActionRecord), [{**row, "created_at": now} for row in rows])
        return
    # The columns' own converters, so the stored text is what the ORM writes and reads.
    columns = ActionRecord.__table__.c
    to_json = columns.action.type.dialect_impl(dialect).bind_processor(dialect)
    to_stamp = columns.created_at.type.dialect_impl(dialect).bind_processor(dialect)
    assert to_json is not None and to_stamp is not None
    stamp = to_stamp(now)
    values = [
        (r["table_id"], r["match_id"], r["version"], r["seat"], to_json(r["action"]), stamp)
        for r in rows
    ]
    execute_rows(connection, SQLITE_APPEND, values, SQLITE_ROWS_PER_STATEMENT)


async def actions_after(session: AsyncSession, match_id: int, version: int) -> list[ActionRecord]:
    """A match's actions past ``version``, in version order (a worker catching up)."""
    query = (
        select(ActionRecord)
        .where(ActionRecord.match_id == match_id, ActionRecord.version > version)
        .order_by(ActionRecord.version)
    )
    return list(await session.scalars(query))


async def finished_seats_of(session: AsyncSession, player_id: str) -> list[tuple[Match, int]]:
    """Every finished match of a player that anyone may see (``visible_to(None)``: not a
    private table's that keeps its history for its players), with the seat it played (for
    its public statistics)."""
    query = (
        select(Match, MatchSeat.seat)
        .join(MatchSeat, MatchSeat.match_id == Match.id)
        .where(MatchSeat.player_id == player_id, Match.status == "finished", visible_to(None))
    )
    return [(match, seat) for match, seat in await session.execute(query)]


async def marriages_declared(session: AsyncSession, player_id: str) -> int:
    """How many marriages the player declared over its matches that anyone may see (from
    the action logs)."""
    query = (
        select(ActionRecord.action)
        .join(
            MatchSeat,
            (MatchSeat.match_id == ActionRecord.match_id) & (MatchSeat.seat == ActionRecord.seat),
        )
        .join(Match, Match.id == ActionRecord.match_id)
        .where(
            MatchSeat.player_id == player_id,
            Match.status != "aborted",
            visible_to(None),
            # Narrowed in the database, checked exactly below.
            func.lower(cast(ActionRecord.action, String)).like("%marriage%"),
        )
    )
    return sum(1 for action in await session.scalars(query) if action.get("marriage") is True)


async def mark_abandoned(session: AsyncSession, match_id: int, entry: dict[str, Any]) -> None:
    """Add ``entry`` (``seat``, ``player_id``, ``name``, ``consequence``) to the match's
    record of players who ran out of time."""
    match = await session.get(Match, match_id)
    if match is not None:
        match.abandoned = [*(match.abandoned or []), entry]
        await session.flush()


def abandoned_step(match_id: int, entry: dict[str, Any]) -> Step:
    """``mark_abandoned`` as a step of the group commit (a forfeit on time is an action)."""

    def step(connection: Connection) -> None:
        current = connection.execute(
            select(Match.abandoned).where(Match.id == match_id)
        ).scalar_one_or_none()
        connection.execute(
            update(Match).where(Match.id == match_id).values(abandoned=[*(current or []), entry])
        )

    return step
