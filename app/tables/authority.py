"""One table, one actor: the only code that changes a table.

Every change to a table is a command (``tables.commands``) in its inbox, processed strictly
one at a time, in arrival order, by a task that exists only while the inbox has work; each
command's caller gets its answer directly. ``TableAuthority.process`` is the one dispatch:
one ``match`` over every command type, refusing any other with ``unknown_command``. A
caller that goes away does not cut a command short: it runs to its end all the same.

An action's path: check seat and version -> ``engine.apply`` -> append the action and bump
the version in one transaction (``Committer``) -> publish each viewer's redacted update and,
in the same step, the acting connection's ``ack``. A lobby command's path: the lobby's rules
(``tables.lobby``) read the table and return a ``Change``; the actor stores its rows in one
transaction fenced by the table's version and lease epoch, then applies it to memory and
publishes. Frames are rendered by ``presenter``; the table's truth is read from the store
only through ``snapshot.load_snapshot``. With several workers only the table's owner holds
it (``leases.py``); every commit is fenced by the owner's lease epoch.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.common import metrics
from app.common.errors import (
    STORE_ERRORS,
    Conflict,
    ServiceError,
    Unavailable,
    database_unavailable,
    table_moving,
)
from app.engine import Action, ActionError, IllegalAction, State, apply
from app.engine.actions import RESIGN
from app.players.bot_players import bot_level, bot_name, bot_player_id, ensure_bot_players
from app.players.ratings import rating_step
from app.store import matches as match_store
from app.store import tables as table_store
from app.store.db import AsyncSession, BoundStatement, Step
from app.tables import aborts, presenter
from app.tables import rematch as offers
from app.tables.alarms import Alarm, Timekeeper
from app.tables.clocks import (
    TAKEOVER_LEVEL,
    ClockRules,
    ClockSettings,
    TurnClock,
    after_move,
    clock_frame,
    restarted,
)
from app.tables.commands import (
    LOBBY,
    Act,
    BotTurn,
    Command,
    ExpireRematch,
    Greet,
    PresenceDue,
    Timeout,
    unknown,
)
from app.tables.committer import Committer, Write
from app.tables.hub import EVERYONE, Hub, Subscriber, encode
from app.tables.presence import Presence
from app.tables.presenter import SeatHolder, VersionRecord, record_of
from app.tables.rematch import RematchOffer
from app.tables.snapshot import (
    RECORDS_KEPT,
    RECORDS_SLACK,
    Position,
    Snapshot,
    abandoned_json,
    load_snapshot,
)

log = logging.getLogger(__name__)
T = TypeVar("T")
ALARM_RETRY_S = 2.0
"""Wait before a turn clock's consequence is tried again after the database failed."""

__all__ = ["RECORDS_KEPT", "RECORDS_SLACK", "ActionRejected", "SeatHolder", "TableAuthority"]


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
    """The lobby's rules, which the actor asks to decide a lobby command (``tables.lobby``)."""

    async def decide(self, table: TableAuthority, command: Command) -> Change:
        """Read ``table`` and decide ``command``: a refusal, or the change to make."""
        ...

    def arm_offer(self, table: TableAuthority, offer: RematchOffer) -> Alarm:
        """The alarm that queues ``offer``'s expiry as the table's command."""
        ...


@dataclass(eq=False)
class TableAuthority:
    """The in-memory truth of one table, kept in step with the store; one actor."""

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
    on_lost: Callable[[TableAuthority], None] | None = None
    # Called after this worker starts a match or accepts an action (bots move from here).
    on_change: Callable[[TableAuthority], None] | None = None
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
    # The seats with an action in the current match's log (whether it may still be aborted).
    acted: frozenset[int] = frozenset()
    timekeeper: Timekeeper = field(default_factory=Timekeeper)
    _alarm: Alarm | None = field(default=None, init=False, repr=False)
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
        on_lost: Callable[[TableAuthority], None] | None = None,
        on_change: Callable[[TableAuthority], None] | None = None,
    ) -> TableAuthority:
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
            clock_settings=clock_settings or ClockSettings(),
            timekeeper=timekeeper or Timekeeper(),
        )
        authority.enter(snapshot)
        authority.touched_at = clock()
        return authority

    # -- reading -------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """True while a command is waiting or running."""
        return self._runner is not None

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat this player holds here, or None (spectator)."""
        return presenter.seat_held(self.seats, player_id)

    @property
    def clock_rules(self) -> ClockRules | None:
        """The table's turn clock (None: untimed)."""
        return self.clock_settings.rules(self.clock_mode)

    def humans(self) -> set[int]:
        """The seats held by human players (only their clocks run)."""
        return {seat for seat, holder in self.seats.items() if bot_level(holder.player_id) is None}

    def clock_now(self) -> dict[str, Any] | None:
        """The ``clock`` frame at this moment, or None at an untimed table or between
        matches."""
        running = self._running_clock()
        if running is None:
            return None
        rules, clock = running
        return clock_frame(rules, clock, self.timekeeper.now())

    def deadline(self) -> float | None:
        """When the running turn clock runs out (wall time), or None."""
        running = self._running_clock()
        if running is None:
            return None
        rules, clock = running
        return clock.deadline(rules)

    def _running_clock(self) -> tuple[ClockRules, TurnClock] | None:
        """The rules and the clock of a timed table's live match, or None."""
        rules = self.clock_rules
        if rules is None or self.turn_clock is None or self.status != "live":
            return None
        return rules, self.turn_clock

    def position(self) -> Position:
        """Where memory stands (what ``load_snapshot`` advances from)."""
        return Position(self.match_id, self.version, self.state, self.acted)

    @property
    def abortable(self) -> bool:
        """True while the live match may still be aborted: some seat has not acted in its
        first deal (``tables.aborts``)."""
        return self.status == "live" and aborts.may_abort(self.state, self.acted)

    # -- the inbox -----------------------------------------------------------------------

    def ask(self, command: Command) -> asyncio.Future[Any]:
        """Queue ``command``; the future holds its answer. Queued at once, so commands
        asked in a row run in that order."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()
        self._inbox.append((command, answer))
        if self._runner is None:
            self._runner = loop.create_task(self._run())
        return answer

    async def process(self, command: Command) -> Any:
        """Carry out one command, alone: the one place every change to this table starts.
        An unknown command is refused with ``unknown_command`` and changes nothing."""
        match command:
            case Act():  # a player's action, or a bot's (``BotTurn``)
                return await self._act(command)
            case Greet():
                return self._greet(command)
            case Timeout(version=version):
                return await self._time_out(version)
            case PresenceDue():
                return self.presence.update(self)
            case ExpireRematch(number=number):
                return self._expire_offer(number)
            case _ if LOBBY.get(command.kind) is type(command) and self.lobby is not None:
                return await self._decide(command)
            case _:
                raise unknown(command.kind)

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

    async def act(
        self,
        player_id: str | None,
        version: Any,
        action_json: Any,
        reply: Subscriber | None = None,
        ref: Any = None,
        *,
        bot: bool = False,
    ) -> int:
        """Apply one action for this player's seat at ``version``; the new version on success.

        ``reply`` (the acting connection) gets its ``ack`` in the same step as every
        viewer's update. Raises ``ActionRejected`` (nothing changed) or ``Unavailable`` (the
        database could not store it: memory unchanged, nothing acknowledged). A caller that
        goes away cannot leave a stored action unapplied in memory: the command runs on.
        """
        started = time.perf_counter()
        kind = BotTurn if bot else Act
        try:
            new_version: int = await self.ask(kind(player_id, version, action_json, reply, ref))
        except ServiceError as exc:
            metrics.refused(exc.code, database=isinstance(exc, Unavailable))
            raise
        metrics.accepted(time.perf_counter() - started)
        return new_version

    async def attach(
        self,
        subscriber: Subscriber,
        player_id: str | None,
        since: int | None,
        max_replay: int = 128,
    ) -> int | None:
        """Bring ``subscriber`` up to date from ``since`` and subscribe it; returns its seat
        (the table keeps ``subscriber.seat`` right as seats change)."""
        seat: int | None = await self.ask(Greet(subscriber, player_id, since, max_replay))
        return seat

    def detach(self, subscriber: Subscriber) -> None:
        """Stop sending to ``subscriber`` (the table's idle time starts again)."""
        player_id = self.watchers.pop(subscriber, None)
        self.touched_at = self.clock()
        self.hub.unsubscribe(self.table_id, subscriber)
        self.presence.left(self, player_id)

    def hand_over(self) -> None:
        """The table leaves this worker (its lease moved, or the worker stops): every
        watcher is closed so that its client reconnects, with ``since``, to the next owner,
        and the turn clock's alarm is stopped (the next owner sets its own)."""
        self.disarm()
        self.presence.stop()
        for subscriber in list(self.watchers):
            self.detach(subscriber)
            closing = getattr(subscriber, "hand_over", None)
            if closing is not None:
                closing()

    # -- changing (inside a command) -----------------------------------------------------

    def _greet(self, command: Greet) -> int | None:
        """See ``attach``."""
        subscriber = command.subscriber
        seat = self.seat_of(command.player_id)
        subscriber.seat = seat
        for frame in presenter.resume(self, command.since, seat, command.max_replay):
            subscriber.deliver(frame)
        clock = self.clock_now()
        if clock is not None:
            subscriber.deliver(clock)
        if self.rematch is not None:  # an offer stands: the viewer sees it at once
            subscriber.deliver(self.rematch.frame(self.clock()))
        self.watchers[subscriber] = command.player_id
        self.hub.subscribe(self.table_id, subscriber)
        self.presence.greeted(self, subscriber)
        return seat

    async def _decide(self, command: Command) -> Any:
        """A lobby command: the lobby decides, then this actor commits the change under its
        fence, applies it to memory and tells every viewer."""
        assert self.lobby is not None
        if self.in_doubt:
            await self._catch_up_or_fail()
            self.in_doubt = False
        change = await self.lobby.decide(self, command)
        started = await self._commit_change(change) if change.write is not None else None
        return await self._apply_change(change, started)

    async def _commit_change(self, change: Change) -> Started | None:
        """Store ``change``'s rows in one transaction, fenced: the table's row is locked and
        must still be at this actor's version and lease epoch, or nothing is stored."""
        assert change.write is not None
        try:
            async with self.sessions.begin() as session:
                if await table_store.fence(session, self.table_id) != (self.epoch, self.version):
                    raise Conflict("table_moved", "The table moved on meanwhile.")
                return await change.write(session)
        except IntegrityError:
            raise Conflict("seat_taken", "That seat was just taken.") from None
        except Conflict as exc:
            if exc.code == "table_moved" and self.on_lost is not None:
                self.on_lost(self)
                raise table_moving() from None
            raise
        except STORE_ERRORS:
            metrics.database_error("lobby")
            raise database_unavailable() from None

    async def _apply_change(self, change: Change, started: Started | None) -> Any:
        """Memory takes a committed ``change``, and every viewer is told."""
        reply = change.reply
        if change.seats is not None:
            self.seats = change.seats
        if change.status is not None:
            self.status = change.status
        if change.offer is not None and started is None:
            self.rematch = offers.stand(self.rematch, change.offer, self._arm_offer)
            reply = self.rematch.state(self.clock())
            self.hub.publish(self.table_id, {EVERYONE: self.rematch.frame(self.clock())})
        elif change.offer is not None:
            self.rematch = offers.keep_timer(self.rematch, change.offer)
            reply = self._end_offer(offers.STARTED)
        elif change.end_offer is not None:
            reply = self._end_offer(*change.end_offer)
        if started is not None:
            self.begin_match(*started)
        elif change.seats is not None or change.status is not None:
            self.publish_table()
        if change.seat_change is not None:
            await self.change_seat(*change.seat_change)
        if change.take_over is not None:
            await self.take_over(*change.take_over)
        if change.resign is not None:
            await self.forfeit(*change.resign)
        if change.abort is not None:
            await self.abort(*change.abort)
        return reply

    def _arm_offer(self, offer: RematchOffer) -> Alarm:
        assert self.lobby is not None
        return self.lobby.arm_offer(self, offer)

    def _end_offer(self, outcome: str, by: int | None = None) -> dict[str, Any]:
        """End the standing offer (started, declined or expired), stop its timer and tell
        every viewer; the offer's last state."""
        offer, self.rematch = self.rematch, None
        assert offer is not None
        frame = offers.ended(offer, self.clock(), outcome, by)
        self.hub.publish(self.table_id, {EVERYONE: frame})
        return {k: v for k, v in frame.items() if k != "type"}

    def _expire_offer(self, number: int) -> None:
        """An offer's time is up: it expires only if that same offer still stands, so once."""
        standing = self.rematch
        if standing is not None and standing.number == number:
            self.rematch = replace(standing, timer=None)  # the timer is this one: done
            self._end_offer(offers.EXPIRED)
            log.info("a rematch offer expired", extra={"table_id": self.table_id})

    def publish_table(self) -> None:
        """Tell every viewer the table's seats and status (no secret in it); each watcher's
        seat follows the seats first."""
        self._reseat()
        self.hub.publish(self.table_id, {EVERYONE: presenter.table_frame(self)})
        self.presence.update(self)

    def begin_match(
        self,
        match_id: int,
        state: State,
        next_commitment: str | None,
        turn_clock: TurnClock | None = None,
    ) -> None:
        """Switch to a newly stored match (inside a command, after the commit), and show the
        commitment to the next match's server seed and the match's turn clock."""
        self.next_commitment = next_commitment
        self.abandoned = {}
        self._adopt(match_id, self.version, self.version, state, [], frozenset())
        log.info("match started", extra=self._log_fields())
        self.set_clock(turn_clock)
        self._changed()

    # -- turn clocks ---------------------------------------------------------------------

    def set_clock(self, turn_clock: TurnClock | None, *, publish: bool = True) -> None:
        """Take ``turn_clock`` (already stored), tell every viewer (unless an update just
        carried it: ``publish`` False) and set its alarm."""
        self.turn_clock = turn_clock
        frame = self.clock_now() if publish else None
        if frame is not None:  # the same for every viewer: encoded once
            self.hub.publish(self.table_id, {EVERYONE: encode(frame)})
        self.arm()

    def arm(self) -> None:
        """Set the alarm for the running clock's deadline (replacing any other); at an
        untimed table, or with nobody's clock running, there is none."""
        self.disarm()
        deadline = self.deadline()
        if deadline is None or self.turn_clock is None:
            return
        version = self.turn_clock.version
        self._alarm = self.timekeeper.call_at(deadline, lambda: self._ring(version))

    def disarm(self) -> None:
        """Stop the running clock's alarm."""
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None

    def _ring(self, version: int) -> None:
        self._alarm = None
        self.ask(Timeout(version)).add_done_callback(self._rang)

    def _rang(self, answer: asyncio.Future[None]) -> None:
        """The timeout's outcome (nobody waits for it): a failure is logged, and when the
        database was away the alarm rings again a little later."""
        if answer.cancelled() or answer.exception() is None:
            return
        exc = answer.exception()
        log.warning("a turn clock's consequence failed: %s", exc, extra=self._log_fields())
        if isinstance(exc, Unavailable) and self._alarm is None:
            version = self.version
            self._alarm = self.timekeeper.call_later(ALARM_RETRY_S, lambda: self._ring(version))

    async def _time_out(self, version: int) -> None:
        """Inside a command: the clock set at ``version`` rang. Nothing happens unless the
        table is still at that version with the same seat's clock run out (an action that
        came first wins); then the table's consequence is stored and applied, once."""
        clock, rules = self.turn_clock, self.clock_rules
        if (
            rules is None
            or clock is None
            or clock.seat is None
            or clock.version != version
            or self.version != version
            or self.state is None
            or self.state.match_over
            or self.status != "live"
        ):
            return
        deadline = clock.deadline(rules)
        if deadline is not None and deadline > self.timekeeper.now():
            self.arm()  # rang early (a clock set back): wait for the real deadline
            return
        seat, holder = clock.seat, self.seats[clock.seat]
        if self.abortable:  # before every seat has acted: the match never really began
            log.info("a turn clock ran out (abort)", extra={**self._log_fields(), "seat": seat})
            await self.abort(seat, aborts.CLOCK, leave=True)
            return
        log.info(
            "a turn clock ran out (%s)", self.on_timeout, extra={**self._log_fields(), "seat": seat}
        )
        if self.on_timeout == "forfeit":
            await self.forfeit(seat, holder, "forfeit")
        else:
            await self.take_over(seat, holder, "takeover")

    async def abort(self, seat: int, reason: str, leave: bool = False) -> None:
        """Inside a command: abort the live match, by ``seat`` (``reason`` ``player``) or
        because ``seat``'s clock ran out (``clock``). The match is stored ``aborted`` (no
        winner, no rating change), seats a computer player took over go back to the players
        who left them, ``seat`` is given up when it ``leave``s, and the table waits again
        (``open``; ``finished`` with no human player left), with no match and no clock, all
        in one transaction fenced by the lease. The version does not move: no action was
        stored. Then every viewer gets the ``aborted`` frame, the table and a welcome with
        no match."""
        assert self.match_id is not None
        match_id = self.match_id
        seats = {**self.seats, **self.abandoned}
        leaving = seats[seat].player_id if leave else None
        if leaving is not None:
            del seats[seat]
        humans = [s for s, holder in seats.items() if bot_level(holder.player_id) is None]
        status = "open" if humans else "finished"
        try:
            async with self.sessions.begin() as session:
                fenced = await table_store.fence(session, self.table_id)
                if fenced != (self.epoch, self.version):
                    raise Conflict("table_moved", "The table moved on meanwhile.")
                statement, values = match_store.abort_update(match_id)
                await session.execute(statement, values)
                for taken, holder in self.abandoned.items():
                    await table_store.hand_seat(
                        session, self.table_id, taken, holder.player_id, None
                    )
                if leaving is not None:
                    await table_store.free_seat(session, self.table_id, leaving)
                await table_store.back_to_waiting(session, self.table_id, status)
        except Conflict:
            if self.on_lost is not None:
                self.on_lost(self)
                raise table_moving() from None
            raise
        except STORE_ERRORS:
            metrics.database_error("abort")
            self.in_doubt = True  # it may be stored: read back before the next action
            raise database_unavailable() from None
        log.info(
            "match aborted (%s)", reason, extra={**self._log_fields(), "seat": seat, "left": leave}
        )
        self.seats, self.abandoned, self.status = seats, {}, status
        self._leave_match()
        frame = aborts.aborted_frame(match_id, seat, reason, leaving is not None)
        self.hub.publish(self.table_id, {EVERYONE: encode(frame)})
        self.publish_table()
        self.hub.publish(self.table_id, presenter.welcomes(self))
        self._changed()

    def _leave_match(self) -> None:
        """Memory holds no match any more (it was aborted): no state, records or clock."""
        self.match_id, self.state, self.records, self.acted = None, None, [], frozenset()
        self.turn_clock = None
        self.disarm()

    async def forfeit(self, seat: int, holder: SeatHolder, consequence: str) -> None:
        """Inside a command: ``seat``, whose player ran out of time (``forfeit``) or is gone
        (``claimed``), resigns the match: an action in the log, stored with the match's
        record of who abandoned it."""
        assert self.state is not None and self.match_id is not None
        entry = _abandonment(seat, holder, consequence)
        new_state, events = apply(self.state, RESIGN, seat)
        await self._store_and_step(
            seat, RESIGN, new_state, events, [match_store.abandoned_step(self.match_id, entry)]
        )

    async def take_over(self, seat: int, holder: SeatHolder, consequence: str) -> None:
        """Inside a command: a computer player takes ``seat``, whose player ran out of time
        (``takeover``) or is gone (``handed_over``), until that player reclaims it; the seat
        change, the record of who left and the clock (without that seat) are stored
        together, fenced by this worker's lease."""
        assert self.state is not None and self.match_id is not None
        await ensure_bot_players(self.sessions, {seat: TAKEOVER_LEVEL})
        bot = SeatHolder(bot_player_id(TAKEOVER_LEVEL, seat), bot_name(TAKEOVER_LEVEL))
        abandoned = {**self.abandoned, seat: holder}
        await self.change_seat(seat, bot, abandoned, _abandonment(seat, holder, consequence))

    async def change_seat(
        self,
        seat: int,
        holder: SeatHolder,
        abandoned: dict[int, SeatHolder],
        entry: dict[str, Any] | None = None,
    ) -> None:
        """Inside a command: give ``seat`` of the match under way to ``holder`` (a computer
        player taking over, or its player reclaiming it) with the table's new record of
        abandoned seats and the turn clock restarted for the seats as they are then (the
        seat on move, if human, starts its turn now), stored in one transaction fenced by
        the lease; ``entry`` joins the match's record of abandonments. Then every viewer is
        welcomed again (their seats changed) and the bots consider the table."""
        assert self.match_id is not None and self.state is not None
        clock = self.turn_clock
        if clock is not None:
            humans = {s for s in self.humans() if s != seat}
            if bot_level(holder.player_id) is None:
                humans.add(seat)
            clock = restarted(clock, self.state, self.timekeeper.now(), humans)
        rules = self.clock_rules
        deadline = clock.deadline(rules) if rules is not None and clock is not None else None
        try:
            async with self.sessions.begin() as session:
                fenced = await table_store.fence(session, self.table_id)
                if fenced != (self.epoch, self.version):
                    raise Conflict("table_moved", "The table moved on meanwhile.")
                await table_store.hand_seat(
                    session, self.table_id, seat, holder.player_id, abandoned_json(abandoned)
                )
                stored = clock.to_json() if clock is not None else None
                await table_store.set_clock(session, self.table_id, stored, deadline)
                if entry is not None:
                    await match_store.mark_abandoned(session, self.match_id, entry)
        except Conflict:
            if self.on_lost is not None:
                self.on_lost(self)
                raise table_moving() from None
            raise
        except STORE_ERRORS:
            metrics.database_error("seat_change")
            raise database_unavailable() from None
        self.seats = {**self.seats, seat: holder}
        self.abandoned = abandoned
        self.publish_table()
        self.hub.publish(self.table_id, presenter.welcomes(self))
        self.set_clock(clock)
        self._changed()

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

    # -- internals -----------------------------------------------------------------------

    async def _act(self, command: Act) -> int:
        if self.in_doubt:
            await self._catch_up_or_fail()
            self.in_doubt = False
            self._changed()
        new_version = await self._act_once(command)
        if command.reply is not None:
            command.reply.deliver(presenter.ack(command.ref, new_version))
        return new_version

    async def _act_once(self, command: Act) -> int:
        seat = self._check(command.player_id, command.version)
        assert self.state is not None and self.match_id is not None
        try:
            action = Action.from_json(command.action)
            new_state, events = apply(self.state, action, seat)
        except ActionError as exc:
            raise ActionRejected("bad_action", exc.message) from None
        except IllegalAction as exc:
            raise ActionRejected(exc.code, exc.message) from None
        await self._store_and_step(seat, action, new_state, events)
        return self.version

    async def _store_and_step(
        self,
        seat: int,
        action: Action,
        new_state: State,
        events: Any,
        extras: list[BoundStatement | Step] | None = None,
    ) -> None:
        """Store ``seat``'s ``action`` (with the turn clock it moves, and ``extras``), then
        step memory and every viewer to it."""
        assert self.match_id is not None
        clock = self._clock_after(new_state)
        await self._commit(seat, action, new_state, clock, extras or [])
        timing = self._clock_fields(clock)  # the clock travels inside the update itself
        if seat not in self.acted:
            self.acted |= {seat}
        abortable = aborts.may_abort(new_state, self.acted)
        record = record_of(self.version + 1, events, new_state, self.match_id, timing, abortable)
        self.step_to(new_state, record)
        if clock is not None:
            self.set_clock(clock, publish=False)
        self._changed()

    def _clock_fields(self, clock: TurnClock | None) -> dict[str, Any] | None:
        """What an update says of the turn clock (the ``clock`` frame's fields), or None."""
        rules = self.clock_rules
        if rules is None or clock is None:
            return None
        fields = clock_frame(rules, clock, self.timekeeper.now())
        del fields["type"]
        return fields

    def _clock_after(self, new_state: State) -> TurnClock | None:
        """The turn clock once the next version is stored (None at an untimed table)."""
        rules = self.clock_rules
        if rules is None or self.turn_clock is None:
            return None
        now = self.timekeeper.now()
        return after_move(rules, self.turn_clock, new_state, self.version + 1, now, self.humans())

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

    def _reseat(self) -> None:
        for subscriber, player_id in self.watchers.items():
            subscriber.seat = self.seat_of(player_id)

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)

    def _log_fields(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "version": self.version, "match_id": self.match_id}

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

    async def _commit(
        self,
        seat: int,
        action: Action,
        new_state: State,
        clock: TurnClock | None = None,
        extras: list[BoundStatement | Step] | None = None,
    ) -> None:
        assert self.match_id is not None
        updates = [*self._result_updates(new_state), *(extras or [])]
        stored_clock = None
        if clock is not None:
            rules = self.clock_rules
            deadline = clock.deadline(rules) if rules is not None else None
            stored_clock = (clock.to_json(), deadline)
        write = Write(
            table_id=self.table_id,
            match_id=self.match_id,
            version=self.version + 1,
            seat=seat,
            action=action.to_json(),
            extras=updates,
            clock=stored_clock,
            ends_match=new_state.match_over,
            epoch=self.epoch,
        )
        try:
            await self.committer.submit(write)
        except Conflict as exc:
            if self.on_lost is None:  # one worker: the store moved under it
                raise ActionRejected(exc.code, exc.message, version=self.version) from None
            # Only the lease holder commits: the version or the epoch moved because another
            # worker took the table over. Nothing changed here; the next owner has the truth.
            log.warning("a commit was fenced off; letting the table go", extra=self._log_fields())
            self.on_lost(self)
            raise table_moving() from None
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
                    new_state.seats,
                    new_state.match_winner,
                    new_state.game_points,
                ),
            ]
        return [match_store.deals_update(self.match_id, deals, points)]


def _abandonment(seat: int, holder: SeatHolder, consequence: str) -> dict[str, Any]:
    """The match's record of a player who ran out of time."""
    return {
        "seat": seat,
        "player_id": holder.player_id,
        "name": holder.name,
        "consequence": consequence,
    }
