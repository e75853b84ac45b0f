"""A bot whose turn was scheduled by a worker that died is moved by another worker.

Worker 1 takes the human's move and schedules the bot's reply after a pause far longer than the
test; it is then killed with SIGKILL. Worker 2, which only had a spectator at that table, sees
in its periodic check that the bot has been on move too long, moves it, and the match finishes.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import httpx

from tests.pg import PostgresCluster
from tests.scale.cluster import RedisServer, Worker
from tests.support import Api, FoldingViewer, in_thread, pick

BOT_SEAT = 1


async def test_a_stalled_bot_turn_is_taken_over_by_another_worker(
    pg_cluster: PostgresCluster, redis_server: RedisServer, tmp_path: Path
) -> None:
    database = in_thread(lambda: asyncio.run(pg_cluster.fresh_database()))
    quick = {"BOT_WORKERS": "0", "BOT_BUDGET": "0.1", "BOT_PAUSE_JITTER": "0"}
    one = Worker(database, redis_server.url, tmp_path, "worker1", BOT_PAUSE="600", **quick)
    two = Worker(database, redis_server.url, tmp_path, "worker2", BOT_PAUSE="0", **quick)
    rng = random.Random(5)
    try:
        await one.wait_healthy()
        await two.wait_healthy()
        async with httpx.AsyncClient(base_url=f"http://{one.base}", timeout=10) as http:
            api = Api(http)
            anna = await api.player("Anna")
            table = await api.table(
                anna["token"], options={"target": 1}, visibility="private", bots={"1": "easy"}
            )
        assert table["status"] == "live"
        human = FoldingViewer(anna["token"])
        spectator = FoldingViewer(None, invite=table["invite_code"])  # a private table
        await human.connect(one.base, table["id"], None)
        await spectator.connect(two.base, table["id"], None)
        killed = False
        while not human.view["match_over"]:
            if human.view["to_move"] == BOT_SEAT:
                await human.catch_up(human.version + 1)  # the bot's move, from some worker
            else:
                assert human.client is not None
                action = pick(human.view["legal"], rng)
                message = {"type": "action", "id": "m", "version": human.version}
                await human.client.send({**message, "action": action})
                await human.catch_up(human.version + 1)
                if not killed and human.view["to_move"] == BOT_SEAT:
                    one.kill()  # it scheduled the bot's reply, then died
                    killed = True
                    await human.connect(two.base, table["id"], human.version)
            await spectator.catch_up(human.version)
        assert killed, "the human never handed the move to the bot"
        for viewer, token in ((human, anna["token"]), (spectator, None)):
            fresh = FoldingViewer(token, viewer.invite)
            await fresh.connect(two.base, table["id"], None)
            assert viewer.view == fresh.view  # every version folded once, nothing missing
        assert any("taking it over" in line for line in two.log_lines())
    finally:
        one.kill()
        two.kill()
