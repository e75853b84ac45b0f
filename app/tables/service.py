"""The lobby: players, tables, seats, match starts and rematches, and the table registry.

Each table has at most one ``TableAuthority`` (its actor) in this process;
``TableService.authority`` loads it on first use (replaying a live or finished match from its
log, one load per table at a time), and ``evict_idle`` drops it again once nobody needs it.
Table info and lobby lists are read from store rows, without loading any match. When several
workers share the database (``shared``), a worker holds a table only while it owns the table's
lease (``leases.py``): loading takes the lease, losing it lets the table go, and eviction
gives it up. A table another worker owns is served through that owner (``relay.py``): a
connection gets a ``RemoteTable``, and a lobby command (``tables.commands``: join, leave,
rematch, a bot seat, ...) is sent to the owner as JSON and answered from there (``send``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.bots import LEVELS
from app.common import metrics
from app.common.errors import (
    STORE_ERRORS,
    Conflict,
    Elsewhere,
    Forbidden,
    Invalid,
    NotFound,
    ServiceError,
    TableMoving,
    Unavailable,
    table_moving,
)
from app.common.rules import rules_for_table, seat_count
from app.players import identity
from app.players.bot_players import bot_player_id, ensure_bot_players
from app.store import Player
from app.store import players as player_store
from app.store import tables as table_store
from app.store.db import AsyncSession
from app.tables import commands, fairness
from app.tables.alarms import Timekeeper
from app.tables.authority import TableAuthority
from app.tables.bots import BotSeats
from app.tables.clocks import (
    CONSEQUENCES,
    MODES,
    ClockSettings,
    default_mode,
)
from app.tables.commands import (
    Abort,
    AddBot,
    ClaimVictory,
    Command,
    DeclineRematch,
    Join,
    Leave,
    OfferRematch,
    Reclaim,
    Rename,
    StartFull,
)
from app.tables.committer import Committer
from app.tables.hub import Hub
from app.tables.leases import Leases
from app.tables.lobby import TableLobby, invite_matches
from app.tables.presenter import public_info
from app.tables.relay import Connection, Relay, RemoteTable
from app.tables.rematch import Rematches
from app.tables.snapshot import StoredTable, load_snapshot, stored_table

log = logging.getLogger(__name__)
VISIBILITIES = ("public", "private")
HISTORIES = ("after_match", "never")
LISTABLE = ("open", "live")
YOUR_TABLES = 50
"""How many of a player's own open and live tables ``tables_of`` lists."""


class TableService:
    """Lobby operations and the registry of table authorities."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        hub: Hub,
        committer: Committer,
        public_url: str,
        new_seed: Callable[[], str] = lambda: secrets.token_hex(16),
        leases: Leases | None = None,
        bots: BotSeats | None = None,
        idle_seconds: float = 300.0,
        clock: Callable[[], float] = time.monotonic,
        clock_settings: ClockSettings | None = None,
        timekeeper: Timekeeper | None = None,
        rematch_seconds: float = 60.0,
        presence_grace: float = 60.0,
    ) -> None:
        self.sessions = sessions
        self.new_seed = new_seed
        self.hub = hub
        self.committer = committer
        self.public_url = public_url.rstrip("/")
        self._authorities: dict[str, TableAuthority] = {}
        # One load per table at a time, never one lock for all: a slow replay of one table
        # holds up only those waiting for that table.
        self._loading: dict[str, asyncio.Task[TableAuthority]] = {}
        self.idle_seconds = idle_seconds
        self.clock = clock
        self.leases = leases
        self.relay: Relay | None = None  # set with several workers (Services.build)
        self._background: set[asyncio.Task[Any]] = set()
        self.bots = bots
        self.clock_settings = clock_settings or ClockSettings()
        self.timekeeper = timekeeper or Timekeeper()
        self.rematches: Rematches[TableAuthority] = Rematches(rematch_seconds, self._queue_if_held)
        # The lobby draws seeds through ``self.new_seed`` as it is then (tests replace it).
        self.lobby = TableLobby(sessions, lambda: self.new_seed(), self.rematches)
        # Each table's presence: the grace before an away player is gone.
        self.presence_grace = presence_grace

    @property
    def shared(self) -> bool:
        """True when other workers share the database (each table has one owner)."""
        return self.leases is not None

    # -- players -------------------------------------------------------------------------

    async def create_player(self, name: str) -> tuple[Player, str]:
        """A new guest and its bearer token (shown once, stored only as a hash)."""
        clean = identity.clean_name(name)
        token = identity.new_token()
        async with self.sessions.begin() as session:
            player = await player_store.add_player(
                session, identity.new_id(), clean, identity.hash_token(token)
            )
        return player, token

    async def identify(self, token: str) -> Player:
        """The player holding this token (``Unauthorized`` otherwise)."""
        async with self.sessions() as session:
            return await identity.find_player(session, token)

    async def leave_open_tables(self, player: Player) -> None:
        """Give up every seat the player holds at a table still waiting for players (before
        the player is deleted, so no table waits for someone who is gone)."""
        async with self.sessions() as session:
            table_ids = await table_store.open_tables_of(session, player.id)
        for table_id in table_ids:
            with contextlib.suppress(Conflict):  # it started or was left meanwhile
                await self.leave(player, table_id)

    async def renamed(self, player: Player) -> None:
        """Show a player's new name at every table this worker holds where it sits (a
        ``Rename`` command at each: a ``table`` frame to its viewers). Other workers pick it
        up when they next load the table."""
        seated = [a for a in self._authorities.values() if a.seat_of(player.id) is not None]
        for authority in seated:
            with contextlib.suppress(ServiceError):  # the table moved meanwhile
                await authority.ask(Rename(player.id, player.name))

    # -- the registry --------------------------------------------------------------------

    async def authority(self, table_id: str) -> TableAuthority:
        """The table's authority, loaded from the store on first use (and again after it
        was evicted as idle)."""
        found = self._authorities.get(table_id)
        if found is not None:
            found.touched_at = self.clock()
            return found
        loading = self._loading.get(table_id)
        if loading is None:
            # A task of its own: a caller that goes away does not cut the load short for
            # the others waiting on it.
            loading = asyncio.get_running_loop().create_task(self._register(table_id))
            self._loading[table_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(loading)

    async def _register(self, table_id: str) -> TableAuthority:
        epoch = await self._take_lease(table_id) if self.leases is not None else None
        found = await self._load(table_id, epoch)
        if epoch is not None:
            log.info(
                "this worker owns the table now", extra={**found._log_fields(), "epoch": epoch}
            )
        self._authorities[table_id] = found
        found.arm()  # a turn clock that ran out meanwhile rings at once
        if self.bots is not None:
            self.bots.watch(found)  # a bot on move after a restart moves now
        return found

    def loaded(self) -> int:
        """How many tables this worker holds in memory."""
        return len(self._authorities)

    def evict_idle(self) -> int:
        """Drop every table nobody needs now: no viewer, no command under way, no bot to
        move, nothing in doubt, no rematch offer standing, no turn clock running out within
        ``idle_seconds``, and untouched for ``idle_seconds``. It is loaded again from the
        store when next asked for (``load_due_clocks`` brings it back before its clock runs
        out). How many were dropped."""
        now = self.clock()
        soon = self.timekeeper.now() + self.idle_seconds
        idle = [
            table_id
            for table_id, table in self._authorities.items()
            if now - table.touched_at >= self.idle_seconds
            and not table.watchers
            and not table.busy
            and not table.in_doubt
            and table.rematch is None
            and not (self.bots is not None and self.bots.pending(table))
            and not ((deadline := table.deadline()) is not None and deadline <= soon)
        ]
        dropped = [self._authorities.pop(table_id) for table_id in idle]
        released = {table.table_id: table.epoch for table in dropped}
        for table in dropped:
            table.disarm()
            table.presence.stop()
        if idle:
            log.info("evicted idle tables", extra={"tables": len(idle)})
        if self.leases is not None and released:
            self._spawn(self.leases.release(released))
        return len(idle)

    async def evict_periodically(self) -> None:
        """Run ``evict_idle`` and ``load_due_clocks`` every quarter of ``idle_seconds`` (at
        least every second)."""
        while True:
            await asyncio.sleep(max(1.0, self.idle_seconds / 4))
            self.evict_idle()
            with contextlib.suppress(*STORE_ERRORS):
                await self.load_due_clocks()

    async def load_due_clocks(self) -> int:
        """Load every live table whose turn clock runs out within ``idle_seconds`` and that
        no worker holds, so that its owner's alarm rings in time; how many were loaded."""
        async with self.sessions() as session:
            due = await table_store.due_clocks(session, self.timekeeper.now() + self.idle_seconds)
        loaded = 0
        for table_id in due:
            if table_id in self._authorities:
                continue
            with contextlib.suppress(Elsewhere, NotFound):
                await self.authority(table_id)
                loaded += 1
        return loaded

    async def rebuild_live_tables(self) -> int:
        """Rebuild every live table from its log (run at start; with several workers, those
        no other worker owns); how many were rebuilt."""
        async with self.sessions() as session:
            ids = [table.id for table in await table_store.live_tables(session)]
        rebuilt = 0
        for table_id in ids:
            with contextlib.suppress(Elsewhere):
                await self.authority(table_id)
                rebuilt += 1
        return rebuilt

    async def _load(self, table_id: str, epoch: int | None = None) -> TableAuthority:
        async with self.sessions() as session:
            snapshot = await load_snapshot(session, table_id)
        return TableAuthority.from_snapshot(
            snapshot,
            self.sessions,
            self.hub,
            self.committer,
            self.clock,
            self.clock_settings,
            self.timekeeper,
            lobby=self.lobby,
            presence_grace=self.presence_grace,
            epoch=epoch,
            on_lost=self._let_go if epoch is not None else None,
            on_change=self.bots.consider if self.bots is not None else None,
        )

    def live_count(self) -> int:
        """How many tables this worker knows to be under way."""
        return sum(1 for a in self._authorities.values() if a.status == "live")

    # -- workers sharing one database: owners and leases -------------------------------

    async def _take_lease(self, table_id: str) -> int:
        """This worker's new lease epoch on the table; ``Elsewhere`` while another worker
        holds it, ``NotFound`` for an unknown table."""
        assert self.leases is not None
        for _ in range(2):  # a lease that runs out between the two questions: ask again
            epoch = await self.leases.acquire(table_id)
            if epoch is not None:
                return epoch
            owner = await self.leases.holder(table_id)
            if owner is not None:
                raise Elsewhere(owner)
        async with self.sessions() as session:
            if await table_store.get_table(session, table_id) is None:
                raise NotFound("table_not_found", "There is no such table.")
        raise table_moving()

    async def open_table(self, table_id: str) -> TableAuthority | RemoteTable:
        """The table a connection watches: this worker's authority when it owns the table
        (or can take its lease), else a stand-in relaying to the owner."""
        try:
            return await self.authority(table_id)
        except Elsewhere as elsewhere:
            if self.relay is None:
                raise table_moving() from None
            return self.relay.remote_table(elsewhere.owner, await self.stored(table_id))

    async def attach(
        self,
        table: TableAuthority | RemoteTable,
        connection: Connection,
        player_id: str | None,
        since: int | None,
        max_replay: int,
    ) -> tuple[TableAuthority | RemoteTable, int | None]:
        """Greet ``connection`` at ``table``: the table it ends up watching and its seat. An
        owner that does not answer (it died) or no longer holds the table is asked once
        more, by whoever holds the lease then (this worker, once the lease ran out)."""
        try:
            return table, await table.attach(connection, player_id, since, max_replay)
        except Unavailable:
            if not isinstance(table, RemoteTable):
                raise
        table = await self.open_table(table.table_id)
        return table, await table.attach(connection, player_id, since, max_replay)

    async def send(self, table_id: str, command: Command, viewer: str | None) -> dict[str, Any]:
        """Send a lobby ``command`` to its table wherever the table's owner is: this worker,
        or the worker holding its lease (the command's JSON, answered with the result or the
        refusal). The answer is the table as ``viewer`` sees it afterwards, with the rematch
        offer's state for a rematch command."""
        try:
            return await self.run_here(table_id, command, viewer)
        except Elsewhere as elsewhere:
            owner = elsewhere.owner
        if self.relay is None:
            raise table_moving()
        body = {"table_id": table_id, "viewer": viewer, "command": commands.to_json(command)}
        try:
            answer: dict[str, Any] = await self.relay.call(owner, body)
            return answer
        except TableMoving:
            pass
        try:  # the owner was silent for a whole lease: it has run out, unless renewed
            return await self.run_here(table_id, command, viewer)
        except Elsewhere:
            raise table_moving() from None

    async def run_here(self, table_id: str, command: Command, viewer: str | None) -> dict[str, Any]:
        """Run ``command`` at this worker's table (``Elsewhere`` when another worker owns it)."""
        authority = await self.authority(table_id)
        result = await authority.ask(command)
        info = self.table_json(authority, viewer)
        if isinstance(command, OfferRematch | DeclineRematch):
            info["rematch"] = result
        return info

    async def run_command(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Run a lobby command another worker forwarded here (this worker owns the table);
        ``unknown_command`` for anything but a lobby command."""
        command = commands.from_json(body.get("command"))
        viewer = body.get("viewer")
        try:
            return await self.run_here(
                str(body.get("table_id")), command, viewer if isinstance(viewer, str) else None
            )
        except Elsewhere:  # taken over meanwhile: the caller tries again
            raise table_moving() from None

    async def stored(self, table_id: str) -> StoredTable:
        """A table as its store rows say; ``NotFound`` for an unknown one."""
        async with self.sessions() as session:
            table = await table_store.get_table(session, table_id)
            if table is None:
                raise NotFound("table_not_found", "There is no such table.")
            seats = await table_store.seats_of(session, [table_id])
        return stored_table(table, seats[table_id])

    def _let_go(self, authority: TableAuthority) -> None:
        """Another worker owns the table now: drop it, and close its watchers so that their
        clients reconnect to the new owner (with ``since``)."""
        if self._authorities.get(authority.table_id) is authority:
            del self._authorities[authority.table_id]
            log.info("the table's lease moved to another worker", extra=authority._log_fields())
        authority.hand_over()

    async def keep_leases(self) -> int:
        """Renew this worker's leases, let go of the tables it lost, adopt live tables whose
        owner died, and check the owners of relayed connections; how many were adopted."""
        assert self.leases is not None
        held = {table_id: table.epoch for table_id, table in self._authorities.items()}
        try:
            lost = await self.leases.renew(held)
            orphans = await self.leases.orphans()
        except STORE_ERRORS as exc:
            metrics.database_error("lease")
            log.warning("could not renew this worker's leases (%s)", type(exc).__name__)
            return 0
        for table_id in lost:
            authority = self._authorities.get(table_id)
            if authority is not None and authority.epoch == held[table_id]:
                self._let_go(authority)
        adopted = 0
        for table_id in orphans:  # their owner died: rebuilt here, their bots move on
            try:
                await self.authority(table_id)
            except (ServiceError, SQLAlchemyError, OSError):
                continue  # another worker was quicker, or the database is away
            adopted += 1
        if self.relay is not None:
            with contextlib.suppress(*STORE_ERRORS):
                await self.relay.check(self.leases.holders)
        return adopted

    async def keep_leases_periodically(self, interval: float) -> None:
        """``keep_leases`` every ``interval`` seconds (well within a lease)."""
        while True:
            await asyncio.sleep(interval)
            await self.keep_leases()

    async def close(self) -> None:
        """Stopping: every turn clock's alarm is stopped (the next start sets them again
        from the store); with several workers, every table's watchers are handed over and
        the leases given up, so that other workers take the tables at once."""
        for table in self._authorities.values():
            table.disarm()
        if self.leases is None:
            return
        held = {table_id: table.epoch for table_id, table in self._authorities.items()}
        for table in list(self._authorities.values()):
            table.hand_over()
        self._authorities.clear()
        if held:
            with contextlib.suppress(*STORE_ERRORS):
                await self.leases.release(held)

    def _spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # -- tables --------------------------------------------------------------------------

    def table_json(
        self, table: TableAuthority | StoredTable, player_id: str | None
    ) -> dict[str, Any]:
        """A table as its viewer may see it: the invite code only for those seated."""
        info = public_info(table)
        seated = player_id is not None and any(
            holder.player_id == player_id for holder in table.seats.values()
        )
        info["invite_code"] = table.invite_code if seated else None
        info["invite_url"] = (
            f"{self.public_url}/t/{table.table_id}?invite={table.invite_code}"
            if seated
            else f"{self.public_url}/t/{table.table_id}"
        )
        return info

    async def create_table(
        self,
        player: Player,
        variant: str,
        options: dict[str, Any],
        visibility: str,
        bots: dict[int, str] | None = None,
        spectators: bool = True,
        history: str = "after_match",
        *,
        rated: bool = False,
        contribution: str | None = None,
        commitment: str | None = None,
        clock: str | None = None,
        on_timeout: str = "takeover",
    ) -> dict[str, Any]:
        """A new table with the creator in seat 0 and ``bots`` (seat -> level) in other
        seats; when that fills every seat, the match starts. ``spectators``: whether anyone
        but the players may watch (a private table: with its invite code); ``history``: when
        a private table's matches are shown to others (``after_match`` or ``never``). A
        ``rated`` table's matches between accounts change their ratings. ``contribution``:
        the creator's random contribution to the first match's seed, ``commitment``: that of
        the server seed offered to the creator for it (``offer_seed``; ``tables.fairness``).
        ``clock``: the turn clock (``tables.clocks``; by default a per-move clock at a
        public table that waits for strangers, else none), ``on_timeout``: what happens to a
        seat whose time runs out (``takeover`` or ``forfeit``)."""
        fairness.check_contribution(contribution)
        if clock is not None and clock not in MODES:
            raise Invalid("bad_clock", f"clock must be one of {', '.join(MODES)}.")
        if on_timeout not in CONSEQUENCES:
            raise Invalid("bad_on_timeout", f"on_timeout must be one of {', '.join(CONSEQUENCES)}.")
        if visibility not in VISIBILITIES:
            raise Invalid("bad_visibility", "visibility must be 'public' or 'private'.")
        if history not in HISTORIES:
            raise Invalid("bad_history", "history must be 'after_match' or 'never'.")
        if history != "after_match" and visibility != "private":
            raise Invalid("bad_history", "Only a private table can keep its matches unlisted.")
        rules = rules_for_table(variant, options)
        bots = bots or {}
        for seat, level in bots.items():
            if not 1 <= seat < seat_count(rules):
                raise Invalid("bad_bots", f"bots: seat {seat} is not another seat of this table.")
            self._check_level(level)
        await self._ensure_bot_players(bots)
        if clock is None:
            clock = default_mode(visibility, len(bots), seat_count(rules))
        table_id = identity.new_id()
        async with self.sessions.begin() as session:
            await table_store.add_table(
                session,
                id=table_id,
                invite_code=secrets.token_urlsafe(6),
                variant=rules.variant,
                options=rules.options(),
                visibility=visibility,
                spectators=spectators,
                history=history,
                seats=seat_count(rules),
                created_by=player.id,
                rated=rated,
                clock=clock,
                on_timeout=on_timeout,
            )
            await table_store.take_seat(session, table_id, 0, player.id)
            # Seed commitment: the server's seed offered before (or drawn now), the creator's part.
            await fairness.seed_new_table(session, table_id, player.id, commitment, self.new_seed)
            await fairness.contribute(session, table_id, 0, contribution)
            for seat, level in bots.items():
                await table_store.take_seat(session, table_id, seat, bot_player_id(level, seat))
        authority = await self.authority(table_id)
        if len(authority.seats) == authority.seat_count:
            await self._start_full_table(authority)
        return self.table_json(authority, player.id)

    async def offer_seed(self, player: Player) -> dict[str, str]:
        """The commitment to a server seed kept for the next table this player opens, so that
        its contribution to that table's first match is sent after the commitment."""
        async with self.sessions.begin() as session:
            return {"commitment": await fairness.offer_seed(session, player.id, self.new_seed)}

    async def add_bot(
        self, player: Player, table_id: str, seat: int | None, level: str
    ) -> dict[str, Any]:
        """A seated player gives an empty seat of an open table to a bot of ``level``;
        when every seat is then taken, the match starts."""
        self._check_level(level)
        return await self.send(table_id, AddBot(player.id, seat, level), player.id)

    @staticmethod
    def _check_level(level: str) -> None:
        if level not in LEVELS:
            raise Invalid("bad_level", f"level must be one of {', '.join(LEVELS)}.")

    async def _ensure_bot_players(self, bots: dict[int, str]) -> None:
        """Create the bot players these seats need (once; nobody ever holds their token)."""
        await ensure_bot_players(self.sessions, bots)

    async def _start_full_table(self, authority: TableAuthority) -> None:
        """Start the match of a table created with every seat taken (the creator and bots)."""
        await authority.ask(StartFull())

    async def list_tables(self, status: str, player_id: str | None) -> list[dict[str, Any]]:
        """Public tables waiting for players (``open``) or under way (``live``)."""
        if status not in LISTABLE:
            raise Invalid("bad_status", "status must be 'open' or 'live'.")
        async with self.sessions() as session:
            # Live tables are listed to be watched: not those whose players keep spectators out.
            listed = await table_store.list_tables(session, status, watchable=status == "live")
            seats = await table_store.seats_of(session, [t.id for t in listed])
        return [self.table_json(stored_table(t, seats[t.id]), player_id) for t in listed]

    async def tables_of(self, player: Player) -> list[dict[str, Any]]:
        """The tables waiting or under way where ``player`` holds a seat (private and computer
        tables included), newest first, each with the player's ``seat`` and the seat whose move
        it is (``to_move``, None when nobody is to move). A live table where a computer player
        took over the player's seat is listed too, with ``taken_over`` true: the player may
        reclaim it there."""
        async with self.sessions() as session:
            rows = await table_store.tables_of(session, player.id, YOUR_TABLES)
            known = {row.id for row in rows}
            more = await table_store.taken_over_from(session, player.id, YOUR_TABLES)
            rows += [row for row in more if row.id not in known]
            rows.sort(key=lambda row: row.created_at, reverse=True)
            seats = await table_store.seats_of(session, [row.id for row in rows])
            listed = []
            for row in rows[:YOUR_TABLES]:
                table = stored_table(row, seats[row.id])
                held = [s for s, h in table.seats.items() if h.player_id == player.id]
                left = [s for s, h in table.abandoned.items() if h.player_id == player.id]
                if not held and not (left and table.status == "live"):
                    continue  # the store's match on the text was loose
                info = self.table_json(table, player.id)
                info["seat"] = (held or left)[0]
                info["taken_over"] = not held
                info["to_move"] = await self._to_move(session, table)
                listed.append(info)
        return listed

    async def _to_move(self, session: AsyncSession, table: StoredTable) -> int | None:
        """Whose move it is at a live table: from memory when the table is loaded, else from
        its log (read only: nothing is kept)."""
        if table.status != "live":
            return None
        loaded = self._authorities.get(table.table_id)
        if loaded is not None:
            state = loaded.state
        else:
            state = (await load_snapshot(session, table.table_id, keep=0)).state
        return None if state is None or state.match_over else state.to_move

    async def get_table(self, table_id: str, player_id: str | None) -> dict[str, Any]:
        """One table, from its store rows (its match is not loaded for this)."""
        return self.table_json(await self.stored(table_id), player_id)

    async def check_watcher(
        self,
        authority: TableAuthority | RemoteTable,
        player_id: str | None,
        invite_code: str | None,
    ) -> None:
        """Refuse to show the table to someone not seated at it, unless spectators may
        watch: ``Forbidden`` ``no_spectators`` when the players keep them out, and
        ``invite_required`` at a private table without its invite code. A player whose seat
        a computer player took over still holds its place: it may watch, and reclaim it."""
        if authority.seat_of(player_id) is not None or former_holder(authority, player_id):
            return
        if not authority.spectators:
            raise Forbidden("no_spectators", "The players at this table do not allow spectators.")
        if authority.visibility == "private" and not invite_matches(authority, invite_code):
            raise Forbidden(
                "invite_required", "This private table can be watched only with its invite link."
            )

    async def join(
        self,
        player: Player,
        table_id: str,
        invite_code: str | None,
        seat: int | None,
        contribution: str | None = None,
    ) -> dict[str, Any]:
        """Seat the player with its ``contribution`` to the match seed (``tables.fairness``);
        when every seat is then taken, the match starts."""
        fairness.check_contribution(contribution)
        command = Join(player.id, player.name, invite_code, seat, contribution)
        return await self.send(table_id, command, player.id)

    async def leave(self, player: Player, table_id: str) -> dict[str, Any]:
        """Give up a seat before the match starts; an emptied table is closed."""
        return await self.send(table_id, Leave(player.id), player.id)

    async def rematch(
        self, player: Player, table_id: str, contribution: str | None = None
    ) -> dict[str, Any]:
        """Offer a rematch once the last match is over, or accept the standing offer
        (``tables.rematch``): the new match, with the same seats, starts when every seat
        has accepted. ``contribution``: the player's part of its seed (``tables.fairness``),
        stored with the acceptance. Asking again after accepting changes nothing. The answer
        is the table with the offer's state (``rematch``)."""
        fairness.check_contribution(contribution)
        return await self.send(table_id, OfferRematch(player.id, contribution), player.id)

    async def decline_rematch(self, player: Player, table_id: str) -> dict[str, Any]:
        """Decline the standing rematch offer (the offerer withdraws it): it ends for
        everyone. ``no_rematch_offer`` when none stands."""
        return await self.send(table_id, DeclineRematch(player.id), player.id)

    def _queue_if_held(self, authority: TableAuthority, command: Command) -> None:
        """Queue ``command`` (a rematch offer's expiry) in the table's inbox, while this
        worker still holds that table (a table let go or evicted took its offer with it)."""
        if self._authorities.get(authority.table_id) is authority:
            authority.ask(command).add_done_callback(_log_failure)

    async def abort(self, player: Player, table_id: str, leave: bool = False) -> dict[str, Any]:
        """Abort the live match while not every seat has acted in its first deal
        (``tables.aborts``): no winner, no rating change, the table open again; ``leave``:
        give up the seat too."""
        return await self.send(table_id, Abort(player.id, leave), player.id)

    async def player(self, player_id: str) -> Player:
        """A player by id (a table socket's, which greeted with its token)."""
        async with self.sessions() as session:
            player = await player_store.get_player(session, player_id)
        if player is None:
            raise NotFound("player_not_found", "There is no such player.")
        return player

    async def reclaim(self, player: Player, table_id: str) -> dict[str, Any]:
        """The player whose seat a computer player took over when its clock ran out takes
        it back, while the match is under way; its clock starts afresh if it is on move."""
        return await self.send(table_id, Reclaim(player.id, player.name), player.id)

    async def claim_victory(
        self, player: Player, table_id: str, seat: int, remedy: str = "win"
    ) -> dict[str, Any]:
        """A seated player acts against ``seat``, of the other side, which is ``gone``
        (``tables.presence``). ``remedy`` ``win``: that seat resigns, through the table's
        own path for actions (stored in the log, rated and replayed like any resignation);
        ``bot``: a computer player takes the seat until its player reclaims it. Either way
        the match's record lists that player as having abandoned it."""
        return await self.send(table_id, ClaimVictory(player.id, seat, remedy), player.id)


def former_holder(table: TableAuthority | RemoteTable, player_id: str | None) -> bool:
    """True when a computer player took over a seat of ``player_id`` at this table."""
    return player_id is not None and any(
        holder.player_id == player_id for holder in table.abandoned.values()
    )


def _log_failure(answer: asyncio.Future[Any]) -> None:
    """Log a queued command that failed with nobody waiting for its answer."""
    if not answer.cancelled() and answer.exception() is not None:
        log.warning("a table's queued command failed", exc_info=answer.exception())
