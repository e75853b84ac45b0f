"""``/api/tournaments``: arena and Swiss events. List them (upcoming, running, finished),
create one (an account), join and withdraw, add a computer entrant (the creator), the event
with its standings and pairings, and its results as NDJSON (docs/tournaments.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from app.api.deps import MaybePlayerDep, PlayerDep, get_services
from app.api.schemas import ErrorBody
from app.tournaments.service import EventForm, TournamentService

router = APIRouter(
    prefix="/api/tournaments",
    tags=["tournaments"],
    responses={
        401: {"model": ErrorBody},
        403: {"model": ErrorBody},
        404: {"model": ErrorBody},
        409: {"model": ErrorBody},
    },
)


def get_tournaments(request: Request) -> TournamentService:
    """The tournaments of the running application."""
    return get_services(request).tournaments


TournamentsDep = Annotated[TournamentService, Depends(get_tournaments)]
EventId = Annotated[str, Path(max_length=32)]


class TournamentIn(BaseModel):
    """A new event. An arena needs ``duration`` (seconds), a Swiss event ``rounds``.
    ``starts_in``: seconds from now; ``access``: who may join (``accounts`` only, or
    ``guests`` too); ``computers``: whether the creator may add computer entrants;
    ``streak``: the arena's streak rule; ``bye_points``: what a Swiss bye scores."""

    name: str = Field(max_length=200)
    format: Literal["arena", "swiss"]
    variant: str = Field(max_length=32)
    options: dict[str, Any] = Field(default_factory=dict)
    clock: str = Field(default="move", max_length=16)
    rated: bool = False
    starts_in: float = 0.0
    duration: float | None = None
    rounds: int | None = None
    access: Literal["accounts", "guests"] = "accounts"
    computers: bool = False
    streak: bool = True
    bye_points: float = 1.0


class JoinIn(BaseModel):
    """``team``: in a four-hand event, the team to join as its second player, or
    ``partner``: the handle of the account whose team to join (neither: a new team with you
    as its first)."""

    team: str | None = Field(default=None, max_length=32)
    partner: str | None = Field(default=None, max_length=40)


class ComputerIn(BaseModel):
    """A computer entrant's level."""

    level: str = Field(max_length=16)


@router.get("")
async def list_tournaments(tournaments: TournamentsDep) -> Any:
    """The latest upcoming, running and finished events."""
    return await tournaments.events()


@router.post("", status_code=201)
async def create_tournament(
    body: TournamentIn, player: PlayerDep, tournaments: TournamentsDep
) -> Any:
    """Create an event (accounts only); the answer is the event."""
    return await tournaments.create(player, EventForm(**body.model_dump()))


@router.get("/{event_id}")
async def get_tournament(
    event_id: EventId, player: MaybePlayerDep, tournaments: TournamentsDep
) -> Any:
    """The event, its standings (computer entrants marked) and its pairings, and with a
    token your entrant and your game under way."""
    return await tournaments.event(event_id, player)


@router.post("/{event_id}/join")
async def join_tournament(
    event_id: EventId, player: PlayerDep, tournaments: TournamentsDep, body: JoinIn | None = None
) -> Any:
    """Join the event (until it starts; an arena until its end)."""
    if body is None:
        return await tournaments.join(player, event_id)
    return await tournaments.join(player, event_id, body.team, body.partner)


@router.post("/{event_id}/withdraw")
async def withdraw_from_tournament(
    event_id: EventId, player: PlayerDep, tournaments: TournamentsDep
) -> Any:
    """Withdraw (until it starts; an arena until its end: your results stay)."""
    return await tournaments.withdraw(player, event_id)


@router.post("/{event_id}/computers")
async def add_computer(
    event_id: EventId, body: ComputerIn, player: PlayerDep, tournaments: TournamentsDep
) -> Any:
    """The creator adds a computer entrant of a level (when the event allows them)."""
    return await tournaments.add_computer(player, event_id, body.level)


@router.get("/{event_id}/results.ndjson", response_class=StreamingResponse)
async def results(event_id: EventId, tournaments: TournamentsDep) -> StreamingResponse:
    """Every result, one JSON object per line: game, round, entrant, opponent (none for a
    bye), outcome (``win``, ``loss``, ``forfeit_win``, ``forfeit_loss``, ``bye``), points."""
    lines = [line async for line in tournaments.results_lines(event_id)]
    return StreamingResponse(iter(lines), media_type="application/x-ndjson")
