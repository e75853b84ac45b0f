"""What answers say about the server and about HTTPS.

A ``talon serve`` worker names no server software (uvicorn's ``server: uvicorn`` is dropped).
The shipped ``deploy/nginx.conf``, once given an HTTPS listening socket as its comment says,
sends ``Strict-Transport-Security`` on every answer over HTTPS (the API, the client page and
an error alike) and never over plain HTTP, where a browser would ignore it.
"""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.deploy.nginx import Nginx
from tests.scale.cluster import Worker
from tests.support import free_port, sqlite_url

PATHS = ("/healthz", "/", "/api/players/me")  # JSON, the client page, a 401


async def test_https_answers_carry_strict_transport_security_and_no_server_name(
    tmp_path: Path,
) -> None:
    worker = Worker(sqlite_url(tmp_path / "talon.db"), None, tmp_path, "worker")
    tls_port = free_port()
    proxy = Nginx(free_port(), (worker.base, worker.base), tls_port=tls_port)
    try:
        await worker.wait_healthy()
        proxy.start()
        async with httpx.AsyncClient(timeout=10, verify=False) as http:
            direct = [await http.get(f"http://{worker.base}{path}") for path in PATHS]
            secure = [await http.get(f"https://127.0.0.1:{tls_port}{path}") for path in PATHS]
            plain = [await http.get(f"http://{proxy.base}{path}") for path in PATHS]
    finally:
        proxy.stop()
        worker.kill()
    assert [r.status_code for r in direct] == [200, 200, 401]
    assert [r.status_code for r in secure] == [200, 200, 401]
    for response in direct:
        assert "server" not in response.headers, response.headers
    for response in secure:
        assert response.headers["strict-transport-security"] == (
            "max-age=31536000; includeSubDomains"
        )
    for response in (*secure, *plain):
        assert response.headers.get("server") == "nginx", response.headers  # no version
    for response in plain:
        assert "strict-transport-security" not in response.headers
