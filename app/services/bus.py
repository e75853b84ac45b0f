"""How the workers that share one database tell each other about changes: Redis pub/sub.

One channel per table (``talon:table:<id>``). A message says that a table has a new version
(with the action and seat that made it) or that its seats or match changed; it travels only
between servers and never reaches a client. Each worker applies the action to its own copy
of the table and redacts for its own viewers (``TableAuthority.follow``). Redis is not the
record: a worker that misses a message sees the version jump (or its periodic check does)
and catches up from the database.

Without ``REDIS_URL`` there is one worker and ``NO_BUS`` does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any, Protocol

from app.services import metrics

log = logging.getLogger(__name__)

CHANNEL = "talon:table:"
Message = dict[str, Any]


class Bus(Protocol):
    """Where a worker announces what it stored."""

    def action(
        self, table_id: str, match_id: int | None, version: int, seat: int, action: Any
    ) -> None:
        """This worker stored ``action`` of ``seat`` as the table's ``version``."""
        ...

    def table_changed(self, table_id: str, version: int) -> None:
        """This worker changed the table's seats, status or match."""
        ...


class NoBus:
    """A single worker: nobody to tell."""

    def action(
        self, table_id: str, match_id: int | None, version: int, seat: int, action: Any
    ) -> None:
        """Nothing to do."""

    def table_changed(self, table_id: str, version: int) -> None:
        """Nothing to do."""


NO_BUS = NoBus()


class RedisBus:
    """Publishes this worker's changes and hands other workers' ones to ``on_message``.

    Publishing never blocks the caller: messages queue for one sender task, which keeps
    their order. The listener reconnects after Redis restarts and then calls
    ``on_reconnect`` so the worker can check every table it serves against the database.
    """

    def __init__(
        self,
        url: str,
        on_message: Callable[[Message], None],
        on_reconnect: Callable[[], None],
        channel: str = CHANNEL,
    ) -> None:
        self.url = url
        self.channel = channel  # the prefix of this bus's channels, one per table
        self.origin = secrets.token_hex(8)
        self.on_message = on_message
        self.on_reconnect = on_reconnect
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribed = asyncio.Event()
        self._client: Any = None

    def action(
        self, table_id: str, match_id: int | None, version: int, seat: int, action: Any
    ) -> None:
        """Queue an ``action`` message for the table's channel."""
        self._send(
            table_id,
            {
                "kind": "action",
                "match_id": match_id,
                "version": version,
                "seat": seat,
                "action": action,
            },
        )

    def table_changed(self, table_id: str, version: int) -> None:
        """Queue a ``table`` message: receivers reload the table from the database."""
        self._send(table_id, {"kind": "table", "version": version})

    def publish(self, table_id: str, body: Message) -> None:
        """Queue any message for the table's channel (a bus of its own, such as the chat's)."""
        self._send(table_id, dict(body))

    def _send(self, table_id: str, body: Message) -> None:
        body |= {"origin": self.origin, "table_id": table_id, "at": time.time()}
        self._outbox.put_nowait((self.channel + table_id, json.dumps(body, separators=(",", ":"))))

    async def start(self, wait: float = 5.0) -> None:
        """Connect, subscribe, and start sending; waits up to ``wait`` s for the subscription
        (a worker that starts while Redis is down serves anyway and catches up later)."""
        import redis.asyncio as aioredis

        self._client = aioredis.from_url(self.url, health_check_interval=10)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._publish())]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), wait)

    async def close(self) -> None:
        """Stop both tasks and the client."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._client is not None:
            with contextlib.suppress(Exception):
                await self._client.aclose()

    async def _listen(self) -> None:
        from redis.exceptions import RedisError

        reconnecting = False
        while True:
            pubsub = self._client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(self.channel + "*")
                self._subscribed.set()
                if reconnecting:
                    log.info("subscribed to Redis again; checking every table")
                    self.on_reconnect()
                async for message in pubsub.listen():
                    self._receive(message)
            except (RedisError, OSError) as exc:
                metrics.BUS_ERRORS.labels("subscribe").inc()
                log.warning("Redis subscription lost (%s); retrying", type(exc).__name__)
                reconnecting = True
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    def _receive(self, message: dict[str, Any]) -> None:
        if message.get("type") != "pmessage":
            return
        try:
            body = json.loads(message["data"])
        except ValueError:
            return
        if body.get("origin") != self.origin:
            self.on_message(body)

    async def _publish(self) -> None:
        from redis.exceptions import RedisError

        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                async with self._client.pipeline(transaction=False) as pipe:
                    for channel, payload in batch:
                        pipe.publish(channel, payload)
                    await pipe.execute()
            except (RedisError, OSError) as exc:
                # Lost messages: the other workers notice the gap or check the database.
                metrics.BUS_ERRORS.labels("publish").inc(len(batch))
                log.warning(
                    "publishing %d message(s) to Redis failed (%s)", len(batch), type(exc).__name__
                )
                await asyncio.sleep(0.2)
