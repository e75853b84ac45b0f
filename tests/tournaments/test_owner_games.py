"""The owner of an event step by step, on real tables and their turn clocks, with time in the
test's hands (``ManualTime``: nothing here sleeps for a deadline): a clock that runs out in
the middle of an event's game is a forfeit, scored once; a player who withdraws from a
running arena keeps its standing and the game it was playing, and is not paired again; two
forfeits in a row withdraw a player (docs/tournaments.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from app.services import Services
from app.store import Player, TournamentGame
from app.store import tables as table_store
from app.store import tournaments as store
from app.tables.authority import TableAuthority
from app.tournaments.owner import EventOwner, OwnerSettings
from app.tournaments.service import EventForm, TournamentService
from tests.fixtures import database_url, sqlite_template
from tests.support import settings_for
from tests.tables.helpers import ManualTime
from tests.tables.test_turn_clocks import legal_move

__all__ = ["backend", "database_url", "sqlite_template"]

PASSWORD = "a long enough secret"
DAY = 24 * 3600.0
"""An arena long enough for clocks to run out in (each costs the manual clock an hour)."""
STEPS = 50
"""How many owner steps a test allows for the event to reach what it waits for (each step
does one thing of the module docstring of ``owner``; a handful are needed)."""


@pytest.fixture
def backend() -> str:
    """These tests need only one database: SQLite."""
    return "sqlite"


@dataclass
class World:
    """Started services on a manual clock, an event owner and the tournament service on
    the same clock, and an account that creates events."""

    services: Services
    time: ManualTime
    owner: EventOwner
    tournaments: TournamentService
    host: Player

    async def player(self, name: str) -> Player:
        """A guest who is online (seen now)."""
        player, _ = await self.services.tables.create_player(name)
        self.services.online.seen(player.id, force=True)
        return player

    async def step(self, event_id: str) -> None:
        """One tick of the owner: its leases, then one step of the event."""
        await self.owner.keep_leases()
        await self.owner.step(event_id)

    async def games(self, event_id: str) -> list[TournamentGame]:
        async with self.services.tables.sessions() as session:
            return await store.games_of(session, event_id)

    async def results(self, event_id: str) -> list[Any]:
        async with self.services.tables.sessions() as session:
            return await store.results_of(session, event_id)

    async def until(self, event_id: str, done: Any) -> None:
        """Step the event until ``done()`` (awaitable) holds."""
        for _ in range(STEPS):
            if await done():
                return
            await self.step(event_id)
        raise AssertionError(f"the event never got there: {await self.games(event_id)}")

    async def playing(self, event_id: str) -> TournamentGame:
        """Step until a game of the event is at its table; that game."""
        found: list[TournamentGame] = []

        async def seated() -> bool:
            found[:] = [g for g in await self.games(event_id) if g.status == "playing"]
            return bool(found)

        await self.until(event_id, seated)
        return found[0]

    async def table(self, game: TournamentGame) -> TableAuthority:
        assert game.table_id is not None
        return await self.services.tables.authority(game.table_id)


@asynccontextmanager
async def world(database_url: str) -> AsyncIterator[World]:
    time = ManualTime()
    settings = settings_for(
        database_url, bot_workers=0, clock_move_seconds=30.0, clock_bank_seconds=0.0
    )
    services = Services.build(settings)
    services.tables.timekeeper = time
    await services.start()
    await services.events.close()  # this test's owner alone steps the events, on its clock
    owner = EventOwner(
        services.tables.sessions,
        services.tables,
        services.online,
        "test-owner",
        OwnerSettings(tick_seconds=60.0, lease_seconds=300.0),
        clock=time,
    )
    try:
        guest, _ = await services.tables.create_player("Host")
        host = await services.accounts.upgrade(guest, "host", PASSWORD)
        yield World(services, time, owner, TournamentService(services.tables.sessions, time), host)
    finally:
        await owner.close()
        await services.close()


async def new_event(w: World, players: list[Player], **form: Any) -> str:
    """An event the players join, started by the owner; its id."""
    values: dict[str, Any] = {
        "name": "Test event",
        "variant": "sixty-six",
        "options": {"target": 1},
        "access": "guests",
        "starts_in": 5.0,
        **form,
    }
    event = await w.tournaments.create(w.host, EventForm(**values))
    for player in players:
        await w.tournaments.join(player, event["id"])
    await w.time.advance(5.0)
    await w.step(event["id"])
    assert (await w.tournaments.event(event["id"]))["status"] == "running"
    return str(event["id"])


async def run_out(w: World, table: TableAuthority, late: Player, players: list[Player]) -> None:
    """The others move until ``late`` is on move; then its clock runs out."""
    by_seat = {seat: p for p in players for seat in [table.seat_of(p.id)] if seat is not None}
    for _ in range(100):
        seat = table.state.to_move if table.state else None
        assert seat is not None and not table.state.match_over  # type: ignore[union-attr]
        if by_seat[seat].id == late.id:
            break
        await table.act(by_seat[seat].id, table.version, await legal_move(table, seat))
    await w.time.advance(3600, table)


def outcomes(rows: list[Any], entrant: str) -> list[tuple[str, float]]:
    return [(r.outcome, r.points) for r in rows if r.entrant_id == entrant]


async def test_a_clock_that_runs_out_mid_game_loses_it_by_forfeit_counted_once(
    database_url: str,
) -> None:
    async with world(database_url) as w:
        anna, bela = await w.player("Anna"), await w.player("Bela")
        event_id = await new_event(w, [anna, bela], format="swiss", rounds=1)
        game = await w.playing(event_id)
        table = await w.table(game)
        assert table.tournament == event_id and table.on_timeout == "forfeit"
        by_seat = dict(_seated(table, [anna, bela]))
        while table.acted != {0, 1}:  # mid-game: both have acted (no abort at an event anyway)
            seat = table.state.to_move if table.state else None
            assert seat is not None
            await table.act(by_seat[seat].id, table.version, await legal_move(table, seat))
        mover = table.state.to_move if table.state else None
        assert mover is not None and table.status == "live"
        late = next(p for p in (anna, bela) if table.seat_of(p.id) == mover)
        other = bela if late is anna else anna
        await run_out(w, table, late, [anna, bela])
        assert table.status == "finished"
        assert table.state is not None and table.state.match_winner == 1 - mover

        async def finished() -> bool:
            return (await w.tournaments.event(event_id))["status"] == "finished"

        await w.until(event_id, finished)
        # The same game recorded again, as a second step that read it still playing would:
        # refused (nothing stored); and more steps change nothing.
        stale = {game.a: "win", str(game.b): "loss"}
        assert not await w.owner.record(await _event(w, event_id), game, stale)
        for _ in range(3):
            await w.step(event_id)
        rows = await w.results(event_id)
        event = await w.tournaments.event(event_id)
        async with w.services.tables.sessions() as session:
            row = await table_store.get_table(session, table.table_id)

    entrant = {p.id: _entrant_of(event, p) for p in (anna, bela)}
    assert len(rows) == 2 and {r.game_id for r in rows} == {game.id}
    assert outcomes(rows, entrant[late.id]) == [("forfeit_loss", 0.0)]
    assert outcomes(rows, entrant[other.id]) == [("forfeit_win", 1.0)]
    standings = {s["entrant"]: s for s in event["standings"]}
    assert standings[entrant[other.id]]["points"] == 1.0
    assert standings[entrant[late.id]]["points"] == 0.0
    assert event["pairings"][0]["status"] == "finished"
    assert row is not None and row.status == "finished"  # the table is closed with its game


async def test_a_player_who_withdraws_from_a_running_arena_keeps_its_game_and_standing(
    database_url: str,
) -> None:
    async with world(database_url) as w:
        people = [await w.player(name) for name in ("Anna", "Bela", "Cili")]
        event_id = await new_event(w, people, format="arena", duration=600.0)
        first = await w.playing(event_id)
        table = await w.table(first)
        seated = dict(_seated(table, people))
        gone_id = (await w.tournaments.event(event_id, seated[0]))["you"]["entrant"]
        assert gone_id in (first.a, first.b)
        # Seat 0's player withdraws while its game is under way, then wins it.
        left = await w.tournaments.withdraw(seated[0], event_id)
        assert left["you"]["withdrawn"] and left["you"]["table"] == table.table_id
        await table.act(seated[1].id, table.version, {"type": "resign"})

        async def counted() -> bool:
            return any(r.entrant_id == gone_id for r in await w.results(event_id))

        await w.until(event_id, counted)
        # The others play on: every later game is between the two of them.
        for _ in range(3):
            game = await w.playing(event_id)
            assert gone_id not in (game.a, game.b), game
            later = await w.table(game)
            loser = next(p for p in people if later.seat_of(p.id) == 1)
            await later.act(loser.id, later.version, {"type": "resign"})

            async def recorded(game_id: int = game.id) -> bool:
                return any(
                    g.id == game_id and g.status == "finished" for g in await w.games(event_id)
                )

            await w.until(event_id, recorded)
        # The arena ends with the next game paired: it is played out and the event finishes.
        await w.time.advance(600.0)
        last = await w.playing(event_id)
        assert gone_id not in (last.a, last.b)
        table = await w.table(last)
        await table.act(
            next(p for p in people if table.seat_of(p.id) == 0).id,
            table.version,
            {"type": "resign"},
        )

        async def finished() -> bool:
            return (await w.tournaments.event(event_id))["status"] == "finished"

        await w.until(event_id, finished)
        rows = await w.results(event_id)
        games = await w.games(event_id)
        event = await w.tournaments.event(event_id)

    assert outcomes(rows, gone_id) == [("win", 2.0)]  # the game under way counted
    assert [g for g in games if gone_id in (g.a, g.b)] == [g for g in games if g.id == first.id]
    assert len(games) == 5 and all(g.status == "finished" for g in games)
    mine = next(s for s in event["standings"] if s["entrant"] == gone_id)
    assert (mine["points"], mine["games"], mine["withdrawn"]) == (2.0, 1, True)


async def test_two_forfeits_in_a_row_withdraw_a_player_from_an_arena(database_url: str) -> None:
    async with world(database_url) as w:
        anna, bela = await w.player("Anna"), await w.player("Bela")
        event_id = await new_event(w, [anna, bela], format="arena", duration=DAY)
        entrant = {
            p.id: (await w.tournaments.event(event_id, p))["you"]["entrant"] for p in (anna, bela)
        }
        played = []
        for _ in range(2):  # Anna lets her clock run out, twice
            game = await w.playing(event_id)
            table = await w.table(game)
            await run_out(w, table, anna, [anna, bela])
            played.append(game.id)

            async def recorded(game_id: int = game.id) -> bool:
                return any(
                    g.id == game_id and g.status == "finished" for g in await w.games(event_id)
                )

            await w.until(event_id, recorded)
        for _ in range(5):  # Bela is alone now: nobody is paired
            await w.step(event_id)
        games = await w.games(event_id)
        await w.time.advance(DAY)
        for _ in range(3):
            await w.step(event_id)
        rows = await w.results(event_id)
        event = await w.tournaments.event(event_id)

    assert [g.id for g in games] == played
    assert outcomes(rows, entrant[anna.id]) == [("forfeit_loss", 0.0)] * 2
    assert outcomes(rows, entrant[bela.id]) == [("forfeit_win", 2.0)] * 2
    standing = {s["entrant"]: s for s in event["standings"]}
    assert standing[entrant[anna.id]]["withdrawn"] and not standing[entrant[bela.id]]["withdrawn"]
    assert event["status"] == "finished"


def _seated(table: TableAuthority, players: list[Player]) -> list[tuple[int, Player]]:
    """The players by their seat at ``table``."""
    return sorted((seat, p) for p in players for seat in [table.seat_of(p.id)] if seat is not None)


def _entrant_of(event: dict[str, Any], player: Player) -> str:
    return next(s["entrant"] for s in event["standings"] if s["name"] == player.name)


async def _event(w: World, event_id: str) -> Any:
    async with w.services.tables.sessions() as session:
        return await store.get_event(session, event_id)
