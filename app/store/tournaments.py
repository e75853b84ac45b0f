"""Queries on tournaments: events, entrants and their members, Swiss rounds, games and their
results, and each event's lease with its fencing epoch.

An event's lease lives in its own row (``owner``, ``lease_until``, ``lease_epoch``), taken,
renewed and fenced as a table's is (``app/store/leases.py``): every write of the event's
owner first touches the row with the epoch it holds, so that once another worker has taken
the event over, no write of the former owner commits. Times are seconds since the epoch,
given by the caller. Never commits.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import delete, func, or_, select, update

from app.store import leases
from app.store.db import AsyncSession
from app.store.models import (
    Match,
    Table,
    TableSeat,
    Tournament,
    TournamentEntrant,
    TournamentGame,
    TournamentMember,
    TournamentResult,
    TournamentRound,
)

LISTED = 50
"""How many events of each status the list shows."""

# -- events ----------------------------------------------------------------------------------


async def add_event(session: AsyncSession, event: Tournament) -> None:
    """Store a new event."""
    session.add(event)
    await session.flush()


async def get_event(session: AsyncSession, event_id: str) -> Tournament | None:
    """The event, or None."""
    return await session.get(Tournament, event_id)


async def events_with(session: AsyncSession, status: str) -> list[Tournament]:
    """The latest events of a status: upcoming by start, the others newest first."""
    order = Tournament.starts_at.asc() if status == "upcoming" else Tournament.starts_at.desc()
    found = await session.scalars(
        select(Tournament).where(Tournament.status == status).order_by(order).limit(LISTED)
    )
    return list(found)


async def due_events(session: AsyncSession, now: float) -> list[str]:
    """The events an owner must run: running, or upcoming and due to start."""
    found = await session.scalars(
        select(Tournament.id).where(
            or_(
                Tournament.status == "running",
                (Tournament.status == "upcoming") & (Tournament.starts_at <= now),
            )
        )
    )
    return list(found)


async def set_event(session: AsyncSession, event_id: str, **values: object) -> None:
    """Change the event's row (its status, round, ...)."""
    await session.execute(update(Tournament).where(Tournament.id == event_id).values(**values))


# -- entrants --------------------------------------------------------------------------------


async def entrants_of(session: AsyncSession, event_id: str) -> list[TournamentEntrant]:
    """Every entrant of the event, in the order they joined."""
    found = await session.scalars(
        select(TournamentEntrant)
        .where(TournamentEntrant.tournament_id == event_id)
        .order_by(TournamentEntrant.joined_at, TournamentEntrant.id)
    )
    return list(found)


async def entrant_count(session: AsyncSession, event_ids: Sequence[str]) -> dict[str, int]:
    """How many entrants (not withdrawn) each of these events has."""
    if not event_ids:
        return {}
    found = await session.execute(
        select(TournamentEntrant.tournament_id, func.count())
        .where(
            TournamentEntrant.tournament_id.in_(list(event_ids)),
            TournamentEntrant.withdrawn.is_(False),
        )
        .group_by(TournamentEntrant.tournament_id)
    )
    return {event_id: int(count) for event_id, count in found}


async def get_entrant(
    session: AsyncSession, event_id: str, entrant_id: str
) -> TournamentEntrant | None:
    """One entrant of the event, or None."""
    return await session.get(TournamentEntrant, (event_id, entrant_id))


async def add_entrant(session: AsyncSession, entrant: TournamentEntrant) -> None:
    """Enter an entrant and its members (each player in at most one entrant per event: a
    second entry fails on the members' key)."""
    session.add(entrant)
    for player_id in entrant.members:
        session.add(
            TournamentMember(
                tournament_id=entrant.tournament_id, player_id=player_id, entrant_id=entrant.id
            )
        )
    await session.flush()


async def add_member(session: AsyncSession, entrant: TournamentEntrant, player_id: str) -> None:
    """Add a player to a team."""
    entrant.members = [*entrant.members, player_id]
    session.add(
        TournamentMember(
            tournament_id=entrant.tournament_id, player_id=player_id, entrant_id=entrant.id
        )
    )
    await session.flush()


async def entrant_of(
    session: AsyncSession, event_id: str, player_id: str
) -> TournamentEntrant | None:
    """The entrant a player plays in, or None."""
    member = await session.get(TournamentMember, (event_id, player_id))
    if member is None:
        return None
    return await get_entrant(session, event_id, member.entrant_id)


async def remove_entrant(session: AsyncSession, entrant: TournamentEntrant) -> None:
    """Take an entrant and its members out of an event that has not started."""
    await session.execute(
        delete(TournamentMember).where(
            TournamentMember.tournament_id == entrant.tournament_id,
            TournamentMember.entrant_id == entrant.id,
        )
    )
    await session.delete(entrant)
    await session.flush()


async def withdraw(session: AsyncSession, event_id: str, entrant_ids: Iterable[str]) -> None:
    """Mark these entrants withdrawn (no longer paired; their results stay)."""
    wanted = list(entrant_ids)
    if wanted:
        await session.execute(
            update(TournamentEntrant)
            .where(TournamentEntrant.tournament_id == event_id, TournamentEntrant.id.in_(wanted))
            .values(withdrawn=True)
        )


# -- rounds and games ------------------------------------------------------------------------


async def add_round(session: AsyncSession, event_id: str, number: int, now: float) -> None:
    """Record that a Swiss round is paired; fails (IntegrityError) when it was already."""
    session.add(TournamentRound(tournament_id=event_id, round=number, paired_at=now))
    await session.flush()


async def add_game(session: AsyncSession, game: TournamentGame) -> TournamentGame:
    """Store a pairing (its id is set)."""
    session.add(game)
    await session.flush()
    return game


async def games_of(session: AsyncSession, event_id: str) -> list[TournamentGame]:
    """Every game of the event, in the order they were paired."""
    found = await session.scalars(
        select(TournamentGame)
        .where(TournamentGame.tournament_id == event_id)
        .order_by(TournamentGame.id)
    )
    return list(found)


async def games_with(session: AsyncSession, event_id: str, status: str) -> list[TournamentGame]:
    """The event's games of a status (``pending``, ``playing``, ``finished``)."""
    found = await session.scalars(
        select(TournamentGame)
        .where(TournamentGame.tournament_id == event_id, TournamentGame.status == status)
        .order_by(TournamentGame.id)
    )
    return list(found)


async def seat_game(session: AsyncSession, game_id: int, table_id: str) -> bool:
    """A pending game gets its table and is playing; False when it was seated or decided
    meanwhile (the caller rolls back)."""
    done = await session.execute(
        update(TournamentGame)
        .where(TournamentGame.id == game_id, TournamentGame.status == "pending")
        .values(status="playing", table_id=table_id)
    )
    return getattr(done, "rowcount", 0) == 1


async def finish_game(session: AsyncSession, game_id: int, was: str, now: float) -> bool:
    """Mark a game finished if it still is ``was``; False when another writer finished it
    first (the caller rolls back, storing no result)."""
    done = await session.execute(
        update(TournamentGame)
        .where(TournamentGame.id == game_id, TournamentGame.status == was)
        .values(status="finished", finished_at=now)
    )
    return getattr(done, "rowcount", 0) == 1


async def add_results(session: AsyncSession, results: Sequence[TournamentResult]) -> None:
    """Store a game's results (one per entrant; a second one fails on its unique key)."""
    session.add_all(results)
    await session.flush()


async def results_of(session: AsyncSession, event_id: str) -> list[TournamentResult]:
    """Every result of the event, in the order they were stored."""
    found = await session.scalars(
        select(TournamentResult)
        .where(TournamentResult.tournament_id == event_id)
        .order_by(TournamentResult.id)
    )
    return list(found)


# -- what an event's tables say --------------------------------------------------------------


async def tables_by_id(session: AsyncSession, table_ids: Sequence[str]) -> dict[str, Table]:
    """These tables, by id (one query for a step's games)."""
    if not table_ids:
        return {}
    found = await session.scalars(select(Table).where(Table.id.in_(list(table_ids))))
    return {table.id: table for table in found}


async def seated_at_tables(
    session: AsyncSession, table_ids: Sequence[str]
) -> dict[str, dict[int, str]]:
    """Who sits in each seat of each of these tables now (a table nobody sits at is left
    out)."""
    seated: dict[str, dict[int, str]] = {}
    if table_ids:
        found = await session.execute(
            select(TableSeat.table_id, TableSeat.seat, TableSeat.player_id).where(
                TableSeat.table_id.in_(list(table_ids))
            )
        )
        for table_id, seat, player_id in found:
            seated.setdefault(table_id, {})[seat] = player_id
    return seated


async def matches_at_tables(
    session: AsyncSession, table_ids: Sequence[str]
) -> dict[str, list[Match]]:
    """The matches played at each of these tables, the first first (a table with none is
    left out)."""
    matches: dict[str, list[Match]] = {}
    if table_ids:
        found = await session.scalars(
            select(Match).where(Match.table_id.in_(list(table_ids))).order_by(Match.id)
        )
        for match in found:
            matches.setdefault(match.table_id, []).append(match)
    return matches


async def event_of_tables(session: AsyncSession, table_ids: Sequence[str]) -> dict[str, str]:
    """The event each of these tables was opened for (tables of no event are left out)."""
    if not table_ids:
        return {}
    found = await session.execute(
        select(TournamentGame.table_id, TournamentGame.tournament_id).where(
            TournamentGame.table_id.in_(list(table_ids))
        )
    )
    return {table_id: event_id for table_id, event_id in found if table_id is not None}


# -- the event's lease -----------------------------------------------------------------------


async def acquire(
    session: AsyncSession, event_id: str, owner: str, now: float, seconds: float
) -> int | None:
    """Take the event's lease for ``owner`` (``leases.take``): the epoch, or None while
    another worker holds it."""
    return await leases.take(session, Tournament.id, event_id, owner, now, seconds)


async def renew(
    session: AsyncSession, event_id: str, owner: str, epoch: int, now: float, seconds: float
) -> bool:
    """Extend the lease ``owner`` holds at ``epoch``; False when it was taken over."""
    return await leases.extend(session, Tournament.id, event_id, owner, epoch, now, seconds)


async def fence(session: AsyncSession, event_id: str, owner: str, epoch: int) -> bool:
    """Lock the event's row if ``owner`` still holds its lease at ``epoch`` (the first write
    of each of the owner's transactions); False when the event was taken over."""
    return await leases.fence(session, Tournament.id, event_id, owner, epoch)


async def release(session: AsyncSession, event_id: str, owner: str, epoch: int) -> None:
    """Give the lease up (the worker stops); a no-op once taken over."""
    await leases.give_up(session, Tournament.id, event_id, owner, epoch)
