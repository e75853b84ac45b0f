"""The WebSocket protocol talon serve gives uvicorn (app/api/socket_protocol.py): its queue
and flag keep asyncio's promises, an open connection lets go of its handshake, and frames
written now go to the socket at once."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import pytest
import websockets
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.frames import Frame
from websockets.protocol import Protocol
from websockets.uri import parse_uri

from app.api.socket_protocol import WRITE_NOW, Flag, Inbox, SocketProtocol
from app.cli import uvicorn_options
from app.settings import Settings
from tests.support import live_server, settings_for


async def test_the_inbox_hands_items_out_in_order() -> None:
    inbox = Inbox()
    assert inbox.empty() and inbox.qsize() == 0
    inbox.put_nowait(1)
    inbox.put_nowait(2)
    assert inbox.qsize() == 2
    reader = asyncio.create_task(inbox.get())
    assert await reader == 1
    assert await inbox.get() == 2
    assert inbox.empty()


async def test_a_waiting_reader_is_woken_by_the_next_item() -> None:
    inbox = Inbox()
    first, second = asyncio.create_task(inbox.get()), asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    inbox.put_nowait("a")
    inbox.put_nowait("b")
    assert await asyncio.wait_for(asyncio.gather(first, second), 1) == ["a", "b"]


async def test_a_reader_cancelled_after_its_wake_up_leaves_the_item_to_the_next() -> None:
    inbox = Inbox()
    first, second = asyncio.create_task(inbox.get()), asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    inbox.put_nowait("only")  # wakes the first reader ...
    first.cancel()  # ... which is cancelled before it runs
    assert await asyncio.wait_for(second, 1) == "only"
    assert first.cancelled()
    assert inbox.empty()


async def test_a_reader_that_times_out_takes_nothing() -> None:
    inbox = Inbox()
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(inbox.get(), 0.01)
    inbox.put_nowait("late")
    assert await inbox.get() == "late"


async def test_the_flag_wakes_every_waiter_and_passes_while_set() -> None:
    flag = Flag()
    assert not flag.is_set()
    waiters = [asyncio.create_task(flag.wait()) for _ in range(3)]
    await asyncio.sleep(0)
    assert not any(waiter.done() for waiter in waiters)
    flag.set()
    await asyncio.wait_for(asyncio.gather(*waiters), 1)
    await asyncio.wait_for(flag.wait(), 1)  # set: at once
    flag.clear()
    late = asyncio.create_task(flag.wait())
    await asyncio.sleep(0.01)
    assert not late.done()
    flag.set()
    await asyncio.wait_for(late, 1)


def test_talon_serve_runs_uvicorn_with_this_protocol() -> None:
    assert uvicorn_options(Settings())["ws"] is SocketProtocol


async def test_an_open_connection_holds_no_handshake_and_its_messages_still_flow(
    database_url: str,
) -> None:
    async with (
        live_server(settings_for(database_url)) as base,
        websockets.connect(f"ws://{base}/ws/tables/nope") as socket,
    ):
        gc.collect()
        protocols = [o for o in gc.get_objects() if isinstance(o, SocketProtocol)]
        assert len(protocols) == 1, "the connection did not go through SocketProtocol"
        assert protocols[0].request is None and protocols[0].response is None
        # The parser that read the handshake (and kept the request) gave way to a frame
        # parser; the next message is still read.
        assert protocols[0].conn.parser.gi_code is Protocol.parse.__code__
        await socket.send('{"type": "ping"}')  # not a hello: refused, then closed
        refusal = await asyncio.wait_for(socket.recv(), 5)
        assert "hello_expected" in refusal


class Transport(asyncio.Transport):
    """A transport that keeps what is written to it."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closing = False

    def write(self, data: Any) -> None:
        self.writes.append(bytes(data))

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 50000)}.get(
            name, default
        )

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True


async def handshake() -> tuple[SocketProtocol, Transport, ClientProtocol, dict[str, Any]]:
    """A ``SocketProtocol`` over a recording transport, opened by a client's handshake, and
    the scope its application got once it accepted."""
    accepted: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        accepted.set_result(scope)
        await receive()

    config = Config(app=app, ws_ping_interval=None, lifespan="off")
    config.load()
    protocol = SocketProtocol(config, ServerState(), {})
    transport = Transport()
    protocol.connection_made(transport)
    client = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws"))
    client.send_request(client.connect())
    protocol.data_received(b"".join(client.data_to_send()))
    scope = await asyncio.wait_for(accepted, 5)
    return protocol, transport, client, scope


def received(client: ClientProtocol, data: bytes) -> list[str]:
    """The text frames a client reads from ``data``."""
    client.receive_data(data)
    return [event.data.decode() for event in client.events_received() if isinstance(event, Frame)]


async def test_frames_written_now_go_in_one_write_in_order_unless_the_transport_is_paused() -> None:
    protocol, transport, client, scope = await handshake()
    extension = scope["extensions"][WRITE_NOW]  # announced to the application
    write, writable = extension["write"], extension["writable"]
    protocol.pause_writing()  # the peer reads slowly: nothing is written now
    assert write(["held"]) is False
    waiting = asyncio.ensure_future(writable())
    await asyncio.sleep(0.01)
    assert not waiting.done()  # until the transport takes writes again
    protocol.resume_writing()
    await asyncio.wait_for(waiting, 5)
    assert write(["update", "ack", "ünï"]) is True
    opening, *frames = transport.writes
    assert len(frames) == 1  # three frames, one write, none of the refused one
    assert received(client, opening + frames[0]) == ["update", "ack", "ünï"]
    protocol.connection_lost(None)
    await asyncio.wait_for(writable(), 5)  # a lost connection waits for nothing...
    assert write(["gone"]) is False  # ... and takes nothing
    assert len(transport.writes) == 2
