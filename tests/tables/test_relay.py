"""The relay between two workers, with Redis replaced by an in-process network that can
lose messages: a connection on the worker that does not own its table gets the owner's
frames; a lost message hands the connection over (its client resumes) instead of leaving a
gap; the owner drops the remote viewers of a worker that went silent, so the table can leave
memory; a lobby request is forwarded to the owner with its refusal intact."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest

from app.common.errors import Conflict
from app.services import Services
from app.tables.leases import Leases
from app.tables.relay import SILENT_AFTER, WORKERS, Relay, RemoteTable
from tests.support import settings_for
from tests.tables.helpers import Recorder, play_random, started_table
from tests.tables.test_owners import Clock

INTERVAL = 1.0


@dataclass
class Network:
    """Delivers what one relay sends another on the next loop turn, serialized as over
    Redis; ``lose`` messages to a worker are dropped."""

    relays: dict[str, Relay] = field(default_factory=dict)
    lose: dict[str, int] = field(default_factory=dict)

    def bus(self, origin: str) -> Any:
        network = self

        class Bus:
            def send(self, channel: str, body: dict[str, Any]) -> None:
                target = channel.removeprefix(WORKERS)
                if network.lose.get(target, 0) > 0:
                    network.lose[target] -= 1
                    return
                message = orjson.loads(orjson.dumps({**body, "origin": origin, "at": 0.0}))
                loop = asyncio.get_running_loop()
                loop.call_soon(network.relays[target]._receive, message)

        return Bus()


@dataclass(eq=False)
class Watcher(Recorder):
    """A relayed connection as the relay sees it."""

    player_id: str | None = None
    handed_over: bool = False

    def hand_over(self) -> None:
        self.handed_over = True


@pytest.fixture
async def workers(database_url: str) -> AsyncIterator[tuple[Services, Services, Network, Clock]]:
    clock, network, pair = Clock(), Network(), []
    for name in ("worker-a", "worker-b"):
        services = Services.build(settings_for(database_url))
        tables = services.tables
        tables.leases = Leases(tables.sessions, name, 10.0, clock)
        relay = Relay("redis://unused", name, tables, 2.0, INTERVAL, clock)
        relay.bus = network.bus(name)
        tables.relay = network.relays[name] = relay
        pair.append(services)
    try:
        yield pair[0], pair[1], network, clock
    finally:
        for services in pair:
            await services.close()


async def settle() -> None:
    for _ in range(20):  # a few loop turns: the network delivers on the next one
        await asyncio.sleep(0)


async def relayed(two: Services, table_id: str) -> tuple[RemoteTable, Watcher]:
    table = await two.tables.open_table(table_id)
    assert isinstance(table, RemoteTable)
    watcher = Watcher(None)
    assert await table.attach(watcher, None, None) is None
    return table, watcher


async def test_a_relayed_connection_gets_the_owners_frames_and_a_gap_hands_it_over(
    workers: tuple[Services, Services, Network, Clock],
) -> None:
    one, two, network, _ = workers
    authority, players = await started_table(one)
    table, watcher = await relayed(two, authority.table_id)
    assert watcher.frames[0]["type"] == "welcome"
    assert two.tables.loaded() == 0  # worker b holds no copy of the table
    rng = random.Random(4)
    await play_random(authority, players, rng, 2)
    await settle()
    assert [f["version"] for f in watcher.frames if f["type"] == "update"] == [1, 2]
    network.lose["worker-b"] = 1  # the owner's frames for version 3 are lost
    await play_random(authority, players, rng, 2)
    await settle()
    assert watcher.handed_over  # version 4 came after a gap: the client resumes instead
    assert [f["version"] for f in watcher.frames if f["type"] == "update"] == [1, 2]
    assert table.conn not in two.tables.relay.relayed  # type: ignore[union-attr]


async def test_the_owner_drops_the_viewers_of_a_silent_worker(
    workers: tuple[Services, Services, Network, Clock],
) -> None:
    one, two, network, clock = workers
    authority, _ = await started_table(one)
    await relayed(two, authority.table_id)
    await settle()
    assert len(authority.watchers) == 1
    relay_a, relay_b = network.relays["worker-a"], network.relays["worker-b"]
    for _ in range(2 * SILENT_AFTER):  # worker b lists its connection: it stays
        clock.now += INTERVAL
        await relay_b.check(one.tables.leases.holders)  # type: ignore[union-attr]
        await settle()
        await relay_a.check(one.tables.leases.holders)  # type: ignore[union-attr]
    assert len(authority.watchers) == 1
    clock.now += (SILENT_AFTER + 1) * INTERVAL  # worker b went silent (it died)
    await relay_a.check(one.tables.leases.holders)  # type: ignore[union-attr]
    assert authority.watchers == {}  # the table may leave memory again


async def test_a_lobby_request_is_forwarded_to_the_owner_with_its_refusal(
    workers: tuple[Services, Services, Network, Clock],
) -> None:
    one, two, _, _ = workers
    anna, _ = await one.tables.create_player("Anna")
    bela, _ = await two.tables.create_player("Bela")
    cleo, _ = await two.tables.create_player("Cleo")
    table = await one.tables.create_table(anna, "sixty-six", {}, "public")
    joined = await two.tables.join(bela, table["id"], None, None)  # run by worker a
    assert joined["status"] == "live" and two.tables.loaded() == 0
    with pytest.raises(Conflict) as refused:
        await two.tables.join(cleo, table["id"], None, None)
    assert refused.value.code == "table_not_open"


async def test_a_rematch_offer_lives_with_the_owner_and_reaches_relayed_viewers(
    workers: tuple[Services, Services, Network, Clock],
) -> None:
    one, two, _, _ = workers
    authority, (anna, bela) = await started_table(one)
    await authority.act(bela.id, authority.version, {"type": "resign"})
    _, watcher = await relayed(two, authority.table_id)
    offered = await two.tables.rematch(bela, authority.table_id)  # run by worker a
    assert offered["rematch"]["accepted"] == [1] and authority.rematch is not None
    await settle()
    assert watcher.frames[-1]["type"] == "rematch"
    _, late = await relayed(two, authority.table_id)
    await settle()
    assert [f["type"] for f in late.frames] == ["welcome", "rematch"]
    declined = await two.tables.decline_rematch(anna, authority.table_id)
    assert declined["rematch"]["declined_by"] == 0 and authority.rematch is None
    assert two.tables.loaded() == 0
    with pytest.raises(Conflict) as refused:
        await two.tables.decline_rematch(anna, authority.table_id)
    assert refused.value.code == "no_rematch_offer"


async def test_an_abort_through_another_worker_is_decided_by_the_owner(
    workers: tuple[Services, Services, Network, Clock],
) -> None:
    one, two, _, _ = workers
    authority, (anna, bela) = await started_table(one)
    _, watcher = await relayed(two, authority.table_id)
    match_id = authority.match_id
    aborted = await two.tables.abort(bela, authority.table_id)  # run by worker a
    assert aborted["status"] == "open" and authority.state is None
    assert two.tables.loaded() == 0
    await settle()
    assert [f["match_id"] for f in watcher.frames if f["type"] == "aborted"] == [match_id]
    with pytest.raises(Conflict) as refused:  # the refusal comes back with its code
        await two.tables.abort(anna, authority.table_id)
    assert refused.value.code == "no_match"


async def test_a_connection_that_arrives_during_the_owner_check_is_not_handed_over(
    workers: tuple[Services, Services, Network, Clock],
) -> None:
    one, two, network, _ = workers
    first, _ = await started_table(one)
    second, _ = await started_table(one)
    await relayed(two, first.table_id)
    relay_b = network.relays["worker-b"]
    late: list[Watcher] = []

    async def holders(table_ids: list[str]) -> dict[str, str]:
        found = await one.tables.leases.holders(table_ids)  # type: ignore[union-attr]
        late.append((await relayed(two, second.table_id))[1])  # arrives meanwhile
        return found

    assert await relay_b.check(holders) == 0
    assert not late[0].handed_over
    assert len(relay_b.relayed) == 2
