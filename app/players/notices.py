"""Notices to a player: frames its open pages hear at once on their player socket.

A page keeps one socket per player (``/ws/players``, docs/protocol.md "The player socket");
the pools and the challenges tell a player what concerns it (seated, the computer offer, a
challenge received or answered) by ``notify``. Each worker keeps its own open sockets by
player; ``notify`` hands the frame to this worker's sockets of the player at once and, with
several workers, publishes it on the bus (``talon:player``), so that every other worker hands
it to its own. A notice is a courtesy, not a record: what it says is also in the REST answers
(``GET /api/pools/entry``, ``GET /api/challenges``), which a page reads again whenever its
socket opens, so a notice lost with a worker or with Redis costs a page only its promptness.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from typing import Any, Protocol

from app.common.bus import Message, RedisBus

log = logging.getLogger(__name__)
CHANNEL = "talon:player"

Notice = dict[str, Any]


class Listener(Protocol):
    """An open player socket."""

    def send(self, frame: Notice) -> None:
        """Queue a frame for the socket (must not block or await)."""
        ...


class Notices:
    """This worker's player sockets, and the road to the other workers' ones."""

    def __init__(self) -> None:
        self.bus: RedisBus | None = None
        self._listeners: dict[str, set[Listener]] = defaultdict(set)

    def connect_bus(self, redis_url: str) -> RedisBus:
        """Hear the other workers' notices and send them this worker's (started by the
        caller)."""
        self.bus = RedisBus(
            redis_url, self.on_bus_message, lambda: None, channel=CHANNEL, listen=CHANNEL
        )
        return self.bus

    def listen(self, player_id: str, listener: Listener) -> None:
        """Hand ``listener`` every notice for ``player_id`` from now on."""
        self._listeners[player_id].add(listener)

    def forget(self, player_id: str, listener: Listener) -> None:
        """The socket closed."""
        listeners = self._listeners.get(player_id)
        if listeners is not None:
            listeners.discard(listener)
            if not listeners:
                del self._listeners[player_id]

    def listening(self) -> int:
        """How many player sockets this worker holds."""
        return sum(len(listeners) for listeners in self._listeners.values())

    def notify(self, player_id: str, frame: Notice) -> None:
        """Send ``frame`` to every open socket of ``player_id``, on every worker."""
        self._deliver(player_id, frame)
        if self.bus is not None:
            self.bus.send(CHANNEL, {"player": player_id, "frame": frame})

    def on_bus_message(self, message: Message) -> None:
        """Another worker's notice."""
        player_id, frame = message.get("player"), message.get("frame")
        if isinstance(player_id, str) and isinstance(frame, dict):
            self._deliver(player_id, frame)

    def _deliver(self, player_id: str, frame: Notice) -> None:
        for listener in list(self._listeners.get(player_id, ())):
            listener.send(frame)
