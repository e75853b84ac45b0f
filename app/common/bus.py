"""How the workers that share one database talk to each other: Redis pub/sub.

``RedisBus`` publishes messages on channels under a prefix and hands the messages it hears
on its own pattern to ``on_message``. Two buses use it: the relay (``app/tables/relay.py``:
one channel per worker, ``talon:worker:<id>``, which carries commands to a table's owner and
its already-redacted frames back) and the table chat (``talon:chat:<id>``). A message travels
only between servers and never reaches a client. Redis is not the record: PostgreSQL is.

Without ``REDIS_URL`` there is one worker and no bus.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import orjson

from app.common import metrics

log = logging.getLogger(__name__)

Message = dict[str, Any]


class RedisBus:
    """Publishes this worker's messages and hands other workers' ones to ``on_message``.

    Publishing never blocks the caller: messages queue for one sender task, which keeps
    their order (so two messages to one channel arrive in the order sent). The listener
    hears ``listen`` (a pattern; ``channel*`` unless given), reconnects after Redis
    restarts and then calls ``on_reconnect``; ``on_lost`` is called when the subscription
    or a publication failed (messages may have been lost).
    """

    def __init__(
        self,
        url: str,
        on_message: Callable[[Message], None],
        on_reconnect: Callable[[], None],
        channel: str,
        *,
        listen: str | None = None,
        on_lost: Callable[[], None] = lambda: None,
        origin: str | None = None,
    ) -> None:
        self.url = url
        self.channel = channel  # the prefix of this bus's channels
        self.listen = listen if listen is not None else channel + "*"
        self.origin = origin or secrets.token_hex(8)
        self.on_message = on_message
        self.on_reconnect = on_reconnect
        self.on_lost = on_lost
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribed = asyncio.Event()
        self._client: Any = None

    def publish(self, table_id: str, body: Message) -> None:
        """Queue a message for the channel ``channel + table_id`` (the chat's)."""
        self.send(self.channel + table_id, {**body, "table_id": table_id})

    def send(self, channel: str, body: Message) -> None:
        """Queue a message for ``channel``, stamped with this bus's origin and the time."""
        body["origin"], body["at"] = self.origin, time.time()
        self._outbox.put_nowait((channel, orjson.dumps(body)))

    async def send_now(self, channel: str, body: Message, wait: float = 2.0) -> None:
        """Publish a message on ``channel`` at once and wait until Redis has handed it to every
        subscriber (at most ``wait`` seconds); should Redis not answer, queue it as ``send``
        does."""
        from redis.exceptions import RedisError

        body["origin"], body["at"] = self.origin, time.time()
        if self._client is None:  # not started: the sender task will publish it
            self._outbox.put_nowait((channel, orjson.dumps(body)))
            return
        try:
            await asyncio.wait_for(self._client.publish(channel, orjson.dumps(body)), wait)
        except (RedisError, OSError, TimeoutError) as exc:
            metrics.BUS_ERRORS.labels("publish").inc()
            log.warning("publishing to Redis at once failed (%s); queued", type(exc).__name__)
            self._outbox.put_nowait((channel, orjson.dumps(body)))

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
                await pubsub.psubscribe(self.listen)
                self._subscribed.set()
                if reconnecting:
                    log.info("subscribed to Redis again; checking every table")
                    self.on_reconnect()
                async for message in pubsub.listen():
                    self._receive(message)
            except (RedisError, OSError) as exc:
                metrics.BUS_ERRORS.labels("subscribe").inc()
                log.warning("Redis subscription lost (%s); retrying", type(exc).__name__)
                if not reconnecting:
                    self.on_lost()
                reconnecting = True
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    def _receive(self, message: dict[str, Any]) -> None:
        if message.get("type") != "pmessage":
            return
        try:
            body = orjson.loads(message["data"])
        except orjson.JSONDecodeError:
            return
        if isinstance(body, dict) and body.get("origin") != self.origin:
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
                self.on_lost()
                await asyncio.sleep(0.2)
