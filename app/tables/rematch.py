"""Rematch by consent: after a match, a seated player's request is an offer the others accept.

A new match starts only when every seat has accepted; computer seats accept at once, so at a
table of one player and computer players the first request starts it. Any seated player may
decline (the offerer too: it withdraws the offer), which ends the offer for everyone; an offer
nobody completes expires ``seconds`` after it was made, measured with the table's clock. Every
viewer is told each step in a ``rematch`` frame, and a viewer arriving while an offer stands
gets it right after its welcome.

The offer lives in the table owner's memory only (``TableAuthority.rematch``): it does not
survive a restart of the owner or the table moving to another owner; the players then simply
ask again. The contributions to the next match's seed that the acceptors sent are stored at
once (``tables.fairness``), so they count whichever request completes the offer.
"""

from __future__ import annotations

import itertools
import logging
import math
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Protocol, TypeVar

from app.tables.alarms import Alarm, Timekeeper
from app.tables.hub import EVERYONE, Hub

log = logging.getLogger(__name__)

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
    """What an offer needs of its table (the table's actor): its standing offer, its clock,
    its alarms and its hub."""

    rematch: RematchOffer | None

    @property
    def table_id(self) -> str: ...
    @property
    def hub(self) -> Hub: ...
    @property
    def timekeeper(self) -> Timekeeper: ...
    def clock(self) -> float: ...


Table = TypeVar("Table", bound=Offered)
# Queue ``step`` as the table's command; given by the lobby, which owns the inbox's command
# kinds, so that this module needs nothing of the actor's.
Queue = Callable[[Table, Callable[[Table], Awaitable[None]]], None]


def new_offer(seat: int, seats: int, computers: Collection[int], deadline: float) -> RematchOffer:
    """``seat``'s offer at a table of ``seats`` where ``computers`` play (they accept at once)."""
    return RematchOffer(seat, frozenset({seat, *computers}), deadline, seats)


class Rematches(Generic[Table]):
    """The offers' timing: how long one stands, and the timer that ends it on its own."""

    def __init__(self, seconds: float, queue: Queue[Table]) -> None:
        self.seconds = seconds
        self.queue = queue

    def stand(self, table: Table, offer: RematchOffer) -> RematchOffer:
        """Make ``offer`` the table's standing offer (after the acceptance was stored) and tell
        every viewer; a new offer gets its expiry timer, an accepted one keeps its own."""
        previous = table.rematch
        if previous is not None and previous.timer is not None:
            offer = replace(offer, timer=previous.timer)
        else:
            offer = replace(offer, timer=self._arm(table, offer))
        table.rematch = offer
        publish(table, offer.frame(table.clock()))
        return offer

    def start(self, table: Table, offer: RematchOffer) -> dict[str, Any]:
        """The last acceptance (stored with the new match) completed ``offer``: it ends as
        started, before the new match's welcomes; its last state."""
        previous = table.rematch
        table.rematch = replace(offer, timer=None if previous is None else previous.timer)
        return self.end(table, STARTED)

    def end(self, table: Table, outcome: str, by: int | None = None) -> dict[str, Any]:
        """End the standing offer (started, declined or expired), stop its timer and tell
        every viewer; the offer's last state."""
        offer = table.rematch
        assert offer is not None
        table.rematch = None
        if offer.timer is not None:
            offer.timer.cancel()
        frame = offer.frame(table.clock(), outcome, by)
        publish(table, frame)
        return {k: v for k, v in frame.items() if k != "type"}

    def _arm(self, table: Table, offer: RematchOffer) -> Alarm:
        """At the deadline on the table's clock, queue the expiry as the table's command
        (``table.timekeeper``'s alarm): it expires the offer only if that offer still stands,
        so exactly once."""

        async def expire(table: Table) -> None:
            standing = table.rematch
            if standing is not None and standing.number == offer.number:
                standing = replace(standing, timer=None)  # the timer is this one: done
                table.rematch = standing
                self.end(table, EXPIRED)
                log.info("a rematch offer expired", extra={"table_id": table.table_id})

        return table.timekeeper.call_later(
            offer.deadline - table.clock(), lambda: self.queue(table, expire)
        )


def publish(table: Table, frame: dict[str, Any]) -> None:
    """Send ``frame`` to every viewer of ``table``."""
    table.hub.publish(table.table_id, {EVERYONE: frame})
