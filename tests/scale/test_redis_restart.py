"""Redis restarts mid-match: the database, not Redis, is the record.

Two workers share one PostgreSQL database and a redis-server of this test's own. Player A is
on worker 1; player B and a spectator are on worker 2. After a few moves redis-server is
killed; the match goes on while it is down (every update published meanwhile is lost, so each
worker must notice that the table moved, from its periodic check against the database), then
redis-server is started again on the same port and the match is played to its end. Every
connection must have seen every version exactly once, each with exactly the events its viewer
may see, and the workers must have counted the lost messages.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from tests.pg import PostgresCluster
from tests.scale.cluster import RedisServer, client, two_workers
from tests.scale.test_two_workers import (
    check_every_version_once,
    connect_across,
    metric,
    play,
    start_match,
)
from tests.support import Api, in_thread

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


async def test_a_redis_restart_loses_no_update(pg_cluster: PostgresCluster, tmp_path: Path) -> None:
    database = in_thread(lambda: asyncio.run(pg_cluster.fresh_database()))
    redis = RedisServer()  # its own: this one is restarted mid-test
    redis.start()
    rng = random.Random(7)
    try:
        async with (
            two_workers(database, redis.url, tmp_path) as (one, two),
            client(one) as http1,
            client(two) as http2,
        ):
            api1, api2 = Api(http1), Api(http2)
            anna, bela, table, joined = await start_match(api1, api2)
            everyone = await connect_across(one, two, table["id"], anna, bela, table["invite_code"])
            a, b, _ = everyone
            seats = [a, b]

            assert await play(seats, everyone, rng, 8) == 8
            redis.stop()  # SIGKILL: whatever was in flight is gone
            assert await play(seats, everyone, rng, 8) == 8  # across workers, without Redis
            redis.start()
            await play(seats, everyone, rng, 10_000)
            assert a.view["match_over"]
            log = await api2.call("GET", f"/api/matches/{joined['match_id']}/log")
            lost = [
                metric((await http.get("/metrics")).text, "talon_bus_errors_total")
                for http in (http1, http2)
            ]
            for viewer in everyone:
                await viewer.nothing_more()
    finally:
        redis.cleanup()

    check_every_version_once(log, everyone)
    assert all(count > 0 for count in lost), f"bus errors counted per worker: {lost}"
