"""A bot whose turn was scheduled by a table's owner that died is moved by the next owner.

Worker 1 owns the table (it was opened there), takes the human's move and schedules the bot's
reply after a pause far longer than the test; it is then killed with SIGKILL. Worker 2, which
only relayed a spectator's connection, takes the table's lease once it has run out, rebuilds
the table from the log, moves the bot, and the match finishes; both clients reconnect with
``since`` and miss nothing.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import httpx

from tests.pg import PostgresCluster
from tests.scale.cluster import RedisServer, ResumingViewer, Worker
from tests.support import Api, FoldingViewer, in_thread, pick

BOT_SEAT = 1


async def test_a_bot_turn_is_taken_over_by_the_next_owner(
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
        async with httpx.AsyncClient(
            base_url=f"http://{one.base}", timeout=10, verify=False
        ) as http:
            api = Api(http)
            anna = await api.player("Anna")
            table = await api.table(
                anna["token"], options={"target": 1}, visibility="private", bots={"1": "easy"}
            )
        assert table["status"] == "live"
        human = ResumingViewer(anna["token"])
        spectator = ResumingViewer(None, invite=table["invite_code"])  # a private table
        await human.connect(one.base, table["id"], None)
        await spectator.connect(two.base, table["id"], None)
        killed = False
        while not human.view["match_over"]:
            if human.view["to_move"] == BOT_SEAT:
                if not killed:
                    one.kill()  # it scheduled the bot's move, then died
                    killed = True
                    await human.resume(two.base)
                await human.catch_up(human.version + 1)  # the bot's move, by the new owner
            else:
                assert human.client is not None
                action = pick(human.view["legal"], rng)
                message = {"type": "action", "id": "m", "version": human.version}
                await human.client.send({**message, "action": action})
                await human.catch_up(human.version + 1)
            await spectator.catch_up(human.version)
        assert killed, "the human never handed the move to the bot"
        for viewer, token in ((human, anna["token"]), (spectator, None)):
            fresh = FoldingViewer(token, viewer.invite)
            await fresh.connect(two.base, table["id"], None)
            assert viewer.view == fresh.view  # every version folded once, nothing missing
        assert any("owns the table now" in line for line in two.log_lines())
        assert spectator.resumed  # its relayed connection was handed over
    finally:
        one.kill()
        two.kill()
