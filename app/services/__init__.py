"""The service layer: one authority per table, the lobby, match history and the hub.

``Services`` bundles what the API needs; it is built by the application's lifespan.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.challenges.service import ChallengeService
from app.common import metrics
from app.common.errors import STORE_ERRORS, Unavailable
from app.history.analysis import NICE as ANALYSIS_NICE
from app.history.analysis import AnalysisService
from app.history.service import HistoryService
from app.players.accounts import AccountService
from app.players.notices import Notices
from app.players.online import REFRESH, Online
from app.players.passkeys import PasskeyService, RelyingParty
from app.players.profiles import ProfileService
from app.players.revocations import Revocations
from app.pools.pairing import PairingSettings
from app.pools.service import PoolService, PoolSettings
from app.settings import Settings
from app.store.db import create_engine, session_factory
from app.tables.bots import BotSeats, process_pool
from app.tables.clocks import ClockSettings
from app.tables.committer import Committer
from app.tables.hub import Hub, LocalHub
from app.tables.leases import Leases
from app.tables.relay import Relay
from app.tables.service import TableService
from app.tournaments.owner import EventOwner, OwnerSettings
from app.tournaments.service import TournamentService


@dataclass
class Services:
    """Everything the routes call; one per running application."""

    engine: AsyncEngine
    hub: Hub
    committer: Committer
    tables: TableService
    history: HistoryService
    bots: BotSeats
    accounts: AccountService
    profiles: ProfileService
    passkeys: PasskeyService
    analysis: AnalysisService
    revocations: Revocations
    pools: PoolService
    challenges: ChallengeService
    notices: Notices
    tournaments: TournamentService
    events: EventOwner
    relay: Relay | None = None
    sync_interval: float = 2.0
    online: Online = field(default_factory=Online)
    _watcher: asyncio.Task[None] | None = field(default=None, repr=False)
    _evicter: asyncio.Task[None] | None = field(default=None, repr=False)
    _online_upkeep: asyncio.Task[None] | None = field(default=None, repr=False)

    @classmethod
    def build(cls, settings: Settings, hub: Hub | None = None) -> Services:
        """Wire the services to a new database engine (nothing is loaded yet).

        With ``REDIS_URL`` set, this worker shares the database with others: it holds a
        table only while it owns the table's lease, and serves the tables other workers own
        through them (``relay.py``), over Redis.
        """
        engine = create_engine(settings.database_url)
        sessions = session_factory(engine)
        hub = hub or LocalHub()
        committer = Committer(engine)
        workers = settings.bot_workers
        bots = BotSeats(
            (lambda: process_pool(workers))
            if workers
            else (lambda: ThreadPoolExecutor(4, thread_name_prefix="bot")),
            settings.bot_pause,
            settings.bot_budget,
            jitter_s=settings.bot_pause_jitter,
            expert_budget_s=settings.bot_expert_budget,
            expert_pause_s=settings.bot_expert_pause,
            follow_pause_s=settings.bot_follow_pause,
        )
        worker = secrets.token_hex(8)  # this process's name in leases and on the relay
        leases = None
        if settings.redis_url is not None:
            leases = Leases(sessions, worker, settings.lease_seconds)
        tables = TableService(
            sessions,
            hub,
            committer,
            settings.public_url,
            leases=leases,
            bots=bots,
            idle_seconds=settings.table_idle_seconds,
            clock_settings=ClockSettings(
                settings.clock_move_seconds,
                settings.clock_bank_seconds,
                settings.clock_correspondence_hours,
            ),
            rematch_seconds=settings.rematch_seconds,
            presence_grace=settings.presence_grace_seconds,
        )
        relay = None
        if settings.redis_url is not None:
            relay = Relay(
                settings.redis_url,
                worker,
                tables,
                patience=settings.lease_seconds,
                interval=upkeep_interval(settings),
            )
            tables.relay = relay
        metrics.watch(hub.total, tables.live_count)
        window = settings.online_window_seconds
        online = Online(settings.redis_url, window=window, refresh=min(REFRESH, window / 4))
        notices = Notices()
        if settings.redis_url is not None:
            notices.connect_bus(settings.redis_url)
        pools = PoolService(
            sessions, tables, online, worker, pool_settings(settings), notices=notices
        )
        events = EventOwner(
            sessions,
            tables,
            online,
            worker,
            OwnerSettings(settings.tournament_tick_seconds, settings.lease_seconds),
        )
        history = HistoryService(sessions, settings.history_page_max, settings.replay_cache_bytes)
        revocations = Revocations(sessions)
        if settings.redis_url is not None:
            revocations.connect_bus(settings.redis_url)
        analysis = AnalysisService(
            sessions,
            history,
            (lambda: process_pool(1, nice=ANALYSIS_NICE))
            if workers
            else (lambda: ThreadPoolExecutor(1, thread_name_prefix="analysis")),
            per_hour=settings.analyses_per_hour,
            queue_size=settings.analysis_queue,
            worlds=settings.analysis_worlds,
        )
        return cls(
            engine=engine,
            hub=hub,
            committer=committer,
            tables=tables,
            history=history,
            bots=bots,
            accounts=AccountService(sessions, revocations),
            profiles=ProfileService(
                sessions, settings.leaderboard_min_matches, settings.history_page_max
            ),
            passkeys=PasskeyService(sessions, RelyingParty.from_settings(settings)),
            analysis=analysis,
            revocations=revocations,
            pools=pools,
            challenges=ChallengeService(
                sessions,
                tables,
                seconds=settings.challenge_seconds,
                max_pending=settings.challenges_pending,
                notices=notices,
            ),
            notices=notices,
            tournaments=TournamentService(sessions),
            events=events,
            relay=relay,
            sync_interval=upkeep_interval(settings),
            online=online,
        )

    async def start(self) -> int:
        """Rebuild every live table from its log; how many were rebuilt. Analyses left
        unfinished are queued again."""
        await self.analysis.start()
        self._evicter = asyncio.get_running_loop().create_task(self.tables.evict_periodically())
        self._online_upkeep = asyncio.get_running_loop().create_task(self.online.keep_up())
        if self.revocations.bus is not None:
            await self.revocations.bus.start()
        if self.notices.bus is not None:
            await self.notices.bus.start()
        if self.relay is not None:
            await self.relay.start()
            self._watcher = asyncio.get_running_loop().create_task(
                self.tables.keep_leases_periodically(self.sync_interval)
            )
        rebuilt = await self.tables.rebuild_live_tables()
        self.pools.start()
        self.events.start_running()
        return rebuilt

    async def check_database(self) -> None:
        """Raise ``Unavailable`` unless the database answers a trivial query."""
        try:
            async with self.engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
        except STORE_ERRORS:
            metrics.database_error("health")
            raise Unavailable("database_unavailable", "The database does not answer.") from None

    async def close(self) -> None:
        """Stop the bots and the lease upkeep, hand every table over (giving up its lease),
        stop the relay and the committer and release the database connections."""
        await self.pools.close()
        await self.events.close()
        await self.bots.close()
        await self.analysis.close()
        for task in (self._watcher, self._evicter, self._online_upkeep):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self.tables.close()
        if self.relay is not None:
            await self.relay.close()
        if self.revocations.bus is not None:
            await self.revocations.bus.close()
        if self.notices.bus is not None:
            await self.notices.bus.close()
        await self.challenges.close()
        await self.revocations.close()
        await self.online.close()
        await self.committer.close()
        await self.engine.dispose()


def upkeep_interval(settings: Settings) -> float:
    """How often a worker renews its leases and checks the owners it relays to: every
    ``SYNC_INTERVAL`` seconds, and at least three times per lease."""
    return min(settings.sync_interval, settings.lease_seconds / 3)


def pool_settings(settings: Settings) -> PoolSettings:
    """The pools' waves, leases and pairing as the settings say."""
    return PoolSettings(
        wave_seconds=settings.pool_wave_seconds,
        jitter_seconds=settings.pool_wave_jitter_seconds,
        lease_seconds=settings.lease_seconds,
        pairing=PairingSettings(
            base_range=settings.pool_range_base,
            growth_per_second=settings.pool_range_growth,
            bot_after_seconds=settings.pool_bot_after_seconds,
        ),
    )
