"""The WebSocket routes (``/ws/tables/{id}``, ``/ws/players``), answered ahead of FastAPI's
middleware and router.

A socket stays open for as long as its page: everything its route left on the call stack
stays alive with it. Through the middleware and the router a socket kept about 13 KiB of
server memory for its whole life (the route's scope copies, an exit stack, the exception
wrappers and a dozen coroutines between uvicorn and the endpoint); answered first, it keeps
none of that (docs/architecture.md, "Performance": an idle connection's memory). The
endpoints are the same functions with the same ``WebSocket``; HTTP requests and any other
socket path go through the application as before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from fastapi import FastAPI
from starlette.routing import Match, WebSocketRoute
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

Endpoint = Callable[..., Awaitable[None]]


class SocketFirstApp(FastAPI):
    """FastAPI, but a WebSocket whose path is one of ``sockets`` (Starlette's path template,
    such as ``/ws/tables/{table_id}``, to its endpoint) goes straight to its endpoint, called
    with the ``WebSocket`` and the path's parameters, past the middleware (HTTP only here)
    and the router. Starlette's ``WebSocketRoute`` matches the path; only its wrappers,
    which would stay on the stack, are left out."""

    def __init__(self, *, sockets: Mapping[str, Endpoint], **options: Any) -> None:
        super().__init__(**options)
        self.sockets = [WebSocketRoute(path, endpoint) for path, endpoint in sockets.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            for route in self.sockets:
                match, found = route.matches(scope)
                if match is Match.FULL:
                    scope["app"] = self  # as Starlette sets it: websocket.app
                    scope["path_params"] = params = found["path_params"]
                    await found["endpoint"](WebSocket(scope, receive, send), **params)
                    return
        await super().__call__(scope, receive, send)
