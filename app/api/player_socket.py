"""``/ws/players``: the player socket, which an open page keeps to hear what concerns its
player at once: a pool seated it (and where), the computer offer, taken out of a pool,
challenges received and answered (docs/protocol.md, "The player socket").

It is greeted as a table socket is (``hello`` with the token, checked by the same
``identify``), counts its player online while it is open, closes with 4001 when its token is
revoked, and then only answers ``ping``; the frames come from ``Notices``
(``app/players/notices.py``), on every worker.
"""

from __future__ import annotations

import logging

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

from app.api.limits import Limits, client_address
from app.api.origin import CLOSE_BAD_ORIGIN, websocket_origin_allowed
from app.api.ws import (
    CLOSE_BAD_TOKEN,
    CLOSE_TOO_MANY,
    CLOSE_TRY_LATER,
    UNAVAILABLE,
    Connection,
    error_frame,
    parse,
    receive_hello,
    receive_text,
    refuse,
)
from app.common.errors import Unauthorized, database_unavailable
from app.players import identity
from app.services import Services
from app.settings import Settings
from app.store import Player

log = logging.getLogger(__name__)


async def greet_player(
    websocket: WebSocket, services: Services, settings: Settings
) -> tuple[Player, str] | None:
    """Wait for ``hello`` with a token; the player and its token, or None once refused."""
    hello = await receive_hello(websocket, settings)
    if hello is None:
        return None
    token = hello.get("token")
    if not isinstance(token, str):
        frame = error_frame("missing_token", "A player socket's hello carries the token.")
        await refuse(websocket, CLOSE_BAD_TOKEN, frame, "bad token")
        return None
    try:
        player = await services.tables.identify(token)
    except Unauthorized as exc:
        await refuse(websocket, CLOSE_BAD_TOKEN, error_frame(exc.code, exc.message), "bad token")
        return None
    except UNAVAILABLE:
        refusal = database_unavailable()
        frame = error_frame(refusal.code, refusal.message)
        await refuse(websocket, CLOSE_TRY_LATER, frame, "try again later")
        return None
    return player, token


async def player_socket(websocket: WebSocket) -> None:
    """``/ws/players`` (app/api/socket_routes.py): greet, welcome, then send the player's
    notices until either side closes."""
    settings: Settings = websocket.app.state.settings
    limits: Limits = websocket.app.state.limits
    await websocket.accept()
    if not websocket_origin_allowed(websocket, settings):
        refusal = error_frame("bad_origin", "This origin may not open a player socket.")
        await refuse(websocket, CLOSE_BAD_ORIGIN, refusal, "origin not allowed")
        return
    address = client_address(websocket)
    if not limits.sockets.enter(address):
        refusal = error_frame(
            "too_many_connections",
            f"This address already has {limits.sockets.per_address} sockets open; close one.",
        )
        await refuse(websocket, CLOSE_TOO_MANY, refusal, "too many connections from this address")
        return
    try:
        await serve_player(websocket, settings)
    finally:
        limits.sockets.leave(address)


async def serve_player(websocket: WebSocket, settings: Settings) -> None:
    """One accepted player socket from its greeting to its end."""
    services: Services = websocket.app.state.services
    try:
        greeted = await greet_player(websocket, services, settings)
    except WebSocketDisconnect:
        return
    if greeted is None:
        return
    player, token = greeted
    # A table socket's connection: a bounded queue (4008 past it), 4001 once revoked.
    connection = Connection(websocket, settings.ws_send_queue, player.id)
    connection.start()
    connection.send({"type": "welcome", "player_id": player.id})
    services.notices.listen(player.id, connection)
    services.online.connected(player.id)
    services.revocations.watch(connection, identity.hash_token(token), player.id)
    try:
        while not connection.closing:
            text = await receive_text(websocket, settings)
            if text is None:
                break
            message, problem = parse(text)
            if message is None:
                connection.send(problem or error_frame("bad_message", "Unreadable message."))
            elif message["type"] == "ping":
                connection.send({"type": "pong", "id": message.get("id")})
            else:
                kind = str(message["type"])[:32]
                connection.send(error_frame("unknown_type", f"Unexpected message type {kind!r}."))
    except WebSocketDisconnect:
        pass
    finally:
        services.revocations.forget(connection)
        services.notices.forget(player.id, connection)
        services.online.disconnected(player.id)
        await connection.stop()
