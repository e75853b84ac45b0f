"""Each seat's presence at one table: ``connected``, ``away`` or ``gone``.

The table's owner knows every connection watching it (its ``watchers``: local sockets and the
viewers other workers relay), each with the player it speaks for. A human seat is
``connected`` while at least one connection of its player watches the table, ``away`` once the
last one has closed (for at most ``grace`` seconds), and ``gone`` after that, until one of
its connections comes back. A spectator's connection never counts for a seat; bot seats are
left out (a bot never leaves).

Time is the table's clock (``TableAuthority.clock``). When a seat becomes away, the table's
``timekeeper`` (``app.tables.alarms``) sets an alarm for the end of its grace; it queues its
work through the table's inbox, so the flip to ``gone`` happens on its own, in order with the
table's commands. The player's return cancels it. Every change is published to every viewer
as a ``presence`` frame (``frame``), and each viewer gets the current one right after its
welcome.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from app.players.bot_players import bot_level
from app.tables.alarms import Alarm, Timekeeper
from app.tables.commands import Command, PresenceDue
from app.tables.hub import EVERYONE, Hub, Subscriber
from app.tables.presenter import SeatHolder

State = Literal["connected", "away", "gone"]
CONNECTED: State = "connected"
AWAY: State = "away"
GONE: State = "gone"


class Watched(Protocol):
    """What presence needs of its table (the table's actor): who watches it, its seats, its
    clock and hub, and a way to run a step as one of its commands."""

    @property
    def table_id(self) -> str: ...
    @property
    def hub(self) -> Hub: ...
    @property
    def timekeeper(self) -> Timekeeper: ...
    @property
    def watchers(self) -> Mapping[Subscriber, str | None]: ...
    @property
    def seats(self) -> Mapping[int, SeatHolder]: ...
    def clock(self) -> float: ...
    def seat_of(self, player_id: str | None) -> int | None: ...
    def ask(self, command: Command) -> object: ...


@dataclass(eq=False)
class Presence:
    """The presence of one table's human seats, kept by the table's owner."""

    grace: float = 60.0
    wall: Callable[[], float] = time.time  # the server time a frame carries
    away_since: dict[int, float] = field(default_factory=dict)  # by seat, table clock
    gone: set[int] = field(default_factory=set)
    _timers: dict[int, Alarm] = field(default_factory=dict)
    _published: dict[int, State] = field(default_factory=dict)
    _stopped: bool = False
    _looked: bool = False  # whether ``update`` ran once

    def state_of(self, seat: int) -> State | None:
        """The seat's presence, or None for an empty or bot seat."""
        return self._published.get(seat)

    def greeted(self, table: Watched, subscriber: Subscriber) -> None:
        """A viewer was welcomed: every viewer learns of a change it makes (its player is
        back), or else this one alone gets the current presence."""
        if not (self._concerns(table, table.watchers.get(subscriber)) and self.update(table)):
            subscriber.deliver(self.frame(table))

    def left(self, table: Watched, player_id: str | None) -> None:
        """A viewer of ``player_id`` stopped watching: its seat may be away now."""
        if self._concerns(table, player_id):
            self.update(table)

    def _concerns(self, table: Watched, player_id: str | None) -> bool:
        """Whether a viewer of ``player_id`` coming or going may change anything: a seated
        player's, or the first one the table sees (a spectator's needs no look at every
        watcher, however many there are)."""
        return not self._looked or table.seat_of(player_id) is not None

    def update(self, table: Watched) -> bool:
        """Bring each seat's presence up to the table's connections and clock, publishing a
        ``presence`` frame to every viewer when anything changed; True when it did."""
        if self._stopped:
            return False
        self._looked = True
        now = table.clock()
        here = set(table.watchers.values())
        states: dict[int, State] = {}
        for seat, holder in table.seats.items():
            if bot_level(holder.player_id) is not None:
                continue
            if holder.player_id in here:
                self._back(seat)
                states[seat] = CONNECTED
                continue
            since = self.away_since.setdefault(seat, now)
            if seat in self.gone or now - since >= self.grace:
                self._cancel(seat)
                self.gone.add(seat)
                states[seat] = GONE
            else:
                states[seat] = AWAY
                if seat not in self._timers:
                    self._arm(table, seat, since + self.grace - now)
        for seat in [s for s in self.away_since if s not in states]:  # freed or a bot's now
            self._back(seat)
        if states == self._published:
            return False
        self._published = states
        table.hub.publish(table.table_id, {EVERYONE: self.frame(table)})
        return True

    def frame(self, table: Watched) -> dict[str, Any]:
        """The ``presence`` frame: each human seat's state, the grace, the seconds left to an
        away seat, and the server's time (Unix seconds) when it was made."""
        now = table.clock()
        seats: list[dict[str, Any]] = []
        for seat, state in sorted(self._published.items()):
            entry: dict[str, Any] = {"seat": seat, "state": state}
            if state == AWAY:
                left = self.away_since[seat] + self.grace - now
                entry["remaining"] = round(max(0.0, left), 1)
            seats.append(entry)
        return {
            "type": "presence",
            "seats": seats,
            "grace": self.grace,
            "at": round(self.wall(), 3),
        }

    def stop(self) -> None:
        """The table leaves this worker: no timer fires any more, and nothing is published."""
        self._stopped = True
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    def _back(self, seat: int) -> None:
        self._cancel(seat)
        self.away_since.pop(seat, None)
        self.gone.discard(seat)

    def _cancel(self, seat: int) -> None:
        timer = self._timers.pop(seat, None)
        if timer is not None:
            timer.cancel()

    def _arm(self, table: Watched, seat: int, delay: float) -> None:
        """At the end of the seat's grace, look again, as one of the table's commands."""

        def due() -> None:
            self._timers.pop(seat, None)
            if not self._stopped:
                table.ask(PresenceDue(seat))

        self._timers[seat] = table.timekeeper.call_later(delay, due)
