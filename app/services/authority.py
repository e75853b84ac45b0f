"""One authority per table: the only code that changes a table's match.

Every action follows one path, strictly one at a time per table (``asyncio.Lock``):
check seat and version -> ``engine.apply`` -> append the action and bump the version in one
transaction -> commit -> publish each viewer's redacted update -> return the new version
(the caller then acks). Nothing leaves this module before it is redacted for its viewer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, async_sessionmaker

from app.engine import (
    Action,
    ActionError,
    Event,
    IllegalAction,
    Rules,
    State,
    apply,
    legal_actions,
    new_match,
    view,
)
from app.services.committer import Committer, Extra, Write
from app.services.errors import Conflict, ServiceError
from app.services.hub import EVERYONE, Frame, Hub, Subscriber, viewer_key
from app.store import matches as match_store
from app.store import tables as table_store
from app.store.db import AsyncSession
from app.store.models import ActionRecord

log = logging.getLogger(__name__)


class ActionRejected(ServiceError):
    """An action refused with the engine's or the protocol's code; nothing changed."""

    status = 409


@dataclass(frozen=True)
class SeatHolder:
    """Who sits in a seat."""

    player_id: str
    name: str


@dataclass(frozen=True)
class VersionRecord:
    """What one accepted action produced: its events and who may do what next."""

    version: int
    events: tuple[Event, ...]
    to_move: int | None
    legal: tuple[list[dict[str, Any]], ...]

    def frame_for(self, seat: int | None, match_id: int | None) -> Frame:
        """The ``update`` frame this viewer may see."""
        events = [e for e in (event.for_viewer(seat) for event in self.events) if e is not None]
        legal = self.legal[seat] if seat is not None and seat < len(self.legal) else []
        return {
            "type": "update",
            "match_id": match_id,
            "version": self.version,
            "events": events,
            "to_move": self.to_move,
            "legal": legal,
        }


def record_of(version: int, events: Sequence[Event], state: State) -> VersionRecord:
    """The record of the action that produced ``state`` at ``version``."""
    legal = tuple(
        [action.to_json() for action in legal_actions(state, seat)] for seat in range(state.seats)
    )
    return VersionRecord(version, tuple(events), state.to_move, legal)


def replay(
    rules: Rules, seed: str, dealer: int | None, log_rows: Iterable[ActionRecord], base: int
) -> tuple[State, list[VersionRecord]]:
    """Rebuild a match from its seed and its action log, with every version's record."""
    state = new_match(rules, seed, dealer)
    records: list[VersionRecord] = []
    expected = base + 1
    for row in log_rows:
        if row.version != expected:
            raise RuntimeError(f"action log has version {row.version}, expected {expected}")
        state, events = apply(state, Action.from_json(row.action), row.seat)
        records.append(record_of(row.version, events, state))
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
    match_id: int | None = None
    base_version: int = 0
    state: State | None = None
    records: list[VersionRecord] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    # -- reading -------------------------------------------------------------------------

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
        }

    def welcome(self, seat: int | None) -> Frame:
        """A full snapshot for this viewer."""
        return {
            "type": "welcome",
            "table_id": self.table_id,
            "match_id": self.match_id,
            "seat": seat,
            "version": self.version,
            "view": None if self.state is None else view(self.state, seat),
            "table": self.public_info(),
        }

    def resume(self, since: int | None, seat: int | None, max_replay: int = 128) -> list[Frame]:
        """Frames that bring a viewer from ``since`` to now: a short welcome and the missing
        updates when this match holds them (at most ``max_replay``), else a full welcome."""
        if (
            since is None
            or self.state is None
            or not self.base_version <= since <= self.version
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
        missing = self.records[since - self.base_version :]
        return [head, *(record.frame_for(seat, self.match_id) for record in missing)]

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

    def begin_match(self, match_id: int, state: State) -> None:
        """Switch to a newly stored match (caller holds the lock and has committed)."""
        self.match_id = match_id
        self.state = state
        self.base_version = self.version
        self.records = []
        self.status = "live"
        self.publish_table()
        frames = {viewer_key(seat): self.welcome(seat) for seat in range(self.seat_count)}
        frames[viewer_key(None)] = self.welcome(None)
        self.hub.publish(self.table_id, frames)

    async def act(self, player_id: str | None, version: Any, action_json: Any) -> int:
        """Apply one action for this player's seat at ``version``; the new version on success.

        Raises ``ActionRejected`` (nothing changed) or ``Unavailable`` (storage failed,
        nothing changed). Shielded: a caller that goes away cannot leave a stored action
        unapplied in memory.
        """
        return await asyncio.shield(self._act(player_id, version, action_json))

    async def _act(self, player_id: str | None, version: Any, action_json: Any) -> int:
        async with self.lock:
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
            self.state = new_state
            self.version += 1
            record = record_of(self.version, events, new_state)
            self.records.append(record)
            if new_state.match_over:
                self.status = "finished"
            self._publish(record)
            return self.version

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
        )
        try:
            await self.committer.submit(write)
        except Conflict as exc:
            raise ActionRejected(exc.code, exc.message, version=self.version) from None

    def _result_updates(self, new_state: State) -> list[Extra]:
        """Store writes for a deal or a match that this action ended (same transaction)."""
        assert self.state is not None and self.match_id is not None
        match_id, table_id = self.match_id, self.table_id
        # Deal seeds stay out of the store's public record until the match is over.
        deals = [r.to_json(reveal_seed=new_state.match_over) for r in new_state.deal_results]
        points = list(new_state.game_points)
        if new_state.match_over:
            winner = new_state.match_winner

            async def finish(connection: AsyncConnection) -> None:
                await match_store.finish_match(
                    connection, match_id, winner=winner, deals=deals, game_points=points
                )
                await table_store.set_status(connection, table_id, "finished")

            return [finish]
        if len(new_state.deal_results) != len(self.state.deal_results):

            async def record(connection: AsyncConnection) -> None:
                await match_store.record_deals(connection, match_id, deals, points)

            return [record]
        return []

    def _publish(self, record: VersionRecord) -> None:
        frames: dict[str, Frame] = {
            viewer_key(seat): record.frame_for(seat, self.match_id)
            for seat in range(self.seat_count)
        }
        frames[viewer_key(None)] = record.frame_for(None, self.match_id)
        self.hub.publish(self.table_id, frames)


def seat_map(rows: Iterable[tuple[int, Any]]) -> dict[int, SeatHolder]:
    """Seats from ``(seat, player)`` rows."""
    return {seat: SeatHolder(player.id, player.name) for seat, player in rows}
