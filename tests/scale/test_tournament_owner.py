"""A Swiss event survives a SIGKILL of its owner in the middle of a round: the worker holding
the event's lease while round 1's matches (computer entrants at tables of their own) are
under way is killed; the other worker takes the event and the tables over once their leases
have run out, the round's matches go on, and the event completes with every result stored once and
every round paired once."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from tests.api.test_accounts import PASSWORD
from tests.pg import PostgresCluster
from tests.scale.cluster import RedisServer, Worker, client
from tests.support import Api

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

PATIENCE = 180.0
SETTINGS = {
    "TOURNAMENT_TICK_SECONDS": "0.2",
    "BOT_PAUSE": "0.5",
    "BOT_PAUSE_JITTER": "0",
    "BOT_FOLLOW_PAUSE": "0",
    "BOT_BUDGET": "0.02",
    "BOT_WORKERS": "0",
}


async def query(database_url: str, sql: str, *args: Any) -> list[asyncpg.Record]:
    connection = await asyncpg.connect(database_url.replace("postgresql+asyncpg", "postgresql"))
    try:
        return list(await connection.fetch(sql, *args))
    finally:
        await connection.close()


async def event_owner(database_url: str, event_id: str) -> str | None:
    """The worker whose lease on the event is running (by the database's own clock)."""
    rows = await query(
        database_url,
        "SELECT owner FROM tournaments WHERE id = $1 AND lease_until >= extract(epoch from now())",
        event_id,
    )
    return rows[0]["owner"] if rows else None


def holder(workers: dict[str, Worker], event_id: str) -> str:
    """The name of the worker that took the event's lease last, by the times in its log."""
    taken = f"tournament {event_id}: lease taken"
    last = {
        name: max(
            (
                line["time"]
                for line in map(json.loads, filter(is_json, w.log_lines()))
                if line.get("message", "").startswith(taken)
            ),
            default="",
        )
        for name, w in workers.items()
    }
    name = max(last, key=lambda n: last[n])
    assert last[name], "no worker logged taking the event"
    return name


def is_json(line: str) -> bool:
    """Whether a log line is one of the server's JSON entries (not a stray print)."""
    return line.startswith("{")


async def until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not await condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.1)


async def test_the_next_owner_of_a_swiss_event_finishes_it_with_each_result_stored_once(
    pg_cluster: PostgresCluster, redis_server: RedisServer, tmp_path: Path
) -> None:
    database = await pg_cluster.fresh_database()
    # Both workers are up before the event opens: whichever owns it is killed while round
    # 1's games are under way (starting a worker then took longer than a round on a busy
    # machine).
    workers = {
        name: Worker(database, redis_server.url, tmp_path, name, **SETTINGS)
        for name in ("worker1", "worker2")
    }
    one, everyone = workers["worker1"], list(workers.values())
    try:
        for worker in workers.values():
            await worker.wait_healthy()
        async with client(one) as http_one:
            api_one = Api(http_one)
            host = await api_one.player("Host")
            body = {"handle": "host", "password": PASSWORD}
            await api_one.call("POST", "/api/accounts", host["token"], json=body, status=201)
            form = {
                "name": "Night Swiss",
                "format": "swiss",
                "variant": "sixty-six",
                "options": {"target": 1},
                "rounds": 3,
                "computers": True,
                "starts_in": 600,  # brought forward once every entrant is in
            }
            event = await api_one.call(
                "POST", "/api/tournaments", host["token"], json=form, status=201
            )
            event_id = event["id"]
            path = f"/api/tournaments/{event_id}/computers"
            for level in ("easy", "easy", "easy", "medium", "medium", "medium"):
                await api_one.call("POST", path, host["token"], json={"level": level})
        # Start now: on a loaded machine the entries took longer than any short start time.
        await query(
            database,
            "UPDATE tournaments SET starts_at = extract(epoch from now()) WHERE id = $1",
            event_id,
        )

        async def round_one_playing() -> bool:
            rows = await query(
                database,
                "SELECT count(*) AS n FROM tournament_games "
                "WHERE tournament_id = $1 AND round = 1 AND status = 'playing'",
                event_id,
            )
            return bool(rows[0]["n"] == 3)

        await until(round_one_playing, "round 1 never got under way")
        assert await event_owner(database, event_id) is not None
        victim = workers.pop(holder(workers, event_id))
        (survivor,) = workers.values()
        unfinished = await query(
            database,
            "SELECT count(*) AS n FROM tournament_games WHERE tournament_id = $1 "
            "AND round = 1 AND status <> 'finished'",
            event_id,
        )
        assert unfinished[0]["n"] > 0, "round 1 ended before the owner could be killed"
        victim.kill()

        async def finished() -> bool:
            rows = await query(database, "SELECT status FROM tournaments WHERE id = $1", event_id)
            return bool(rows[0]["status"] == "finished")

        await until(finished, "the event never finished")
        async with client(survivor) as http_survivor:
            final = await Api(http_survivor).call("GET", f"/api/tournaments/{event_id}")
        logs = "\n".join(survivor.log_lines())
        assert "lease taken" in logs  # the other worker took the event over
    finally:
        for worker in everyone:
            worker.kill()

    assert final["status"] == "finished" and final["round"] == 3
    rounds = await query(
        database, "SELECT round FROM tournament_rounds WHERE tournament_id = $1", event_id
    )
    assert sorted(r["round"] for r in rounds) == [1, 2, 3]  # each round paired once
    games = await query(
        database,
        "SELECT id, round, a, b, table_id FROM tournament_games WHERE tournament_id = $1",
        event_id,
    )
    assert sorted(g["round"] for g in games) == [1, 1, 1, 2, 2, 2, 3, 3, 3]
    results = await query(
        database,
        "SELECT game_id, entrant_id, outcome FROM tournament_results WHERE tournament_id = $1",
        event_id,
    )
    per_game: dict[int, list[str]] = {}
    for r in results:
        per_game.setdefault(r["game_id"], []).append(r["outcome"])
    assert {g["id"] for g in games} == set(per_game)
    assert all(sorted(outcomes) == ["loss", "win"] for outcomes in per_game.values())
    # Each game's result is the one its table's first match gave, played to its end.
    for g in games:
        match = await query(
            database,
            "SELECT status, winner FROM matches WHERE table_id = $1 ORDER BY id LIMIT 1",
            g["table_id"],
        )
        assert match[0]["status"] == "finished"
        winner = g["a"] if match[0]["winner"] == 0 else g["b"]
        won = [
            r["entrant_id"] for r in results if r["game_id"] == g["id"] and r["outcome"] == "win"
        ]
        assert won == [winner]
    pairs = [frozenset((g["a"], g["b"])) for g in games]
    assert len(set(pairs)) == len(pairs)  # no pair met twice
