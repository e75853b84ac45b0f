"""Every frame a table sends, rendered in one place: ``welcome``, a resume, ``update``,
``table`` (the public table info) and ``ack``.

A table (``TableAuthority``) decides what happened; this module says how each viewer sees it.
Nothing secret leaves here unredacted: a seat's frames carry only what ``view`` and the
events' ``for_viewer`` give that seat, and a spectator's only what anyone may see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from app.engine import Event, State, seat_options, view
from app.tables.deal_log import deal_events
from app.tables.hub import SPECTATOR, Frame, encode, viewer_key


@dataclass(frozen=True)
class SeatHolder:
    """Who sits in a seat."""

    player_id: str
    name: str


def seat_held(seats: Mapping[int, SeatHolder], player_id: str | None) -> int | None:
    """The seat ``player_id`` holds among ``seats``, or None (a spectator)."""
    if player_id is None:
        return None
    for seat, holder in seats.items():
        if holder.player_id == player_id:
            return seat
    return None


class TableFacts(Protocol):
    """What the public table info is made of (a table in memory or its store row)."""

    @property
    def table_id(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def seat_count(self) -> int: ...
    @property
    def visibility(self) -> str: ...
    @property
    def rated(self) -> bool: ...
    @property
    def spectators(self) -> bool: ...
    @property
    def history(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def seats(self) -> Mapping[int, SeatHolder]: ...
    @property
    def match_id(self) -> int | None: ...
    @property
    def version(self) -> int: ...
    @property
    def next_commitment(self) -> str | None: ...
    @property
    def clock_mode(self) -> str: ...
    @property
    def on_timeout(self) -> str: ...
    @property
    def abandoned(self) -> Mapping[int, SeatHolder]: ...
    @property
    def tournament(self) -> str | None: ...


class MatchFacts(TableFacts, Protocol):
    """A table with its match in memory: what welcomes and resumes are made of."""

    @property
    def state(self) -> State | None: ...
    @property
    def base_version(self) -> int: ...
    @property
    def records(self) -> Sequence[VersionRecord]: ...
    @property
    def abortable(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class VersionRecord:
    """What one accepted action produced: each viewer's ``update`` frame, already encoded.

    The frames are rendered once, when the version is accepted, and kept as JSON text (one
    per seat, then the spectator's): a table keeps a window of records for resuming viewers,
    and text costs the garbage collector nothing where nested events and legal lists made
    every collection walk hundreds of thousands of objects under load.
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
    version: int,
    events: Sequence[Event],
    state: State,
    match_id: int | None,
    clock: dict[str, Any] | None = None,
    abortable: bool = False,
) -> VersionRecord:
    """The ``update`` frames of the action that produced ``state`` at ``version``; at a timed
    table each carries the turn clock as that action left it (``clock``, the same for all).
    ``abortable``: whether the match may still be aborted after it (``tables.aborts``)."""
    texts = []
    for seat in [*range(state.seats), None]:
        frame = {
            "type": "update",
            "match_id": match_id,
            "version": version,
            "events": [seen for event in events if (seen := event.for_viewer(seat)) is not None],
            "to_move": state.to_move,
            "abortable": abortable,
            **seat_options(state, seat),
        }
        if clock is not None:
            frame["clock"] = clock
        texts.append(encode(frame))
    return VersionRecord(version, tuple(texts))


def public_info(table: TableFacts) -> dict[str, Any]:
    """What anyone may know about the table (no invite code)."""
    return {
        "id": table.table_id,
        "variant": table.variant,
        "options": table.options,
        "visibility": table.visibility,
        "rated": table.rated,
        "spectators": table.spectators,
        "history": table.history,
        "status": table.status,
        "seats": [
            {
                "seat": seat,
                "player_id": holder.player_id if holder else None,
                "name": holder.name if holder else None,
            }
            for seat in range(table.seat_count)
            for holder in [table.seats.get(seat)]
        ],
        "match_id": table.match_id,
        "version": table.version,
        "next_commitment": table.next_commitment,
        "clock": table.clock_mode,
        "on_timeout": table.on_timeout,
        # The event the table was opened for: no computer takes a seat over, no abort, no
        # rematch (``tables.aborts``).
        "tournament": table.tournament,
        # Seats a computer player took over when their player's clock ran out: who left them
        # (that player may reclaim the seat while the match is under way).
        "abandoned": [
            {"seat": seat, "player_id": holder.player_id, "name": holder.name}
            for seat, holder in sorted(table.abandoned.items())
        ],
    }


def table_frame(table: TableFacts) -> dict[str, Any]:
    """The ``table`` frame: the seats and status, for everyone."""
    return {"type": "table", "table": public_info(table)}


def welcome(table: MatchFacts, seat: int | None) -> dict[str, Any]:
    """A full snapshot for this viewer."""
    return {
        "type": "welcome",
        "table_id": table.table_id,
        "match_id": table.match_id,
        "seat": seat,
        "version": table.version,
        "view": None if table.state is None else view(table.state, seat),
        "deal_events": deal_events(table.records, seat),
        "abortable": table.abortable,
        "table": public_info(table),
    }


def welcomes(table: MatchFacts) -> dict[str, Frame]:
    """Every viewer's welcome by viewer key (a match begins or is adopted)."""
    frames: dict[str, Frame] = {
        viewer_key(seat): welcome(table, seat) for seat in range(table.seat_count)
    }
    frames[viewer_key(None)] = welcome(table, None)
    return frames


def resume(
    table: MatchFacts, since: int | None, seat: int | None, max_replay: int = 128
) -> list[Frame]:
    """Frames that bring a viewer from ``since`` to now: a short welcome and the missing
    updates when this match holds them (at most ``max_replay``), else a full welcome."""
    kept_from = table.version - len(table.records)  # the oldest version still resumable
    if (
        since is None
        or table.state is None
        or not max(table.base_version, kept_from) <= since <= table.version
        or table.version - since > max_replay
    ):
        return [welcome(table, seat)]
    head: dict[str, Any] = {
        "type": "welcome",
        "table_id": table.table_id,
        "match_id": table.match_id,
        "seat": seat,
        "version": since,
        "view": None,
        "resumed": True,
        "abortable": table.abortable,
        "table": public_info(table),
    }
    missing = table.records[since - kept_from :]
    return [head, *(record.frame_for(seat) for record in missing)]


def error(code: str, message: str, ref: Any = None, **extra: Any) -> dict[str, Any]:
    """An ``error`` frame; ``id`` echoes the client's message id (or null)."""
    return {"type": "error", "id": ref, "code": code, "message": message, **extra}


def ack(ref: Any, version: int) -> dict[str, Any]:
    """The ``ack`` of an accepted action; ``id`` echoes the client's action id."""
    return {"type": "ack", "id": ref, "version": version}
