"""A connection that falls too far behind is closed with 4008; the others never wait. Under
``talon serve`` (``WRITE_NOW``) a connection writes what a turn of the loop queued at the
turn's end, in one write and in order; a write that must wait is finished by a task."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.websockets import WebSocketState

from app.api.socket_protocol import WRITE_NOW
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


class ProtocolSocket(StuckSocket):
    """A socket of ``talon serve``'s protocol (``WRITE_NOW``): ``write_now`` writes ``texts``
    at once while the transport is ``writable``, and the extension's ``writable`` waits for
    that, as the protocol's does while the transport is paused."""

    def __init__(self) -> None:
        super().__init__()
        extension = {"write": self.write_now, "writable": self.wait_writable}
        self.scope = {"extensions": {WRITE_NOW: extension}}
        self.writes: list[list[str]] = []  # each write to the socket, in order
        self.writable = asyncio.Event()
        self.writable.set()

    def write_now(self, texts: list[str]) -> bool:
        if not self.writable.is_set():
            return False
        self.writes.append(list(texts))
        self.sent.extend(texts)
        return True

    async def wait_writable(self) -> None:
        await self.writable.wait()

    async def send_text(self, text: str) -> None:
        raise AssertionError("this socket gets its frames through write_now")


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


async def test_the_frames_of_a_turn_go_in_one_write_at_its_end_in_their_order() -> None:
    sockets = [ProtocolSocket(), ProtocolSocket()]
    actor, other = (Connection(s, limit=8, player_id=None) for s in sockets)  # type: ignore[arg-type]
    actor.start()
    other.start()
    # One move: each viewer's update, then the ack to its actor (already encoded text goes
    # as it is); nothing is written before the turn ends.
    actor.deliver({"type": "update", "version": 1})
    other.deliver({"type": "update", "version": 1})
    actor.deliver('{"type":"ack","version":1}')
    assert sockets[0].writes == sockets[1].writes == []
    await asyncio.sleep(0)
    assert sockets[0].writes == [['{"type":"update","version":1}', '{"type":"ack","version":1}']]
    assert sockets[1].writes == [['{"type":"update","version":1}']]
    actor.deliver({"type": "update", "version": 2})
    await asyncio.sleep(0)
    assert sockets[0].writes[1:] == [['{"type":"update","version":2}']]
    assert not actor.queue and not other.queue
    await actor.stop()
    actor.deliver({"type": "update", "version": 3})  # stopped: never written
    await asyncio.sleep(0)
    assert len(sockets[0].writes) == 2


async def test_a_write_that_must_wait_is_finished_in_order_then_writes_go_at_once_again() -> None:
    socket = ProtocolSocket()
    socket.writable.clear()  # the transport is paused
    connection = Connection(socket, limit=8, player_id=None)  # type: ignore[arg-type]
    connection.deliver({"type": "welcome", "version": 0})  # queued before start goes first
    connection.start()
    connection.deliver({"type": "update", "version": 1})
    await asyncio.sleep(0.01)  # the write could not go: a task waits with it
    connection.deliver({"type": "update", "version": 2})
    assert socket.writes == [] and connection.sending()
    socket.writable.set()
    for _ in range(100):
        if not connection.queue:
            break
        await asyncio.sleep(0)
    assert socket.sent == [
        '{"type":"welcome","version":0}',
        '{"type":"update","version":1}',
        '{"type":"update","version":2}',
    ]
    assert not connection.sending()
    connection.deliver({"type": "update", "version": 3})
    await asyncio.sleep(0)  # the task ended: the next frame goes at the turn's end
    assert socket.writes[-1] == ['{"type":"update","version":3}']
    await connection.stop()


async def test_a_viewer_too_far_behind_is_closed_and_frames_waiting_to_be_written_count() -> None:
    socket = ProtocolSocket()
    socket.writable.clear()  # the peer reads nothing: the first write waits
    connection = Connection(socket, limit=8, player_id=None)  # type: ignore[arg-type]
    connection.start()
    for version in range(1, 5):
        connection.deliver({"type": "update", "version": version})
    await asyncio.sleep(0.01)  # the task took the four and waits on the socket
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
