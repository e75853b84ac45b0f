"""A token signed out on one worker stops playing on the others: its table socket there is
closed with 4001 after a ``bad_token`` error (the revocation travels over Redis)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.api.test_accounts import PASSWORD, account
from tests.api.test_token_revocation import bearer
from tests.scale.cluster import RedisServer, two_in_process_workers
from tests.support import Client


async def test_signing_out_on_one_worker_closes_the_tokens_socket_on_another(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    async with contextlib.AsyncExitStack() as stack:
        bases, (one, two) = await two_in_process_workers(stack, redis_server.url, tmp_path)
        anna, bela = await account(one), await account(one, "bela", "Bela")
        table = await one.table(anna["token"])
        assert (await one.join(bela["token"], table["id"]))["status"] == "live"
        body = {"handle": "anna", "password": PASSWORD}
        phone = await one.call("POST", "/api/accounts/sign-in", json=body, status=201)
        # Anna's phone watches from the second worker; she signs it out on the first.
        handheld, welcome = await Client.open(bases[1], table["id"], phone["token"])
        assert welcome["seat"] == 0
        signed_out = await one.client.post("/api/accounts/sign-out", headers=bearer(phone["token"]))
        assert signed_out.status_code == 204
        # The revocation reaches the second worker over Redis a moment later: its socket is
        # closed then (the worker that revoked closes its own before answering).
        frames: list[dict[str, Any]] = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                frames.append(await handheld.recv_any(timeout=30))
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4001
        assert [f["code"] for f in frames if f["type"] == "error"] == ["bad_token"], frames
        refused = await two.client.get("/api/players/me", headers=bearer(phone["token"]))
        assert refused.status_code == 401
        assert (await two.call("GET", f"/api/tables/{table['id']}"))["version"] == 0
