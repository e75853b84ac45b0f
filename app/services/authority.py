"""One authority per table: the only code that changes a table's match.

Every action follows one path, strictly one at a time per table (``asyncio.Lock``):
check seat and version -> ``engine.apply`` -> append the action and bump the version in one
transaction -> commit -> publish each viewer's redacted update -> return the new version
(the caller then acks). Nothing leaves this module before it is redacted for its viewer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.engine import (
    Action,
    ActionError,
    Event,
    IllegalAction,
    Rules,
    State,
    apply,
    new_match,
    seat_options,
    view,
)
from app.services import fairness, metrics
from app.services.bus import NO_BUS, Bus
from app.services.committer import Committer, Write
from app.services.deal_log import deal_events
from app.services.errors import (
    STORE_ERRORS,
    Conflict,
    ServiceError,
    Unavailable,
    database_unavailable,
)
from app.services.hub import EVERYONE, SPECTATOR, Frame, Hub, Subscriber, encode, viewer_key
from app.services.ratings import rating_step
from app.services.rules import stored_rules
from app.store import matches as match_store
from app.store import tables as table_store
from app.store.db import AsyncSession, BoundStatement, Step
from app.store.models import ActionRecord

log = logging.getLogger(__name__)

# Per-version records kept for resuming viewers: the default resume window (half a 256-frame
# send queue). Each holds its events and every seat's legal list (about 2 KB); a viewer further
# behind gets a full welcome. Trimmed in steps of ``RECORDS_SLACK``.
RECORDS_KEPT = 128
RECORDS_SLACK = 32


class ActionRejected(ServiceError):
    """An action refused with the engine's or the protocol's code; nothing changed."""

    status = 409


@dataclass(frozen=True)
class SeatHolder:
    """Who sits in a seat."""

    player_id: str
    name: str


@dataclass(frozen=True, slots=True)
class VersionRecord:
    """What one accepted action produced: each viewer's ``update`` frame, already encoded.

    The frames are rendered once, when the version is accepted, and kept as JSON text (one
    per seat, then the spectator's): a table keeps about ``RECORDS_KEPT`` records for resuming
    viewers, and text costs the garbage collector nothing where nested events and legal lists
    made every collection walk hundreds of thousands of objects under load.
    """

    version: int
    texts: tuple[str, ...]

    def frame_for(self, seat: int | None) -> str:
        """The ``update`` frame this viewer may see, as sent."""
        return self.texts[-1 if seat is None else seat]

    def frames(self) -> dict[str, str]:
        """Every viewer's frame by viewer key (for the hub)."""
        *seats, spectator = self.texts
        return {**{viewer_key(seat): text for seat, text in enumerate(seats)}, SPECTATOR: spectator}


def record_of(
    version: int, events: Sequence[Event], state: State, match_id: int | None
) -> VersionRecord:
    """The record of the action that produced ``state`` at ``version`` in match ``match_id``."""
    texts = []
    for seat in [*range(state.seats), None]:
        frame = {
            "type": "update",
            "match_id": match_id,
            "version": version,
            "events": [e for e in (event.for_viewer(seat) for event in events) if e is not None],
            "to_move": state.to_move,
            **seat_options(state, seat),
        }
        texts.append(encode(frame))
    return VersionRecord(version, tuple(texts))


def replay(
    rules: Rules, seed: str, dealer: int | None, log_rows: Iterable[ActionRecord], base: int
) -> tuple[State, list[VersionRecord]]:
    """Rebuild a match from its seed and its action log, with every version's record."""
    return advance(new_match(rules, seed, dealer), log_rows, base)


def advance(
    state: State, log_rows: Iterable[ActionRecord], base: int
) -> tuple[State, list[VersionRecord]]:
    """Apply logged actions after version ``base`` to ``state``, with every version's record."""
    records: list[VersionRecord] = []
    expected = base + 1
    for row in log_rows:
        if row.version != expected:
            raise RuntimeError(f"action log has version {row.version}, expected {expected}")
        state, events = apply(state, Action.from_json(row.action), row.seat)
        records.append(record_of(row.version, events, state, row.match_id))
        expected += 1
    return state, records


@dataclass
class TableAuthority:
    """The in-memory truth of one table, kept in step with the store."""

    table_id: str
    variant: str
    options: dict[str, Any]
    seat_count: int
    visibility: str
    invite_code: str
    status: str
    version: int
    sessions: async_sessionmaker[AsyncSession]
    hub: Hub
    committer: Committer
    seats: dict[int, SeatHolder] = field(default_factory=dict)
    rated: bool = False  # a rated table: matches between accounts change their ratings
    match_id: int | None = None
    base_version: int = 0
    state: State | None = None
    records: list[VersionRecord] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Whether anyone but the seated players may watch, and when strangers see its matches in
    # history (``after_match`` or ``never``): the players' choice when the table was opened.
    spectators: bool = True
    history: str = "after_match"
    # With a bus, other workers share the database: check the store before trusting memory
    # (see ``catch_up``) and tell them about every accepted action through the bus.
    bus: Bus = NO_BUS
    # Called after this worker starts a match or accepts an action (bots move from here).
    on_change: Callable[[TableAuthority], None] | None = None
    changed_at: float = field(default_factory=time.monotonic)  # when the last version came
    # A write's commit failed on the way: it may have been stored all the same, so the store
    # is read back (``catch_up``) before this table takes another action.
    in_doubt: bool = False
    # SHA-256 of the server's seed for the table's next match, published before anyone can
    # contribute to it (``services.fairness``).
    next_commitment: str | None = None

    # -- reading -------------------------------------------------------------------------

    @property
    def shared(self) -> bool:
        """True when other workers share this table's database (there is a bus to them)."""
        return self.bus is not NO_BUS

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat this player holds here, or None (spectator)."""
        if player_id is None:
            return None
        for seat, holder in self.seats.items():
            if holder.player_id == player_id:
                return seat
        return None

    def public_info(self) -> dict[str, Any]:
        """What anyone may know about the table (no invite code)."""
        return {
            "id": self.table_id,
            "variant": self.variant,
            "options": self.options,
            "visibility": self.visibility,
            "rated": self.rated,
            "spectators": self.spectators,
            "history": self.history,
            "status": self.status,
            "seats": [
                {
                    "seat": seat,
                    "player_id": holder.player_id if holder else None,
                    "name": holder.name if holder else None,
                }
                for seat in range(self.seat_count)
                for holder in [self.seats.get(seat)]
            ],
            "match_id": self.match_id,
            "version": self.version,
            "next_commitment": self.next_commitment,
        }

    def welcome(self, seat: int | None) -> dict[str, Any]:
        """A full snapshot for this viewer."""
        return {
            "type": "welcome",
            "table_id": self.table_id,
            "match_id": self.match_id,
            "seat": seat,
            "version": self.version,
            "view": None if self.state is None else view(self.state, seat),
            "deal_events": deal_events(self.records, seat),
            "table": self.public_info(),
        }

    def resume(self, since: int | None, seat: int | None, max_replay: int = 128) -> list[Frame]:
        """Frames that bring a viewer from ``since`` to now: a short welcome and the missing
        updates when this match holds them (at most ``max_replay``), else a full welcome."""
        kept_from = self.version - len(self.records)  # the oldest version still resumable
        if (
            since is None
            or self.state is None
            or not max(self.base_version, kept_from) <= since <= self.version
            or self.version - since > max_replay
        ):
            return [self.welcome(seat)]
        head = {
            "type": "welcome",
            "table_id": self.table_id,
            "match_id": self.match_id,
            "seat": seat,
            "version": since,
            "view": None,
            "resumed": True,
            "table": self.public_info(),
        }
        missing = self.records[since - kept_from :]
        return [head, *(record.frame_for(seat) for record in missing)]

    async def attach(
        self,
        subscriber: Subscriber,
        player_id: str | None,
        since: int | None,
        max_replay: int = 128,
    ) -> int | None:
        """Bring ``subscriber`` up to date from ``since`` and subscribe it, with no update
        slipping in between (the lock orders it with every action); returns its seat."""
        async with self.lock:
            if self.shared:
                await self.catch_up_or_log()
            seat = self.seat_of(player_id)
            for frame in self.resume(since, seat, max_replay):
                subscriber.deliver(frame)
            self.hub.subscribe(self.table_id, subscriber)
            return seat

    def detach(self, subscriber: Subscriber) -> None:
        """Stop sending to ``subscriber``."""
        self.hub.unsubscribe(self.table_id, subscriber)

    # -- changing ------------------------------------------------------------------------

    def publish_table(self) -> None:
        """Tell every viewer the table's seats and status (no secret in it)."""
        self.hub.publish(self.table_id, {EVERYONE: {"type": "table", "table": self.public_info()}})

    def begin_match(self, match_id: int, state: State, next_commitment: str | None) -> None:
        """Switch to a newly stored match (caller holds the lock and has committed), and show
        the commitment to the next match's server seed."""
        self.next_commitment = next_commitment
        self.match_id = match_id
        self.state = state
        self.base_version = self.version
        self.records = []
        self.status = "live"
        log.info("match started", extra=self._log_fields())
        self.publish_table()
        frames = {viewer_key(seat): self.welcome(seat) for seat in range(self.seat_count)}
        frames[viewer_key(None)] = self.welcome(None)
        self.hub.publish(self.table_id, frames)
        self._changed()

    async def act(
        self,
        player_id: str | None,
        version: Any,
        action_json: Any,
        accepted: Callable[[int], None] | None = None,
    ) -> int:
        """Apply one action for this player's seat at ``version``; the new version on success.

        ``accepted`` is called with the new version once the action is committed and every
        viewer's update is queued, still under the table's lock: a connection queues its
        ``ack`` there, right behind its update, instead of a few scheduler steps later.
        Raises ``ActionRejected`` (nothing changed) or ``Unavailable`` (the database could
        not store it: memory unchanged, nothing acknowledged). Shielded: a caller that goes
        away cannot leave a stored action unapplied in memory.
        """
        started = time.perf_counter()
        try:
            new_version: int = await asyncio.shield(
                self._act(player_id, version, action_json, accepted)
            )
        except ServiceError as exc:
            metrics.refused(exc.code, database=isinstance(exc, Unavailable))
            raise
        metrics.accepted(time.perf_counter() - started)
        return new_version

    async def _act(
        self,
        player_id: str | None,
        version: Any,
        action_json: Any,
        accepted: Callable[[int], None] | None,
    ) -> int:
        async with self.lock:
            if self.in_doubt:
                await self._catch_up_or_fail()
                self.in_doubt = False
                self._changed()
            if self.shared:
                new_version = await self._act_shared(player_id, version, action_json)
            else:
                new_version = await self._act_locked(player_id, version, action_json)
            if accepted is not None:
                accepted(new_version)
            return new_version

    async def _act_locked(self, player_id: str | None, version: Any, action_json: Any) -> int:
        seat = self._check(player_id, version)
        assert self.state is not None and self.match_id is not None
        try:
            action = Action.from_json(action_json)
            new_state, events = apply(self.state, action, seat)
        except ActionError as exc:
            raise ActionRejected("bad_action", exc.message) from None
        except IllegalAction as exc:
            raise ActionRejected(exc.code, exc.message) from None
        await self._commit(seat, action, new_state)
        self._follow(new_state, record_of(self.version + 1, events, new_state, self.match_id))
        if self.shared:
            self.bus.action(self.table_id, self.match_id, self.version, seat, action.to_json())
        self._changed()
        return self.version

    async def _act_shared(self, player_id: str | None, version: Any, action_json: Any) -> int:
        """``_act_locked`` when other workers may have moved the table on: catch up first if
        the client knows a newer version than this worker, and check every refusal against
        the store once (a lost race comes back as ``stale_version`` with the new version)."""
        behind = isinstance(version, int) and version > self.version
        if behind or self.state is None or self.state.match_over:
            await self._catch_up_or_fail()
        try:
            return await self._act_locked(player_id, version, action_json)
        except ActionRejected as exc:
            if exc.code in ("bad_action", "bad_message") or not await self._catch_up_or_fail():
                raise
        return await self._act_locked(player_id, version, action_json)

    # -- workers sharing one database ----------------------------------------------------

    async def catch_up(self) -> bool:
        """Bring memory up to the store (caller holds the lock): seats and status, a match
        started elsewhere, and every action another worker accepted, each delivered to this
        worker's viewers as its ``update``. True when anything changed."""
        async with self.sessions() as session:
            table = await table_store.get_table(session, self.table_id)
            if table is None:
                return False
            rows = (await table_store.seats_of(session, [self.table_id]))[self.table_id]
            seats = seat_map(rows)
            new_match = table.match_id != self.match_id
            if new_match:
                match = await match_store.get_match(session, table.match_id or 0)
                log_rows = await match_store.actions_of_match(session, match.id) if match else []
            elif table.version > self.version and self.match_id is not None:
                match = None
                log_rows = await match_store.actions_after(session, self.match_id, self.version)
            else:
                match, log_rows = None, []
        next_commitment = fairness.commitment_of(table.next_seed)
        table_moved = (
            seats != self.seats
            or table.status != self.status
            or next_commitment != self.next_commitment
        )
        self.seats, self.status = seats, table.status
        self.next_commitment = next_commitment
        if new_match and match is not None:
            rules = stored_rules(match.variant, match.rules)
            state, records = replay(rules, match.seed, match.dealer, log_rows, match.base_version)
            self._adopt_match(match.id, match.base_version, state, records)
            return True
        if log_rows and self.state is not None:
            state, records = advance(self.state, log_rows, self.version)
            for record in records:
                self._follow(state, record)
            return True
        if table_moved:
            self.publish_table()
        return table_moved

    async def catch_up_or_log(self) -> None:
        """``catch_up``, keeping what memory has when the store does not answer."""
        try:
            await self.catch_up()
        except STORE_ERRORS:
            metrics.database_error("catch_up")
            log.warning(
                "catching up from the store failed",
                extra={"table_id": self.table_id, "version": self.version},
            )

    async def follow(self, match_id: int | None, version: int, seat: int, action: Any) -> None:
        """Take an action another worker has stored (told through the bus): apply it when it
        is the next version of this match, ignore it when already known, and catch up from
        the store when something was missed."""
        async with self.lock:
            if version <= self.version and match_id == self.match_id:
                return
            if version == self.version + 1 and match_id == self.match_id and self.state:
                try:
                    state, events = apply(self.state, Action.from_json(action), seat)
                except (ActionError, IllegalAction):
                    await self.catch_up_or_log()
                    return
                self._follow(state, record_of(version, events, state, match_id))
                return
            await self.catch_up_or_log()

    async def refresh(self) -> None:
        """Catch up with the store under the lock (a table changed by another worker)."""
        async with self.lock:
            await self.catch_up_or_log()

    async def _catch_up_or_fail(self) -> bool:
        try:
            return await self.catch_up()
        except STORE_ERRORS:
            metrics.database_error("catch_up")
            raise database_unavailable() from None

    def _follow(self, state: State, record: VersionRecord) -> None:
        """Step memory to ``record`` (already stored) and deliver it to this worker's viewers."""
        self.state = state
        self.version = record.version
        self.remember(record)
        if state.match_over:
            self.status = "finished"
            log.info("match finished", extra=self._log_fields())
        self._publish(record)

    def remember(self, record: VersionRecord) -> None:
        """Keep ``record`` for resuming viewers; only the newest ``RECORDS_KEPT`` or so are
        kept, so memory does not grow with the length of a match."""
        self.changed_at = time.monotonic()
        self.records.append(record)
        if len(self.records) > RECORDS_KEPT + RECORDS_SLACK:
            del self.records[:-RECORDS_KEPT]

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)

    def _log_fields(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "version": self.version, "match_id": self.match_id}

    def _adopt_match(
        self, match_id: int, base: int, state: State, records: list[VersionRecord]
    ) -> None:
        """Switch to a match started by another worker; every viewer here gets a welcome."""
        self.match_id, self.base_version = match_id, base
        self.state, self.records = state, records[-RECORDS_KEPT:]
        self.version = records[-1].version if records else base
        if state.match_over:
            self.status = "finished"
        self.publish_table()
        frames = {viewer_key(seat): self.welcome(seat) for seat in range(self.seat_count)}
        frames[viewer_key(None)] = self.welcome(None)
        self.hub.publish(self.table_id, frames)

    def _check(self, player_id: str | None, version: Any) -> int:
        seat = self.seat_of(player_id)
        if seat is None:
            raise ActionRejected("not_seated", "Spectators cannot act; take a seat first.")
        if self.state is None:
            raise ActionRejected("no_match", "No match is under way at this table.")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ActionRejected("bad_message", "An action needs an integer 'version'.")
        if version != self.version:
            raise ActionRejected(
                "stale_version",
                f"The table is at version {self.version}, not {version}.",
                version=self.version,
            )
        return seat

    async def _commit(self, seat: int, action: Action, new_state: State) -> None:
        assert self.match_id is not None
        write = Write(
            table_id=self.table_id,
            match_id=self.match_id,
            version=self.version + 1,
            seat=seat,
            action=action.to_json(),
            extras=self._result_updates(new_state),
            ends_match=new_state.match_over,
        )
        try:
            await self.committer.submit(write)
        except Conflict as exc:
            raise ActionRejected(exc.code, exc.message, version=self.version) from None
        except BaseException:
            self.in_doubt = True  # memory stays as it was; the store may hold the write
            raise

    def _result_updates(self, new_state: State) -> list[BoundStatement | Step]:
        """Store writes for a deal or a match that this action ended (same transaction): a
        finished match's result, and its rating update when the match is rated."""
        assert self.state is not None and self.match_id is not None
        ended_deal = len(new_state.deal_results) != len(self.state.deal_results)
        if not (ended_deal or new_state.match_over):
            return []  # most actions: nothing to add
        # Deal seeds stay out of the store's public record until the match is over.
        deals = [r.to_json(reveal_seed=new_state.match_over) for r in new_state.deal_results]
        points = list(new_state.game_points)
        if new_state.match_over:
            return [
                match_store.finish_update(
                    self.match_id, winner=new_state.match_winner, deals=deals, game_points=points
                ),
                table_store.status_update(self.table_id, "finished"),
                rating_step(
                    self.match_id,
                    self.variant,
                    self.seat_count,
                    new_state.match_winner,
                    new_state.game_points,
                ),
            ]
        return [match_store.deals_update(self.match_id, deals, points)]

    def _publish(self, record: VersionRecord) -> None:
        self.hub.publish(self.table_id, record.frames())


def seat_map(rows: Iterable[tuple[int, Any]]) -> dict[int, SeatHolder]:
    """Seats from ``(seat, player)`` rows."""
    return {seat: SeatHolder(player.id, player.name) for seat, player in rows}
