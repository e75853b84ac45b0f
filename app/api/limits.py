"""Rate limits: players and tables per client address, messages per second per WebSocket,
and open table sockets per client address.

New players, new tables and password attempts (``PLAYERS_PER_MINUTE``, ``TABLES_PER_MINUTE``,
``SIGN_INS_PER_MINUTE``: every request that checks or hashes a password or starts a passkey
sign-in: signing in, creating an account, deleting one) are counted per client address with
the ``limits`` library over a moving window of a minute: in this process's memory, or in
Redis when ``REDIS_URL`` is set, so that every worker behind a balancer counts the same hits
(otherwise each limit would be multiplied by the number of workers). Should Redis not answer,
the request goes ahead (the limit is a guard, not a record) and a warning is logged.

Password sign-ins are also counted per account, from every address together
(``SIGN_INS_PER_ACCOUNT`` in any ``ACCOUNT_WINDOW_MINUTES``, keyed by the handle's skeleton,
whether or not an account has it): an attempt is counted before its password is checked, so
concurrent guesses cannot slip past, and a successful sign-in starts the count again. Past
the limit even the right password is refused until the window moves on; a passkey sign-in
is never counted there, so a stranger guessing cannot lock the owner out of it.

Chat lines (``CHAT_MESSAGES_PER_MINUTE``) and challenges (``CHALLENGES_PER_MINUTE``,
refused with ``challenge_rate_limited``) are counted the same way, per player rather than per
address.

A WebSocket's own messages (``WS_MESSAGES_PER_SECOND``) are counted by a token bucket in the
connection itself: a connection lives on one worker, so there is nothing to share, and the
check runs for every message. Open table sockets per address
(``WS_CONNECTIONS_PER_ADDRESS``) are counted per worker.

A refused request learns how long to wait (``retry_after`` seconds, and the ``Retry-After``
header on REST). Tests lower the limits through the settings.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from limits import RateLimitItem, RateLimitItemPerMinute
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.storage.redis.redispy import RedispyBridge
from limits.aio.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection

from app.common.errors import ServiceError
from app.settings import Settings

log = logging.getLogger(__name__)
Clock = Callable[[], float]
# A connection may send this many seconds' worth of messages at once.
BURST_SECONDS = 2.0
# Keys of the shared counters in Redis start with this.
REDIS_PREFIX = "talon:limits"
# The window of the per-account sign-in limit.
ACCOUNT_WINDOW_MINUTES = 15
# At most one warning about an unreachable Redis per this many seconds.
WARN_EVERY_S = 10.0


class RateLimited(ServiceError):
    """Too many requests; ``retry_after`` says when the next one will be taken."""

    status = 429

    def __init__(self, what: str, retry_after: float, code: str = "rate_limited") -> None:
        wait = max(1, math.ceil(retry_after))
        super().__init__(code, f"Too many {what}; retry in {wait} s.", retry_after=wait)


class Bucket:
    """One connection's token bucket; ``take`` answers 0 when a token was taken, else the
    wait in seconds."""

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


def storage_for(redis_url: str | None) -> Storage:
    """Where the per-address counters live: Redis when there is one, else this process."""
    if redis_url is None:
        return MemoryStorage()
    return RedisStorage(f"async+{redis_url}", implementation="redispy", key_prefix=REDIS_PREFIX)


class AddressLimit:
    """``amount`` hits per key (a client address, a player, an account) in any ``minutes``
    minutes, counted by ``limiter``."""

    def __init__(
        self, name: str, amount: int, limiter: MovingWindowRateLimiter, minutes: int = 1
    ) -> None:
        self.name = name
        self.item: RateLimitItem = RateLimitItemPerMinute(amount, minutes)
        self.limiter = limiter
        self._warned = -math.inf

    async def take(self, address: str) -> float:
        """0 when the request may go ahead (and it is counted), else the seconds to wait."""
        try:
            if await self.limiter.hit(self.item, self.name, address):
                return 0.0
            stats = await self.limiter.get_window_stats(self.item, self.name, address)
        except Exception as exc:  # the storage (Redis) does not answer: let it through
            self._warn(exc)
            return 0.0
        return max(1.0, stats.reset_time - time.time())

    async def clear(self, address: str) -> None:
        """Forget every hit counted for ``address``."""
        try:
            await self.limiter.clear(self.item, self.name, address)
        except Exception as exc:  # the storage (Redis) does not answer
            self._warn(exc)

    def _warn(self, exc: Exception) -> None:
        now = time.monotonic()
        if now - self._warned >= WARN_EVERY_S:
            self._warned = now
            log.warning("rate limit %s not checked: %s", self.name, type(exc).__name__)


class OpenSockets:
    """How many table sockets each client address holds open in this worker."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self._open: dict[str, int] = {}

    def enter(self, address: str) -> bool:
        """Count one more socket for ``address``; False (and nothing counted) past the limit."""
        count = self._open.get(address, 0)
        if count >= self.per_address:
            return False
        self._open[address] = count + 1
        return True

    def leave(self, address: str) -> None:
        """A socket counted by ``enter`` has closed."""
        count = self._open.get(address, 0) - 1
        if count > 0:
            self._open[address] = count
        else:
            self._open.pop(address, None)


class Limits:
    """The application's limiters, built from its settings."""

    def __init__(self, settings: Settings, clock: Clock = time.monotonic) -> None:
        self.settings = settings
        self.clock = clock
        self.storage = storage_for(settings.redis_url)
        limiter = MovingWindowRateLimiter(self.storage)
        self.players = AddressLimit("players", settings.players_per_minute, limiter)
        self.tables = AddressLimit("tables", settings.tables_per_minute, limiter)
        self.sign_ins = AddressLimit("sign_ins", settings.sign_ins_per_minute, limiter)
        self.account_sign_ins = AddressLimit(
            "account_sign_ins", settings.sign_ins_per_account, limiter, ACCOUNT_WINDOW_MINUTES
        )
        # Chat lines per player (keyed by player id, not address): app/chat/service.py.
        self.chat = AddressLimit("chat", settings.chat_messages_per_minute, limiter)
        # Challenges per player (keyed by player id): app/api/challenges.py.
        self.challenges = AddressLimit("challenges", settings.challenges_per_minute, limiter)
        self.sockets = OpenSockets(settings.ws_connections_per_address)

    async def close(self) -> None:
        """Release the connection to Redis, if the counters live there."""
        if isinstance(self.storage, RedisStorage) and isinstance(
            self.storage.bridge, RedispyBridge
        ):
            # The library types its client as a protocol without ``aclose``; redis-py's has it.
            client: Any = self.storage.bridge.get_connection()
            await client.aclose()

    def message_bucket(self) -> Bucket:
        """A new bucket for one WebSocket connection's messages."""
        rate = self.settings.ws_messages_per_second
        return Bucket(rate * BURST_SECONDS, BURST_SECONDS, self.clock())


def client_address(connection: HTTPConnection) -> str:
    """The peer's address, of a request or a WebSocket (a proxy in front must be trusted to
    set it; see the docs)."""
    return connection.client.host if connection.client else "unknown"


def _limits(request: Request) -> Limits:
    limits: Limits = request.app.state.limits
    return limits


async def limit_new_players(request: Request) -> None:
    """Refuse with 429 ``rate_limited`` past ``PLAYERS_PER_MINUTE`` from one address."""
    wait = await _limits(request).players.take(client_address(request))
    if wait:
        raise RateLimited("new players from this address", wait)


async def limit_new_tables(request: Request) -> None:
    """Refuse with 429 ``rate_limited`` past ``TABLES_PER_MINUTE`` from one address."""
    wait = await _limits(request).tables.take(client_address(request))
    if wait:
        raise RateLimited("new tables from this address", wait)


async def limit_sign_ins(request: Request) -> None:
    """Refuse with 429 ``rate_limited`` past ``SIGN_INS_PER_MINUTE`` from one address (a
    brake on guessing passwords, and on making the server hash them)."""
    wait = await _limits(request).sign_ins.take(client_address(request))
    if wait:
        raise RateLimited("password attempts from this address", wait)


async def limit_account_sign_ins(request: Request, account: str) -> None:
    """Count one password sign-in attempt for ``account`` (a handle's skeleton); refuse with
    429 ``rate_limited`` past ``SIGN_INS_PER_ACCOUNT`` in ``ACCOUNT_WINDOW_MINUTES``, from
    whatever address."""
    wait = await _limits(request).account_sign_ins.take(account)
    if wait:
        raise RateLimited("sign-in attempts for this account", wait)


async def account_signed_in(request: Request, account: str) -> None:
    """A password sign-in to ``account`` succeeded: its count starts again."""
    await _limits(request).account_sign_ins.clear(account)


async def limit_new_challenges(request: Request, player_id: str) -> None:
    """Refuse with 429 ``challenge_rate_limited`` past ``CHALLENGES_PER_MINUTE`` from one
    player."""
    wait = await _limits(request).challenges.take(player_id)
    if wait:
        raise RateLimited("challenges from you", wait, code="challenge_rate_limited")


NewPlayerLimit = Annotated[None, Depends(limit_new_players)]
NewTableLimit = Annotated[None, Depends(limit_new_tables)]
SignInLimit = Annotated[None, Depends(limit_sign_ins)]


def install(app: FastAPI, settings: Settings) -> None:
    """Give ``app`` its limiters (a ``RateLimited`` answers 429 with ``Retry-After`` through
    the API's service-error handler)."""
    app.state.limits = Limits(settings)
