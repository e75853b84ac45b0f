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

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.common import metrics
from app.common.errors import (
    STORE_ERRORS,
    Conflict,
    ServiceError,
    Unavailable,
    database_unavailable,
    table_moving,
)
from app.engine import State
from app.players.bot_players import bot_level, bot_name, bot_player_id, ensure_bot_players
from app.store import matches as match_store
from app.store import tables as table_store
from app.tables import aborts, presenter
from app.tables import rematch as offers
from app.tables.alarms import Alarm
from app.tables.clocks import (
    TAKEOVER_LEVEL,
    TurnClock,
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
from app.tables.hub import EVERYONE, Subscriber, encode
from app.tables.presenter import SeatHolder
from app.tables.rematch import RematchOffer
from app.tables.snapshot import (
    RECORDS_KEPT,
    RECORDS_SLACK,
    abandoned_json,
)
from app.tables.table import ActionRejected, Change, Lobby, Started, Table
from app.tables.turns import PlayedTable, abandonment

log = logging.getLogger(__name__)

T = TypeVar("T")
Write = Callable[[AsyncSession], Awaitable[T]]  # a change's rows, stored behind the fence

__all__ = [
    "RECORDS_KEPT",
    "RECORDS_SLACK",
    "ActionRejected",
    "Change",
    "Lobby",
    "SeatHolder",
    "Started",
    "Table",
    "TableAuthority",
]


class TableAuthority(PlayedTable):
    """The actor of one table: the one dispatch of every command (``process``), the lobby's
    changes committed under one fence, seat changes and the turn clock's consequences."""

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
        """Store a lobby ``change``'s rows under the fence (``_fenced``)."""
        assert change.write is not None
        return await self._fenced(change.write, "lobby")

    async def _fenced(self, write: Write[T], what: str) -> T:
        """The one fence every change outside an action's batch is stored behind: ``write``
        runs in one transaction in which the table's row is locked and must still be at this
        actor's version and lease epoch, or nothing is stored (``table_moving`` when the
        lease moved). A database error leaves the table in doubt (the write may be stored):
        the next command reads it back first. ``what`` names the change in the metrics."""
        try:
            async with self.sessions.begin() as session:
                if await table_store.fence(session, self.table_id) != (self.epoch, self.version):
                    raise Conflict("table_moved", "The table moved on meanwhile.")
                return await write(session)
        except IntegrityError:
            raise Conflict("seat_taken", "That seat was just taken.") from None
        except Conflict as exc:
            if exc.code == "table_moved" and self.on_lost is not None:
                self.on_lost(self)
                raise table_moving() from None
            raise
        except STORE_ERRORS:
            metrics.database_error(what)
            self.in_doubt = True
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
        if self.on_timeout == "forfeit" or self.tournament is not None:  # an event: no computer
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
        abandoned = self.abandoned

        async def write(session: AsyncSession) -> None:
            statement, values = match_store.abort_update(match_id)
            await session.execute(statement, values)
            for taken, holder in abandoned.items():
                await table_store.hand_seat(session, self.table_id, taken, holder.player_id, None)
            if leaving is not None:
                await table_store.free_seat(session, self.table_id, leaving)
            await table_store.back_to_waiting(session, self.table_id, status)

        await self._fenced(write, "abort")
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

    async def take_over(self, seat: int, holder: SeatHolder, consequence: str) -> None:
        """Inside a command: a computer player takes ``seat``, whose player ran out of time
        (``takeover``) or is gone (``handed_over``), until that player reclaims it; the seat
        change, the record of who left and the clock (without that seat) are stored
        together, fenced by this worker's lease."""
        assert self.state is not None and self.match_id is not None
        await ensure_bot_players(self.sessions, {seat: TAKEOVER_LEVEL})
        bot = SeatHolder(bot_player_id(TAKEOVER_LEVEL, seat), bot_name(TAKEOVER_LEVEL))
        abandoned = {**self.abandoned, seat: holder}
        await self.change_seat(seat, bot, abandoned, abandonment(seat, holder, consequence))

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
        match_id = self.match_id

        async def write(session: AsyncSession) -> None:
            await table_store.hand_seat(
                session, self.table_id, seat, holder.player_id, abandoned_json(abandoned)
            )
            stored = clock.to_json() if clock is not None else None
            await table_store.set_clock(session, self.table_id, stored, deadline)
            if entry is not None:
                await match_store.mark_abandoned(session, match_id, entry)

        await self._fenced(write, "seat_change")
        self.seats = {**self.seats, seat: holder}
        self.abandoned = abandoned
        self.publish_table()
        self.hub.publish(self.table_id, presenter.welcomes(self))
        self.set_clock(clock)
        self._changed()
