"""A least-recently-used cache bounded in bytes, not entries.

Replays of finished matches (``app.history.replay``) are cached in pieces whose sizes differ a
hundredfold between a short match and a long one: a limit on entries bounds nothing. Each entry
is put with its size in bytes; the least recently used entries are dropped until the total fits,
and an entry larger than the whole budget is not kept at all.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class ByteCache(Generic[T]):
    """Values by key, at most ``budget`` bytes of them (as their ``put`` said)."""

    def __init__(self, budget: int) -> None:
        if budget < 0:
            raise ValueError("a cache's budget cannot be negative")
        self.budget = budget
        self._entries: OrderedDict[Hashable, tuple[T, int]] = OrderedDict()
        self._used = 0

    def get(self, key: Hashable) -> T | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._entries.move_to_end(key)
        return entry[0]

    def put(self, key: Hashable, value: T, size: int) -> bool:
        """Keep ``value`` of ``size`` bytes under ``key``, dropping the least recently used
        entries until everything fits; False (nothing kept) if it alone exceeds the budget."""
        if size < 0:
            raise ValueError("an entry's size cannot be negative")
        self.pop(key)
        if size > self.budget:
            return False
        self._entries[key] = (value, size)
        self._used += size
        while self._used > self.budget:
            _, (_, dropped) = self._entries.popitem(last=False)
            self._used -= dropped
        return True

    def pop(self, key: Hashable) -> None:
        """Forget ``key`` (nothing if it is not kept)."""
        entry = self._entries.pop(key, None)
        if entry is not None:
            self._used -= entry[1]

    @property
    def used(self) -> int:
        """Bytes kept now."""
        return self._used

    def __len__(self) -> int:
        return len(self._entries)
