"""Events: what an action did, each saying who may see it (RULES.md section 4).

An event is public, or private to one seat with an optional redacted form for everyone else
(a drawn card: the drawer sees the card, the others see that a card was drawn).
"""

from __future__ import annotations

from typing import Any


class Event:
    """One thing that happened. ``for_viewer(seat)`` gives the JSON that viewer may see."""

    __slots__ = ("data", "only", "redacted", "type")

    def __init__(
        self,
        type: str,
        data: dict[str, Any],
        only: int | None = None,
        redacted: dict[str, Any] | None = None,
    ) -> None:
        self.type = type
        self.data = data
        self.only = only
        self.redacted = redacted

    def for_viewer(self, seat: int | None) -> dict[str, Any] | None:
        """The event as ``seat`` may see it (``None``: a spectator), or None if it sees nothing."""
        if self.only is None or self.only == seat:
            return {"type": self.type, **self.data}
        if self.redacted is None:
            return None
        return {"type": self.type, **self.redacted}

    def __repr__(self) -> str:
        scope = "public" if self.only is None else f"seat {self.only}"
        return f"Event({self.type!r}, {self.data!r}, {scope})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.type, self.data, self.only, self.redacted) == (
            other.type,
            other.data,
            other.only,
            other.redacted,
        )

    __hash__ = None  # type: ignore[assignment]


def redact(events: list[Event], seat: int | None) -> list[dict[str, Any]]:
    """The JSON of ``events`` that ``seat`` may see, in order."""
    out = []
    for event in events:
        data = event.for_viewer(seat)
        if data is not None:
            out.append(data)
    return out
