"""An idle keep-alive connection outlives a client's own keep-alive time.

httpx keeps an idle connection for 5 s, as uvicorn did by default: when both clocks run out
together, the server closes the connection just as the client reuses it, and the request is
lost with "server disconnected". The server keeps idle connections for ``KEEP_ALIVE_SECONDS``
(75 by default), so a connection idle a little longer than a client's 5 s still answers.
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

from tests.reliability.server import served, wait_healthy
from tests.support import free_port

CLIENT_KEEP_ALIVE_S = 5.0  # httpx's keepalive_expiry default


def ask_health(connection: socket.socket, host: str) -> bytes:
    """Send GET /healthz on an open connection (keeping it alive); the response's bytes."""
    request = f"GET /healthz HTTP/1.1\r\nHost: {host}\r\nConnection: keep-alive\r\n\r\n"
    connection.sendall(request.encode())
    answer = b""
    while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
        chunk = connection.recv(4096)
        if not chunk:
            break  # the server closed the connection
        answer += chunk
    return answer


async def test_an_idle_connection_is_kept_longer_than_a_client_keeps_it(tmp_path: Path) -> None:
    port = free_port()
    host = f"127.0.0.1:{port}"
    with served(tmp_path / "talon.db", port, tmp_path / "server.log"):
        await wait_healthy(host)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            assert ask_health(connection, host).startswith(b"HTTP/1.1 200")
            await asyncio.sleep(CLIENT_KEEP_ALIVE_S + 1.5)
            again = ask_health(connection, host)
    assert again.startswith(b"HTTP/1.1 200"), f"the idle connection was closed: {again!r}"
