"""``/healthz``: the process answers and the database too."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.deps import ServicesDep
from app.api.schemas import ErrorBody, Health

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health, responses={503: {"model": ErrorBody}})
async def healthz(services: ServicesDep) -> Any:
    """``{"status": "ok", "database": "ok"}``, or 503 when the database does not answer."""
    await services.check_database()
    return {"status": "ok", "database": "ok"}
