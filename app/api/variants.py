"""``/api/variants``: the games a table can be created for, from the engine's presets."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.schemas import VariantList
from app.engine import catalog

router = APIRouter(prefix="/api/variants", tags=["tables"])


@router.get("", response_model=VariantList, response_model_exclude_none=True)
async def variants() -> Any:
    """Every preset: its seats, default options, the options a table may change (with their
    values) and those it may not (with the reason)."""
    return {"variants": catalog()}
