"""``/api/leaderboard``: the best-rated players of a rating family."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from app.api.deps import ProfilesDep
from app.api.schemas import ErrorBody, Leaderboard

router = APIRouter(prefix="/api/leaderboard", tags=["ratings"])


@router.get("", response_model=Leaderboard, responses={422: {"model": ErrorBody}})
async def leaderboard(
    profiles: ProfilesDep,
    game: Annotated[
        str,
        Query(
            max_length=32,
            description="a family (sixty-six, schnapsen, three-hand, "
            "four-hand, german) or a two-player variant",
        ),
    ] = "sixty-six",
    limit: Annotated[int, Query()] = 20,
    after: Annotated[
        str | None, Query(max_length=200, description="the previous page's 'next'")
    ] = None,
) -> Any:
    """Players with at least the minimum number of rated matches, best rating first."""
    return await profiles.leaderboard(game, after, limit)
