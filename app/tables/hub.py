"""Fan-out of already-redacted frames to the connections watching a table.

The service renders one frame per viewer (``"0"``, ``"1"``, ... for seats, ``"spectator"``),
or one frame for everybody (key ``"*"``), and publishes that mapping. A frame is a dict, or
JSON text already encoded (``encode``) when it is rendered once for many or kept for later.
A hub only routes: it never sees engine objects, and never reads a frame to learn a seat
(each subscriber's seat is set by its table). Each worker's hub serves its own connections;
with several workers the tables are kept in step through the bus (``bus.py``), and each
worker publishes here."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any, Protocol

import orjson

Frame = dict[str, Any] | str  # a frame to encode, or one already encoded
EVERYONE = "*"
SPECTATOR = "spectator"


def encode(frame: dict[str, Any]) -> str:
    """A frame as compact JSON text (orjson: several times faster than the standard library,
    which matters at several frames per move)."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


def viewer_key(seat: int | None) -> str:
    """The key under which a viewer's frame is published."""
    return SPECTATOR if seat is None else str(seat)


class Subscriber(Protocol):
    """A connection: takes frames without ever blocking. Its ``seat`` (None: a spectator)
    is set by the table it watches, which owns the seats, and picks the frames it gets."""

    seat: int | None

    def deliver(self, frame: Frame) -> None:
        """Queue one frame for sending; must not block or await."""
        ...


class Hub(Protocol):
    """Where a table's authority publishes and its connections subscribe."""

    def subscribe(self, table_id: str, subscriber: Subscriber) -> None:
        """Start delivering this table's frames to ``subscriber``."""
        ...

    def unsubscribe(self, table_id: str, subscriber: Subscriber) -> None:
        """Stop delivering; unknown subscribers are ignored."""
        ...

    def publish(self, table_id: str, frames: Mapping[str, Frame]) -> None:
        """Deliver to each subscriber its viewer's frame (or the ``"*"`` frame), in order."""
        ...

    def count(self, table_id: str) -> int:
        """How many subscribers a table has."""
        ...

    def total(self) -> int:
        """How many subscribers all tables have together."""
        ...


class LocalHub:
    """An in-process hub: delivery is a synchronous, non-blocking call per subscriber."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[Subscriber]] = defaultdict(set)

    def subscribe(self, table_id: str, subscriber: Subscriber) -> None:
        """Start delivering this table's frames to ``subscriber``."""
        self._subscribers[table_id].add(subscriber)

    def unsubscribe(self, table_id: str, subscriber: Subscriber) -> None:
        """Stop delivering; unknown subscribers are ignored."""
        subscribers = self._subscribers.get(table_id)
        if subscribers is not None:
            subscribers.discard(subscriber)
            if not subscribers:
                del self._subscribers[table_id]

    def publish(self, table_id: str, frames: Mapping[str, Frame]) -> None:
        """Deliver to each subscriber its viewer's frame (or the ``"*"`` frame)."""
        subscribers = self._subscribers.get(table_id)
        if not subscribers:
            return
        everyone = frames.get(EVERYONE)
        for subscriber in list(subscribers):
            frame = frames.get(viewer_key(subscriber.seat), everyone)
            if frame is not None:
                subscriber.deliver(frame)

    def count(self, table_id: str) -> int:
        """How many subscribers a table has."""
        return len(self._subscribers.get(table_id, ()))

    def total(self) -> int:
        """How many subscribers all tables have together."""
        return sum(len(subscribers) for subscribers in self._subscribers.values())
