"""A connection that falls too far behind is closed with 4008; the others never wait."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.websockets import WebSocketState

from app.api.ws import CLOSE_TOO_SLOW, Connection


class StuckSocket:
    """A socket whose peer never reads: every send waits forever."""

    application_state = WebSocketState.CONNECTED

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed_with: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        await asyncio.Event().wait()

    async def close(self, code: int, reason: str) -> None:
        self.closed_with = (code, reason)


class QuickSocket(StuckSocket):
    async def send_text(self, text: str) -> None:
        self.sent.append(text)


async def test_a_viewer_too_far_behind_is_closed_and_the_others_carry_on() -> None:
    stuck, quick = StuckSocket(), QuickSocket()
    slow = Connection(stuck, limit=8, player_id=None)  # type: ignore[arg-type]
    fast = Connection(quick, limit=8, player_id=None)  # type: ignore[arg-type]
    slow.start()
    fast.start()
    for version in range(1, 31):
        frame: dict[str, Any] = {"type": "update", "version": version}
        slow.deliver(frame)  # never blocks, even though nothing drains
        fast.deliver(frame)
        await asyncio.sleep(0)
    for _ in range(500):  # give the drain tasks turns until the slow one gives up
        if slow.closing and stuck.closed_with is not None and len(quick.sent) == 30:
            break
        await asyncio.sleep(0.01)
    assert slow.closing and stuck.closed_with is not None
    assert stuck.closed_with[0] == CLOSE_TOO_SLOW == 4008
    assert len(quick.sent) == 30 and not fast.closing
    await fast.stop()
