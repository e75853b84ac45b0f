"""Rematch by consent: after a match, a seated player's request is an offer the others accept.

A new match starts only when every seat has accepted; computer seats accept at once, so at a
table of one player and computer players the first request starts it. Any seated player may
decline (the offerer too: it withdraws the offer), which ends the offer for everyone; an offer
nobody completes expires ``seconds`` after it was made, measured with the table's clock. Every
viewer is told each step in a ``rematch`` frame, and a viewer arriving while an offer stands
gets it right after its welcome.

The offer lives in the table owner's memory only (``TableAuthority.rematch``, which only the
actor sets): it does not
survive a restart of the owner or the table moving to another owner; the players then simply
ask again. The contributions to the next match's seed that the acceptors sent are stored at
once (``tables.fairness``), so they count whichever request completes the offer.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Protocol, TypeVar

from app.tables.alarms import Alarm, Timekeeper
from app.tables.commands import ExpireRematch

PENDING, STARTED, DECLINED, EXPIRED = "pending", "started", "declined", "expired"
_numbers = itertools.count(1)


@dataclass(frozen=True, eq=False)
class RematchOffer:
    """A standing offer: who made it, which seats have accepted (computer seats at once),
    and when it expires on the table's clock."""

    offered_by: int
    accepted: frozenset[int]
    deadline: float
    seats: int
    number: int = field(default_factory=lambda: next(_numbers))  # tells offers apart
    timer: Alarm | None = None

    def accept(self, seat: int) -> RematchOffer:
        """The offer with ``seat``'s acceptance added."""
        return replace(self, accepted=self.accepted | {seat})

    @property
    def complete(self) -> bool:
        """True when every seat has accepted: the new match starts."""
        return len(self.accepted) == self.seats

    def state(self, now: float, outcome: str = PENDING, by: int | None = None) -> dict[str, Any]:
        """What every viewer may know of the offer at ``now``: the ``rematch`` frame's body.
        ``by``: the seat that declined (``declined``)."""
        left = 0 if outcome != PENDING else max(0, math.ceil(self.deadline - now))
        return {
            "offered_by": self.offered_by,
            "accepted": sorted(self.accepted),
            "seconds_left": left,
            "outcome": outcome,
            "declined_by": by,
        }

    def frame(self, now: float, outcome: str = PENDING, by: int | None = None) -> dict[str, Any]:
        """The ``rematch`` frame (the same for every viewer: nothing in it is secret)."""
        return {"type": "rematch", **self.state(now, outcome, by)}


class Offered(Protocol):
    """What an offer's timer needs of its table (the table's actor): its clock and alarms."""

    @property
    def timekeeper(self) -> Timekeeper: ...
    def clock(self) -> float: ...


Table = TypeVar("Table", bound=Offered)
# Queue ``command`` (the offer's expiry) in the table's inbox; given by the lobby, which knows
# whether this worker still holds the table.
Queue = Callable[[Table, ExpireRematch], None]


def new_offer(seat: int, seats: int, computers: Collection[int], deadline: float) -> RematchOffer:
    """``seat``'s offer at a table of ``seats`` where ``computers`` play (they accept at once)."""
    return RematchOffer(seat, frozenset({seat, *computers}), deadline, seats)


def stand(
    previous: RematchOffer | None, offer: RematchOffer, arm: Callable[[RematchOffer], Alarm]
) -> RematchOffer:
    """``offer`` (its acceptance stored) as the table's standing offer: a new offer gets its
    expiry timer (``arm``), an accepted one keeps its own."""
    if previous is not None and previous.timer is not None:
        return replace(offer, timer=previous.timer)
    return replace(offer, timer=arm(offer))


def keep_timer(previous: RematchOffer | None, offer: RematchOffer) -> RematchOffer:
    """``offer``, completed, with the standing offer's timer (so that ending it stops it)."""
    return replace(offer, timer=None if previous is None else previous.timer)


def ended(offer: RematchOffer, now: float, outcome: str, by: int | None = None) -> dict[str, Any]:
    """The ``rematch`` frame that ends ``offer`` (started, declined or expired); its timer is
    stopped."""
    if offer.timer is not None:
        offer.timer.cancel()
    return offer.frame(now, outcome, by)


class Rematches(Generic[Table]):
    """The offers' timing: how long one stands, and the timer that ends it on its own."""

    def __init__(self, seconds: float, queue: Queue[Table]) -> None:
        self.seconds = seconds
        self.queue = queue

    def arm(self, table: Table, offer: RematchOffer) -> Alarm:
        """At the deadline on the table's clock, queue the offer's expiry as the table's
        command (``table.timekeeper``'s alarm)."""
        expiry = ExpireRematch(offer.number)
        return table.timekeeper.call_later(
            offer.deadline - table.clock(), lambda: self.queue(table, expiry)
        )
