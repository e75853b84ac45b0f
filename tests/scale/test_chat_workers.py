"""Table chat across two workers sharing one database and one redis-server: lines reach the
readers of their room on the other worker, spectators' lines reach no player during a live
match there either, and a player's lines per minute are counted once for both workers."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import httpx
import pytest

from tests.api.test_chat import chat_seen, joined, say
from tests.pg import PostgresCluster
from tests.scale.cluster import RedisServer
from tests.support import Api, live_server, settings_for

pytestmark = pytest.mark.postgres


async def texts_seen(client: Any, count: int) -> list[str]:
    """The texts of the chat lines a connection receives until it has ``count`` of them (or
    30 s pass): a line said on the other worker comes through Redis, so it may reach this
    connection after the pong that ``chat_seen`` waits for; a line more shows up as well."""
    texts: list[str] = []
    deadline = time.monotonic() + 30
    while True:
        texts += [line["text"] for line in await chat_seen(client)]
        if len(texts) >= count or time.monotonic() > deadline:
            return texts
        await asyncio.sleep(0.05)


async def test_chat_crosses_workers_by_room_and_counts_lines_once(
    redis_server: RedisServer, pg_cluster: PostgresCluster
) -> None:
    url = await pg_cluster.fresh_database()
    settings = settings_for(url, redis_url=redis_server.url, chat_messages_per_minute=3)
    async with contextlib.AsyncExitStack() as stack:
        one = await stack.enter_async_context(live_server(settings))
        two = await stack.enter_async_context(live_server(settings))
        http = await stack.enter_async_context(
            httpx.AsyncClient(base_url=f"http://{one}", timeout=10, verify=False)
        )
        api = Api(http)
        table, (anna, bela) = await api.live_table()
        vera, walt = await api.player("Vera"), await api.player("Walt")
        opened: dict[str, Any] = {}
        for name, base, token in (
            ("anna", one, anna["token"]),
            ("vera", one, vera["token"]),
            ("bela", two, bela["token"]),
            ("walt", two, walt["token"]),
            ("anna_two", two, anna["token"]),
        ):
            opened[name] = (await joined(base, table["id"], token))[0]
        await say(opened["anna"], "a1", room="players", text="from worker one")
        await say(opened["vera"], "v1", room="spectators", text="coaching")
        assert await texts_seen(opened["bela"], 1) == ["from worker one"]
        assert await texts_seen(opened["walt"], 1) == ["coaching"]
        assert await texts_seen(opened["anna_two"], 1) == ["from worker one"]
        # Anna's third line goes through worker two; the fourth is refused on either worker.
        assert (await say(opened["anna"], "a2", room="players", text="two"))["type"] == "chat_ack"
        assert (await say(opened["anna_two"], "a3", room="players", text="3"))["type"] == (
            "chat_ack"
        )
        for name in ("anna", "anna_two"):
            refused = await say(opened[name], "a4", room="players", text="four")
            assert refused["code"] == "chat_rate_limited", name
        for client in opened.values():
            await client.close()
