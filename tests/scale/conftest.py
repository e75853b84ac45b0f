"""Multi-worker tests: worker processes sharing one PostgreSQL cluster and one redis-server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fixtures import pg_cluster
from tests.scale.cluster import RedisServer

__all__ = ["pg_cluster"]


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A throwaway redis-server on a free port."""
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.cleanup()
