"""Presence and the online count with two workers sharing one database and one redis-server:
a player connected through the worker that does not own the table counts at its seat, its
leaving is seen (away, then gone) by the other player on the owner, a claim sent to the
other worker is carried out by the owner, and both workers count the same players online."""

from __future__ import annotations

import contextlib
from typing import Any

import httpx
import pytest

from tests.pg import PostgresCluster
from tests.scale.cluster import RedisServer
from tests.support import Api, Client, live_server, settings_for

pytestmark = pytest.mark.postgres


async def next_presence(client: Client) -> dict[int, str]:
    frame = await client.recv_until("presence")
    return {entry["seat"]: entry["state"] for entry in frame["seats"]}


async def test_presence_and_the_online_count_span_two_workers(
    redis_server: RedisServer, pg_cluster: PostgresCluster
) -> None:
    url = await pg_cluster.fresh_database()
    settings = settings_for(url, redis_url=redis_server.url, presence_grace_seconds=1.0)
    async with contextlib.AsyncExitStack() as stack:
        one = await stack.enter_async_context(live_server(settings))
        two = await stack.enter_async_context(live_server(settings))
        apis = []
        for base in (one, two):
            http = httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False)
            apis.append(Api(await stack.enter_async_context(http)))
        table, (anna, bela) = await apis[0].live_table()  # worker one owns the table
        anna_socket, _ = await Client.open(one, table["id"], anna["token"])
        bela_socket, _ = await Client.open(two, table["id"], bela["token"])
        while await next_presence(anna_socket) != {0: "connected", 1: "connected"}:
            pass
        # Redis is shared with earlier tests: count the players they left within the minute.
        before = (await apis[0].call("GET", "/api/online"))["players"]
        assert before >= 2
        cili = await apis[1].player("Cili")  # seen by worker two only
        await apis[1].call("GET", "/api/tables", cili["token"])
        for api in apis:
            assert await api.call("GET", "/api/online") == {"players": before + 1}

        path = f"/api/tables/{table['id']}/claim-victory"
        refused = await apis[1].call("POST", path, anna["token"], json={"seat": 1}, status=409)
        assert refused["error"]["code"] == "player_not_gone"
        await bela_socket.close()
        assert await next_presence(anna_socket) == {0: "connected", 1: "away"}
        assert await next_presence(anna_socket) == {0: "connected", 1: "gone"}
        claimed: Any = await apis[1].call("POST", path, anna["token"], json={"seat": 1})
        assert claimed["status"] == "finished"
        update = await anna_socket.recv_until("update")
        assert {"type": "resigned", "seat": 1} in [
            {k: e.get(k) for k in ("type", "seat")} for e in update["events"]
        ]
        await anna_socket.close()
