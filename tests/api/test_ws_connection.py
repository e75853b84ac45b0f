"""A connection that falls too far behind is closed with 4008; the others never wait. Under
``talon serve`` (``SEND_MANY``) a connection writes everything queued in one send, in order."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.websockets import WebSocketState

from app.api.socket_protocol import SEND_MANY
from app.api.ws import CLOSE_TOO_SLOW, Connection


class StuckSocket:
    """A socket whose peer never reads: every send waits forever."""

    application_state = WebSocketState.CONNECTED
    scope: dict[str, Any] = {"extensions": {}}  # a server of one frame per send

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


class BatchingSocket(StuckSocket):
    """A socket of ``talon serve``'s protocol: ``texts`` in one send (``SEND_MANY``); every
    send waits for ``writable``, as the protocol waits while the transport is paused."""

    scope = {"extensions": {SEND_MANY: {}}}

    def __init__(self) -> None:
        super().__init__()
        self.sends: list[list[str]] = []
        self.writable = asyncio.Event()
        self.writable.set()

    async def send_text(self, text: str) -> None:
        raise AssertionError("a SEND_MANY socket gets its frames as texts")

    async def send(self, message: dict[str, Any]) -> None:
        assert message["type"] == "websocket.send"
        await self.writable.wait()
        self.sends.append(list(message["texts"]))
        self.sent.extend(message["texts"])


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


async def test_frames_queued_together_go_in_one_send_in_their_order() -> None:
    socket = BatchingSocket()
    connection = Connection(socket, limit=8, player_id=None)  # type: ignore[arg-type]
    connection.start()
    connection.deliver({"type": "update", "version": 1})
    connection.deliver('{"type":"ack","version":1}')  # already encoded text goes as it is
    for _ in range(100):
        if socket.sends:
            break
        await asyncio.sleep(0)
    assert socket.sends == [['{"type":"update","version":1}', '{"type":"ack","version":1}']]
    connection.deliver({"type": "update", "version": 2})
    for _ in range(100):
        if len(socket.sends) == 2:
            break
        await asyncio.sleep(0)
    assert socket.sends[1] == ['{"type":"update","version":2}']
    assert not connection.queue
    await connection.stop()


async def test_a_batching_viewer_too_far_behind_is_closed_and_frames_in_flight_count() -> None:
    socket = BatchingSocket()
    socket.writable.clear()  # the peer reads nothing: the first send waits
    connection = Connection(socket, limit=8, player_id=None)  # type: ignore[arg-type]
    connection.start()
    for version in range(1, 5):
        connection.deliver({"type": "update", "version": version})
    await asyncio.sleep(0.01)  # the pump took the four and waits on the socket
    for version in range(5, 9):  # four more: eight waiting in all, in flight or queued
        connection.deliver({"type": "update", "version": version})
    assert not connection.closing
    connection.deliver({"type": "update", "version": 9})
    assert connection.closing
    for _ in range(100):
        if socket.closed_with is not None:
            break
        await asyncio.sleep(0.01)
    assert socket.closed_with is not None and socket.closed_with[0] == CLOSE_TOO_SLOW
    assert socket.sent == []  # nothing was written before the close
