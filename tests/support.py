"""Helpers shared by the service, store and API tests: databases, a live server, clients."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import socket
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.api.socket_protocol import SocketProtocol
from app.main import create_app
from app.settings import Settings
from app.store.migrate import upgrade
from tests.engine.reducer import fold

TIMEOUT = 10.0
T = TypeVar("T")


PORTS_PER_WORKER = 4000
"""Each parallel test worker (``pytest -n``) picks servers' ports from its own block below the
kernel's ephemeral range, so two workers never hand out the same port and no client's
outgoing port takes one between its choice and its use."""


BROWSER_BLOCKED_PORTS = frozenset({10080})
"""Ports in the workers' blocks that Chromium refuses to load a page from (its restricted
ports list: ``net::ERR_UNSAFE_PORT``)."""


def free_port() -> int:
    """A TCP port free on the loopback interface right now (in this worker's own block when
    the suite runs in parallel workers)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker.startswith("gw") and worker[2:].isdigit():
        low = 10_000 + int(worker[2:]) * PORTS_PER_WORKER
        for _ in range(200):
            port = random.randrange(low, low + PORTS_PER_WORKER)
            if port in BROWSER_BLOCKED_PORTS:
                continue
            with socket.socket() as sock:
                try:
                    sock.bind(("127.0.0.1", port))
                except OSError:
                    continue
                return port
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def in_thread(function: Callable[[], T]) -> T:
    """Run ``function`` in a fresh thread (Alembic and setup code start their own loops)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(function).result()


def sqlite_url(path: Path) -> str:
    """An aiosqlite URL for a file."""
    return f"sqlite+aiosqlite:///{path}"


def migrated_sqlite(template: Path, target: Path) -> str:
    """A fresh migrated SQLite database at ``target`` (migrates ``template`` once)."""
    if not template.exists():
        upgrade(sqlite_url(template))
    shutil.copyfile(template, target)
    return sqlite_url(target)


def settings_for(database_url: str, **overrides: Any) -> Settings:
    """Settings for a server under test."""
    values: dict[str, Any] = {
        "database_url": database_url,
        "public_url": "http://testserver",
        "ws_hello_timeout": 2.0,
        # Bots' turns take exactly BOT_PAUSE (0 where a test sets it so).
        "bot_pause_jitter": 0.0,
    }
    values.update(overrides)
    return Settings(**values)


@contextlib.asynccontextmanager
async def live_server(settings: Settings, app: FastAPI | None = None) -> AsyncIterator[str]:
    """Run the real application (or ``app``, built from ``settings``, so that a test can
    reach its state) under uvicorn on a free loopback port; yields its base URL."""
    port = free_port()
    config = uvicorn.Config(
        app or create_app(settings),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_max_size=settings.ws_max_frame_bytes,
        ws=SocketProtocol,  # as talon serve runs it (app.cli.uvicorn_options)
        lifespan="on",
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
            raise RuntimeError("server stopped before it started")
        await asyncio.sleep(0.01)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, TIMEOUT)


class Api:
    """A thin REST client for tests: returns JSON and checks the status it is told to."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def call(
        self,
        method: str,
        path: str,
        token: str | None = None,
        status: int = 200,
        **kwargs: Any,
    ) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = await self.client.request(method, path, headers=headers, **kwargs)
        assert response.status_code == status, (response.status_code, response.text)
        return response.json()

    async def player(self, name: str = "Anna") -> dict[str, Any]:
        return await self.call("POST", "/api/players", json={"name": name}, status=201)

    async def table(self, token: str, **body: Any) -> dict[str, Any]:
        """Open a table: untimed unless ``clock`` is given (a test about frames or play
        should not meet a turn clock's frames or run out of time)."""
        body.setdefault("clock", "none")
        return await self.call("POST", "/api/tables", token, json=body, status=201)

    async def join(self, token: str, table_id: str, **body: Any) -> dict[str, Any]:
        return await self.call("POST", f"/api/tables/{table_id}/join", token, json=body)

    async def live_table(self, **body: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """A table whose match has started, and its two players (seat 0, seat 1)."""
        anna, bela = await self.player("Anna"), await self.player("Bela")
        table = await self.table(anna["token"], **body)
        joined = await self.join(bela["token"], table["id"], invite_code=table["invite_code"])
        assert joined["status"] == "live"
        return joined, [anna, bela]


class Client:
    """One WebSocket viewer with timeouts on every receive."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.presence: dict[str, Any] | None = None

    @classmethod
    async def open(
        cls,
        base: str,
        table_id: str,
        token: str | None = None,
        since: int | None = None,
        invite: str | None = None,
    ) -> tuple[Client, dict[str, Any]]:
        """Connect, say hello (with a private table's ``invite`` code to watch it), and
        return the client with its welcome."""
        client = cls(await cls.open_socket(base, table_id))
        hello = {"type": "hello", "token": token, "since": since}
        if invite is not None:
            hello["invite"] = invite
        await client.send(hello)
        welcome = await client.recv()
        assert welcome["type"] == "welcome", welcome
        return client, welcome

    @staticmethod
    async def open_socket(base: str, table_id: str) -> ClientConnection:
        """A WebSocket to the table, not yet greeted."""
        return await connect(f"ws://{base}/ws/tables/{table_id}", max_size=2**22)

    async def send(self, message: Any) -> None:
        await self.socket.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next frame, passing over ``presence`` frames (unversioned, sent whenever a
        viewer comes or goes; the last one is kept in ``presence``)."""
        while True:
            frame = await self.recv_any(timeout)
            if frame["type"] != "presence":
                return frame
            self.presence = frame

    async def recv_any(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next frame, whatever its type."""
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
        return frame

    async def recv_until(self, kind: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Skip frames until one of type ``kind``."""
        while True:
            frame = await (self.recv_any if kind == "presence" else self.recv)(timeout)
            if frame["type"] == kind:
                return frame

    async def recv_until_any(self, kinds: tuple[str, ...]) -> dict[str, Any]:
        """Skip frames until one whose type is in ``kinds``."""
        while True:
            frame = await self.recv()
            if frame["type"] in kinds:
                return frame

    async def close(self) -> None:
        await self.socket.close()


async def every_seat_acts(base: str, table_id: str, tokens: list[str]) -> int | None:
    """Play from each seat's socket (``tokens`` in seat order) until every seat has acted in
    the match's first deal: before that, a turn clock that runs out aborts the match instead
    of applying its consequence. Plays cards where it can. The version reached, or None if
    a clock shorter than a move's round trip aborted the match on the way."""
    clients = [await Client.open(base, table_id, token) for token in tokens]
    try:
        if any(welcome["view"] is None for _, welcome in clients):
            return None  # the clock ran out before every socket was open: aborted already
        legal = {seat: welcome["view"]["legal"] for seat, (_, welcome) in enumerate(clients)}
        version, abortable = clients[0][1]["version"], clients[0][1]["abortable"]
        while abortable:
            seat = next(s for s, actions in legal.items() if actions)
            choices = [a for a in legal[seat] if a["type"] != "resign"]
            action = next((a for a in choices if a["type"] == "play"), choices[0])
            message = {"type": "action", "id": "first", "version": version, "action": action}
            await clients[seat][0].send(message)
            for s, (viewer, _) in enumerate(clients):
                update = await viewer.recv_until_any(("update", "aborted"))
                if update["type"] == "aborted":
                    return None
                legal[s] = update["legal"]
            version, abortable = update["version"], update["abortable"]
        return version
    finally:
        for viewer, _ in clients:
            await viewer.close()


def pick(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random legal action, never resigning."""
    return rng.choice([a for a in legal if a["type"] != "resign"])


async def closed_with(socket: Any) -> int:
    """Wait for the server to close; its close code."""
    with pytest.raises(ConnectionClosed) as info:
        for _ in range(10):
            await asyncio.wait_for(socket.recv(), 5)
    assert info.value.rcvd is not None
    return int(info.value.rcvd.code)


class FoldingViewer:
    """One connection and the picture it folds from its welcome and its updates with the
    reference reducer; a gap or a repeated version fails the test."""

    def __init__(self, token: str | None, invite: str | None = None) -> None:
        self.token = token
        self.invite = invite
        self.client: Client | None = None
        self.view: dict[str, Any] = {}
        self.version = 0

    async def connect(self, base: str, table_id: str, since: int | None) -> dict[str, Any]:
        """Connect (again), resuming from ``since`` when given; the welcome."""
        self.client, welcome = await Client.open(base, table_id, self.token, since, self.invite)
        if welcome["view"] is not None:
            self.view, self.version = welcome["view"], welcome["version"]
        else:
            assert welcome["version"] == self.version == since
        return welcome

    async def recv(self) -> dict[str, Any]:
        """The next frame."""
        assert self.client is not None
        return await self.client.recv()

    def received(self, frame: dict[str, Any]) -> None:
        """Called with each update before it is folded (for subclasses that keep them)."""

    async def catch_up(self, version: int) -> None:
        """Fold updates until the picture is at ``version``."""
        while self.version < version:
            frame = await self.recv()
            if frame["type"] != "update":
                continue
            assert frame["version"] == self.version + 1, "a gap or a duplicate version"
            self.received(frame)
            self.view = fold(self.view, frame)
            self.version = frame["version"]
