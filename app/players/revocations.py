"""Revoked tokens close the table sockets they opened, on every worker.

A table socket is greeted once with a token and then trusted for as long as it stays open.
Signing out revokes that one token; deleting a player revokes all of its tokens. Each worker
keeps its open sockets by the hash of the token that greeted them and by player; a revocation
closes this worker's sockets at once and is published on the bus (``talon:revoked``), so that
every other worker closes its own as soon as the message arrives; the request that revoked the
token is answered once Redis has handed the message to every worker. A socket is closed with
4001, as a greeting with a bad token is (``Revocable.revoke``), and answers nothing more.

A revocation is remembered for ``REMEMBER`` seconds, so that a socket whose greeting read the
token just before it was revoked, and that is watched just after, is closed too. Should the
bus lose messages (Redis restarted), the worker checks every token it watches against the
database once it is subscribed again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Protocol

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.common.bus import Message, RedisBus
from app.common.errors import STORE_ERRORS
from app.store import players as player_store
from app.store.db import AsyncSession

log = logging.getLogger(__name__)
CHANNEL = "talon:revoked"
REMEMBER = 120.0
TOKEN, PLAYER = "token", "player"


class Revocable(Protocol):
    """An open socket that a revocation closes."""

    def revoke(self) -> None:
        """Close: its token was revoked (must not block or await)."""
        ...


Key = tuple[str, str]  # (TOKEN, token hash) or (PLAYER, player id)


class Revocations:
    """This worker's table sockets by the token and the player that greeted them."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        clock: Callable[[], float] = time.monotonic,
        remember: float = REMEMBER,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.remember = remember
        self.bus: RedisBus | None = None
        self._sockets: dict[Key, set[Revocable]] = defaultdict(set)
        self._keys: dict[Revocable, tuple[Key, Key]] = {}
        self._recent: dict[Key, float] = {}
        self._rechecking: asyncio.Task[None] | None = None

    def connect_bus(self, redis_url: str) -> RedisBus:
        """Tell the other workers of revocations, and hear theirs (started by the caller)."""
        self.bus = RedisBus(
            redis_url, self.on_bus_message, self._recheck_soon, channel=CHANNEL, listen=CHANNEL
        )
        return self.bus

    def watch(self, socket: Revocable, token_hash: str, player_id: str) -> None:
        """Close ``socket`` when its token, or every token of its player, is revoked (at
        once, if that happened a moment ago)."""
        keys = ((TOKEN, token_hash), (PLAYER, player_id))
        self._forget_old()
        if any(key in self._recent for key in keys):
            socket.revoke()
            return
        self._keys[socket] = keys
        for key in keys:
            self._sockets[key].add(socket)

    def forget(self, socket: Revocable) -> None:
        """The socket closed: stop watching it (an unwatched one is ignored)."""
        for key in self._keys.pop(socket, ()):
            sockets = self._sockets.get(key)
            if sockets is not None:
                sockets.discard(socket)
                if not sockets:
                    del self._sockets[key]

    def watched(self) -> int:
        """How many sockets this worker watches."""
        return len(self._keys)

    async def revoke_token(self, token_hash: str) -> None:
        """The token with this hash was revoked: close its sockets here and everywhere."""
        await self._revoke((TOKEN, token_hash))

    async def revoke_player(self, player_id: str) -> None:
        """Every token of the player was revoked: close its sockets here and everywhere."""
        await self._revoke((PLAYER, player_id))

    def on_bus_message(self, message: Message) -> None:
        """Another worker revoked a token or a player's tokens."""
        kind, value = message.get("kind"), message.get("key")
        if kind in (TOKEN, PLAYER) and isinstance(value, str):
            self._revoked((str(kind), value))

    async def close(self) -> None:
        """Stop a check under way."""
        if self._rechecking is not None:
            self._rechecking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._rechecking

    async def recheck(self) -> int:
        """Close every watched socket whose token the database no longer has (revocations
        the bus may have lost); how many were closed."""
        closed = 0
        async with self.sessions() as session:
            for kind, token_hash in [key for key in list(self._sockets) if key[0] == TOKEN]:
                if await player_store.token_owner(session, token_hash) is None:
                    closed += self._close((kind, token_hash))
        return closed

    async def _revoke(self, key: Key) -> None:
        self._revoked(key)
        if self.bus is not None:
            await self.bus.send_now(CHANNEL, {"kind": key[0], "key": key[1]})

    def _revoked(self, key: Key) -> None:
        self._forget_old()
        self._recent[key] = self.clock()
        self._close(key)

    def _close(self, key: Key) -> int:
        sockets = list(self._sockets.get(key, ()))
        for socket in sockets:
            self.forget(socket)
            socket.revoke()
        return len(sockets)

    def _forget_old(self) -> None:
        oldest = self.clock() - self.remember
        for key in [key for key, at in self._recent.items() if at < oldest]:
            del self._recent[key]

    def _recheck_soon(self) -> None:
        if self._rechecking is None or self._rechecking.done():
            self._rechecking = asyncio.get_running_loop().create_task(self._recheck_logged())

    async def _recheck_logged(self) -> None:
        try:
            closed = await self.recheck()
        except STORE_ERRORS as exc:
            log.warning("revoked tokens not checked: %s", type(exc).__name__)
            return
        if closed:
            log.info("closed %d socket(s) of tokens revoked while Redis was away", closed)
