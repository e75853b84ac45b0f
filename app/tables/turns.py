"""A table's turn clocks and its action path: the part of its actor (``TableAuthority``)
that checks, stores and steps to an action, and keeps the clock of the seat on move."""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any

from app.common.errors import (
    Conflict,
    Unavailable,
    table_moving,
)
from app.engine import Action, ActionError, IllegalAction, State, apply
from app.engine.actions import RESIGN
from app.players.bot_players import bot_level
from app.players.ratings import rating_step
from app.store import matches as match_store
from app.store import tables as table_store
from app.store.db import BoundStatement, Step
from app.tables import aborts, presenter
from app.tables.clocks import (
    ClockRules,
    TurnClock,
    after_move,
    clock_frame,
)
from app.tables.commands import (
    Act,
    Timeout,
)
from app.tables.committer import Write
from app.tables.hub import EVERYONE, encode
from app.tables.presenter import SeatHolder, record_of
from app.tables.table import ActionRejected, Table

log = logging.getLogger(__name__)
ALARM_RETRY_S = 2.0
"""Wait before a turn clock's consequence is tried again after the database failed."""


class PlayedTable(Table):
    """A table's turn clocks and action path (its actor's, ``TableAuthority``)."""

    @functools.cached_property
    def clock_rules(self) -> ClockRules | None:
        """The table's turn clock (None: untimed). Read once: a table's clock mode and the
        server's lengths never change while it is in memory, and an action reads it four
        times."""
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

    def set_clock(self, turn_clock: TurnClock | None, *, publish: bool = True) -> None:
        """Take ``turn_clock`` (already stored), tell every viewer (unless an update just
        carried it: ``publish`` False) and set its alarm."""
        self.turn_clock = turn_clock
        frame = self.clock_now() if publish else None
        if frame is not None:  # the same for every viewer: encoded once
            self.hub.publish(self.table_id, {EVERYONE: encode(frame)})
        self.arm()

    def arm(self) -> None:
        """Make the alarm ring for the running clock's deadline (and for no other); at an
        untimed table, or with nobody's clock running, none rings.

        A move usually puts the deadline later, so an alarm already set for an earlier time
        is kept: when it rings it finds the later deadline and sets itself again for it. A
        move then costs no alarm of the event loop's, only this note of the deadline."""
        deadline = self.deadline()
        if deadline is None or self.turn_clock is None:
            self.disarm()
            return
        self._due = (deadline, self.turn_clock.version)
        if self._alarm is None or self._alarm_at > deadline:
            self._set_alarm(deadline)

    def _set_alarm(self, when: float) -> None:
        """Ring at ``when`` (wall time), instead of at any time set before."""
        if self._alarm is not None:
            self._alarm.cancel()
        self._alarm_at = when
        self._alarm = self.timekeeper.call_at(when, self._ring)

    def _ring(self) -> None:
        """The alarm rang: the clock it was set for runs out now, or it moved on (a move,
        a retry) and the alarm is set again for its deadline."""
        self._alarm = None
        if self._due is None:
            return
        deadline, version = self._due
        if deadline > self.timekeeper.now():
            self._set_alarm(deadline)
            return
        self._due = None
        self.ask(Timeout(version)).add_done_callback(self._rang)

    def _rang(self, answer: asyncio.Future[None]) -> None:
        """The timeout's outcome (nobody waits for it): a failure is logged, and when the
        database was away the alarm rings again a little later."""
        if answer.cancelled() or answer.exception() is None:
            return
        exc = answer.exception()
        log.warning("a turn clock's consequence failed: %s", exc, extra=self._log_fields())
        if isinstance(exc, Unavailable) and self._alarm is None:
            retry = self.timekeeper.now() + ALARM_RETRY_S
            self._due = (retry, self.version)
            self._set_alarm(retry)

    async def forfeit(self, seat: int, holder: SeatHolder, consequence: str) -> None:
        """Inside a command: ``seat``, whose player ran out of time (``forfeit``) or is gone
        (``claimed``), resigns the match: an action in the log, stored with the match's
        record of who abandoned it."""
        assert self.state is not None and self.match_id is not None
        entry = abandonment(seat, holder, consequence)
        new_state, events = apply(self.state, RESIGN, seat)
        await self._store_and_step(
            seat, RESIGN, new_state, events, [match_store.abandoned_step(self.match_id, entry)]
        )

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
        seat = self._check(command.player_id, command.version, _is_resign(command.action))
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
        abortable = self.tournament is None and aborts.may_abort(new_state, self.acted)
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

    def _check(self, player_id: str | None, version: Any, any_version: bool = False) -> int:
        """The seat of ``player_id`` if it may act at ``version`` now; else ActionRejected.

        A resignation (``any_version``) does not depend on the position, so it is taken at any
        version of the running match (not one of an earlier match, nor a future one): a
        computer's move arriving just before it does not refuse it.
        """
        seat = self.seat_of(player_id)
        if seat is None:
            raise ActionRejected("not_seated", "Spectators cannot act; take a seat first.")
        if self.state is None:
            raise ActionRejected("no_match", "No match is under way at this table.")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ActionRejected("bad_message", "An action needs an integer 'version'.")
        of_this_match = self.base_version <= version <= self.version
        if version != self.version and not (any_version and of_this_match):
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


def abandonment(seat: int, holder: SeatHolder, consequence: str) -> dict[str, Any]:
    """The match's record of a player who ran out of time."""
    return {
        "seat": seat,
        "player_id": holder.player_id,
        "name": holder.name,
        "consequence": consequence,
    }


def _is_resign(action: Any) -> bool:
    """Whether a client's action (still JSON) is a resignation."""
    return isinstance(action, dict) and action.get("type") == "resign"
