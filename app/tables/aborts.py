"""Aborting a match (lichess's rule): until every seat has acted in a match's first deal, any
seated player may end it with no winner, no rating change and no statistics.

Whether every seat has acted is read from the seats of the match's stored actions (the table
keeps them as ``acted``, from its log when it is loaded): the engine knows nothing of aborts.
The command itself is the table's (``authority.Abort``); this module holds the rule and the
words every viewer gets.

At a table opened for an event (``tournament`` set) the event decides every match: a match is
never abortable there (a clock that runs out before every seat has acted forfeits the match
like any other), no computer player takes a gone player's seat, and the table plays one
match, with no rematch (the refusals ``no_abort_in_event`` and the like).
"""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from app.common.errors import Conflict, Forbidden
from app.engine import State

PLAYER, CLOCK = "player", "clock"
"""Why a match was aborted: a seated player asked, or a turn clock ran out in time to."""


def may_abort(state: State | None, acted: Set[int]) -> bool:
    """True while the match of ``state`` may still be aborted: it is in its first deal, not
    over, and some seat has no action in its log yet (``acted``: the seats that have)."""
    return (
        state is not None
        and not state.match_over
        and not state.deal_results
        and not set(range(state.seats)) <= acted
    )


def not_seated() -> Forbidden:
    """The refusal of a spectator's abort."""
    return Forbidden("not_seated", "Only a seated player can abort the match.")


def no_match() -> Conflict:
    """The refusal of an abort with no match under way."""
    return Conflict("no_match", "No match is under way at this table.")


def too_late() -> Conflict:
    """The refusal of an abort once every seat has acted in the first deal."""
    return Conflict(
        "abort_too_late",
        "Every player has acted in the first deal: the match can no longer be aborted; "
        "resign instead.",
    )


def no_abort_in_event() -> Conflict:
    """The refusal of an abort at an event's table."""
    return Conflict(
        "event_no_abort",
        "A tournament game cannot be aborted: resign instead, or the clock decides.",
    )


def no_computer_in_event() -> Conflict:
    """The refusal of a computer player in a gone player's seat at an event's table."""
    return Conflict(
        "event_no_computer",
        "In a tournament no computer takes a player's seat: claim the victory instead.",
    )


def no_rematch_in_event() -> Conflict:
    """The refusal of a rematch at an event's table."""
    return Conflict(
        "event_no_rematch",
        "A tournament table plays one match: the tournament pairs the next game.",
    )


def aborted_frame(match_id: int, seat: int, reason: str, left: bool) -> dict[str, Any]:
    """The ``aborted`` frame, the same for every viewer: which match, by which seat (the seat
    whose clock ran out, for ``clock``), why, and whether that seat was given up."""
    return {"type": "aborted", "match_id": match_id, "seat": seat, "reason": reason, "left": left}
