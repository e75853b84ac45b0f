"""How many players are online, counted once for all workers.

A player is online while one of its table sockets is open on any worker, and for
``WINDOW`` (60) seconds after its last sign of life: an authenticated request, or a table
socket that closed. Each worker records the players it sees with the time it saw them
(``seen``), at most once per player every ``REFRESH`` seconds, so that a request costs no
write when the same player was recorded a moment ago; an open socket is recorded again every
``REFRESH`` seconds while it stays open (``keep_up``). Bots make no requests and are never
counted.

With one worker the record is this process's memory. With ``REDIS_URL`` it is one sorted set
in Redis (``KEY``: each player with the Unix time it was last seen, pruned of entries older
than the window when counted), which every worker writes and reads. Should Redis not answer,
a worker answers with what it saw itself (and logs a warning): the count is a courtesy, not a
record.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import Counter
from collections.abc import Callable, Collection
from typing import Any

log = logging.getLogger(__name__)

KEY = "talon:online"
WINDOW = 60.0
REFRESH = 10.0
WARN_EVERY_S = 60.0


class Online:
    """This worker's view of who is online, shared through Redis when there is one."""

    def __init__(
        self,
        redis_url: str | None = None,
        clock: Callable[[], float] = time.time,
        window: float = WINDOW,
        refresh: float = REFRESH,
    ) -> None:
        self.redis_url = redis_url
        self.clock = clock
        self.window, self.refresh = window, refresh
        self._recorded: dict[str, float] = {}  # by player: when last recorded
        self._sockets: Counter[str] = Counter()  # open table sockets by player, here
        self._pending: dict[str, float] = {}  # recorded here, not yet written to Redis
        self._writing: asyncio.Task[None] | None = None
        self._client: Any = None
        self._warned = -math.inf

    def seen(self, player_id: str, *, force: bool = False) -> None:
        """The player showed a sign of life now (recorded unless it was a moment ago)."""
        now = self.clock()
        last = self._recorded.get(player_id)
        if not force and last is not None and now - last < self.refresh:
            return
        self._recorded[player_id] = now
        if self.redis_url is None:
            return
        self._pending[player_id] = now
        if self._writing is None:
            self._writing = asyncio.get_running_loop().create_task(self._write())

    def connected(self, player_id: str) -> None:
        """A table socket of the player opened on this worker."""
        self._sockets[player_id] += 1
        self.seen(player_id)

    def disconnected(self, player_id: str) -> None:
        """A table socket of the player closed: it stays online for the window from now."""
        self._sockets[player_id] -= 1
        if self._sockets[player_id] <= 0:
            del self._sockets[player_id]
        self.seen(player_id, force=True)

    async def count(self) -> int:
        """How many distinct players are online (on every worker, with Redis)."""
        now = self.clock()
        self._prune(now)
        if self.redis_url is not None:
            try:
                await self._flush()
                client = self._redis()
                async with client.pipeline(transaction=False) as pipe:
                    pipe.zremrangebyscore(KEY, "-inf", now - self.window)
                    pipe.zcard(KEY)
                    _, players = await pipe.execute()
                return int(players)
            except Exception as exc:  # Redis does not answer: what this worker saw
                self._warn("counting", exc)
        return len(self._recorded)  # players with a socket open here are never pruned

    async def offline(self, player_ids: Collection[str]) -> set[str]:
        """Which of these players are offline by the rule ``count`` uses: no table socket
        open and no sign of life for the window (on every worker, with Redis). Should Redis
        not answer, nobody is: a courtesy count may guess, taking players out may not."""
        now = self.clock()
        quiet = {
            player_id
            for player_id in player_ids
            if player_id not in self._sockets
            and now - self._recorded.get(player_id, -math.inf) >= self.window
        }
        if self.redis_url is None or not quiet:
            return quiet
        try:
            await self._flush()
            wanted = sorted(quiet)
            scores = await self._redis().zmscore(KEY, wanted)
        except Exception as exc:
            self._warn("looking up", exc)
            return set()
        return {
            player_id
            for player_id, score in zip(wanted, scores, strict=True)
            if score is None or now - float(score) >= self.window
        }

    async def keep_up(self) -> None:
        """Record every player with an open socket here again every ``refresh`` seconds."""
        while True:
            await asyncio.sleep(self.refresh)
            for player_id in list(self._sockets):
                self.seen(player_id, force=True)
            self._prune(self.clock())

    async def close(self) -> None:
        """Stop writing and let the Redis connection go."""
        if self._writing is not None:
            self._writing.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writing
        if self._client is not None:
            with contextlib.suppress(Exception):
                await self._client.aclose()

    def _prune(self, now: float) -> None:
        stale = [p for p, at in self._recorded.items() if now - at >= self.window]
        for player_id in stale:
            if player_id not in self._sockets:
                del self._recorded[player_id]

    def _redis(self) -> Any:
        if self._client is None:
            import redis.asyncio as aioredis

            assert self.redis_url is not None

            self._client = aioredis.from_url(self.redis_url, health_check_interval=10)
        return self._client

    async def _write(self) -> None:
        try:
            while self._pending:  # what was recorded while the last write was under way too
                await self._flush()
        except Exception as exc:
            self._warn("recording", exc)
        finally:
            self._writing = None

    async def _flush(self) -> None:
        """One write of every player recorded here since the last one."""
        if not self._pending:
            return
        pending, self._pending = self._pending, {}
        await self._redis().zadd(KEY, pending)

    def _warn(self, what: str, exc: Exception) -> None:
        now = time.monotonic()
        if now - self._warned >= WARN_EVERY_S:
            self._warned = now
            log.warning("online players: %s failed (%s)", what, type(exc).__name__)
