"""HTTP routes: one router per resource, gathered in ``api_router`` (``/metrics`` is added
by the application only when ``EXPOSE_METRICS`` is on). The WebSocket routes are answered
ahead of the router (``socket_routes.py``)."""

from fastapi import APIRouter

from app.api import (
    accounts,
    challenges,
    health,
    leaderboard,
    matches,
    players,
    pools,
    tables,
    tournaments,
    variants,
)

api_router = APIRouter()
for module in (
    health,
    players,
    accounts,
    variants,
    tables,
    pools,
    challenges,
    tournaments,
    matches,
    leaderboard,
):
    api_router.include_router(module.router)

__all__ = ["api_router"]
