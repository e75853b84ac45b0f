"""The pool service against a real store: an entry seats its player once whatever races it
(two waves, a former owner of the pool), and a new owner picks the entries up."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from app.pools import pool_by_id
from app.pools.service import PoolService
from app.services import Services, pool_settings
from app.store import Player
from tests.support import settings_for

SIXTY_SIX = pool_by_id("sixty-six-2")


@pytest.fixture
async def services(database_url: str) -> AsyncIterator[Services]:
    """Started services whose own waves wait a minute: the tests run the waves."""
    settings = settings_for(database_url, pool_wave_seconds=60, pool_wave_jitter_seconds=0)
    built = Services.build(settings)
    await built.start()
    try:
        yield built
    finally:
        await built.close()


async def waiting_pair(services: Services) -> list[Player]:
    """Two guests waiting in the Sixty-Six pool, which this worker holds."""
    players = [(await services.tables.create_player(name))[0] for name in ("Anna", "Bela")]
    for player in players:
        services.online.seen(player.id)  # as its request to join would
        await services.pools.join(player, SIXTY_SIX.id)
    await services.pools.keep_leases()
    assert SIXTY_SIX.id in services.pools.held
    return players


async def tables_of(services: Services, players: list[Player]) -> list[list[str]]:
    return [[t["id"] for t in await services.tables.tables_of(p)] for p in players]


async def test_two_waves_that_race_seat_each_entry_once(services: Services) -> None:
    players = await waiting_pair(services)
    pools = services.pools
    first, second = await pools.plan(SIXTY_SIX), await pools.plan(SIXTY_SIX)
    assert first.wave.groups == second.wave.groups and len(first.wave.groups) == 1
    epoch = pools.held[SIXTY_SIX.id]
    opened = await asyncio.gather(pools.seat(first, epoch), pools.seat(second, epoch))
    assert sorted(len(tables) for tables in opened) == [0, 1]
    [table_id] = opened[0] or opened[1]
    assert await tables_of(services, players) == [[table_id], [table_id]]
    assert (await pools.pools())[0]["waiting"] == 0


async def test_a_former_owner_seats_nobody_and_the_new_owner_seats_everyone(
    services: Services,
) -> None:
    players = await waiting_pair(services)
    former = services.pools
    plan = await former.plan(SIXTY_SIX)
    stale = former.held[SIXTY_SIX.id]
    # Another worker whose clock is past the former owner's lease takes the pool over.
    later = PoolService(
        former.sessions,
        services.tables,
        services.online,
        "another-worker",
        pool_settings(settings_for("sqlite://")),
        clock=lambda: time.time() + 100,
    )
    await later.keep_leases()
    assert later.held[SIXTY_SIX.id] > stale
    assert await former.seat(plan, stale) == []
    assert SIXTY_SIX.id not in former.held
    assert await tables_of(services, players) == [[], []]
    [table_id] = await later.wave(SIXTY_SIX)
    assert await tables_of(services, players) == [[table_id], [table_id]]


async def test_a_table_announced_but_never_started_is_started_by_the_next_owner(
    services: Services,
) -> None:
    players = await waiting_pair(services)
    former = services.pools
    plan = await former.plan(SIXTY_SIX)
    rows = [plan.entries[p.id] for p in players]
    claim = former._claim(SIXTY_SIX, rows, former.held[SIXTY_SIX.id])
    # The owner dies between the commit that announces the table and the match's start.
    table_id = await services.tables.open_seated_table(
        [p.id for p in players], "sixty-six", claim, rated=False, clock="move", start=False
    )
    assert table_id is not None
    assert (await services.tables.get_table(table_id, None))["status"] == "open"
    later = PoolService(
        former.sessions,
        services.tables,
        services.online,
        "another-worker",
        pool_settings(settings_for("sqlite://")),
        clock=lambda: time.time() + 100,
    )
    await later.keep_leases()
    assert (await services.tables.get_table(table_id, None))["status"] == "live"


async def test_a_player_who_joins_again_brings_its_last_opponents(services: Services) -> None:
    anna, bela = await waiting_pair(services)
    [table_id] = await services.pools.wave(SIXTY_SIX)
    for player in (anna, bela):
        await services.pools.join(player, SIXTY_SIX.id)
    plan = await services.pools.plan(SIXTY_SIX)
    assert plan.entries[anna.id].last_opponents == [bela.id]
    assert plan.entries[bela.id].last_opponents == [anna.id]
    assert table_id
