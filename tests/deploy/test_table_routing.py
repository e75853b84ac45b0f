"""The shipped nginx config sends every connection of one table to the same worker.

Debian's nginx runs ``deploy/nginx.conf`` in front of two stand-in upstreams that answer each
request with their own name. Each of 24 table ids is asked for twice at ``/ws/tables/{id}``
and once at each of its lobby paths (``join``, ``leave``, ``rematch``, ``rematch/decline``,
``bots``): every request must reach the same upstream (a consistent hash of the id, where
round-robin would alternate), and the ids must be spread over both upstreams.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from tests.deploy.nginx import Nginx
from tests.support import free_port


def named_upstream(name: str) -> ThreadingHTTPServer:
    """An HTTP server on a free loopback port answering every GET with ``name``."""

    class Answer(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = name.encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def upstreams() -> Iterator[tuple[ThreadingHTTPServer, ThreadingHTTPServer]]:
    pair = (named_upstream("app1"), named_upstream("app2"))
    yield pair
    for server in pair:
        server.shutdown()
        server.server_close()


def test_every_connection_of_a_table_reaches_the_same_worker(
    upstreams: tuple[ThreadingHTTPServer, ThreadingHTTPServer],
) -> None:
    first, second = (f"127.0.0.1:{server.server_address[1]}" for server in upstreams)
    proxy = Nginx(free_port(), (first, second))
    try:
        proxy.start()
        with httpx.Client(base_url=f"http://{proxy.base}", timeout=10, verify=False) as http:
            reached: dict[str, set[str]] = {}
            for n in range(24):
                table_id = f"table{n:03d}"
                paths = [f"/ws/tables/{table_id}"] * 2 + [
                    f"/api/tables/{table_id}/{lobby}"
                    for lobby in ("join", "leave", "rematch", "rematch/decline", "bots")
                ]
                for path in paths:
                    reached.setdefault(table_id, set()).add(http.get(path).text)
            plain = {http.get("/api/tables").text for _ in range(4)}
    finally:
        proxy.stop()
    assert all(len(names) == 1 for names in reached.values()), reached
    assert set().union(*reached.values()) == {"app1", "app2"}
    assert plain == {"app1", "app2"}  # other requests still take turns
