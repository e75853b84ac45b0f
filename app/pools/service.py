"""The pool service: players join and leave pools, waves seat them at new tables.

Entries live in the database (``pool_entries``), so any worker takes a join or a leave, and
a worker that dies loses none. Each pool's waves are run by one worker at a time, the one
holding the pool's lease (``pool_leases``, taken and fenced as a table's lease is): every
``wave_seconds`` (give or take ``jitter_seconds``) the owner reads the pool's entries, takes
out the players gone offline (the rule ``GET /api/online`` uses), pairs the rest
(``pairing.pair_wave``, in a thread: the matching is pure Python and cubic) and opens a table
for every group. A group's table is opened in one transaction with the deletion of its
entries, conditional on every one of them still being there and on the owner's lease epoch:
an entry seats its player at most once, whoever races it (a second wave, a leave, the
computer offer accepted, a new owner). The table then starts through its actor
(``TableService.open_seated_table``); a table whose start was lost with its worker is
started by the pool's next owner.

Each change to a player's entry is also told to its open pages (``Notices``, the player
socket): seated (with the table), the computer offer once due, taken out, waiting again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.common.errors import Conflict, NotFound
from app.players.families import nearest_level
from app.players.notices import Notices
from app.players.online import Online
from app.pools.catalogue import POOL_CLOCK, POOLS, Pool, pool_by_id
from app.pools.pairing import (
    Entry,
    Group,
    PairingSettings,
    Wave,
    acceptable_range,
    pair_wave,
)
from app.store import Player, PoolEntry
from app.store import pools as pool_store
from app.store import ratings as rating_store
from app.store.db import AsyncSession
from app.tables.service import Claim, TableService

log = logging.getLogger(__name__)

GUEST_RATING = 1500.0
"""The rating a guest is paired by, and an account not yet rated in the pool's family."""
STARTS_AT_ONCE = 8
"""How many of a wave's new tables start their matches at once."""
OPENS_AT_ONCE = 8
"""How many of a wave's tables are being opened (each its own transaction) at once."""
RESTART_LOOKBACK = 600.0
"""How far back (seconds) a pool's new owner looks for its tables that never started."""


@dataclass(frozen=True)
class PoolSettings:
    """How often waves run, how long a pool's lease lasts, and how pairing ranges grow and
    when the computer is offered (``POOL_BOT_AFTER_SECONDS``)."""

    wave_seconds: float = 3.0
    jitter_seconds: float = 0.5
    lease_seconds: float = 10.0
    pairing: PairingSettings = field(default_factory=PairingSettings)


@dataclass(frozen=True)
class Plan:
    """One wave as read and paired: the entries it read (by player) and what it decided."""

    pool: Pool
    entries: dict[str, PoolEntry]
    wave: Wave


class PoolService:
    """Joins, leaves, entries and the computer offer for any player; waves for the pools
    this worker holds."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        tables: TableService,
        online: Online,
        worker: str,
        settings: PoolSettings | None = None,
        clock: Callable[[], float] = time.time,
        notices: Notices | None = None,
    ) -> None:
        self.sessions = sessions
        self.tables = tables
        self.online = online
        self.worker = worker
        self.settings = settings or PoolSettings()
        self.clock = clock
        self.notices = notices or Notices()
        self.held: dict[str, int] = {}  # pool id -> lease epoch
        self._offered: dict[str, set[str]] = {}  # pool id -> entry ids told of the offer
        self._rng = random.Random()
        self._task: asyncio.Task[None] | None = None

    # -- any worker ----------------------------------------------------------------------------

    async def pools(self) -> list[dict[str, Any]]:
        """Every pool with how many wait in it."""
        async with self.sessions() as session:
            counts = await pool_store.waiting_counts(session)
        return [
            {
                "id": pool.id,
                "variant": pool.variant,
                "seats": pool.seats,
                "clock": pool.clock,
                "family": pool.family,
                "waiting": counts.get(pool.id, 0),
            }
            for pool in POOLS
        ]

    async def join(self, player: Player, pool_id: str) -> dict[str, Any]:
        """Enter ``player`` in the pool (again: its entry as it is); ``unknown_pool``,
        ``in_another_pool``."""
        pool = _pool(pool_id)
        async with self.sessions.begin() as session:
            found = await pool_store.entry_of(session, player.id)
            if found is not None and found.pool_id != pool.id:
                raise Conflict(
                    "in_another_pool",
                    f"You are waiting in the pool {found.pool_id}; leave it first.",
                    pool=found.pool_id,
                )
            if found is None:
                await pool_store.add_entry(session, await self._new_entry(session, player, pool))
        entry = await self.entry(player)
        if entry["status"] == "waiting":  # the player's other pages
            self.notices.notify(player.id, {"type": "pool_waiting", **entry})
        return entry

    async def _new_entry(self, session: AsyncSession, player: Player, pool: Pool) -> PoolEntry:
        account = player.handle is not None
        rating = GUEST_RATING
        if account:
            rated = await rating_store.ratings_of(session, player.id)
            rating = next((r.mu for r in rated if r.family == pool.family), GUEST_RATING)
        seated = await pool_store.seating_of(session, player.id)
        if seated is not None:  # its last opponents, kept in the entry; the way back ends
            await session.delete(seated)
        return PoolEntry(
            player_id=player.id,
            id=_new_id(),
            pool_id=pool.id,
            account=account,
            rating=rating,
            family=pool.family,
            joined_at=self.clock(),
            last_opponents=list(seated.opponents) if seated is not None else [],
        )

    async def leave(self, player: Player) -> None:
        """Take ``player`` out of its pool; ``not_in_pool`` when it waits in none."""
        async with self.sessions.begin() as session:
            found = await pool_store.entry_of(session, player.id)
            if found is None or not await pool_store.remove_entry(session, player.id):
                raise NotFound("not_in_pool", "You are not waiting in any pool.")
        self.notices.notify(player.id, _left(found.pool_id, "left"))

    async def entry(self, player: Player) -> dict[str, Any]:
        """``player``'s entry: waiting (seconds waited, the rating difference it accepts now,
        the computer offer once due), or seated (the table a pool seated it at);
        ``not_in_pool`` when neither."""
        async with self.sessions() as session:
            found = await pool_store.entry_of(session, player.id)
            seated = None if found is not None else await pool_store.seating_of(session, player.id)
        if found is not None:
            return self._waiting(found)
        if seated is None:
            raise NotFound("not_in_pool", "You are not waiting in any pool.")
        return {
            "status": "seated",
            "pool": seated.pool_id,
            "waited": round(seated.waited, 1),
            "table": await self.tables.get_table(seated.table_id, player.id),
        }

    def _waiting(self, row: PoolEntry) -> dict[str, Any]:
        now = self.clock()
        waited = max(0.0, now - row.joined_at)
        offer = None
        if waited >= self.settings.pairing.bot_after_seconds:
            offer = {"level": nearest_level(row.rating)}
        return {
            "status": "waiting",
            "pool": row.pool_id,
            "rating": round(row.rating),
            "waited": round(waited, 1),
            "range": round(acceptable_range(_entry(row), now, self.settings.pairing)),
            "offer": offer,
        }

    async def accept_bots(self, player: Player) -> dict[str, Any]:
        """``player`` takes the computer offer: a table with computers at the offered level in
        every other seat, opened and started at once. ``not_in_pool``, ``no_offer`` before
        it is due."""
        async with self.sessions() as session:
            row = await pool_store.entry_of(session, player.id)
        if row is None:
            raise NotFound("not_in_pool", "You are not waiting in any pool.")
        if self.clock() - row.joined_at < self.settings.pairing.bot_after_seconds:
            raise Conflict("no_offer", "No computer players are offered to you yet; keep waiting.")
        pool = pool_by_id(row.pool_id)
        level = nearest_level(row.rating)
        bots = {seat: level for seat in range(1, pool.seats)}
        claim = self._claim(pool, [row], epoch=None)
        table_id = await self.tables.open_seated_table(
            [player.id], pool.variant, claim, rated=False, clock=POOL_CLOCK, bots=bots
        )
        if table_id is not None:
            self._seated(pool, [player.id], table_id)
        return await self.entry(player)  # seated, here or by a wave that came first

    # -- the owner of a pool -------------------------------------------------------------------

    async def plan(self, pool: Pool) -> Plan:
        """Read the pool's entries, take out those gone offline and pair the rest."""
        async with self.sessions() as session:
            rows = await pool_store.entries_in(session, pool.id)
        now = self.clock()
        settled = {r.player_id for r in rows if now - r.joined_at >= self.online.window}
        gone = await self.online.offline(settled)
        if gone:
            async with self.sessions.begin() as session:
                await pool_store.drop_entries(session, [r.id for r in rows if r.player_id in gone])
            log.info("pool %s: %d players gone offline taken out", pool.id, len(gone))
            for player_id in gone:  # a page of theirs that comes back reads why
                self.notices.notify(player_id, _left(pool.id, "offline"))
        entries = {r.player_id: r for r in rows if r.player_id not in gone}
        wave = await asyncio.to_thread(
            pair_wave, pool, [_entry(r) for r in entries.values()], now, self.settings.pairing
        )
        self._offer(pool, entries, wave)
        return Plan(pool, entries, wave)

    def _offer(self, pool: Pool, entries: dict[str, PoolEntry], wave: Wave) -> None:
        """Tell each player newly offered the computer of the offer (once per entry while
        this worker owns the pool)."""
        told = self._offered.setdefault(pool.id, set())
        told &= {row.id for row in entries.values()}
        for offer in wave.offers:
            row = entries[offer.player]
            if row.id not in told:
                told.add(row.id)
                frame = {"type": "pool_offer", "pool": pool.id, "level": offer.level}
                self.notices.notify(offer.player, frame)

    def _seated(self, pool: Pool, players: Sequence[str], table_id: str) -> None:
        """Tell each player of a group its table (announced: its transaction committed)."""
        for player_id in players:
            frame = {"type": "pool_seated", "pool": pool.id, "table_id": table_id}
            self.notices.notify(player_id, frame)

    async def seat(self, plan: Plan, epoch: int | None) -> list[str]:
        """Open a table for every group of the plan whose entries are all still there (under
        the lease ``epoch``, when given), ``OPENS_AT_ONCE`` transactions at a time, the
        longest waiting first, then start them, a few at a time: a table is announced once
        its transaction commits; the new tables' ids."""
        opening = asyncio.Semaphore(OPENS_AT_ONCE)

        async def open_group(group: Group) -> str | None:
            rows = [plan.entries[player_id] for player_id in group.players]
            claim = self._claim(plan.pool, rows, epoch)
            async with opening:
                table_id = await self.tables.open_seated_table(
                    group.players,
                    plan.pool.variant,
                    claim,
                    rated=group.rated,
                    clock=POOL_CLOCK,
                    start=False,
                )
            if table_id is not None:
                self._seated(plan.pool, group.players, table_id)
            return table_id

        found = await asyncio.gather(*(open_group(group) for group in plan.wave.groups))
        opened = [table_id for table_id in found if table_id is not None]
        starting = asyncio.Semaphore(STARTS_AT_ONCE)

        async def start(table_id: str) -> None:
            async with starting:
                await self.tables.start_if_full(table_id)

        await asyncio.gather(*(start(table_id) for table_id in opened))
        return opened

    def _claim(self, pool: Pool, rows: Sequence[PoolEntry], epoch: int | None) -> Claim:
        """The table's transaction's part for the pool: the fence, then the entries taken
        (all of them, or nothing) and the seating remembered."""

        async def claim(session: AsyncSession, table_id: str) -> bool:
            if epoch is not None and not await pool_store.fence(
                session, pool.id, self.worker, epoch
            ):
                self.held.pop(pool.id, None)
                return False
            if not await pool_store.take_entries(session, [row.id for row in rows]):
                return False
            joined = {row.player_id: row.joined_at for row in rows}
            await pool_store.record_seating(session, pool.id, table_id, joined, self.clock())
            return True

        return claim

    async def wave(self, pool: Pool) -> list[str]:
        """One wave of a pool this worker holds (nothing otherwise); the tables opened."""
        epoch = self.held.get(pool.id)
        if epoch is None:
            return []
        return await self.seat(await self.plan(pool), epoch)

    async def keep_leases(self) -> None:
        """Renew the pools' leases this worker holds and take those nobody holds; a pool
        newly taken has the tables it opened and never started started."""
        now = self.clock()
        seconds = self.settings.lease_seconds
        for pool in POOLS:
            async with self.sessions.begin() as session:
                epoch = self.held.get(pool.id)
                if epoch is not None and await pool_store.renew(
                    session, pool.id, self.worker, epoch, now, seconds
                ):
                    continue
                self.held.pop(pool.id, None)
                taken = await pool_store.acquire(session, pool.id, self.worker, now, seconds)
            if taken is not None:
                self.held[pool.id] = taken
                await self._start_stranded(pool)
                await self._still_waiting(pool)

    async def _start_stranded(self, pool: Pool) -> None:
        """Start the pool's recent tables that are still waiting with every seat taken (their
        opener died between the commit and the start), and tell their players again."""
        async with self.sessions() as session:
            seatings = await pool_store.seatings_in(
                session, pool.id, self.clock() - RESTART_LOOKBACK
            )
        for table_id in sorted({s.table_id for s in seatings}):
            stored = await self.tables.stored(table_id)
            if stored.status == "open" and len(stored.seats) == stored.seat_count:
                await self.tables.start_if_full(table_id)
                players = [s.player_id for s in seatings if s.table_id == table_id]
                self._seated(pool, players, table_id)

    async def _still_waiting(self, pool: Pool) -> None:
        """A pool newly taken (its last owner stopped or died): tell everyone in it that it
        waits on."""
        async with self.sessions() as session:
            rows = await pool_store.entries_in(session, pool.id)
        for row in rows:
            self.notices.notify(row.player_id, {"type": "pool_waiting", **self._waiting(row)})

    async def run(self) -> None:
        """Every wave's pause, then keep the leases and run the waves of the pools held,
        until cancelled."""
        while True:
            jitter = self.settings.jitter_seconds
            pause = self.settings.wave_seconds + self._rng.uniform(-jitter, jitter)
            await asyncio.sleep(max(0.01, pause))
            try:
                await self.keep_leases()
                for pool_id in list(self.held):
                    await self.wave(pool_by_id(pool_id))
            except asyncio.CancelledError:
                raise
            except Exception:  # the database is away: the next round tries again
                log.exception("pool wave failed")

    def start(self) -> None:
        """Run the waves in the background."""
        self._task = asyncio.get_running_loop().create_task(self.run())

    async def close(self) -> None:
        """Stop the waves and give the pools' leases up (the entries stay)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        held, self.held = self.held, {}
        with contextlib.suppress(Exception):
            async with self.sessions.begin() as session:
                for pool_id, epoch in held.items():
                    await pool_store.release(session, pool_id, self.worker, epoch)


def _pool(pool_id: str) -> Pool:
    try:
        return pool_by_id(pool_id)
    except KeyError:
        raise NotFound("unknown_pool", "There is no such pool.") from None


def _left(pool_id: str, reason: str) -> dict[str, Any]:
    """The notice of an entry taken out: ``left`` (by the player) or ``offline``."""
    return {"type": "pool_left", "pool": pool_id, "reason": reason}


def _entry(row: PoolEntry) -> Entry:
    return Entry(
        player=row.player_id,
        account=row.account,
        rating=row.rating,
        family=row.family,
        joined=row.joined_at,
        last_opponents=frozenset(row.last_opponents),
    )


def _new_id() -> str:
    return secrets.token_hex(16)
