"""Redis restarts mid-match: the database, not Redis, is the record.

Two workers share one PostgreSQL database and a redis-server of this test's own. The table is
owned by worker 1 (it was opened there); both players are on worker 1, as the shipped nginx
rule routes a table's connections, and a spectator is on worker 2, which relays it to the
owner through Redis. After a few moves redis-server is killed: the players play on (the owner
needs only PostgreSQL), while the spectator's relayed connection is handed over and cannot be
greeted again until Redis is back (whatever was published meanwhile is lost). redis-server is
started again on the same port, the spectator resumes with ``since``, and the match is played
to its end. Every connection must have seen every version exactly once, each with exactly the
events its viewer may see, and both workers must have counted the lost messages.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from tests.pg import PostgresCluster
from tests.scale.cluster import RedisServer, client, two_workers
from tests.scale.test_two_workers import (
    Viewer,
    check_every_version_once,
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
            a, b = Viewer("A", anna["token"], 0), Viewer("B", bela["token"], 1)
            spectator = Viewer("spectator", None, None, table["invite_code"])
            for viewer, worker in ((a, one), (b, one), (spectator, two)):
                await viewer.connect(worker, table["id"], None)
            seats, everyone = [a, b], [a, b, spectator]

            assert await play(seats, everyone, rng, 8) == 8
            redis.stop()  # SIGKILL: whatever was in flight is gone
            assert await play(seats, [a, b], rng, 8) == 8  # on the owner, without Redis
            redis.start()
            await spectator.catch_up(a.version)  # handed over, greeted again once Redis is back
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
    assert spectator.resumed and not (a.resumed or b.resumed)
    assert all(count > 0 for count in lost), f"bus errors counted per worker: {lost}"
