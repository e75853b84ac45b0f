"""The WebSocket routes answered ahead of FastAPI's middleware and router
(app/api/socket_routes.py)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from starlette.websockets import WebSocket

from app.api.socket_routes import SocketFirstApp
from app.main import SOCKETS, create_app
from tests.support import settings_for


async def echo(websocket: WebSocket, **params: Any) -> None:
    await websocket.accept()
    await websocket.send_json({"params": params, "path_params": websocket.path_params})
    await websocket.close()


class Unreachable:
    """An ASGI middleware that fails whatever reaches it."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError(f"the middleware saw {scope['type']} {scope['path']}")


def an_app() -> SocketFirstApp:
    app = SocketFirstApp(sockets={"/ws/tables/{table_id}": echo})
    app.add_middleware(Unreachable)

    @app.websocket("/ws/other")
    async def other(websocket: WebSocket) -> None:  # pragma: no cover - behind the middleware
        await websocket.close()

    return app


async def call(
    app: SocketFirstApp, kind: str, path: str, root_path: str = ""
) -> list[dict[str, Any]]:
    """What ``app`` sends to a client that connects to (or GETs) ``path`` and says nothing."""
    scope = {
        "type": kind,
        "path": root_path + path,
        "root_path": root_path,
        "headers": [],
        "query_string": b"",
    }
    if kind == "http":
        scope["method"] = "GET"
    incoming = [{"type": "websocket.connect"} if kind == "websocket" else {"type": "http.request"}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return incoming.pop(0) if incoming else {"type": "websocket.disconnect", "code": 1000}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent


async def test_a_socket_on_a_route_goes_to_its_endpoint_past_the_middleware() -> None:
    sent = await call(an_app(), "websocket", "/ws/tables/t1")
    assert [message["type"] for message in sent] == [
        "websocket.accept",
        "websocket.send",
        "websocket.close",
    ]
    assert orjson.loads(sent[1]["text"]) == {
        "params": {"table_id": "t1"},
        "path_params": {"table_id": "t1"},
    }


async def test_a_route_is_matched_below_the_root_path() -> None:
    sent = await call(an_app(), "websocket", "/ws/tables/t2", root_path="/talon")
    assert orjson.loads(sent[1]["text"])["params"] == {"table_id": "t2"}


async def test_any_other_request_goes_through_the_application() -> None:
    for path in ("/ws/other", "/ws/tables/", "/ws/tables/a/b"):
        with pytest.raises(AssertionError, match=f"websocket {path}$"):
            await call(an_app(), "websocket", path)
    with pytest.raises(AssertionError, match="http /ws/tables/t1"):
        await call(an_app(), "http", "/ws/tables/t1")


def test_the_application_answers_its_sockets_first() -> None:
    app = create_app(settings_for("sqlite+aiosqlite:///unused.db"))
    assert isinstance(app, SocketFirstApp)
    assert [route.path for route in app.sockets] == list(SOCKETS)
    assert set(SOCKETS) == {"/ws/tables/{table_id}", "/ws/players"}
    assert not [route for route in app.routes if getattr(route, "path", "").startswith("/ws/")]
