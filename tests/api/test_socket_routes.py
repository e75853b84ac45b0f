"""The WebSocket routes answered ahead of FastAPI's router (app/api/socket_routes.py)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocket

from app.api.socket_routes import SocketRoute, SocketRoutes, route_path
from app.main import SOCKETS, create_app
from tests.support import settings_for


def test_a_route_matches_its_own_paths_and_gives_their_parameters() -> None:
    route = SocketRoute("/ws/tables/{table_id}", echo)
    assert route.match("/ws/tables/abc_-1") == {"table_id": "abc_-1"}
    assert route.match("/ws/tables/") is None
    assert route.match("/ws/tables/a/b") is None
    assert route.match("/ws/players") is None
    assert SocketRoute("/ws/players", echo).match("/ws/players") == {}


def test_the_path_is_matched_below_the_root_path() -> None:
    assert route_path({"path": "/talon/ws/players", "root_path": "/talon"}) == "/ws/players"
    assert route_path({"path": "/ws/players", "root_path": ""}) == "/ws/players"


async def echo(websocket: WebSocket, **params: Any) -> None:
    await websocket.accept()
    await websocket.send_json({"params": params, "path_params": websocket.path_params})
    await websocket.close()


async def unreachable(scope: Any, receive: Any, send: Any) -> None:
    raise AssertionError(f"the application was called for {scope['type']} {scope['path']}")


def test_a_socket_on_a_route_goes_to_its_endpoint_and_never_to_the_application() -> None:
    app = SocketRoutes(unreachable, {"/ws/tables/{table_id}": echo})
    client = TestClient(app)  # no lifespan: the application is never called
    with client.websocket_connect("/ws/tables/t1") as socket:
        assert socket.receive_json() == {
            "params": {"table_id": "t1"},
            "path_params": {"table_id": "t1"},
        }


def test_any_other_path_goes_on_to_the_application() -> None:
    app = SocketRoutes(unreachable, {"/ws/tables/{table_id}": echo})
    client = TestClient(app)
    with (
        pytest.raises(AssertionError, match="websocket /ws/other"),
        client.websocket_connect("/ws/other"),
    ):
        pass
    with pytest.raises(AssertionError, match="http /ws/tables/t1"):
        client.get("/ws/tables/t1")


def test_the_application_answers_its_sockets_ahead_of_every_other_layer() -> None:
    app = create_app(settings_for("sqlite+aiosqlite:///unused.db"))
    outermost = app.user_middleware[0]  # the last added: the first to see a request
    assert outermost.cls is SocketRoutes
    assert outermost.kwargs["routes"] is SOCKETS
    assert set(SOCKETS) == {"/ws/tables/{table_id}", "/ws/players"}
    assert not [route for route in app.routes if getattr(route, "path", "").startswith("/ws/")]
