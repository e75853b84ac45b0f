"""Rate limits: messages per second per WebSocket, players and tables per client address.

Each limit is a token bucket: ``capacity`` requests at once, refilled at ``capacity / period``
per second (a WebSocket may send two seconds' worth of messages at once). A refused request
learns how long to wait (``retry_after`` seconds, and the ``Retry-After`` header on REST).
The settings name each limit (``WS_MESSAGES_PER_SECOND``, ``PLAYERS_PER_MINUTE``,
``TABLES_PER_MINUTE``, ``SIGN_INS_PER_MINUTE``); tests lower them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, FastAPI, Request

from app.services.errors import ServiceError
from app.settings import Settings

Clock = Callable[[], float]
# A connection may send this many seconds' worth of messages at once.
BURST_SECONDS = 2.0


class RateLimited(ServiceError):
    """Too many requests; ``retry_after`` says when the next one will be taken."""

    status = 429

    def __init__(self, what: str, retry_after: float) -> None:
        wait = max(1, math.ceil(retry_after))
        super().__init__("rate_limited", f"Too many {what}; retry in {wait} s.", retry_after=wait)


class Bucket:
    """One token bucket; ``take`` answers 0 when a token was taken, else the wait in seconds."""

    __slots__ = ("capacity", "rate", "tokens", "updated")

    def __init__(self, capacity: float, period: float, now: float) -> None:
        self.capacity = capacity
        self.rate = capacity / period
        self.tokens = capacity
        self.updated = now

    def take(self, now: float) -> float:
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate


class KeyedLimiter:
    """A bucket per key (a client address); full buckets are forgotten now and then."""

    def __init__(
        self, capacity: int, period: float, clock: Clock = time.monotonic, max_keys: int = 50_000
    ) -> None:
        self.capacity = capacity
        self.period = period
        self.clock = clock
        self.max_keys = max_keys
        self._buckets: dict[str, Bucket] = {}

    def take(self, key: str) -> float:
        """0 when the request may go ahead, else the seconds to wait."""
        now = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.max_keys:
                self._forget_idle(now)
            bucket = self._buckets[key] = Bucket(self.capacity, self.period, now)
        return bucket.take(now)

    def _forget_idle(self, now: float) -> None:
        # A bucket idle for a whole period is full again: dropping it changes nothing.
        idle = [k for k, b in self._buckets.items() if now - b.updated >= self.period]
        for key in idle:
            del self._buckets[key]


class Limits:
    """The application's limiters, built from its settings."""

    def __init__(self, settings: Settings, clock: Clock = time.monotonic) -> None:
        self.settings = settings
        self.clock = clock
        self.players = KeyedLimiter(settings.players_per_minute, 60.0, clock)
        self.tables = KeyedLimiter(settings.tables_per_minute, 60.0, clock)
        self.sign_ins = KeyedLimiter(settings.sign_ins_per_minute, 60.0, clock)

    def message_bucket(self) -> Bucket:
        """A new bucket for one WebSocket connection's messages."""
        rate = self.settings.ws_messages_per_second
        return Bucket(rate * BURST_SECONDS, BURST_SECONDS, self.clock())


def client_address(request: Request) -> str:
    """The peer's address (a proxy in front must be trusted to set it; see the docs)."""
    return request.client.host if request.client else "unknown"


def _limits(request: Request) -> Limits:
    limits: Limits = request.app.state.limits
    return limits


async def limit_new_players(request: Request) -> None:
    """Refuse with 429 ``rate_limited`` past ``PLAYERS_PER_MINUTE`` from one address."""
    wait = _limits(request).players.take(client_address(request))
    if wait:
        raise RateLimited("new players from this address", wait)


async def limit_new_tables(request: Request) -> None:
    """Refuse with 429 ``rate_limited`` past ``TABLES_PER_MINUTE`` from one address."""
    wait = _limits(request).tables.take(client_address(request))
    if wait:
        raise RateLimited("new tables from this address", wait)


async def limit_sign_ins(request: Request) -> None:
    """Refuse with 429 ``rate_limited`` past ``SIGN_INS_PER_MINUTE`` from one address (a
    brake on guessing passwords)."""
    wait = _limits(request).sign_ins.take(client_address(request))
    if wait:
        raise RateLimited("sign-in attempts from this address", wait)


NewPlayerLimit = Annotated[None, Depends(limit_new_players)]
NewTableLimit = Annotated[None, Depends(limit_new_tables)]
SignInLimit = Annotated[None, Depends(limit_sign_ins)]


def install(app: FastAPI, settings: Settings) -> None:
    """Give ``app`` its limiters (a ``RateLimited`` answers 429 with ``Retry-After`` through
    the API's service-error handler)."""
    app.state.limits = Limits(settings)
