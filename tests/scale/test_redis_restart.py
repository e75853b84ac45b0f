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
import json
import random
from pathlib import Path

import httpx
import pytest

from tests.pg import PostgresCluster
from tests.scale.cluster import RedisServer, Worker
from tests.scale.test_two_workers import Viewer, metric, play, stored_match
from tests.support import Api, in_thread

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


async def test_a_redis_restart_loses_no_update(pg_cluster: PostgresCluster, tmp_path: Path) -> None:
    database = in_thread(lambda: asyncio.run(pg_cluster.fresh_database()))
    redis = RedisServer()  # its own: this one is restarted mid-test
    redis.start()
    one = Worker(database, redis.url, tmp_path, "worker1")
    two = Worker(database, redis.url, tmp_path, "worker2")
    rng = random.Random(7)
    try:
        await one.wait_healthy()
        await two.wait_healthy()
        async with (
            httpx.AsyncClient(base_url=f"http://{one.base}", timeout=10) as http1,
            httpx.AsyncClient(base_url=f"http://{two.base}", timeout=10) as http2,
        ):
            api1, api2 = Api(http1), Api(http2)
            anna, bela = await api1.player("Anna"), await api2.player("Bela")
            table = await api1.table(anna["token"], options={"target": 7}, visibility="private")
            joined = await api2.join(bela["token"], table["id"], invite_code=table["invite_code"])
            assert joined["status"] == "live"

            a = Viewer("A", anna["token"], 0)
            b = Viewer("B", bela["token"], 1)
            spectator = Viewer("spectator", None, None)
            await a.connect(one, table["id"], None)
            await b.connect(two, table["id"], None)
            await spectator.connect(two, table["id"], None)
            seats, everyone = [a, b], [a, b, spectator]

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
        one.kill()
        two.kill()
        redis.cleanup()

    per_version, final_views = stored_match(log)
    versions = [entry["version"] for entry in log["actions"]]
    assert versions == list(range(1, len(versions) + 1))
    for index, viewer in enumerate(everyone):
        assert [u["version"] for u in viewer.updates] == versions, viewer.name
        for update, redacted in zip(viewer.updates, per_version, strict=True):
            assert update["events"] == redacted[index], (
                f"{viewer.name} at version {update['version']}: got "
                f"{json.dumps(update['events'])} but may see {json.dumps(redacted[index])}"
            )
        assert viewer.view == final_views[index], viewer.name
    assert all(count > 0 for count in lost), f"bus errors counted per worker: {lost}"
