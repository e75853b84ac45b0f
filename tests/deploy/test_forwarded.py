"""The shipped nginx config in front of a worker: a client cannot choose its own address.

Debian's nginx runs ``deploy/nginx.conf`` (checked with ``nginx -t`` first) in front of one
``talon serve`` worker that trusts forwarded headers from the proxy's address only (here
127.0.0.1, as ``FORWARDED_ALLOW_IPS`` does in docker-compose.yml). Forty sign-ups, each with
another forged ``X-Forwarded-For``, must meet the sign-up limit of 30 per address: nginx sets
the header to the address it sees instead of appending to the client's.
"""

from __future__ import annotations

from pathlib import Path

from tests.deploy.forged import ATTEMPTS, forged_signups, forged_sockets
from tests.deploy.nginx import Nginx
from tests.scale.cluster import Worker
from tests.support import free_port, sqlite_url

LIMIT = 30  # PLAYERS_PER_MINUTE's default


async def test_forged_forwarded_addresses_meet_the_signup_limit(tmp_path: Path) -> None:
    worker = Worker(
        sqlite_url(tmp_path / "talon.db"),
        None,
        tmp_path,
        "worker",
        FORWARDED_ALLOW_IPS="127.0.0.1",
        PLAYERS_PER_MINUTE=str(LIMIT),
    )
    proxy = Nginx(free_port(), (worker.base, worker.base))
    try:
        await worker.wait_healthy()
        proxy.start()
        statuses = await forged_signups(proxy.base)
    finally:
        proxy.stop()
        worker.kill()
    assert statuses == [201] * LIMIT + [429] * (ATTEMPTS - LIMIT), statuses


async def test_a_worker_believes_no_forwarded_header_unless_told(tmp_path: Path) -> None:
    """``talon serve`` without ``FORWARDED_ALLOW_IPS`` trusts no proxy, loopback included:
    forged sign-ups meet the limit, and sockets with forged addresses meet the cap."""
    worker = Worker(
        sqlite_url(tmp_path / "talon.db"),
        None,
        tmp_path,
        "worker",
        PLAYERS_PER_MINUTE=str(LIMIT),
        WS_CONNECTIONS_PER_ADDRESS="2",
    )
    try:
        await worker.wait_healthy()
        statuses = await forged_signups(worker.base)
        code = await forged_sockets(worker.base, 3)
    finally:
        worker.kill()
    assert statuses == [201] * LIMIT + [429] * (ATTEMPTS - LIMIT), statuses
    assert code == 4029
