"""``/api/tables``: create, list, join, leave, abort, rematch offers and reclaiming a seat."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body

from app.api.chat import ChatDep
from app.api.deps import OPTIONAL_TOKEN, MaybePlayerDep, PlayerDep, TablesDep
from app.api.limits import NewTableLimit
from app.api.schemas import (
    AbortRequest,
    BotRequest,
    ClaimRequest,
    ErrorBody,
    JoinRequest,
    RematchOut,
    RematchRequest,
    SeedOffer,
    TableCreate,
    TableList,
    TableOut,
)

router = APIRouter(
    prefix="/api/tables",
    tags=["tables"],
    responses={401: {"model": ErrorBody}, 404: {"model": ErrorBody}, 409: {"model": ErrorBody}},
)


@router.post(
    "",
    status_code=201,
    response_model=TableOut,
    responses={422: {"model": ErrorBody}, 429: {"model": ErrorBody}},
)
async def create_table(
    body: TableCreate,
    player: PlayerDep,
    tables: TablesDep,
    chat: ChatDep,
    _: NewTableLimit = None,
) -> Any:
    """Open a table; the creator takes seat 0 and ``bots`` take the seats they name (a table
    whose seats are then all taken starts its match). Unknown variants, options, bot seats or
    levels answer 422. On a ``rated`` table, a match between accounts changes their ratings.
    ``chat_filter`` turns on the chat's word filter."""
    table = await tables.create_table(
        player,
        body.variant,
        body.options,
        body.visibility,
        dict(body.bots),
        spectators=body.spectators,
        history=body.history,
        rated=body.rated,
        contribution=body.contribution,
        commitment=body.commitment,
        clock=body.clock,
        on_timeout=body.on_timeout,
    )
    if body.chat_filter:  # a chat option (app/chat/service.py)
        await chat.set_word_filter(table["id"], True)
    return table


@router.post("/commitment", response_model=SeedOffer)
async def offer_seed(player: PlayerDep, tables: TablesDep) -> Any:
    """Draw the server seed of the next table you open and show its commitment: open it with
    ``commitment`` and your ``contribution``, and your part is sent after the server's seed
    was fixed (docs/fairness.md)."""
    return await tables.offer_seed(player)


@router.get("", response_model=TableList, openapi_extra=OPTIONAL_TOKEN)
async def list_tables(
    tables: TablesDep,
    player: MaybePlayerDep,
    status: Literal["open", "live"] = "open",
) -> Any:
    """Public tables waiting for players (``open``) or under way to watch (``live``: those
    whose players let spectators in)."""
    return {"tables": await tables.list_tables(status, player.id if player else None)}


@router.get("/{table_id}", response_model=TableOut, openapi_extra=OPTIONAL_TOKEN)
async def get_table(table_id: str, tables: TablesDep, player: MaybePlayerDep) -> Any:
    """One table (seated players also see its invite code)."""
    return await tables.get_table(table_id, player.id if player else None)


@router.post("/{table_id}/join", response_model=TableOut, responses={403: {"model": ErrorBody}})
async def join_table(
    table_id: str,
    player: PlayerDep,
    tables: TablesDep,
    body: Annotated[JoinRequest | None, Body()] = None,
) -> Any:
    """Take a seat (a private table needs its invite code); a full table starts its match."""
    body = body or JoinRequest()
    return await tables.join(player, table_id, body.invite_code, body.seat, body.contribution)


@router.post(
    "/{table_id}/bots",
    response_model=TableOut,
    responses={403: {"model": ErrorBody}, 422: {"model": ErrorBody}},
)
async def add_bot(table_id: str, body: BotRequest, player: PlayerDep, tables: TablesDep) -> Any:
    """A seated player gives an empty seat of an open table to a computer player."""
    return await tables.add_bot(player, table_id, body.seat, body.level)


@router.post("/{table_id}/leave", response_model=TableOut)
async def leave_table(table_id: str, player: PlayerDep, tables: TablesDep) -> Any:
    """Give up a seat before the match starts."""
    return await tables.leave(player, table_id)


@router.post("/{table_id}/abort", response_model=TableOut, responses={403: {"model": ErrorBody}})
async def abort_match(
    table_id: str,
    player: PlayerDep,
    tables: TablesDep,
    body: Annotated[AbortRequest | None, Body()] = None,
) -> Any:
    """Abort the match until every seat has acted in its first deal: no winner, no rating
    change, the table waits for a new match; ``leave`` gives up your seat too. Refused with
    ``abort_too_late`` after that (resign instead)."""
    return await tables.abort(player, table_id, leave=(body or AbortRequest()).leave)


@router.post(
    "/{table_id}/rematch", response_model=RematchOut, responses={403: {"model": ErrorBody}}
)
async def rematch(
    table_id: str,
    player: PlayerDep,
    tables: TablesDep,
    body: Annotated[RematchRequest | None, Body()] = None,
) -> Any:
    """Once the match is over, offer a rematch or accept the standing offer; the new match
    starts when every seat has accepted (computer players accept at once)."""
    return await tables.rematch(player, table_id, (body or RematchRequest()).contribution)


@router.post("/{table_id}/reclaim", response_model=TableOut)
async def reclaim_seat(table_id: str, player: PlayerDep, tables: TablesDep) -> Any:
    """Take back your seat from the computer player that took it over when your clock ran
    out, while the match is under way."""
    return await tables.reclaim(player, table_id)


@router.post(
    "/{table_id}/rematch/decline",
    response_model=RematchOut,
    responses={403: {"model": ErrorBody}},
)
async def decline_rematch(table_id: str, player: PlayerDep, tables: TablesDep) -> Any:
    """Decline the standing rematch offer (the offerer withdraws it) for everyone."""
    return await tables.decline_rematch(player, table_id)


@router.post(
    "/{table_id}/claim-victory",
    response_model=TableOut,
    responses={403: {"model": ErrorBody}, 422: {"model": ErrorBody}},
)
async def claim_victory(
    table_id: str, body: ClaimRequest, player: PlayerDep, tables: TablesDep
) -> Any:
    """Act against the other side's ``seat`` that is gone (away for longer than the grace
    period): ``remedy`` ``win`` (default) ends the match as won, that seat resigning in the
    match's log; ``bot`` hands the seat to a computer player until its player reclaims it."""
    return await tables.claim_victory(player, table_id, body.seat, body.remedy)
