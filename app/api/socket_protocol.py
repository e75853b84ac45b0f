"""The WebSocket protocol ``talon serve`` gives uvicorn: its sans-I/O protocol, lighter to hold.

A table socket is held for as long as its page is open, mostly idle, so what uvicorn keeps
per connection decides how many sockets a worker can hold. Its protocol keeps two things a
connection no longer needs once open, about 10 KiB of the 20 KiB it holds per connection
(docs/architecture.md, "Performance"):

- the opening handshake (the request with its headers, and the response), read only until
  the response is sent, and kept alive by uvicorn's protocol and by websockets' parser;
- an ``asyncio.Queue`` and two ``asyncio.Event``: each holds empty double-ended queues of
  about 760 bytes (a queue four, an event one), while a socket has one reader, a message or
  two waiting at most (uvicorn stops reading until the application takes the last one) and
  one writer.

``Inbox`` and ``Flag`` keep those promises with a list and a future made only while someone
waits.

It also lets the application write several text frames to the socket in one write, at once,
without a task or an await, while the socket takes them (``WRITE_NOW``): a move sends its
actor the update and the ack together, and a write is a system call. Everything else,
framing, pings, closing, flow control, is uvicorn's, unchanged.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import Protocol, State

# The scope extension ``SocketProtocol`` announces: its ``write`` is
# ``SocketProtocol.write_now`` (text frames written to the socket at once, in one write and in
# that order, while it is open and its transport takes them; False, nothing written,
# otherwise), and its ``writable`` waits until the transport takes writes again (or the
# connection is lost).
WRITE_NOW = "talon.websocket.write_now"


class Inbox:
    """What ``asyncio.Queue`` does for uvicorn's protocol (``put_nowait``, ``get``,
    ``empty``, ``qsize``) for any number of readers, allocating only while one waits."""

    __slots__ = ("_items", "_waiters")

    def __init__(self) -> None:
        self._items: list[Any] = []
        self._waiters: list[asyncio.Future[None]] = []

    def put_nowait(self, item: Any) -> None:
        """Add ``item`` and wake the first reader waiting."""
        self._items.append(item)
        self._wake_one()

    def _wake_one(self) -> None:
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
                return

    async def get(self) -> Any:
        """The oldest item, once there is one. A reader cancelled while it waits takes
        nothing, and passes its wake-up on to the next reader."""
        while not self._items:
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            except BaseException:
                if self._items and waiter.done() and not waiter.cancelled():
                    self._wake_one()  # woken, then cancelled: another reader takes it
                raise
            finally:
                self._waiters.remove(waiter)
        return self._items.pop(0)

    def empty(self) -> bool:
        """True when nothing waits to be read."""
        return not self._items

    def qsize(self) -> int:
        """How many items wait to be read."""
        return len(self._items)


class Flag:
    """What ``asyncio.Event`` does for uvicorn's protocol (``set``, ``clear``, ``is_set``,
    ``wait``), allocating only while one waits."""

    __slots__ = ("_set", "_waiters")

    def __init__(self) -> None:
        self._set = False
        self._waiters: list[asyncio.Future[None]] = []

    def is_set(self) -> bool:
        """True once set, until cleared."""
        return self._set

    def set(self) -> None:
        """Set the flag and wake every waiter."""
        if not self._set:
            self._set = True
            for waiter in self._waiters:
                if not waiter.done():
                    waiter.set_result(None)

    def clear(self) -> None:
        """Unset the flag."""
        self._set = False

    async def wait(self) -> None:
        """Return at once while set, else when next set."""
        if self._set:
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            self._waiters.remove(waiter)


class SocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with ``Inbox`` and ``Flag`` in place of its
    queue and event, which lets go of the handshake once the connection is open, and writes
    a batch of frames at once without an await (``WRITE_NOW``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = Inbox()  # type: ignore[assignment]
        writable = Flag()
        writable.set()
        self.writable = writable  # type: ignore[assignment]

    def handle_connect(self, event: Any) -> None:
        """uvicorn's, and the scope announces ``WRITE_NOW``."""
        super().handle_connect(event)
        self.scope["extensions"][WRITE_NOW] = {
            "write": self.write_now,
            "writable": self.writable.wait,
        }

    def write_now(self, texts: list[str]) -> bool:
        """Frame ``texts`` and write them to the socket in one write, now, if the connection
        is open and its transport is not paused; False, with nothing written, otherwise (the
        caller waits for ``writable`` and tries again; False once more: the connection is
        closing or gone)."""
        conn = self.conn
        if (
            self.disconnected
            or not self.writable.is_set()
            or self.close_sent
            or conn.state is not State.OPEN
            or self.transport.is_closing()
        ):
            return False
        for text in texts:
            conn.send_text(text.encode())
        self.transport.write(b"".join(conn.data_to_send()))
        return True

    def start_keepalive(self) -> None:
        """Called once the handshake's response is sent: nothing reads the handshake again."""
        self.request = None  # type: ignore[assignment]
        self.response = None  # type: ignore[assignment]
        conn = self.conn
        # websockets' parser reads the handshake, then frames for the connection's life in
        # the same generator, whose frame keeps the request alive. A client waits for the
        # response before it sends a frame (RFC 6455, 4.1), so nothing is buffered and the
        # parser waits at a frame's start: a new frame parser (the one websockets' own runs
        # after the handshake) takes over. Otherwise the old one carries on.
        if conn.state is State.OPEN and conn.parser_exc is None and not conn.reader.buffer:
            conn.parser = Protocol.parse(conn)
            next(conn.parser)
        super().start_keepalive()
