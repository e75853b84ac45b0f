"""``ChallengeService``: make, list, accept, decline and cancel challenges.

Accepting opens a private table through the table service (``TableService.create_table``)
with the challenger in seat 0 and the acceptor in seat 1; the challenge is marked accepted in
that same transaction by a conditional update, so of two acceptances racing exactly one opens
a table, and a refused one opens none. The table's match then starts through its actor's
``StartFull`` command, like any table opened with every seat taken.

Each player of a challenge hears of it on its open pages (``Notices``, the player socket):
the challenged player when it is made, both when it is accepted, declined, cancelled or
expires (a timer of the worker that took the challenge; a challenge stays expired by its
stored time whatever becomes of the timer).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.challenges import rules
from app.common.errors import Conflict, Invalid, NotFound
from app.common.rules import rules_for_table, seat_count
from app.players import identity, names
from app.players.bot_players import bot_level
from app.players.notices import Notices
from app.store import Challenge, Player
from app.store import challenges as challenge_store
from app.store import players as player_store
from app.store.db import AsyncSession
from app.tables.clocks import MODES
from app.tables.service import TableService

Clock = Callable[[], float]
log = logging.getLogger(__name__)


class _Taken(Exception):
    """The challenge left ``pending`` while its table was being opened."""


class ChallengeService:
    """Challenges between players, stored, answered through the table service."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        tables: TableService,
        *,
        seconds: float,
        max_pending: int,
        clock: Clock = time.time,
        notices: Notices | None = None,
    ) -> None:
        self.sessions = sessions
        self.tables = tables
        self.seconds = seconds
        self.max_pending = max_pending
        self.clock = clock
        self.notices = notices or Notices()
        self._expiries: dict[str, asyncio.Task[None]] = {}

    async def create(
        self,
        player: Player,
        variant: str,
        options: dict[str, Any],
        *,
        target_id: str | None = None,
        handle: str | None = None,
        clock: str | None = None,
        rated: bool = False,
    ) -> dict[str, Any]:
        """Challenge the player ``target_id`` (or the account ``handle``) to a game of
        ``variant`` with ``options``; with neither, an open challenge that anyone signed in
        may accept through its link. ``rated`` needs accounts on both sides."""
        table_rules = rules_for_table(variant, options)
        rules.check_seats(seat_count(table_rules))
        if clock is not None and clock not in MODES:
            raise Invalid("bad_clock", f"clock must be one of {', '.join(MODES)}.")
        now = self.clock()
        async with self.sessions.begin() as session:
            target = await self._target(session, target_id, handle)
            rules.check_target(player.id, target.id if target else None)
            rules.check_rated(rated, player.is_account, *([target.is_account] if target else []))
            pending = await challenge_store.count_pending_from(session, player.id, now)
            if pending >= self.max_pending:
                raise Conflict(
                    "too_many_challenges",
                    f"You have {pending} challenges waiting; cancel one or wait for answers.",
                )
            row = await challenge_store.add_challenge(
                session,
                id=identity.new_id(),
                challenger_id=player.id,
                challenged_id=target.id if target else None,
                variant=table_rules.variant,
                options=table_rules.options(),
                clock=clock,
                rated=rated,
                expires_at=now + self.seconds,
            )
            shown = await self._json(session, row, now)
        self._tell("received", shown)
        self._expiries[row.id] = asyncio.get_running_loop().create_task(
            self._expire(row.id, self.seconds)
        )
        return shown

    async def mine(self, player: Player) -> dict[str, list[dict[str, Any]]]:
        """The pending challenges ``player`` received (``incoming``) and made
        (``outgoing``), newest first."""
        now = self.clock()
        async with self.sessions() as session:
            rows = await challenge_store.pending_of(session, player.id, now)
            shown = [await self._json(session, row, now) for row in rows]
        return {
            "incoming": [c for c in shown if c["challenger"]["id"] != player.id],
            "outgoing": [c for c in shown if c["challenger"]["id"] == player.id],
        }

    async def get(self, player: Player, challenge_id: str) -> dict[str, Any]:
        """One challenge, as its players (or, when open, anyone with its id) see it."""
        now = self.clock()
        async with self.sessions() as session:
            row = await self._visible(session, player, challenge_id)
            return await self._json(session, row, now)

    async def accept(self, player: Player, challenge_id: str) -> dict[str, Any]:
        """Accept: a private table opens with the challenger in seat 0 and ``player`` in seat
        1 and its match starts. The answer is the challenge with its ``table_id`` and the
        ``table``."""
        now = self.clock()
        async with self.sessions() as session:
            row = await self._visible(session, player, challenge_id)
            rules.check_acceptor(row, player.id)
            rules.check_pending(row, now)
            challenger = await player_store.get_player(session, row.challenger_id)
        if challenger is None or challenger.deleted_at is not None:
            raise NotFound("unknown_player", "The player who made this challenge is gone.")
        rules.check_rated(row.rated, challenger.is_account, player.is_account)

        async def claim(session: AsyncSession, table_id: str) -> None:
            accepted = await challenge_store.settle(
                session, challenge_id, rules.ACCEPTED, now, accepted_by=player.id, table_id=table_id
            )
            if not accepted:
                raise _Taken

        try:
            table = await self.tables.create_table(
                challenger,
                row.variant,
                row.options,
                "private",
                rated=row.rated,
                clock=row.clock,
                seated={1: player},
                also=claim,
            )
        except _Taken:
            async with self.sessions() as session:
                row = await self._visible(session, player, challenge_id)
            rules.check_pending(row, now)
            raise _answered() from None
        answer = await self.get(player, challenge_id)
        self._tell("accepted", answer)
        answer["table"] = await self.tables.get_table(table["id"], player.id)
        return answer

    async def decline(self, player: Player, challenge_id: str) -> dict[str, Any]:
        """The challenged player declines."""
        answer = await self._settle(player, challenge_id, rules.DECLINED, rules.check_decliner)
        self._tell("declined", answer)
        return answer

    async def cancel(self, player: Player, challenge_id: str) -> dict[str, Any]:
        """The challenger withdraws its challenge."""
        answer = await self._settle(player, challenge_id, rules.CANCELLED, rules.check_canceller)
        self._tell("cancelled", answer)
        return answer

    async def close(self) -> None:
        """Stop the expiry timers (a challenge expires by its stored time all the same)."""
        tasks, self._expiries = list(self._expiries.values()), {}
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _tell(self, what: str, challenge: dict[str, Any]) -> None:
        """Tell both players (the challenger, and the challenged when named) that the
        challenge was ``what``: ``challenge_received`` goes to the challenged only."""
        if what != "received":
            timer = self._expiries.pop(challenge["id"], None)
            if timer is not None:
                timer.cancel()
        frame = {"type": f"challenge_{what}", "challenge": challenge}
        players = [challenge["challenged"]]
        if what != "received":
            players.append(challenge["challenger"])
        for named in players:
            if named is not None:
                self.notices.notify(named["id"], frame)

    async def _expire(self, challenge_id: str, seconds: float) -> None:
        """Once its time is up, tell both players if the challenge is still unanswered."""
        await asyncio.sleep(seconds)
        self._expiries.pop(challenge_id, None)
        try:
            async with self.sessions() as session:
                row = await challenge_store.get_challenge(session, challenge_id)
                now = max(self.clock(), row.expires_at) if row is not None else 0.0
                if row is None or rules.state(row, now) != rules.EXPIRED:
                    return
                shown = await self._json(session, row, now)
        except Exception:  # the database is away: the pages count the time themselves
            log.warning("challenge %s: its expiry was not told", challenge_id, exc_info=True)
            return
        self._tell("expired", shown)

    async def _settle(
        self,
        player: Player,
        challenge_id: str,
        status: str,
        check: Callable[[Challenge, str], None],
    ) -> dict[str, Any]:
        now = self.clock()
        async with self.sessions.begin() as session:
            row = await self._visible(session, player, challenge_id)
            check(row, player.id)
            rules.check_pending(row, now)
            if not await challenge_store.settle(session, challenge_id, status, now):
                raise _answered()
            await session.refresh(row)
            return await self._json(session, row, now)

    async def _target(
        self, session: AsyncSession, target_id: str | None, handle: str | None
    ) -> Player | None:
        """The challenged player, by id or by an account's handle (None: an open challenge)."""
        if target_id is None and handle is None:
            return None
        if target_id is not None:
            target = await player_store.get_player(session, target_id)
        else:
            target = await player_store.player_by_handle_key(session, names.skeleton(handle or ""))
        if target is None or target.deleted_at is not None or bot_level(target.id) is not None:
            raise NotFound("unknown_player", "There is no such player to challenge.")
        return target

    async def _visible(self, session: AsyncSession, player: Player, challenge_id: str) -> Challenge:
        row = await challenge_store.get_challenge(session, challenge_id)
        if row is None or not rules.may_see(row, player.id):
            raise NotFound("challenge_not_found", "There is no such challenge.")
        return row

    async def _json(self, session: AsyncSession, row: Challenge, now: float) -> dict[str, Any]:
        """A challenge as the API shows it."""
        return {
            "id": row.id,
            "status": rules.state(row, now),
            "challenger": await _named(session, row.challenger_id),
            "challenged": await _named(session, row.challenged_id),
            "variant": row.variant,
            "options": row.options,
            "clock": row.clock,
            "rated": row.rated,
            "expires_in": max(0.0, round(row.expires_at - now, 1)),
            "table_id": row.table_id,
            "url": f"{self.tables.public_url}/?challenge={row.id}",
        }


async def _named(session: AsyncSession, player_id: str | None) -> dict[str, Any] | None:
    if player_id is None:
        return None
    player = await player_store.get_player(session, player_id)
    return {"id": player_id, "name": player.name if player else "?"}


def _answered() -> Conflict:
    return Conflict("challenge_not_pending", "This challenge was answered meanwhile.")
