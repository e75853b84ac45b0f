"""``/healthz``: the process answers and the database too; ``/api/online``: how many
players are online."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.deps import ServicesDep
from app.api.schemas import ErrorBody, Health, OnlineCount

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health, responses={503: {"model": ErrorBody}})
async def healthz(services: ServicesDep) -> Any:
    """``{"status": "ok", "database": "ok"}``, or 503 when the database does not answer."""
    await services.check_database()
    return {"status": "ok", "database": "ok"}


@router.get("/api/online", response_model=OnlineCount, tags=["players"])
async def online(services: ServicesDep) -> Any:
    """How many distinct players are online on every worker: with a table open, or seen in
    an authenticated request within the last 60 s (docs/protocol.md)."""
    return {"players": await services.online.count()}
