"""A turn clock survives a change of the table's owner: worker 1 owns a timed table and is
killed with SIGKILL while the first player's deadline is pending; worker 2 takes the table's
lease once it has run out, sets the alarm from the stored clock, and applies the consequence
exactly once."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import asyncpg
import pytest

from tests.pg import PostgresCluster
from tests.scale.cluster import RedisServer, Worker, client
from tests.support import Api, every_seat_acts

pytestmark = [pytest.mark.postgres]

# A move's time, longer on each try: the test needs worker 1 killed before the deadline, which
# the store shows afterwards; a loaded machine that was slower than that gets a longer clock
# rather than a failure.
MOVE_SECONDS = (4.0, 12.0, 30.0)


async def still_pending(database_url: str, match_id: int) -> bool:
    """Whether the stored match is live with no resignation: the deadline was not applied."""
    connection = await asyncpg.connect(database_url.replace("postgresql+asyncpg", "postgresql"))
    try:
        status = await connection.fetchval("SELECT status FROM matches WHERE id = $1", match_id)
        resigned = await connection.fetchval(
            "SELECT count(*) FROM actions WHERE match_id = $1 AND action->>'type' = 'resign'",
            match_id,
        )
    finally:
        await connection.close()
    return bool(status == "live" and resigned == 0)


async def test_the_next_owner_applies_a_deadline_the_dead_owner_had_pending(
    pg_cluster: PostgresCluster, redis_server: RedisServer, tmp_path: Path
) -> None:
    for attempt, move_seconds in enumerate(MOVE_SECONDS):
        database = await pg_cluster.fresh_database()
        clocks = {"CLOCK_MOVE_SECONDS": str(move_seconds), "CLOCK_BANK_SECONDS": "0"}
        one = Worker(database, redis_server.url, tmp_path, f"worker1-{attempt}", **clocks)
        two = Worker(database, redis_server.url, tmp_path, f"worker2-{attempt}", **clocks)
        try:
            await one.wait_healthy()
            await two.wait_healthy()
            async with client(one) as http:
                table, players = await Api(http).live_table(clock="move", on_timeout="forfeit")
            # Before every seat has acted, a clock that runs out aborts the match instead.
            tokens = [player["token"] for player in players]
            acted = await every_seat_acts(one.base, table["id"], tokens)
            one.kill()  # the owner dies with the deadline ahead (the store says so below)
            if acted is not None and await still_pending(database, table["match_id"]):
                await check_applied_once_by(two, table["match_id"])
                return
        finally:
            one.kill()
            two.kill()
    raise AssertionError("worker 1 applied every deadline before it was killed")


async def check_applied_once_by(two: Worker, match_id: int) -> None:
    """Worker 2 ends the match by the dead owner's deadline, with one resignation."""
    async with client(two) as http:
        for _ in range(1200):
            record = (await http.get(f"/api/matches/{match_id}")).json()
            if record["status"] == "finished":
                break
            await asyncio.sleep(0.05)
        assert record["status"] == "finished", "the next owner did not apply the deadline"
        log = (await http.get(f"/api/matches/{match_id}/log")).json()
    resigned = [a for a in log["actions"] if a["action"]["type"] == "resign"]
    assert len(resigned) == 1 and [a["seat"] for a in record["abandoned"]] == [resigned[0]["seat"]]
    ran_out = [
        line
        for line in two.log_lines()
        if line.startswith("{") and "a turn clock ran out" in json.loads(line)["message"]
    ]
    assert len(ran_out) == 1  # applied by worker 2, once
