"""One way to build a table's truth from the store: ``load_snapshot`` and ``advance``.

Loading a table, reading it back after a commit whose outcome is unknown (in doubt), and
catching up with what another worker stored all take this one path: read the table's row and
seats, then either replay its match from the seed (a table not yet in memory, or a match that
memory does not have) or ``advance`` the match memory already holds by the log rows after its
version. Only the newest versions get their frames rendered (``keep``): older ones are
applied and forgotten, and a finished match keeps none.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.common.errors import NotFound
from app.common.rules import stored_rules
from app.engine import Action, State, apply, new_match
from app.store import matches as match_store
from app.store import tables as table_store
from app.store.db import AsyncSession
from app.store.models import ActionRecord, Table
from app.store.players import SeatRow
from app.tables.aborts import may_abort
from app.tables.fairness import commitment_of
from app.tables.presenter import SeatHolder, VersionRecord, record_of

# Per-version records kept for resuming viewers: the default resume window (half a 256-frame
# send queue). Each holds its events and every seat's legal list (about 2 KB); a viewer further
# behind gets a full welcome. Trimmed in steps of ``RECORDS_SLACK``.
RECORDS_KEPT = 128
RECORDS_SLACK = 32


@dataclass(frozen=True)
class StoredTable:
    """A table as its store rows say (no match state): enough for its public info."""

    table_id: str
    variant: str
    options: dict[str, Any]
    seat_count: int
    visibility: str
    rated: bool
    spectators: bool
    history: str
    status: str
    seats: Mapping[int, SeatHolder]
    match_id: int | None
    version: int
    invite_code: str
    # SHA-256 of the server's seed for the next match (``tables.fairness``).
    next_commitment: str | None
    lease_epoch: int = 0  # the fence every commit checks (app/store/leases.py)
    # Turn clocks (``tables.clocks``): the mode, what a timeout does, the running clock
    # (stored form) and the seats a computer player took over, with who left each.
    clock_mode: str = "none"
    on_timeout: str = "takeover"
    turn_clock: dict[str, Any] | None = None
    abandoned: Mapping[int, SeatHolder] = field(default_factory=dict)
    # The event the table was opened for, or None (``tables.aborts``).
    tournament: str | None = None


def stored_table(table: Table, seat_rows: Iterable[SeatRow]) -> StoredTable:
    """A table's row and its seats' rows as one value."""
    return StoredTable(
        table_id=table.id,
        variant=table.variant,
        options=table.options,
        seat_count=table.seats,
        visibility=table.visibility,
        rated=table.rated,
        spectators=table.spectators,
        history=table.history,
        status=table.status,
        seats=seat_map(seat_rows),
        match_id=table.match_id,
        version=table.version,
        invite_code=table.invite_code,
        next_commitment=commitment_of(table.next_seed),
        lease_epoch=table.lease_epoch,
        clock_mode=table.clock,
        on_timeout=table.on_timeout,
        turn_clock=table.turn_clock,
        abandoned=abandoned_map(table.abandoned),
        tournament=table.tournament_id,
    )


def abandoned_map(stored: dict[str, Any] | None) -> dict[int, SeatHolder]:
    """The abandoned seats from their stored form (``{seat: {"player_id", "name"}}``)."""
    return {
        int(seat): SeatHolder(str(left["player_id"]), str(left["name"]))
        for seat, left in (stored or {}).items()
    }


def abandoned_json(abandoned: Mapping[int, SeatHolder]) -> dict[str, Any] | None:
    """The stored form of the abandoned seats (None when there are none)."""
    if not abandoned:
        return None
    return {
        str(seat): {"player_id": holder.player_id, "name": holder.name}
        for seat, holder in abandoned.items()
    }


def seat_map(rows: Iterable[SeatRow]) -> dict[int, SeatHolder]:
    """Seats from ``(seat, player)`` rows."""
    return {seat: SeatHolder(player.id, player.name) for seat, player in rows}


@dataclass(frozen=True)
class Position:
    """Where a table in memory stands: its match, its version and that match's state."""

    match_id: int | None
    version: int
    state: State | None
    acted: frozenset[int] = frozenset()  # the seats with an action in the match's log


@dataclass
class Snapshot:
    """A table's truth as read from the store.

    ``fresh``: the match was rebuilt from its seed (``records`` are its newest versions);
    otherwise ``records`` are the versions after the known position, in order, each to be
    applied and published (``state`` is the state after the last of them).
    """

    table: StoredTable
    match_id: int | None
    base_version: int
    version: int
    state: State | None
    fresh: bool
    records: list[VersionRecord] = field(default_factory=list)
    # The seats with an action in the match's log (``fresh``), or in ``records`` (whether
    # the match may still be aborted: ``tables.aborts``).
    acted: frozenset[int] = frozenset()


async def load_snapshot(
    session: AsyncSession,
    table_id: str,
    known: Position | None = None,
    keep: int = RECORDS_KEPT,
) -> Snapshot:
    """The table's truth: rebuilt from the log, or ``known`` advanced by the versions after
    it when the store still holds the same match. ``NotFound`` for an unknown table."""
    table = await table_store.get_table(session, table_id)
    if table is None:
        raise NotFound("table_not_found", "There is no such table.")
    stored = stored_table(table, (await table_store.seats_of(session, [table_id]))[table_id])
    if table.match_id is None:
        return Snapshot(stored, None, table.version, table.version, None, fresh=True)
    if known is not None and known.match_id == table.match_id and known.state is not None:
        rows = []
        if table.version > known.version:
            rows = await match_store.actions_after(session, table.match_id, known.version)
        state, records = advance(
            known.state, rows, known.version, acted=known.acted, event=stored.tournament
        )
        version = known.version + len(records)
        acted = frozenset(row.seat for row in rows)
        return Snapshot(stored, table.match_id, 0, version, state, False, records, acted)
    match = await match_store.get_match(session, table.match_id)
    if match is None:
        raise RuntimeError(f"table {table_id}: its match {table.match_id} is not stored")
    rows = await match_store.actions_of_match(session, match.id)
    version = match.base_version + len(rows)
    if version < table.version:
        raise RuntimeError(f"table {table_id}: log does not reach its version")
    start = new_match(stored_rules(match.variant, match.rules), match.seed, match.dealer)
    state, records = advance(
        start, rows, match.base_version, render_after=version - keep, event=stored.tournament
    )
    if state.match_over:
        records = []  # a finished match: nobody resumes into it, its welcome is enough
    acted = frozenset(row.seat for row in rows)
    return Snapshot(stored, match.id, match.base_version, version, state, True, records, acted)


def advance(
    state: State,
    log_rows: Iterable[ActionRecord],
    base: int,
    render_after: int | None = None,
    acted: frozenset[int] = frozenset(),
    event: str | None = None,
) -> tuple[State, list[VersionRecord]]:
    """Apply logged actions after version ``base`` to ``state``; the state and the records of
    the versions after ``render_after`` (all of them when None). ``acted``: the seats that
    had acted before ``base`` (whether each version left the match abortable); ``event``: the
    event of the table, whose matches are never abortable."""
    records: list[VersionRecord] = []
    expected = base + 1
    for row in log_rows:
        if row.version != expected:
            raise RuntimeError(f"action log has version {row.version}, expected {expected}")
        state, events = apply(state, Action.from_json(row.action), row.seat)
        if row.seat not in acted:
            acted = acted | {row.seat}
        if render_after is None or row.version > render_after:
            abortable = event is None and may_abort(state, acted)
            records.append(record_of(row.version, events, state, row.match_id, None, abortable))
        expected += 1
    return state, records
