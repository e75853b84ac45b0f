"""The current deal's events as one viewer saw them, carried by a full welcome.

A client that reloads the page gets a snapshot (the view) but not the story of the deal so far
(who declared what, who exchanged or closed). The kept version records hold each viewer's
already redacted update frames, so the story is read back from them: nothing new is revealed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol


class Record(Protocol):
    """What ``deal_events`` needs of a version record."""

    def frame_for(self, seat: int | None) -> str: ...


def deal_events(records: Sequence[Record], seat: int | None) -> list[dict[str, Any]]:
    """The current deal's events, oldest first, as ``seat`` (None: a spectator) received them.

    ``records`` are the current match's newest version records, oldest first. The deal's
    events start at its ``deal_started`` event; a match's first deal starts before any record
    (it is dealt when the match begins), so then every record counts. A deal takes far fewer
    versions than a table keeps, so its start is always among them.
    """
    events: list[dict[str, Any]] = []
    for record in reversed(records):
        received: list[dict[str, Any]] = json.loads(record.frame_for(seat))["events"]
        starts = [i for i, event in enumerate(received) if event["type"] == "deal_started"]
        if starts:
            return received[starts[-1] :] + events
        events = received + events
    return events
