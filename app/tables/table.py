"""A table's memory and its inbox: the fields of its actor and the queue of its commands.

The actor (``authority.TableAuthority``) is this class with its jobs added by two subclasses:
``turns.PlayedTable`` (turn clocks and the action path) and ``TableAuthority`` itself (the one
dispatch of every command). Only they change these fields.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, Self

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.common import metrics
from app.common.errors import (
    STORE_ERRORS,
    ServiceError,
    database_unavailable,
)
from app.engine import State
from app.store.db import AsyncSession
from app.tables import aborts, presenter
from app.tables.alarms import Alarm, Timekeeper
from app.tables.clocks import (
    ClockSettings,
    TurnClock,
)
from app.tables.commands import (
    Command,
)
from app.tables.committer import Committer
from app.tables.hub import EVERYONE, Hub, Subscriber
from app.tables.presence import Presence
from app.tables.presenter import SeatHolder, VersionRecord
from app.tables.rematch import RematchOffer
from app.tables.snapshot import (
    RECORDS_KEPT,
    RECORDS_SLACK,
    Position,
    Snapshot,
    load_snapshot,
)

log = logging.getLogger(__name__)


class ActionRejected(ServiceError):
    """An action refused with the engine's or the protocol's code; nothing changed."""

    status = 409


# A new match stored by a lobby change: its id, its first state, the commitment to the next
# match's server seed and its turn clock (None at an untimed table).
Started = tuple[int, State, str, TurnClock | None]


@dataclass
class Change:
    """What a lobby command decided, for the actor alone to commit and apply.

    ``write`` stores its rows inside the actor's transaction, after the fence (table id,
    version, lease epoch); it answers the match it stored, if any. Then memory takes
    ``seats`` and ``status``, the standing rematch offer becomes ``offer`` (or ends with
    ``end_offer``: outcome and seat), a seat changes hands (``seat_change``: seat, holder,
    abandoned seats, the match's record of it) or resigns (``resign``: seat, holder,
    consequence) or the match is aborted (``abort``: seat, reason, whether it leaves), and every
    viewer is told. ``reply`` is the command's answer unless an offer
    changed (then it is the offer's state)."""

    write: Callable[[AsyncSession], Awaitable[Started | None]] | None = None
    seats: dict[int, SeatHolder] | None = None
    status: str | None = None
    offer: RematchOffer | None = None
    end_offer: tuple[str, int | None] | None = None
    seat_change: tuple[int, SeatHolder, dict[int, SeatHolder], dict[str, Any] | None] | None = None
    take_over: tuple[int, SeatHolder, str] | None = None
    resign: tuple[int, SeatHolder, str] | None = None
    # The match is aborted (``tables.aborts``): by which seat, why, and whether it leaves.
    abort: tuple[int, str, bool] | None = None
    reply: Any = None


class Lobby(Protocol):
    """The lobby's rules, which the actor asks to decide a lobby command (``tables.lobby``);
    ``table`` is the actor."""

    async def decide(self, table: Any, command: Command) -> Change:
        """Read ``table`` and decide ``command``: a refusal, or the change to make."""
        ...

    def arm_offer(self, table: Any, offer: RematchOffer) -> Alarm:
        """The alarm that queues ``offer``'s expiry as the table's command."""
        ...


@dataclass(eq=False)
class Table:
    """One table's memory and inbox: what its actor (``TableAuthority``) knows, and the
    queue its commands wait in. The actor's jobs are split over this class and its two
    subclasses: ``turns.PlayedTable`` (turn clocks and the action path) and
    ``authority.TableAuthority`` (the dispatch of every command)."""

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
    # Whether anyone but the seated players may watch, and when strangers see its matches in
    # history (``after_match`` or ``never``): the players' choice when the table was opened.
    spectators: bool = True
    history: str = "after_match"
    # The epoch of the lease this worker holds on the table (0 with one worker): every
    # commit is fenced by it, so a former owner can never store an action.
    epoch: int = 0
    # Called when a commit was refused because the table is no longer at the version or the
    # epoch memory holds: another worker has taken it over (the registry lets it go).
    on_lost: Callable[[Any], None] | None = None  # called with the actor itself
    # Called after this worker starts a match or accepts an action (bots move from here).
    on_change: Callable[[Any], None] | None = None
    # A write's commit failed on the way: it may have been stored all the same, so the store
    # is read back (``catch_up``) before this table takes another action.
    in_doubt: bool = False
    # SHA-256 of the server's seed for the table's next match, published before anyone can
    # contribute to it (``tables.fairness``).
    next_commitment: str | None = None
    # The connections watching this table, with the player each speaks for (None: nobody).
    watchers: dict[Subscriber, str | None] = field(default_factory=dict)
    clock: Callable[[], float] = time.monotonic
    # Turn clocks (``tables.clocks``): the table's mode and consequence, the lengths of
    # the server's clocks, the running clock, the seats a computer player took over (with
    # who left each), the wall clock and the alarm set for the running clock's deadline.
    clock_mode: str = "none"
    on_timeout: str = "takeover"
    clock_settings: ClockSettings = field(default_factory=ClockSettings)
    turn_clock: TurnClock | None = None
    abandoned: dict[int, SeatHolder] = field(default_factory=dict)
    # The event the table was opened for, or None (``tables.aborts``).
    tournament: str | None = None
    # The seats with an action in the current match's log (whether it may still be aborted).
    acted: frozenset[int] = frozenset()
    timekeeper: Timekeeper = field(default_factory=Timekeeper)
    _alarm: Alarm | None = field(default=None, init=False, repr=False)
    # When the alarm set rings (wall time), and the running clock's deadline and version it
    # rings for: the deadline may have moved later since it was set (``PlayedTable.arm``).
    _alarm_at: float = field(default=0.0, init=False, repr=False)
    _due: tuple[float, int] | None = field(default=None, init=False, repr=False)
    # A standing rematch offer after a match (``tables.rematch``); memory only.
    rematch: RematchOffer | None = None
    # Each seat's presence (connected, away, gone), from ``watchers`` and ``clock``.
    presence: Presence = field(default_factory=Presence)
    # The lobby's rules, which decide the lobby's commands (``tables.lobby``).
    lobby: Lobby | None = None
    touched_at: float = 0.0  # when the last command ended (the registry evicts idle tables)
    _inbox: deque[tuple[Command, asyncio.Future[Any]]] = field(
        default_factory=deque, init=False, repr=False
    )
    _runner: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    @classmethod
    def from_snapshot(
        cls,
        snapshot: Snapshot,
        sessions: async_sessionmaker[AsyncSession],
        hub: Hub,
        committer: Committer,
        clock: Callable[[], float] = time.monotonic,
        clock_settings: ClockSettings | None = None,
        timekeeper: Timekeeper | None = None,
        *,
        lobby: Lobby | None = None,
        presence_grace: float = 60.0,
        epoch: int | None = None,
        on_lost: Callable[[Any], None] | None = None,
        on_change: Callable[[Any], None] | None = None,
    ) -> Self:
        """A table loaded from the store (``load_snapshot`` with nothing known); its lease
        epoch as the store holds it unless given (``epoch``: the lease just taken). Its turn
        clock's alarm is set by ``arm``."""
        table = snapshot.table
        authority = cls(
            table_id=table.table_id,
            variant=table.variant,
            options=table.options,
            seat_count=table.seat_count,
            visibility=table.visibility,
            invite_code=table.invite_code,
            status=table.status,
            version=table.version,
            sessions=sessions,
            hub=hub,
            committer=committer,
            rated=table.rated,
            spectators=table.spectators,
            history=table.history,
            epoch=table.lease_epoch if epoch is None else epoch,
            on_lost=on_lost,
            on_change=on_change,
            lobby=lobby,
            presence=Presence(grace=presence_grace),
            clock=clock,
            clock_mode=table.clock_mode,
            on_timeout=table.on_timeout,
            tournament=table.tournament,
            clock_settings=clock_settings or ClockSettings(),
            timekeeper=timekeeper or Timekeeper(),
        )
        authority.enter(snapshot)
        authority.touched_at = clock()
        return authority

    async def process(self, command: Command) -> Any:
        """Carry out one command (``TableAuthority.process``)."""
        raise NotImplementedError

    @property
    def busy(self) -> bool:
        """True while a command is waiting or running."""
        return self._runner is not None

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat this player holds here, or None (spectator)."""
        return presenter.seat_held(self.seats, player_id)

    def position(self) -> Position:
        """Where memory stands (what ``load_snapshot`` advances from)."""
        return Position(self.match_id, self.version, self.state, self.acted)

    @property
    def abortable(self) -> bool:
        """True while the live match may still be aborted: some seat has not acted in its
        first deal, at a table of no event (``tables.aborts``)."""
        return (
            self.tournament is None
            and self.status == "live"
            and aborts.may_abort(self.state, self.acted)
        )

    def ask(self, command: Command) -> asyncio.Future[Any]:
        """Queue ``command``; the future holds its answer. Queued at once, so commands
        asked in a row run in that order."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()
        self._inbox.append((command, answer))
        if self._runner is None:
            self._runner = loop.create_task(self._run())
        return answer

    async def _run(self) -> None:
        try:
            while self._inbox:
                command, answer = self._inbox.popleft()
                try:
                    result = await self.process(command)
                except asyncio.CancelledError:
                    if not answer.done():
                        answer.cancel()
                    raise
                except BaseException as exc:  # the caller's to handle
                    if not answer.done():
                        answer.set_exception(exc)
                    elif not isinstance(exc, ServiceError):
                        log.error(
                            "a %s command failed after its caller left",
                            command.kind,
                            exc_info=exc,
                            extra=self._log_fields(),
                        )
                else:
                    if not answer.done():
                        answer.set_result(result)
        finally:
            self._runner = None
            self.touched_at = self.clock()
            for _, answer in self._inbox:  # only after a cancellation (shutting down)
                answer.cancel()
            self._inbox.clear()

    def detach(self, subscriber: Subscriber) -> None:
        """Stop sending to ``subscriber`` (the table's idle time starts again)."""
        player_id = self.watchers.pop(subscriber, None)
        self.touched_at = self.clock()
        self.hub.unsubscribe(self.table_id, subscriber)
        self.presence.left(self, player_id)

    def publish_table(self) -> None:
        """Tell every viewer the table's seats and status (no secret in it); each watcher's
        seat follows the seats first."""
        self._reseat()
        self.hub.publish(self.table_id, {EVERYONE: presenter.table_frame(self)})
        self.presence.update(self)

    def enter(self, snapshot: Snapshot) -> bool:
        """Take the store's truth: seats and status, then a match memory did not have (every
        viewer welcomed) or the versions after memory's (each viewer's update). True when
        anything changed."""
        table = snapshot.table
        seats = dict(table.seats)
        table_moved = (
            seats != self.seats
            or table.status != self.status
            or table.next_commitment != self.next_commitment
        )
        self.seats, self.status = seats, table.status
        self.next_commitment = table.next_commitment
        self.abandoned = dict(table.abandoned)
        self.turn_clock = (
            TurnClock.from_json(table.turn_clock) if table.turn_clock is not None else None
        )
        if snapshot.state is None:  # no match stored (yet, or any more: it was aborted)
            self.version = snapshot.version
            if self.state is not None:
                self._leave_match()
                self.publish_table()
                self.hub.publish(self.table_id, presenter.welcomes(self))
                return True
            if table_moved:
                self.publish_table()
            return table_moved
        if snapshot.fresh and (snapshot.match_id != self.match_id or self.state is None):
            self._adopt(
                snapshot.match_id,
                snapshot.base_version,
                snapshot.version,
                snapshot.state,
                snapshot.records,
                snapshot.acted,
            )
            return True
        if snapshot.records and self.state is not None:
            self.acted |= snapshot.acted
            for record in snapshot.records:
                self._step_record(record)
            assert snapshot.state is not None
            self.state = snapshot.state
            if snapshot.state.match_over:
                self.status = "finished"
            return True
        if table_moved:
            self.publish_table()
        return table_moved

    async def catch_up(self) -> bool:
        """Bring memory up to the store (inside a command, after a commit whose outcome was
        unknown): seats and status, and every stored action memory lacks, each delivered to
        this worker's viewers. True when anything changed."""
        async with self.sessions() as session:
            snapshot = await load_snapshot(session, self.table_id, self.position())
        return self.enter(snapshot)

    def step_to(self, state: State, record: VersionRecord) -> None:
        """Step memory to ``record`` (already stored) and deliver it to this worker's viewers."""
        self.state = state
        self._step_record(record)
        if state.match_over:
            self.status = "finished"
            log.info("match finished", extra=self._log_fields())

    def remember(self, record: VersionRecord) -> None:
        """Keep ``record`` for resuming viewers; only the newest ``RECORDS_KEPT`` or so are
        kept, so memory does not grow with the length of a match."""
        self.records.append(record)
        if len(self.records) > RECORDS_KEPT + RECORDS_SLACK:
            del self.records[:-RECORDS_KEPT]

    async def _catch_up_or_fail(self) -> bool:
        try:
            return await self.catch_up()
        except STORE_ERRORS:
            metrics.database_error("catch_up")
            raise database_unavailable() from None

    def _step_record(self, record: VersionRecord) -> None:
        self.version = record.version
        self.remember(record)
        self.hub.publish(self.table_id, record.frames())

    def _adopt(
        self,
        match_id: int | None,
        base: int,
        version: int,
        state: State,
        records: list[VersionRecord],
        acted: frozenset[int],
    ) -> None:
        """Switch to a match (begun here or read from the store); every viewer is welcomed."""
        self.match_id, self.base_version, self.version = match_id, base, version
        self.state, self.records = state, records[-RECORDS_KEPT:]
        self.acted = acted
        self.status = "finished" if state.match_over else "live"
        self.publish_table()
        self.hub.publish(self.table_id, presenter.welcomes(self))

    def _leave_match(self) -> None:
        """Memory holds no match any more (it was aborted): no state, records or clock."""
        self.match_id, self.state, self.records, self.acted = None, None, [], frozenset()
        self.turn_clock = None
        self.disarm()

    def disarm(self) -> None:
        """Stop the running clock's alarm (``PlayedTable.arm`` sets it)."""
        self._due = None
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None

    def _reseat(self) -> None:
        for subscriber, player_id in self.watchers.items():
            subscriber.seat = self.seat_of(player_id)

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)

    def _log_fields(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "version": self.version, "match_id": self.match_id}
