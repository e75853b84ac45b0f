"""``/api/challenges``: challenge a player (or anyone with a link), list, accept, decline and
cancel challenges."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from app.api.deps import PlayerDep, get_services
from app.api.limits import limit_new_challenges
from app.api.schemas import (
    ChallengeAccepted,
    ChallengeCreate,
    ChallengeList,
    ChallengeOut,
    ErrorBody,
)
from app.challenges.service import ChallengeService


def get_challenges(request: Request) -> ChallengeService:
    """Challenges between players."""
    return get_services(request).challenges


ChallengesDep = Annotated[ChallengeService, Depends(get_challenges)]

router = APIRouter(
    prefix="/api/challenges",
    tags=["challenges"],
    responses={
        401: {"model": ErrorBody},
        403: {"model": ErrorBody},
        404: {"model": ErrorBody},
        409: {"model": ErrorBody},
    },
)


@router.post(
    "",
    status_code=201,
    response_model=ChallengeOut,
    responses={422: {"model": ErrorBody}, 429: {"model": ErrorBody}},
)
async def create_challenge(
    body: ChallengeCreate, request: Request, player: PlayerDep, challenges: ChallengesDep
) -> Any:
    """Challenge ``player_id`` (or the account ``handle``) to a game of two; with neither,
    an open challenge whose ``url`` anyone signed in may accept. It expires after
    ``CHALLENGE_SECONDS``. Refused with ``too_many_challenges`` past ``CHALLENGES_PENDING``
    waiting ones, ``challenge_rate_limited`` past ``CHALLENGES_PER_MINUTE``."""
    await limit_new_challenges(request, player.id)
    return await challenges.create(
        player,
        body.variant,
        body.options,
        target_id=body.player_id,
        handle=body.handle,
        clock=body.clock,
        rated=body.rated,
    )


@router.get("", response_model=ChallengeList)
async def my_challenges(player: PlayerDep, challenges: ChallengesDep) -> Any:
    """Your pending challenges: those made to you (``incoming``) and yours (``outgoing``).
    There is no socket per player: a page polls this to learn of new challenges."""
    return await challenges.mine(player)


@router.get("/{challenge_id}", response_model=ChallengeOut)
async def get_challenge(challenge_id: str, player: PlayerDep, challenges: ChallengesDep) -> Any:
    """One challenge: seen by its two players, or by anyone with the id of an open one."""
    return await challenges.get(player, challenge_id)


@router.post("/{challenge_id}/accept", response_model=ChallengeAccepted)
async def accept_challenge(challenge_id: str, player: PlayerDep, challenges: ChallengesDep) -> Any:
    """Accept: a private table opens with both players seated and its match starts; the
    answer has its ``table_id`` and the ``table``. A challenge is accepted at most once."""
    return await challenges.accept(player, challenge_id)


@router.post("/{challenge_id}/decline", response_model=ChallengeOut)
async def decline_challenge(challenge_id: str, player: PlayerDep, challenges: ChallengesDep) -> Any:
    """The challenged player declines."""
    return await challenges.decline(player, challenge_id)


@router.delete("/{challenge_id}", response_model=ChallengeOut)
async def cancel_challenge(challenge_id: str, player: PlayerDep, challenges: ChallengesDep) -> Any:
    """The challenger withdraws its challenge."""
    return await challenges.cancel(player, challenge_id)
