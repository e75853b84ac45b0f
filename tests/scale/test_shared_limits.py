"""With ``REDIS_URL`` set, the per-address limits are counted once for all workers: behind a
round-robin balancer, each limit used to be multiplied by the number of workers."""

from __future__ import annotations

import contextlib
from pathlib import Path

import httpx

from tests.scale.cluster import RedisServer
from tests.support import in_thread, live_server, migrated_sqlite, settings_for


async def test_two_workers_share_the_new_player_limit(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    url = in_thread(lambda: migrated_sqlite(tmp_path / "template.db", tmp_path / "talon.db"))
    settings = settings_for(url, redis_url=redis_server.url, players_per_minute=4)
    async with contextlib.AsyncExitStack() as stack:
        clients = []
        for _ in range(2):
            base = await stack.enter_async_context(live_server(settings))
            http = httpx.AsyncClient(base_url=f"http://{base}", timeout=10)
            clients.append(await stack.enter_async_context(http))
        one, two = clients
        # Four new players from one address, alternating between the two workers.
        for n in range(4):
            created = await (one, two)[n % 2].post("/api/players", json={"name": f"P{n}"})
            assert created.status_code == 201, created.text
        for worker in (one, two):
            refused = await worker.post("/api/players", json={"name": "Fifth"})
            assert refused.status_code == 429, "a worker counted only its own players"
            assert refused.json()["error"]["code"] == "rate_limited"
            assert 1 <= int(refused.headers["Retry-After"]) <= 60
