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

import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from fastapi import FastAPI
from starlette.convertors import Convertor
from starlette.routing import compile_path
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

Endpoint = Callable[..., Awaitable[None]]


class SocketRoute:
    """One path template (Starlette's syntax, ``/ws/tables/{table_id}``) and its endpoint,
    called with the ``WebSocket`` and the path's parameters as keywords."""

    def __init__(self, path: str, endpoint: Endpoint) -> None:
        self.path = path
        self.endpoint = endpoint
        self.regex: re.Pattern[str]
        self.convertors: dict[str, Convertor[Any]]
        self.regex, _, self.convertors = compile_path(path)

    def match(self, path: str) -> dict[str, Any] | None:
        """The path's parameters when ``path`` is this route's, else None."""
        found = self.regex.match(path)
        if found is None:
            return None
        values = found.groupdict().items()
        return {name: self.convertors[name].convert(value) for name, value in values}


class SocketFirstApp(FastAPI):
    """FastAPI, but a WebSocket whose path is one of ``sockets`` (template to endpoint) goes
    straight to its endpoint, past the middleware (HTTP only here) and the router."""

    def __init__(self, *, sockets: Mapping[str, Endpoint], **options: Any) -> None:
        super().__init__(**options)
        self.sockets = [SocketRoute(path, endpoint) for path, endpoint in sockets.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            path = route_path(scope)
            for route in self.sockets:
                params = route.match(path)
                if params is not None:
                    scope["app"] = self  # as Starlette sets it: websocket.app
                    scope["path_params"] = params
                    await route.endpoint(WebSocket(scope, receive, send), **params)
                    return
        await super().__call__(scope, receive, send)


def route_path(scope: Scope) -> str:
    """The request's path below the application's root path, as the router matches it."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path
