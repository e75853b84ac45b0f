"""``/api/pools``: quick pairing. List the pools, join one, leave it, look at your entry (the
table once you are seated) and accept the computer offer (docs/pools.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import BaseModel

from app.api.deps import PlayerDep, get_services
from app.api.schemas import ErrorBody, TableOut
from app.pools.service import PoolService

router = APIRouter(
    prefix="/api/pools",
    tags=["pools"],
    responses={401: {"model": ErrorBody}, 404: {"model": ErrorBody}, 409: {"model": ErrorBody}},
)


def get_pools(request: Request) -> PoolService:
    """The pools of the running application."""
    return get_services(request).pools


PoolsDep = Annotated[PoolService, Depends(get_pools)]
PoolId = Annotated[str, Path(max_length=32)]


class PoolOut(BaseModel):
    """One pool and how many wait in it."""

    id: str
    variant: str
    seats: int
    clock: str
    family: str
    waiting: int


class PoolList(BaseModel):
    """``GET /api/pools``."""

    pools: list[PoolOut]


class BotOfferOut(BaseModel):
    """The computer players offered for the other seats, at this level."""

    level: str


class PoolEntryOut(BaseModel):
    """Your entry: ``waiting`` (seconds waited, the rating difference you accept now, the
    computer offer once due) or ``seated`` (the table a pool seated you at)."""

    status: Literal["waiting", "seated"]
    pool: str
    rating: int | None = None
    waited: float | None = None
    range: int | None = None
    offer: BotOfferOut | None = None
    table: TableOut | None = None


@router.get("", response_model=PoolList)
async def list_pools(pools: PoolsDep) -> Any:
    """Every pool (one per game, seat count and clock) with how many wait in it."""
    return {"pools": await pools.pools()}


@router.post("/{pool_id}/join", response_model=PoolEntryOut)
async def join_pool(pool_id: PoolId, player: PlayerDep, pools: PoolsDep) -> Any:
    """Wait in the pool to be seated with players of about your strength; the answer is your
    entry. ``in_another_pool`` while you wait in another one; joining the same pool again
    changes nothing."""
    return await pools.join(player, pool_id)


@router.delete("/{pool_id}/join", status_code=204)
async def leave_pool(pool_id: PoolId, player: PlayerDep, pools: PoolsDep) -> Response:
    """Stop waiting (in whichever pool you wait). ``not_in_pool`` when you wait in none."""
    await pools.leave(player)
    return Response(status_code=204)


@router.get("/entry", response_model=PoolEntryOut)
async def your_entry(player: PlayerDep, pools: PoolsDep) -> Any:
    """Your entry: waiting, or the table you were seated at. Asking keeps you online, so a
    client that polls here (or ``GET /api/players/me/tables``) stays in its pool."""
    return await pools.entry(player)


@router.delete("/entry", status_code=204)
async def leave_entry(player: PlayerDep, pools: PoolsDep) -> Response:
    """Stop waiting. ``not_in_pool`` when you wait in none."""
    await pools.leave(player)
    return Response(status_code=204)


@router.post("/entry/bots", response_model=PoolEntryOut)
async def accept_bots(player: PlayerDep, pools: PoolsDep) -> Any:
    """Accept the computer offer: computer players at the offered level take the other
    seats of a new table and the match starts; the answer is your entry, seated. ``no_offer``
    before the offer is due."""
    return await pools.accept_bots(player)
