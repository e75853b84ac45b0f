"""``/ws/tables/{id}``: the live table protocol (docs/protocol.md).

The route only speaks the protocol: it greets, forwards actions to the table (its authority
on this worker, or the stand-in that relays to the worker owning it) and pumps the frames
the service has already redacted for this viewer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import re
import weakref
from typing import Any

import orjson
from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from app.api import chat as chat_api
from app.api.limits import Limits, client_address
from app.api.origin import CLOSE_BAD_ORIGIN, websocket_origin_allowed
from app.api.socket_protocol import WRITE_NOW
from app.common.errors import (
    STORE_ERRORS,
    Forbidden,
    Invalid,
    NotFound,
    ServiceError,
    TableMoving,
    Unauthorized,
    Unavailable,
    database_unavailable,
)
from app.players import identity
from app.services import Services
from app.settings import Settings
from app.tables import aborts, presenter
from app.tables.authority import TableAuthority
from app.tables.hub import Frame, encode
from app.tables.relay import RemoteTable

log = logging.getLogger(__name__)

# Close codes (docs/protocol.md).
CLOSE_TOO_BIG = 1009
CLOSE_TRY_LATER = 1013
CLOSE_BAD_HELLO = 4000
CLOSE_BAD_TOKEN = 4001
CLOSE_NO_TABLE = 4004
CLOSE_MAY_NOT_WATCH = 4005
CLOSE_TOO_SLOW = 4008
CLOSE_MOVED = 4012
CLOSE_TOO_MANY = 4029

# A connection over its message rate hears of it at most once in this many seconds: every
# message over the rate is dropped, and one notice per drop would fill its send queue.
DROP_NOTICE_SECONDS = 1.0
# Numbers in client messages: whole, and exact in every client's JSON (JavaScript's safe
# integers); a larger one would come back rounded (2**64 as 1.8446744073709552e+19).
MAX_WHOLE = 2**53 - 1
# In the text of a message that has a fraction, an exponent or a 16-digit number (most have
# none: then its numbers need no walk).
NUMBERISH = re.compile(r"\d[.eE]|\d{16}")

# What a greeting meets when the database does not answer.
UNAVAILABLE: tuple[type[Exception], ...] = (Unavailable, *STORE_ERRORS)
# ... and when the table's owner, on another worker, refuses it or does not answer.
GREETING_REFUSED: tuple[type[Exception], ...] = (ServiceError, *STORE_ERRORS)


def text_of(frame: Frame) -> str:
    """A frame as sent: already encoded text (most: rendered once for every viewer) or a
    frame of this connection's own, encoded now."""
    return frame if isinstance(frame, str) else encode(frame)


def texts_of(queue: list[Frame]) -> list[str]:
    """Every queued frame as sent, in order."""
    return [text_of(frame) for frame in queue]


class Outbox:
    """The connections of one event loop with frames to write, written from one callback
    once the callbacks ready now have run: every frame those queued (a move's update to each
    viewer, the ack to its actor; every command one commit's answer woke) goes out then,
    each connection's in one write, with no task woken per connection."""

    __slots__ = ("_loop", "_waiting")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._waiting: list[Connection] = []

    def add(self, connection: Connection) -> None:
        """Write ``connection``'s queue once the callbacks ready now have run."""
        if not self._waiting:
            self._loop.call_soon(self._flush)
        self._waiting.append(connection)

    def _flush(self) -> None:
        waiting, self._waiting = self._waiting, []
        for connection in waiting:
            connection.flush()


_outboxes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Outbox] = (
    weakref.WeakKeyDictionary()
)


def outbox() -> Outbox:
    """The running event loop's ``Outbox`` (one per loop; a test may run several loops)."""
    loop = asyncio.get_running_loop()
    found = _outboxes.get(loop)
    if found is None:
        found = _outboxes[loop] = Outbox(loop)
    return found


class Connection:
    """One WebSocket viewer: a bounded send queue, written to the socket once per turn of
    the event loop.

    Under ``talon serve`` (``WRITE_NOW``) the loop's ``Outbox`` writes a connection's queue
    once the turn that filled it is over, at once and in one write while the socket takes
    it; a write that has to wait (the transport is paused: the peer reads slowly) is handed
    to a task that sends the queue in order and ends once it is empty. On other servers a
    task of the connection's own drains the queue. ``deliver`` never blocks: a viewer that
    falls ``limit`` frames behind is closed with 4008 and recovers by reconnecting with
    ``since``; the others never wait for it.
    """

    # Slots and a plain list: a connection is held for as long as its page, mostly idle, and
    # an empty deque alone takes about 760 bytes (docs/architecture.md, "Performance").
    __slots__ = (
        "_listed",
        "_outbox",
        "_pump",
        "_stopped",
        "_wakeup",
        "_writable",
        "_write_now",
        "closing",
        "limit",
        "player_id",
        "queue",
        "revoked",
        "seat",
        "websocket",
    )

    def __init__(self, websocket: WebSocket, limit: int, player_id: str | None) -> None:
        self.websocket = websocket
        self.player_id = player_id
        # Set by the table, which owns the seats: from the greeting's answer, then as seats
        # change (a spectator who takes a seat). Never read back from outgoing frames.
        self.seat: int | None = None
        self.limit = limit
        # Frames waiting to be sent (or being written): a list, as it holds a frame or three.
        self.queue: list[Frame] = []
        self.closing = False
        self.revoked = False  # its token was revoked: nothing more is answered
        self._pump: asyncio.Task[None] | None = None  # a write that waits, or the drain task
        self._wakeup: asyncio.Future[None] | None = None  # the drain task's (other servers)
        # Under WRITE_NOW, from ``start``: the socket's writer and its wait for a paused
        # transport, the loop's outbox, and whether the outbox holds this connection until
        # the turn is over.
        self._write_now: Any = None
        self._writable: Any = None
        self._outbox: Outbox | None = None
        self._listed = False
        self._stopped = False

    def deliver(self, frame: Frame) -> None:
        """Queue a frame the table rendered for this viewer."""
        self.send(frame)

    def send(self, frame: Frame) -> None:
        """Queue a frame for this connection only; overflow closes it with 4008."""
        if self.closing:
            return
        if len(self.queue) >= self.limit:
            self.closing = True
            asyncio.get_running_loop().create_task(self._close_too_slow())
            return
        self.queue.append(frame)
        if self._outbox is not None:
            if not self._listed and self._pump is None:
                self._listed = True
                self._outbox.add(self)
            return
        wakeup = self._wakeup
        if wakeup is not None and not wakeup.done():
            wakeup.set_result(None)

    def start(self) -> None:
        """Start sending: what was queued before goes first."""
        writer = self.websocket.scope.get("extensions", {}).get(WRITE_NOW)
        if writer is None:
            self._pump = asyncio.get_running_loop().create_task(self._drain_one_by_one())
            return
        self._write_now, self._writable = writer["write"], writer["writable"]
        self._outbox = outbox()
        if self.queue:
            self._listed = True
            self._outbox.add(self)

    def flush(self) -> None:
        """(The outbox, once a turn is over.) Write everything queued now, in one write; if
        the socket cannot take it now, a task sends it once it can."""
        self._listed = False
        queue = self.queue
        if self._stopped or self._pump is not None or not queue:
            return
        count = len(queue)
        try:
            written = self._write_now(texts_of(queue))
        except Exception:  # the socket is gone: its reader sees the disconnect
            log.debug("a write to a socket failed", exc_info=True)
            self._stopped = True
            return
        if written:
            del queue[:count]
        else:
            self._pump = asyncio.get_running_loop().create_task(self._drain_waiting())

    async def stop(self) -> None:
        """Send nothing more and stop the pump (the socket itself is closed by the caller or
        the peer)."""
        self._stopped = True
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._pump

    async def _drain_waiting(self) -> None:
        """The socket could not take the queue at once: once it can, write all that is
        queued, again until the queue is empty, then end. Each frame stays counted against
        the limit until it is written."""
        queue = self.queue
        try:
            while queue and not self._stopped:
                await self._writable()
                count = len(queue)
                if not self._write_now(texts_of(queue)):
                    self._stopped = True  # writable, yet not written: closing or gone
                    return
                del queue[:count]
        except Exception:  # the socket is gone: its reader sees the disconnect
            log.debug("a write to a socket failed", exc_info=True)
            self._stopped = True
        finally:
            self._pump = None

    async def _drain_one_by_one(self) -> None:
        """A server whose protocol is not ``SocketProtocol`` (Starlette's test client, or
        uvicorn run without ``talon serve``'s options): a frame per send, from a task of the
        connection's own."""
        queue, send = self.queue, self.websocket.send_text
        while True:
            while queue:
                await send(text_of(queue.pop(0)))
            self._wakeup = asyncio.get_running_loop().create_future()
            await self._wakeup

    def sending(self) -> bool:
        """True while frames are queued and something will write them."""
        if not self.queue or self._stopped:
            return False
        if self._outbox is not None:
            return self._listed or self._pump is not None
        return self._pump is not None and not self._pump.done()

    def hand_over(self) -> None:
        """The table moved to another worker: close with 4012 once what is queued is sent;
        the client reconnects with ``since``."""
        if not self.closing:
            self.closing = True
            asyncio.get_running_loop().create_task(self._close_moved())

    async def _close_moved(self) -> None:
        for _ in range(100):  # let what the table queued before it left be sent
            if not self.sending():
                break
            await asyncio.sleep(0.01)
        await self.stop()
        await close(self.websocket, CLOSE_MOVED, "the table moved; reconnect with since")

    def revoke(self) -> None:
        """The token that greeted this socket was revoked (signed out, player deleted):
        answer nothing more and close with 4001."""
        self.revoked = True
        if not self.closing:
            self.closing = True
            asyncio.get_running_loop().create_task(self._close_revoked())

    async def _close_revoked(self) -> None:
        await self.stop()
        frame = error_frame("bad_token", "The token was signed out, or its player deleted.")
        await refuse(self.websocket, CLOSE_BAD_TOKEN, frame, "token revoked")

    async def _close_too_slow(self) -> None:
        await self.stop()
        await close(self.websocket, CLOSE_TOO_SLOW, "too far behind; reconnect with since")


async def close(websocket: WebSocket, code: int, reason: str) -> None:
    """Close unless already closed; never raises."""
    if websocket.application_state == WebSocketState.DISCONNECTED:
        return
    with contextlib.suppress(Exception):
        await websocket.close(code=code, reason=reason)


error_frame = presenter.error  # an ``error`` frame; ``id`` echoes the client's message id


def parse(text: str) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """A client message as a dict, or the error frame that answers it."""
    try:
        message = orjson.loads(text)
    except orjson.JSONDecodeError:  # also: nesting too deep, NaN
        return None, error_frame("bad_json", "The message is not valid JSON.")
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return None, error_frame("bad_message", "A message must be an object with a 'type'.")
    if NUMBERISH.search(text) and not whole_numbers(message):
        return None, error_frame(
            "bad_number",
            f"Numbers in a message are whole numbers from -{MAX_WHOLE} to {MAX_WHOLE}.",
            chat_api.reference(message),
        )
    return message, None


def whole_numbers(message: dict[str, Any]) -> bool:
    """True when every number in the message is a whole number within ``MAX_WHOLE`` (JSON
    reads a fraction, an exponent or an integer past 64 bits as a float)."""
    stack: list[Any] = [message]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, float) or (isinstance(value, int) and abs(value) > MAX_WHOLE):
            return False
    return True


async def receive_text(websocket: WebSocket, settings: Settings) -> str | None:
    """The next text frame, or None once the socket is gone; oversized frames close it."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    limit = settings.ws_max_frame_bytes
    if text is None:
        data = message.get("bytes") or b""
        size = len(data)
        text = data.decode("utf-8", errors="replace")
    else:
        # A character is at most 4 bytes in UTF-8: only a long text needs encoding.
        size = len(text.encode("utf-8")) if len(text) * 4 > limit else 0
    if size > limit:
        await close(websocket, CLOSE_TOO_BIG, too_big(size, limit))
        return None
    return text


def too_big(size: int, limit: int) -> str:
    """The close reason of a frame over the limit: the words of the WebSocket layer under
    ``talon serve`` (websockets), which refuses such a frame before the application reads
    it, so a client reads the same reason whichever of the two refused its frame."""
    return f"frame with {size} bytes exceeds limit of {limit} bytes"


Table = TableAuthority | RemoteTable


async def receive_hello(websocket: WebSocket, settings: Settings) -> dict[str, Any] | None:
    """Wait for a socket's first message, which must be ``hello``: the hello, or None once
    the socket is closed (no hello in time, gone, or refused with ``hello_expected``)."""
    try:
        text = await asyncio.wait_for(receive_text(websocket, settings), settings.ws_hello_timeout)
    except TimeoutError:
        await close(websocket, CLOSE_BAD_HELLO, "send hello first")
        return None
    if text is None:
        return None
    hello, problem = parse(text)
    if hello is None or hello["type"] != "hello":
        frame = problem or error_frame("hello_expected", "Send hello first.")
        await refuse(websocket, CLOSE_BAD_HELLO, frame, "send hello first")
        return None
    return hello


async def greet(
    websocket: WebSocket, services: Services, settings: Settings, table_id: str
) -> tuple[Table, str | None, int | None, str | None] | None:
    """Wait for ``hello``; the table, the player id (None: spectator), ``since`` and the
    token that identified the player."""
    hello = await receive_hello(websocket, settings)
    if hello is None:
        return None
    token, since, invite = hello.get("token"), hello.get("since"), hello.get("invite")
    if (
        not (token is None or isinstance(token, str))
        or not (invite is None or isinstance(invite, str))
        or not (since is None or (isinstance(since, int) and not isinstance(since, bool)))
    ):
        await websocket.send_json(
            error_frame(
                "bad_message", "token and invite must be strings, since an integer or null."
            )
        )
        await close(websocket, CLOSE_BAD_HELLO, "bad hello")
        return None
    try:
        authority = await services.tables.open_table(table_id)
        player = await services.tables.identify(token) if token else None
        await services.tables.check_watcher(authority, player.id if player else None, invite)
    except Forbidden as exc:
        await websocket.send_json(error_frame(exc.code, exc.message))
        await close(websocket, CLOSE_MAY_NOT_WATCH, "may not watch this table")
        return None
    except NotFound as exc:
        await websocket.send_json(error_frame(exc.code, exc.message))
        await close(websocket, CLOSE_NO_TABLE, "no such table")
        return None
    except Unauthorized as exc:
        await websocket.send_json(error_frame(exc.code, exc.message))
        await close(websocket, CLOSE_BAD_TOKEN, "bad token")
        return None
    except UNAVAILABLE:
        refusal = database_unavailable()
        await websocket.send_json(error_frame(refusal.code, refusal.message))
        await close(websocket, CLOSE_TRY_LATER, "try again later")
        return None
    return authority, (player.id if player else None), since, (token if player else None)


async def answer(connection: Connection, authority: Table, message: dict[str, Any]) -> None:
    """Handle one client message after the greeting."""
    if connection.revoked:  # read before its token was revoked, answered by the close
        return
    kind = message["type"]
    if kind == "ping":
        connection.send({"type": "pong", "id": message.get("id")})
        return
    if kind.startswith("chat"):  # table chat: its own frames and sequence (app/api/chat.py)
        try:
            chat = connection.websocket.app.state.chat
            await chat_api.answer(chat, connection, authority, message)
        except ServiceError as exc:
            ref = chat_api.reference(message)
            connection.send(error_frame(exc.code, exc.message, ref, **exc.extra))
        return
    if kind == "abort":
        await abort(connection, authority, message)
        return
    if kind != "action":
        code = "already_greeted" if kind == "hello" else "unknown_type"
        connection.send(
            error_frame(code, f"Unexpected message type {kind[:32]!r}.", message.get("id"))
        )
        return
    ref = message.get("id")
    if not (ref is None or isinstance(ref, (str, int))):
        ref = None
    try:
        # The table queues the ack itself, right behind this viewer's update.
        await authority.act(
            connection.player_id,
            message.get("version"),
            message.get("action"),
            reply=connection,
            ref=ref,
        )
    except ServiceError as exc:
        connection.send(error_frame(exc.code, exc.message, ref, **exc.extra))


async def abort(connection: Connection, authority: Table, message: dict[str, Any]) -> None:
    """A seated player aborts the match (docs/protocol.md, "Aborting a match"): through the
    table's owner like any lobby change; every viewer then gets the ``aborted`` frame, and
    a refusal comes back to this connection with the message's ``id``."""
    ref = message.get("id")
    if not (ref is None or isinstance(ref, (str, int))):
        ref = None
    leave = message.get("leave", False)
    try:
        if not isinstance(leave, bool):
            raise Invalid("bad_message", "An abort's 'leave' is true or false.")
        if connection.player_id is None:
            raise aborts.not_seated()
        services: Services = connection.websocket.app.state.services
        player = await services.tables.player(connection.player_id)
        await services.tables.abort(player, authority.table_id, leave=leave)
    except ServiceError as exc:
        connection.send(error_frame(exc.code, exc.message, ref, **exc.extra))


async def refuse_greeting(websocket: WebSocket, exc: Exception) -> None:
    """A greeting the table's owner refused, or could not answer: the client tries again
    (4012 while the table moves between workers, 1013 when the database is away)."""
    if isinstance(exc, TableMoving):
        await refuse(websocket, CLOSE_MOVED, error_frame(exc.code, exc.message), "try again")
    elif not isinstance(exc, ServiceError) or exc.code == "unavailable":
        refusal = database_unavailable()
        frame = error_frame(refusal.code, refusal.message)
        await refuse(websocket, CLOSE_TRY_LATER, frame, "try again later")
    else:
        code = {403: CLOSE_MAY_NOT_WATCH, 404: CLOSE_NO_TABLE}.get(exc.status, CLOSE_MOVED)
        await refuse(websocket, code, error_frame(exc.code, exc.message), "try again")


async def refuse(websocket: WebSocket, code: int, frame: dict[str, Any], reason: str) -> None:
    """Send one error frame and close with ``code``; never raises."""
    with contextlib.suppress(Exception):
        await websocket.send_json(frame)
    await close(websocket, code, reason)


async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """``/ws/tables/{table_id}`` (app/api/socket_routes.py): greet, then alternate: client
    messages in, redacted frames out (see the module doc)."""
    settings: Settings = websocket.app.state.settings
    limits: Limits = websocket.app.state.limits
    await websocket.accept()
    if not websocket_origin_allowed(websocket, settings):
        refusal = error_frame("bad_origin", "This origin may not open a table.")
        await refuse(websocket, CLOSE_BAD_ORIGIN, refusal, "origin not allowed")
        return
    address = client_address(websocket)
    if not limits.sockets.enter(address):
        per_address = limits.sockets.per_address
        refusal = error_frame(
            "too_many_connections",
            f"This address already has {per_address} table connections open; close one first.",
        )
        await refuse(websocket, CLOSE_TOO_MANY, refusal, "too many connections from this address")
        return
    try:
        await serve_table(websocket, settings, limits, table_id)
    finally:
        limits.sockets.leave(address)


async def serve_table(
    websocket: WebSocket, settings: Settings, limits: Limits, table_id: str
) -> None:
    """One accepted table socket from its greeting to its end."""
    services: Services = websocket.app.state.services
    try:
        greeted = await greet(websocket, services, settings, table_id)
    except WebSocketDisconnect:
        return
    if greeted is None:
        return
    table, player_id, since, token = greeted
    connection = Connection(websocket, settings.ws_send_queue, player_id)
    try:
        authority, connection.seat = await services.tables.attach(
            table, connection, player_id, since, settings.ws_send_queue // 2
        )
    except GREETING_REFUSED as exc:  # the database, or an owner that refused or is silent
        await refuse_greeting(websocket, exc)
        return
    connection.start()
    if player_id is not None:
        services.online.connected(player_id)
    if player_id is not None and token is not None:  # closed if the token is revoked
        services.revocations.watch(connection, identity.hash_token(token), player_id)
    bucket = limits.message_bucket()
    quiet_until = -math.inf  # no notice of dropped messages before this time
    try:
        while not connection.closing:
            text = await receive_text(websocket, settings)
            if text is None:
                break
            now = limits.clock()
            wait = bucket.take(now)
            if wait:
                # Dropped unread (so no id); the next one is taken after retry_after seconds.
                # One notice a second at most, however many are dropped.
                if now >= quiet_until:
                    quiet_until = now + DROP_NOTICE_SECONDS
                    connection.send(
                        error_frame(
                            "rate_limited",
                            "Too many messages; this one was dropped, as is every message "
                            "over the rate (at most one such notice a second).",
                            retry_after=round(wait, 3),
                        )
                    )
                continue
            message, problem = parse(text)
            if message is None:
                connection.send(problem or error_frame("bad_message", "Unreadable message."))
                continue
            try:
                await answer(connection, authority, message)
            except Exception:
                log.exception(
                    "a message failed",
                    extra={"table_id": table_id, "version": authority.version},
                )
                connection.send(
                    error_frame(
                        "internal", "Something went wrong on the server.", message.get("id")
                    )
                )
    except WebSocketDisconnect:
        pass
    finally:
        services.revocations.forget(connection)
        authority.detach(connection)
        websocket.app.state.chat.leave(connection)  # table chat (app/api/chat.py)
        if player_id is not None:
            services.online.disconnected(player_id)
        await connection.stop()
