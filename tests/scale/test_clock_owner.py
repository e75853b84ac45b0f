"""A turn clock survives a change of the table's owner: worker 1 owns a timed table and is
killed with SIGKILL while the first player's deadline is pending; worker 2 takes the table's
lease once it has run out, sets the alarm from the stored clock, and applies the consequence
exactly once."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from tests.pg import PostgresCluster
from tests.scale.cluster import RedisServer, Worker, client
from tests.support import Api

pytestmark = [pytest.mark.postgres]

MOVE_SECONDS = 4.0


async def test_the_next_owner_applies_a_deadline_the_dead_owner_had_pending(
    pg_cluster: PostgresCluster, redis_server: RedisServer, tmp_path: Path
) -> None:
    database = await pg_cluster.fresh_database()
    clocks = {"CLOCK_MOVE_SECONDS": str(MOVE_SECONDS), "CLOCK_BANK_SECONDS": "0"}
    one = Worker(database, redis_server.url, tmp_path, "worker1", **clocks)
    two = Worker(database, redis_server.url, tmp_path, "worker2", **clocks)
    try:
        await one.wait_healthy()
        await two.wait_healthy()
        async with client(one) as http:
            api = Api(http)
            table, _ = await api.live_table(clock="move", on_timeout="forfeit")
            started = time.monotonic()
        one.kill()  # the owner dies with the deadline ahead
        assert time.monotonic() - started < MOVE_SECONDS, "the kill came after the deadline"
        async with client(two) as http:
            for _ in range(300):
                record = (await http.get(f"/api/matches/{table['match_id']}")).json()
                if record["status"] == "finished":
                    break
                await asyncio.sleep(0.05)
            assert record["status"] == "finished", "the next owner did not apply the deadline"
            log = (await http.get(f"/api/matches/{table['match_id']}/log")).json()
        resigned = [a for a in log["actions"] if a["action"]["type"] == "resign"]
        assert len(resigned) == 1 and [a["seat"] for a in record["abandoned"]] == [
            resigned[0]["seat"]
        ]
        ran_out = [
            line
            for line in two.log_lines()
            if line.startswith("{") and "a turn clock ran out" in json.loads(line)["message"]
        ]
        assert len(ran_out) == 1  # applied by worker 2, once
    finally:
        one.kill()
        two.kill()
