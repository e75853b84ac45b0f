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
            http = httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False)
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


async def test_two_workers_share_an_accounts_sign_in_limit(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    url = in_thread(lambda: migrated_sqlite(tmp_path / "template.db", tmp_path / "talon.db"))
    settings = settings_for(url, redis_url=redis_server.url, sign_ins_per_account=3)
    async with contextlib.AsyncExitStack() as stack:
        clients = []
        for _ in range(2):
            base = await stack.enter_async_context(live_server(settings))
            http = httpx.AsyncClient(base_url=f"http://{base}", timeout=30, verify=False)
            clients.append(await stack.enter_async_context(http))
        one, two = clients
        guest = (await one.post("/api/players", json={"name": "Anna"})).json()
        body = {"handle": "anna", "password": "plum ferry lantern"}
        auth = {"Authorization": f"Bearer {guest['token']}"}
        assert (await one.post("/api/accounts", json=body, headers=auth)).status_code == 201
        # Three wrong passwords, alternating between the workers; then the right one.
        for n in range(3):
            wrong = {"handle": "anna", "password": f"wrong guess {n}"}
            answer = await (one, two)[n % 2].post("/api/accounts/sign-in", json=wrong)
            assert answer.status_code == 401, answer.text
        for worker in (one, two):
            refused = await worker.post("/api/accounts/sign-in", json=body)
            assert refused.status_code == 429, "a worker counted only its own attempts"
            assert refused.json()["error"]["code"] == "rate_limited"
