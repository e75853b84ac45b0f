"""A pool survives a SIGKILL of its owner: worker 1 holds the four-hand pool's lease with
three players waiting and is killed; worker 2 takes the pool over once the lease has run out,
and the three, with a fourth who joins there, are seated at one table, each exactly once.
The three pages, whose player sockets are open on worker 2, are told that they wait on
(``pool_waiting``) and then where they are seated (``pool_seated``)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from app.players.online import Online
from tests.api.test_player_socket import PlayerSocket
from tests.pg import PostgresCluster
from tests.scale.cluster import RedisServer, Worker, client
from tests.support import Api

pytestmark = [pytest.mark.postgres]

PATIENCE = 120.0
POOL = "four-hand-4"
FAST = {"POOL_WAVE_SECONDS": "0.3", "POOL_WAVE_JITTER_SECONDS": "0.05"}


async def pool_owner(database_url: str) -> str | None:
    """The worker whose lease on the pool is running (by the database's own clock)."""
    connection = await asyncpg.connect(database_url.replace("postgresql+asyncpg", "postgresql"))
    try:
        return await connection.fetchval(  # type: ignore[no-any-return]
            "SELECT owner FROM pool_leases WHERE pool_id = $1 "
            "AND lease_until >= extract(epoch from now())",
            POOL,
        )
    finally:
        await connection.close()


async def seated(api: Api, token: str) -> dict[str, Any]:
    """Poll the player's entry (keeping it online) until a wave has seated it."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        entry = await api.call("GET", "/api/pools/entry", token)
        if entry["status"] == "seated":
            return entry
        await asyncio.sleep(0.1)
    raise AssertionError(f"never seated: {entry}")


async def running_owner(database_url: str) -> str:
    """The worker that holds the pool's lease, waiting while none does (on a loaded machine
    a lease can lapse between two renewals, and either worker may take it up again)."""
    deadline = time.monotonic() + PATIENCE
    while (owner := await pool_owner(database_url)) is None:
        assert time.monotonic() < deadline, "no worker took the pool"
        await asyncio.sleep(0.1)
    return owner


async def test_the_next_owner_of_a_pool_seats_the_players_the_dead_owner_had_waiting(
    pg_cluster: PostgresCluster, redis_server: RedisServer, tmp_path: Path
) -> None:
    database = await pg_cluster.fresh_database()
    one = Worker(database, redis_server.url, tmp_path, "worker1", **FAST)
    two: Worker | None = None
    try:
        await one.wait_healthy()
        first_owner = await running_owner(database)  # worker 1's: it is the only one
        two = Worker(database, redis_server.url, tmp_path, "worker2", **FAST)
        await two.wait_healthy()
        async with client(one) as http_one, client(two) as http_two:
            api_one, api_two = Api(http_one), Api(http_two)
            waiting = [await api_one.player(name) for name in ("Anna", "Bela", "Cili")]
            for player in waiting:
                await api_one.call("POST", f"/api/pools/{POOL}/join", player["token"])
            # Kill whichever worker holds the pool now (worker 1, unless its lease lapsed on
            # a loaded machine and worker 2 took the pool up); the other one goes on.
            owner = await running_owner(database)
            dead, alive, api = (one, two, api_two)
            if owner != first_owner:
                dead, alive, api = (two, one, api_one)
            pages = [await PlayerSocket.open(alive.base, p["token"]) for p in waiting]
            dead.kill()
            dora = await api.player("Dora")
            await api.call("POST", f"/api/pools/{POOL}/join", dora["token"])
            players = [*waiting, dora]
            entries = await asyncio.gather(*(seated(api, p["token"]) for p in players))
            assert await running_owner(database) != owner
            [table_id] = {entry["table"]["id"] for entry in entries}
            table = await api.call("GET", f"/api/tables/{table_id}")
            assert sorted(s["player_id"] for s in table["seats"]) == sorted(
                p["id"] for p in players
            )
            for player in players:
                mine = await api.call("GET", "/api/players/me/tables", player["token"])
                assert [t["id"] for t in mine["tables"]] == [table_id]
            for page in pages:
                if owner == first_owner:  # else worker 2 took the pool before they listened
                    told = await page.until("pool_waiting")
                    assert told["pool"] == POOL and told["status"] == "waiting"
                assert (await page.until("pool_seated"))["table_id"] == table_id
                await page.socket.close()
            assert alive.process.poll() is None
    finally:
        one.kill()
        if two is not None:
            two.kill()


async def test_a_player_seen_by_one_worker_is_online_for_the_others(
    redis_server: RedisServer,
) -> None:
    now = [time.time()]
    one = Online(redis_server.url, clock=lambda: now[0], window=60, refresh=10)
    two = Online(redis_server.url, clock=lambda: now[0], window=60, refresh=10)
    try:
        one.seen("pool-anna")
        await one._flush()
        assert await two.offline({"pool-anna", "pool-bela"}) == {"pool-bela"}
        now[0] += 61
        assert await two.offline({"pool-anna", "pool-bela"}) == {"pool-anna", "pool-bela"}
    finally:
        await one.close()
        await two.close()
