"""The ASGI application: ``app.main:app`` (``uvicorn app.main:app``) or ``create_app()``.

Nothing touches the database at import time: the lifespan builds the services, rebuilds every
live table from its action log, and disposes of the engine at shutdown.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from app.api import api_router, docs, limits, metrics, player_socket, ws
from app.api import chat as chat_api
from app.api import errors as api_errors
from app.api.body_limit import BodyLimit
from app.api.headers import SecurityHeaders
from app.api.slow_requests import SlowRequests
from app.api.socket_routes import Endpoint, SocketFirstApp
from app.common.runtime import settle_runtime
from app.services import Services
from app.settings import Settings, get_settings

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
# The WebSocket routes (app/api/socket_routes.py).
SOCKETS: dict[str, Endpoint] = {
    "/ws/tables/{table_id}": ws.table_socket,
    "/ws/players": player_socket.player_socket,
}


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new application; ``settings`` default to the environment's."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services = Services.build(settings)
        app.state.services = services
        stop_chat = await chat_api.install(app, settings, services)
        try:
            rebuilt = await services.start()
            log.info("rebuilt %d live table(s) from the action log", rebuilt)
            settle_runtime()
            yield
        finally:
            await stop_chat()
            await services.close()
            await app.state.limits.close()

    app = SocketFirstApp(
        sockets=SOCKETS,
        title="Talon",
        summary="Authoritative server for Sixty-Six and Schnapsen",
        version="0.1.0",
        lifespan=lifespan,
        openapi_url=docs.OPENAPI_PATH if settings.expose_api_docs else None,
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.add_middleware(
        CORSMiddleware,
        allow_origins=settings.allowed_origins,
        allow_methods=["GET", "POST", "PATCH", "DELETE"],
        allow_headers=["Authorization", "Content-Type"],
    )
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(SlowRequests, threshold=settings.slow_request_seconds)
    api_errors.install(app)
    limits.install(app, settings)
    app.include_router(api_router)
    if settings.expose_metrics:
        app.include_router(metrics.router)
    if settings.expose_api_docs:
        docs.install(app)
    if STATIC.is_dir():
        serve_client(app)
    return app


def serve_client(app: FastAPI) -> None:
    """The browser client at ``/``; its own pages (invite links, history, a match's check,
    the rules) get ``index.html``."""
    index = STATIC / "index.html"

    async def page() -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    pages = (
        "/t/{table_id}",
        "/history",
        "/history/{match_id}",
        "/history/{match_id}/verify",
        "/account",
        "/leaderboard",
        "/tournaments",
        "/tournaments/{event_id}",
    )
    for path in (*pages, "/rules", "/players/{player_id}"):
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)
    app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")


app = create_app()
