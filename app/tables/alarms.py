"""Alarms: the one way the table service schedules work for later.

A turn clock that runs out, an away player's grace that ends and a rematch offer that expires
each set an alarm here; the alarm only queues a command in the table's inbox, so what it
starts runs in order with the table's actions. Deadlines are wall times so that a turn clock's
means the same after a restart or on another worker. Tests give the table service a
``Timekeeper`` of their own whose time moves only when they say.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol


class Alarm(Protocol):
    """A set alarm; ``cancel`` stops it ringing."""

    def cancel(self) -> None:
        """Stop the alarm (nothing happens if it already rang)."""
        ...


class Timekeeper:
    """The wall clock and alarms on the running event loop."""

    def now(self) -> float:
        """Seconds since the epoch."""
        return time.time()

    def call_at(self, when: float, ring: Callable[[], None]) -> Alarm:
        """Call ``ring`` at wall time ``when`` (at once if it has passed)."""
        delay = max(0.0, when - self.now())
        return asyncio.get_running_loop().call_later(delay, ring)

    def call_later(self, delay: float, ring: Callable[[], None]) -> Alarm:
        """Call ``ring`` once ``delay`` seconds have passed on this clock."""
        return self.call_at(self.now() + max(0.0, delay), ring)
