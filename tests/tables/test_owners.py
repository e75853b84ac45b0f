"""One owner per table: two workers' table services on one database, each with its lease
keeper on a clock the test moves. Only the lease holder loads a table; a former owner's
commit is fenced off with nothing half-applied; a lease that stops being renewed is taken
over by the other worker; an evicted table's lease is given up at once."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from app.common.errors import Elsewhere, TableMoving
from app.services import Services
from app.store import matches as match_store
from app.store import tables as table_store
from app.tables.leases import Leases
from tests.support import settings_for
from tests.tables.helpers import Recorder, play_random, started_table

LEASE = 6.0


class Clock:
    """Seconds since the epoch, moved by hand (shared by both workers: one wall clock)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass(eq=False)
class Watcher(Recorder):
    """A recording connection that notes being handed over to the next owner."""

    handed_over: bool = False

    def hand_over(self) -> None:
        self.handed_over = True


@pytest.fixture
async def workers(database_url: str) -> AsyncIterator[tuple[Services, Services, Clock]]:
    clock = Clock()
    pair = []
    for name in ("worker-a", "worker-b"):
        services = Services.build(settings_for(database_url))
        services.tables.leases = Leases(services.tables.sessions, name, LEASE, clock)
        pair.append(services)
    try:
        yield pair[0], pair[1], clock
    finally:
        for services in pair:
            await services.close()


async def stored_version(services: Services, table_id: str) -> tuple[int, int]:
    """The table's stored version and how many actions its log holds."""
    async with services.tables.sessions() as session:
        table = await table_store.get_table(session, table_id)
        assert table is not None and table.match_id is not None
        rows = await match_store.actions_of_match(session, table.match_id)
    return table.version, len(rows)


async def test_a_former_owners_commit_is_refused_and_nothing_is_half_applied(
    workers: tuple[Services, Services, Clock],
) -> None:
    one, two, clock = workers
    authority, players = await started_table(one)  # opened on worker a: it owns the table
    table_id = authority.table_id
    watcher = Watcher(None)
    await authority.attach(watcher, None, None)
    assert await play_random(authority, players, random.Random(3), 3) == 3
    with pytest.raises(Elsewhere):
        await two.tables.authority(table_id)

    clock.now += LEASE + 1  # worker a stops renewing (paused, cut off)
    taken = await two.tables.authority(table_id)
    assert taken.version == authority.version == 3 and taken.epoch > authority.epoch

    seat = authority.state.to_move if authority.state else None
    assert seat is not None
    legal = json.loads(authority.records[-1].frame_for(seat))["legal"]
    frames_before, state_before = len(watcher.frames), authority.state
    with pytest.raises(TableMoving):
        await authority.act(players[seat].id, 3, legal[0])
    # Nothing half-applied: memory, the store and the viewers all stay at version 3.
    assert authority.version == 3 and authority.state is state_before
    assert await stored_version(one, table_id) == (3, 3)
    assert len(watcher.frames) == frames_before
    # Worker a lets the table go and hands its viewers over to the next owner.
    assert one.tables.loaded() == 0 and watcher.handed_over
    # The new owner's action goes through.
    assert await taken.act(players[seat].id, 3, legal[0]) == 4
    assert await stored_version(two, table_id) == (4, 4)


async def test_the_lease_is_taken_over_once_its_owner_stops_renewing(
    workers: tuple[Services, Services, Clock],
) -> None:
    one, two, clock = workers
    authority, _ = await started_table(one)
    watcher = Watcher(None)
    await authority.attach(watcher, None, None)
    for _ in range(3):  # worker a renews: worker b never gets the table
        clock.now += LEASE / 2
        assert await one.tables.keep_leases() == 0
        assert await two.tables.keep_leases() == 0
        with pytest.raises(Elsewhere):
            await two.tables.authority(authority.table_id)
    clock.now += LEASE + 1  # worker a stopped renewing (it died)
    assert await two.tables.keep_leases() == 1  # adopted: rebuilt from the log
    assert two.tables.loaded() == 1
    assert (await two.tables.authority(authority.table_id)).version == authority.version
    await one.tables.keep_leases()  # worker a wakes up: its lease is gone, so is the table
    assert one.tables.loaded() == 0 and watcher.handed_over


async def test_an_evicted_table_gives_its_lease_up(
    workers: tuple[Services, Services, Clock],
) -> None:
    one, two, _ = workers
    anna, _ = await one.tables.create_player("Anna")
    table = await one.tables.create_table(anna, "sixty-six", {}, "public")
    with pytest.raises(Elsewhere):
        await two.tables.authority(table["id"])
    one.tables.clock = lambda: float("inf")  # idle for ever
    assert one.tables.evict_idle() == 1
    for task in list(one.tables._background):
        await task
    assert (await two.tables.authority(table["id"])).table_id == table["id"]
