"""A real ``talon serve`` subprocess whose log is kept, and scans of frames for secrets.

Builds on the SIGKILL test's helpers (``wait_healthy``); unlike its ``server_process`` this
one keeps the server's whole log in a file, so tests can assert that no line holds a token or
a traceback, and takes extra settings as environment variables.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.test_durability import wait_healthy
from tests.forked import ServerProcess, fresh_sqlite
from tests.support import free_port, sqlite_url

__all__ = [
    "Served",
    "card_codes",
    "module_server",
    "post",
    "served",
    "unhandled_errors",
    "wait_healthy",
]

ROOT = Path(__file__).resolve().parents[2]
# Tests create many players and tables from one address and play as fast as they can.
GENEROUS = {
    "PLAYERS_PER_MINUTE": "1000000",
    "TABLES_PER_MINUTE": "1000000",
    "WS_MESSAGES_PER_SECOND": "1000000",
    "WS_CONNECTIONS_PER_ADDRESS": "1000000",
}


class Served:
    """A running server: its process, base address and log file."""

    def __init__(self, process: ServerProcess, base: str, log: Path) -> None:
        self.process = process
        self.base = base
        self.log = log

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def served(
    database_url: str | Path, port: int, log: Path, own_group: bool = False, **env: str
) -> Iterator[ServerProcess]:
    """``talon serve`` on ``port`` (forked, ``tests.forked``), stdout and stderr appended to
    ``log``; killed on exit.
    ``own_group``: in a process group of its own, as a server started in a terminal is (Ctrl-C
    reaches the whole group)."""
    if isinstance(database_url, Path):
        fresh_sqlite(database_url)
    url = sqlite_url(database_url) if isinstance(database_url, Path) else database_url
    environment = {**os.environ, "DATABASE_URL": url, "LOG_LEVEL": "info", **GENEROUS, **env}
    process = ServerProcess(["serve", "--port", str(port)], environment, log, own_group)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        process.wait(10)


TRACE = re.compile(r"Traceback|^ERROR|Exception in ASGI|unhandled error", re.MULTILINE)


def unhandled_errors(log_text: str) -> list[str]:
    """Lines of a server log that show an unhandled exception or an error."""
    return [line for line in log_text.splitlines() if TRACE.search(line)]


CARD = re.compile(r"(?<![A-Za-z0-9])[789JQKTA][CDHS](?![A-Za-z0-9])")
CARDS = {r + s for r in "789JQKTA" for s in "CDHS"}


def card_codes(data: Any) -> set[str]:
    """Every card code in a JSON value: strings (and keys) that are one, and any named inside a
    sentence (error texts). Identifiers hold no spaces and are not searched inside."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            if item in CARDS:
                found.add(item)
            elif " " in item:
                found.update(CARD.findall(item))
    return found


def module_server(
    tmp_path_factory: pytest.TempPathFactory, name: str, **env: str
) -> Iterator[tuple[str, Path]]:
    """A healthy ``talon serve`` for a module's tests (``host:port`` and its log), with
    ``env`` added to its settings; on the way out, the log must hold no unhandled error.
    Use it from a module-scoped fixture: ``yield from module_server(factory, "name")``."""
    folder = tmp_path_factory.mktemp(name)
    port = free_port()
    log = folder / "server.log"
    with served(folder / "talon.db", port, log, **env):
        asyncio.run(wait_healthy(f"127.0.0.1:{port}"))
        yield f"127.0.0.1:{port}", log
    assert not unhandled_errors(log.read_text()), "an unhandled exception in the server log"


async def post(http: httpx.AsyncClient, path: str, token: str | None, body: Any) -> Any:
    """POST ``body`` as the player of ``token`` (anonymously without one); the answer's JSON,
    which must be a success."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = await http.post(path, json=body, headers=headers)
    assert response.status_code < 300, response.text
    return response.json()
