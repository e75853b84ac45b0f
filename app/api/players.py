"""``/api/players``: guests, and the player behind a token (rename, delete)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Response
from fastapi.responses import StreamingResponse

from app.api.deps import (
    OPTIONAL_TOKEN,
    AccountsDep,
    HistoryDep,
    PlayerDep,
    ProfilesDep,
    TablesDep,
    ViewerIdDep,
)
from app.api.limits import NewPlayerLimit, SignInLimit
from app.api.schemas import (
    ErrorBody,
    PlayerCreate,
    PlayerCreated,
    PlayerDelete,
    PlayerOut,
    PlayerUpdate,
    Profile,
    YourTables,
)

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
    return PlayerOut(id=player.id, name=player.name, handle=player.handle)


@router.get("/me/tables", response_model=YourTables, responses={401: {"model": ErrorBody}})
async def your_tables(player: PlayerDep, tables: TablesDep) -> Any:
    """The tables waiting or under way where you hold a seat (private and computer tables
    included), newest first, with your seat and whose move it is: the way back to any of
    them."""
    return {"tables": await tables.tables_of(player)}


@router.patch(
    "/me",
    response_model=PlayerOut,
    responses={401: {"model": ErrorBody}, 409: {"model": ErrorBody}, 422: {"model": ErrorBody}},
)
async def rename(
    body: PlayerUpdate, player: PlayerDep, accounts: AccountsDep, tables: TablesDep
) -> PlayerOut:
    """A new display name, and for an account a new handle; the player stays the same."""
    row = await accounts.rename(player, name=body.name, handle=body.handle)
    await tables.renamed(row)
    return PlayerOut(id=row.id, name=row.name, handle=row.handle)


@router.delete(
    "/me",
    status_code=204,
    responses={
        401: {"model": ErrorBody},
        403: {"model": ErrorBody},
        429: {"model": ErrorBody},
        503: {"model": ErrorBody},
    },
)
async def delete_me(
    body: PlayerDelete,
    player: PlayerDep,
    accounts: AccountsDep,
    tables: TablesDep,
    _: SignInLimit = None,
) -> Response:
    """Delete the player (an account sends its password). Its matches stay public under the
    name "deleted player"; every token it had stops working, and its seats at tables still
    waiting for players are given up. 429 past ``SIGN_INS_PER_MINUTE`` (the password is
    checked)."""
    deleted = await accounts.delete(player, body.password)
    await tables.leave_open_tables(deleted)
    await tables.renamed(deleted)
    return Response(status_code=204)


@router.get("/{player_id}", response_model=Profile, responses={404: {"model": ErrorBody}})
async def profile(player_id: Annotated[str, Path(max_length=64)], profiles: ProfilesDep) -> Any:
    """A player's public profile: handle, ratings with deviation and trend, statistics and
    recent matches. A computer player's shows its fixed published rating."""
    return await profiles.profile(player_id)


@router.get(
    "/{player_id}/matches.ndjson",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"application/x-ndjson": {}}},
        401: {"model": ErrorBody},
        404: {"model": ErrorBody},
    },
    openapi_extra=OPTIONAL_TOKEN,
)
async def export_matches(
    player_id: Annotated[str, Path(max_length=64)],
    profiles: ProfilesDep,
    history: HistoryDep,
    viewer: ViewerIdDep,
) -> StreamingResponse:
    """Every finished match of the player that the viewer may see (a private table's matches
    whose players chose ``history: never`` only to them), newest first, one JSON match record
    per line."""
    await profiles.require(player_id)
    return StreamingResponse(
        history.export(player_id, viewer_id=viewer),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="talon-{player_id}.ndjson"'},
    )
