"""A throwaway redis-server and ``talon serve`` worker processes for the multi-worker tests.

Like ``tests/pg.py``: started on free loopback ports in temporary folders, never a running
service; scripts/test installs redis-server when it is missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tests.forked import ServerProcess
from tests.support import (
    Api,
    Client,
    FoldingViewer,
    free_port,
    in_thread,
    live_server,
    migrated_sqlite,
    settings_for,
)


def redis_binary() -> str:
    """The redis-server program (``TALON_REDIS_SERVER`` or the PATH)."""
    found = os.environ.get("TALON_REDIS_SERVER") or shutil.which("redis-server")
    if found is None:
        raise RuntimeError("redis-server not found; scripts/test installs it (apt-get)")
    return found


class RedisServer:
    """One redis-server on a free port, no persistence; can be restarted on the same port.
    Listens on loopback unless told ``bind`` (then give it a ``password``)."""

    def __init__(self, bind: str = "127.0.0.1", password: str | None = None) -> None:
        self.port = free_port()
        self.bind, self.password = bind, password
        self.root = Path(tempfile.mkdtemp(prefix="talon-redis-"))
        self.process: subprocess.Popen[bytes] | None = None

    def url_at(self, host: str) -> str:
        """The URL a client reaching this server at ``host`` uses."""
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}{host}:{self.port}/0"

    @property
    def url(self) -> str:
        return self.url_at("127.0.0.1")

    def start(self) -> None:
        """Start and wait until it answers PING."""
        command = [
            redis_binary(),
            "--port", str(self.port),
            "--bind", self.bind,
            "--save", "",
            "--appendonly", "no",
            "--dir", str(self.root),
        ]  # fmt: skip
        auth: list[str] = []
        if self.password:
            command += ["--requirepass", self.password]
            auth = ["-a", self.password, "--no-auth-warning"]
        log = (self.root / "redis.log").open("ab")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            probe = subprocess.run(
                [
                    redis_binary().replace("redis-server", "redis-cli"),
                    "-p",
                    str(self.port),
                    *auth,
                    "ping",
                ],
                capture_output=True,
            )
            if probe.stdout.strip() == b"PONG":
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        """Stop the server (SIGKILL: nothing to save)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


class Worker:
    """``talon serve`` in a process of its own (``tests.forked``) with JSON logs in a file."""

    def __init__(
        self,
        database_url: str,
        redis_url: str | None,
        log_dir: Path,
        name: str,
        **settings: str,
    ):
        self.port = free_port()
        self.base = f"127.0.0.1:{self.port}"
        self.log_path = log_dir / f"{name}.log"
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "LOG_LEVEL": "info",
            "LOG_FORMAT": "json",
            "SYNC_INTERVAL": "0.5",
            "LEASE_SECONDS": "2",
            "EXPOSE_METRICS": "true",
            "PUBLIC_URL": f"http://{self.base}",
            "ALLOWED_ORIGINS": f'["http://{self.base}"]',
            **settings,
        }
        env.pop("REDIS_URL", None)
        if redis_url is not None:
            env["REDIS_URL"] = redis_url
        self.process = ServerProcess(["serve", "--port", str(self.port)], env, self.log_path)

    async def wait_healthy(self) -> None:
        async with httpx.AsyncClient(timeout=1, verify=False) as client:
            for _ in range(400):
                if self.process.poll() is not None:
                    raise AssertionError(f"worker exited: {self.log_path.read_text()[-2000:]}")
                try:
                    if (await client.get(f"http://{self.base}/healthz")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.05)
        raise AssertionError("worker did not come up")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)

    def log_lines(self) -> list[str]:
        return self.log_path.read_text(errors="replace").splitlines()


@contextlib.asynccontextmanager
async def two_workers(
    database_url: str, redis_url: str, log_dir: Path
) -> AsyncIterator[tuple[Worker, Worker]]:
    """Two healthy workers on one database and one redis-server; killed on the way out."""
    one = Worker(database_url, redis_url, log_dir, "worker1")
    two = Worker(database_url, redis_url, log_dir, "worker2")
    try:
        await one.wait_healthy()
        await two.wait_healthy()
        yield one, two
    finally:
        one.kill()
        two.kill()


def client(worker: Worker) -> httpx.AsyncClient:
    """An HTTP client for one worker's REST API."""
    return httpx.AsyncClient(base_url=f"http://{worker.base}", timeout=10, verify=False)


class ResumingViewer(FoldingViewer):
    """A folding viewer that carries on when the server closes its connection (its table
    moved to another worker, or its worker died): it reconnects to ``base`` with ``since``,
    as the browser client does, until a worker greets it. A gap or a repeated version
    still fails the test; ``resumed`` counts the reconnections."""

    def __init__(self, token: str | None, invite: str | None = None) -> None:
        super().__init__(token, invite)
        self.base, self.table_id, self.resumed = "", "", 0

    async def connect(self, base: str, table_id: str, since: int | None) -> dict[str, Any]:
        self.base, self.table_id = base, table_id
        return await super().connect(base, table_id, since)

    async def recv(self) -> dict[str, Any]:
        while True:
            try:
                return await super().recv()
            except ConnectionClosed:
                await self.resume()

    async def resume(self, base: str | None = None, attempts: int = 60) -> dict[str, Any]:
        """Reconnect (to ``base`` when given) with ``since`` until greeted; the welcome."""
        self.base = base or self.base
        for _ in range(attempts):
            with contextlib.suppress(ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
                client, hello = await self._open()
                if hello is not None:
                    self.resumed += 1
                    return hello
                await client.close()
            await asyncio.sleep(0.25)
        raise AssertionError(f"no worker greeted the viewer again at {self.base}")

    async def _open(self) -> tuple[Client, dict[str, Any] | None]:
        socket = await Client.open_socket(self.base, self.table_id)
        client = Client(socket)
        hello: dict[str, Any] = {"type": "hello", "token": self.token, "since": self.version}
        if self.invite is not None:
            hello["invite"] = self.invite
        await client.send(hello)
        welcome = await client.recv()
        if welcome["type"] != "welcome":
            return client, None  # refused for now (the table is moving): try again
        self.client = client
        if welcome["view"] is not None:
            self.view, self.version = welcome["view"], welcome["version"]
        else:
            assert welcome["version"] == self.version, (welcome, self.version)
        return client, welcome


async def two_in_process_workers(
    stack: contextlib.AsyncExitStack, redis_url: str, tmp_path: Path
) -> tuple[list[str], list[Api]]:
    """Two in-process servers on one fresh SQLite database and one Redis, the addresses and a
    REST client of each; both are closed with ``stack``."""
    url = in_thread(lambda: migrated_sqlite(tmp_path / "template.db", tmp_path / "talon.db"))
    settings = settings_for(url, redis_url=redis_url)
    bases, apis = [], []
    for _ in range(2):
        base = await stack.enter_async_context(live_server(settings))
        http = httpx.AsyncClient(base_url=f"http://{base}", timeout=30, verify=False)
        bases.append(base)
        apis.append(Api(await stack.enter_async_context(http)))
    return bases, apis
