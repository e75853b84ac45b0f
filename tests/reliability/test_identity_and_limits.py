"""Authority and identity: seats, tokens, WebSocket origins and rate limits (docs/reliability.md).

A token acts only for its own seat at its own table; tokens are stored hashed and compared in
constant time; a page from another site cannot open a table socket; floods of messages and of
new players or tables are answered ``rate_limited`` (with ``Retry-After``), never a crash.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter
from websockets.asyncio.client import connect

from app.api.limits import AddressLimit, Bucket
from app.api.origin import origin_allowed
from app.players import identity
from app.settings import Settings
from tests.reliability.server import served, unhandled_errors, wait_healthy
from tests.support import (
    Api,
    Client,
    closed_with,
    free_port,
    live_server,
    pick,
    settings_for,
)


@pytest.fixture
async def limited(database_url: str) -> AsyncIterator[tuple[str, Api]]:
    """A server with low limits: 2 messages/s per socket, 4 players and 2 tables per minute."""
    settings = settings_for(
        database_url, ws_messages_per_second=2, players_per_minute=4, tables_per_minute=2
    )
    async with (
        live_server(settings) as base,
        httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http,
    ):
        yield base, Api(http)


def act(version: int, body: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "action", "id": "a", "version": version, "action": body, **extra}


async def test_a_token_acts_only_for_its_own_seat_at_its_own_table(
    limited: tuple[str, Api],
) -> None:
    base, api = limited
    first, (anna, bela) = await api.live_table()
    second, (cleo, _) = await api.live_table()
    # Anna's token at the second table is only a spectator there.
    intruder, welcome = await Client.open(base, second["id"], anna["token"])
    assert welcome["seat"] is None and welcome["view"]["hand"] == []
    await intruder.send(act(welcome["version"], {"type": "resign"}))
    assert (await intruder.recv_until("error"))["code"] == "not_seated"
    # At her own table she acts for her seat only: naming the other seat changes nothing.
    opened = [await Client.open(base, first["id"], p["token"]) for p in (anna, bela)]
    assert [w["seat"] for _, w in opened] == [0, 1]
    to_move = opened[0][1]["view"]["to_move"]
    legal = opened[to_move][1]["view"]["legal"]
    waiting, _ = opened[1 - to_move]
    await waiting.send(act(0, legal[0], seat=to_move))
    assert (await waiting.recv_until("error"))["code"] == "not_your_turn"
    for table in (first, second):
        assert (await api.call("GET", f"/api/tables/{table['id']}"))["version"] == 0
    assert cleo["token"] != anna["token"]
    for c in (intruder, *(c for c, _ in opened)):
        await c.close()


async def test_tokens_are_stored_only_as_hashes(database_url: str) -> None:
    async with (
        live_server(settings_for(database_url)) as base,
        httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http,
    ):
        created = await Api(http).player("Anna")
    token = created["token"]
    raw = Path(database_url.split("///", 1)[1]).read_bytes()
    for sidecar in ("-wal", "-shm"):
        path = Path(database_url.split("///", 1)[1] + sidecar)
        if path.exists():
            raw += path.read_bytes()
    assert token.encode() not in raw
    assert hashlib.sha256(token.encode()).hexdigest().encode() in raw


async def test_tokens_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[tuple[str, str]] = []

    def compare_digest(a: str, b: str) -> bool:
        compared.append((a, b))
        return a == b

    class Row:
        token_hash = identity.hash_token("secret")

    async def by_hash(_session: object, digest: str) -> tuple[str, Row] | None:
        return (Row.token_hash, Row()) if digest == Row.token_hash else None

    monkeypatch.setattr(identity.hmac, "compare_digest", compare_digest)
    monkeypatch.setattr(identity.player_store, "token_owner", by_hash)
    assert isinstance(await identity.find_player(None, "secret"), Row)  # type: ignore[arg-type]
    assert compared == [(Row.token_hash, Row.token_hash)]


def test_origins_allowed_and_refused() -> None:
    settings = Settings(allowed_origins=["https://talon.example"], public_url="https://play.x")
    host = "127.0.0.1:8123"
    assert origin_allowed(None, host, settings)  # not a browser
    assert origin_allowed("https://talon.example", host, settings)
    assert origin_allowed("https://play.x", host, settings)
    assert origin_allowed("http://127.0.0.1:8123", host, settings)  # the page it served
    assert not origin_allowed("https://evil.example", host, settings)
    assert not origin_allowed("null", host, settings)
    assert not origin_allowed("http://127.0.0.1:9999", host, settings)


async def test_a_foreign_origin_is_refused_with_4003(limited: tuple[str, Api]) -> None:
    base, api = limited
    table, (anna, _) = await api.live_table()
    url = f"ws://{base}/ws/tables/{table['id']}"
    socket = await connect(url, origin="https://evil.example")  # type: ignore[arg-type]
    refusal = json.loads(await asyncio.wait_for(socket.recv(), 5))  # before any hello
    assert refusal["code"] == "bad_origin"
    assert await closed_with(socket) == 4003
    own = await connect(url, origin=f"http://{base}")  # type: ignore[arg-type]
    await own.send(json.dumps({"type": "hello", "token": anna["token"]}))
    assert json.loads(await asyncio.wait_for(own.recv(), 5))["type"] == "welcome"
    await own.close()


async def test_a_message_flood_is_answered_rate_limited_and_the_socket_lives_on(
    limited: tuple[str, Api],
) -> None:
    base, api = limited
    table, _ = await api.live_table()
    client, _ = await Client.open(base, table["id"])
    for n in range(12):
        await client.send({"type": "ping", "id": n})
    await asyncio.sleep(1.2)  # past the notices' second: the marker is dropped or answered
    await client.send({"type": "ping", "id": "end"})
    answers = []
    while (answer := await client.recv()).get("id") != "end":
        answers.append(answer)
    pongs = [a for a in answers if a["type"] == "pong"]
    refused = [a for a in answers if a.get("code") == "rate_limited"]
    # A burst of two seconds' worth at 2/s is answered (more if the bucket refilled meanwhile);
    # the rest of the flood is dropped with one notice (one a second at most).
    assert len(pongs) >= 4 and len(refused) >= 1 and len(pongs) + len(refused) < 12
    assert all(a["retry_after"] > 0 for a in refused)
    await asyncio.sleep(refused[-1]["retry_after"] + 0.05)
    await client.send({"type": "ping", "id": "later"})
    assert await client.recv() == {"type": "pong", "id": "later"}
    await client.close()


async def test_new_players_and_tables_per_address_are_limited(limited: tuple[str, Api]) -> None:
    _, api = limited
    tokens = [(await api.player(f"P{n}"))["token"] for n in range(4)]
    response = await api.client.post("/api/players", json={"name": "P4"})
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "rate_limited"
    assert int(response.headers["Retry-After"]) >= 1
    for _ in range(2):
        await api.table(tokens[0])
    response = await api.client.post(
        "/api/tables", json={}, headers={"Authorization": f"Bearer {tokens[1]}"}
    )
    assert response.status_code == 429 and int(response.headers["Retry-After"]) >= 1
    assert response.json()["error"]["code"] == "rate_limited"
    await api.call("GET", "/healthz")  # the server carries on


@pytest.fixture
async def capped(database_url: str) -> AsyncIterator[tuple[str, Api]]:
    """A server allowing 3 table sockets per address and request bodies of 4,096 bytes."""
    settings = settings_for(database_url, ws_connections_per_address=3, max_body_bytes=4096)
    async with (
        live_server(settings) as base,
        httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http,
    ):
        yield base, Api(http)


async def test_table_sockets_per_address_are_limited(capped: tuple[str, Api]) -> None:
    base, api = capped
    table, _ = await api.live_table()
    watchers = [(await Client.open(base, table["id"]))[0] for _ in range(3)]
    url = f"ws://{base}/ws/tables/{table['id']}"
    socket = await connect(url)
    refusal = json.loads(await asyncio.wait_for(socket.recv(), 5))  # before any hello
    assert refusal["code"] == "too_many_connections" and refusal["message"]
    assert await closed_with(socket) == 4029
    await watchers.pop().close()
    await asyncio.sleep(0.2)  # the server notices the close
    again, welcome = await Client.open(base, table["id"])  # a freed place is free again
    assert welcome["type"] == "welcome"
    for client in [*watchers, again]:
        await client.close()


async def test_large_request_bodies_are_refused_with_413_before_parsing(
    capped: tuple[str, Api],
) -> None:
    _, api = capped
    big = b'{"name": "' + b"x" * 2_000_000 + b'"}'
    declared = await api.client.post(
        "/api/players", content=big, headers={"Content-Type": "application/json"}
    )

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: sent chunked
        for start in range(0, len(big), 65_536):
            yield big[start : start + 65_536]

    chunked = await api.client.post(
        "/api/players", content=chunks(), headers={"Content-Type": "application/json"}
    )
    for response in (declared, chunked):
        assert response.status_code == 413, response.text
        assert response.json()["error"]["code"] == "body_too_large"
        assert "4096 bytes" in response.json()["error"]["message"]
    assert (await api.player("Small"))["name"] == "Small"  # the server carries on


async def test_error_messages_repeat_at_most_a_short_piece_of_a_client_value(
    capped: tuple[str, Api],
) -> None:
    _, api = capped
    token = (await api.player())["token"]
    long = "v" * 3_000
    bodies = {
        "unknown_variant": {"variant": long},
        "bad_options": {"options": {long: 1}},
        "validation_error": {"bots": {long: "hard"}},
    }
    for code, body in bodies.items():
        answer = await api.call("POST", "/api/tables", token, status=422, json=body)
        message = answer["error"]["message"]
        assert answer["error"]["code"] == code
        assert len(message) <= 300 and "v" * 41 not in message, message


def test_a_bucket_refills_at_its_rate() -> None:
    bucket = Bucket(capacity=2, period=1.0, now=0.0)
    assert bucket.take(0.0) == 0 and bucket.take(0.0) == 0
    assert bucket.take(0.0) == pytest.approx(0.5)
    assert bucket.take(0.5) == 0


async def test_an_address_limit_keeps_addresses_and_limits_apart() -> None:
    limiter = MovingWindowRateLimiter(MemoryStorage())
    players = AddressLimit("players", 2, limiter)
    tables = AddressLimit("tables", 1, limiter)
    assert await players.take("a") == 0 and await players.take("a") == 0
    wait = await players.take("a")
    assert 1 <= wait <= 60  # the oldest of the two leaves the minute's window by then
    assert await players.take("b") == 0
    assert await tables.take("a") == 0 and await tables.take("a") > 0


async def test_an_unreachable_limit_store_lets_requests_through_and_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Redis down must not take sign-ups down with it: the limit is a guard, not a record."""

    class Unreachable(MovingWindowRateLimiter):
        async def hit(self, *_: Any, **__: Any) -> bool:
            raise ConnectionError("redis is gone")

    limit = AddressLimit("players", 1, Unreachable(MemoryStorage()))
    with caplog.at_level("WARNING", logger="app.api.limits"):
        assert [await limit.take("a") for _ in range(3)] == [0, 0, 0]
    warnings = [r.getMessage() for r in caplog.records]
    assert warnings == ["rate limit players not checked: ConnectionError"]  # once, not a flood


async def test_a_token_appears_only_in_the_response_that_created_it(tmp_path: Path) -> None:
    """A whole match over the real server, its log at debug level: every REST body, every
    frame and every log line is searched for both players' tokens and their hashes."""
    port = free_port()
    base = f"127.0.0.1:{port}"
    log = tmp_path / "server.log"
    seen: list[str] = []
    with served(tmp_path / "talon.db", port, log, LOG_LEVEL="debug"):
        await wait_healthy(base)
        async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http:
            api = Api(http)
            table, players = await api.live_table(options={"target": 1})
            tokens = [p["token"] for p in players]
            clients = [(await Client.open(base, table["id"], t))[0] for t in (*tokens, None)]
            rng = random.Random(5)
            while True:
                response = await http.get(f"/api/tables/{table['id']}")
                seen.append(response.text)
                if response.json()["status"] != "live":
                    break
                version = response.json()["version"]
                for client in clients:
                    frame = await client.recv_until("update") if version else None
                    seen.append(json.dumps(frame))
                snapshots = [await Client.open(base, table["id"], t) for t in tokens]
                for client, welcome in snapshots:
                    seen.append(json.dumps(welcome))
                    if welcome["view"]["legal"]:
                        await client.send(act(version, pick(welcome["view"]["legal"], rng)))
                        seen.append(json.dumps(await client.recv_until("ack")))
                    await client.close()
            for path in ("/api/players/me", f"/api/matches/{table['match_id']}/log"):
                for token in tokens:
                    headers = {"Authorization": f"Bearer {token}"}
                    seen.append((await http.get(path, headers=headers)).text)
            seen.append((await http.get(f"/api/matches/{table['match_id']}/replay")).text)
            seen.append((await http.get("/api/matches?limit=5")).text)
        for client in clients:
            await client.close()
    text = log.read_text()
    assert len(text.splitlines()) > 100  # debug logging was on
    for token in tokens:
        secrets = (token, hashlib.sha256(token.encode()).hexdigest())
        for secret in secrets:
            assert secret not in text, "a token or its hash is in the server log"
            assert not [s for s in seen if secret in s], "a token left in another response"
    assert not unhandled_errors(text)
