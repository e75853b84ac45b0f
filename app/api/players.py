"""``/api/players``: guest identities."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import PlayerDep, TablesDep
from app.api.limits import NewPlayerLimit
from app.api.schemas import ErrorBody, PlayerCreate, PlayerCreated, PlayerOut

router = APIRouter(prefix="/api/players", tags=["players"])


@router.post(
    "",
    status_code=201,
    response_model=PlayerCreated,
    responses={422: {"model": ErrorBody}, 429: {"model": ErrorBody}},
)
async def create_player(
    body: PlayerCreate, tables: TablesDep, _: NewPlayerLimit = None
) -> PlayerCreated:
    """Create a guest; keep the token, it is the bearer credential and is shown only once."""
    player, token = await tables.create_player(body.name)
    return PlayerCreated(id=player.id, name=player.name, token=token)


@router.get("/me", response_model=PlayerOut, responses={401: {"model": ErrorBody}})
async def who_am_i(player: PlayerDep) -> PlayerOut:
    """The player the bearer token belongs to."""
    return PlayerOut(id=player.id, name=player.name)
