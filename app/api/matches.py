"""``/api/matches``: match history, and full logs of finished matches."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Response

from app.api.deps import OPTIONAL_TOKEN, AnalysisDep, HistoryDep, PlayerDep, ViewerIdDep
from app.api.schemas import (
    AnalysisAsked,
    ErrorBody,
    MatchAnalysis,
    MatchLog,
    MatchOut,
    MatchPage,
    MatchReplay,
)
from app.history.analysis import ANALYSIS_PAGE
from app.history.service import LOG_PAGE, REPLAY_PAGE
from app.store.matches import MatchFilter

# Match ids are 32-bit integers in the store: a larger number is no match, not a database error.
MAX_ID = 2**31 - 1
MatchId = Annotated[int, Path(ge=1, le=MAX_ID)]

router = APIRouter(
    prefix="/api/matches",
    tags=["matches"],
    responses={401: {"model": ErrorBody}, 404: {"model": ErrorBody}, 422: {"model": ErrorBody}},
)


@router.get("", response_model=MatchPage, openapi_extra=OPTIONAL_TOKEN)
async def list_matches(
    history: HistoryDep,
    viewer: ViewerIdDep,
    player: Annotated[str | None, Query(max_length=64)] = None,
    variant: Annotated[str | None, Query(max_length=32)] = None,
    opponent: Annotated[
        str | None, Query(max_length=64, description="only matches against this player")
    ] = None,
    result: Annotated[
        Literal["won", "lost"] | None, Query(description="the result of 'player' (needs it)")
    ] = None,
    rated: Annotated[bool | None, Query(description="rated (true) or casual (false)")] = None,
    since: Annotated[datetime | None, Query(description="started at or after")] = None,
    until: Annotated[datetime | None, Query(description="started before")] = None,
    tournament: Annotated[
        str | None, Query(max_length=32, description="only the matches of this event")
    ] = None,
    limit: Annotated[int, Query()] = 20,
    before: Annotated[
        int | None, Query(ge=1, le=MAX_ID, description="the previous page's 'next'")
    ] = None,
) -> Any:
    """Matches newest first, optionally of one player (against one opponent, won or lost),
    of one variant, rated or casual, started between two times, of one tournament. A private
    table's matches are listed to those who played them, and to others once over (unless its
    players chose ``history: never``)."""
    where = MatchFilter(
        player_id=player,
        variant=variant,
        opponent=opponent,
        result=result,
        rated=rated,
        since=aware(since),
        until=aware(until),
        tournament=tournament,
    )
    return await history.list_matches(limit=limit, before=before, where=where, viewer_id=viewer)


def aware(moment: datetime | None) -> datetime | None:
    """A time without a zone is taken as UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


# What the routes of a finished match's record have in common in the schema.
FINISHED_ONLY: dict[str, Any] = {
    "responses": {409: {"model": ErrorBody}},
    "openapi_extra": OPTIONAL_TOKEN,
}


@router.get("/{match_id}", response_model=MatchOut, openapi_extra=OPTIONAL_TOKEN)
async def get_match(match_id: MatchId, history: HistoryDep, viewer: ViewerIdDep) -> Any:
    """Players, rules, result and each finished deal (seeds only once the match is over)."""
    return await history.get_match(match_id, viewer)


def start_at(what: str) -> Any:
    """The ``from`` query parameter of a paged record: the index of its first item."""
    return Query(
        alias="from", ge=0, le=2**31 - 1, description=f"the index of the first {what} to send"
    )


@router.get("/{match_id}/log", response_model=MatchLog, **FINISHED_ONLY)
async def match_log(
    match_id: MatchId,
    history: HistoryDep,
    viewer: ViewerIdDep,
    start: Annotated[int, start_at("action")] = 0,
    limit: Annotated[int, Query(ge=1, le=LOG_PAGE, description="at most this many")] = LOG_PAGE,
) -> Any:
    """The seed and the actions from ``from`` on (at most ``limit``; ``next``: where the next
    page starts, null on the last); 409 ``match_live`` while the match runs."""
    return await history.match_log(match_id, viewer, start=start, limit=limit)


@router.get("/{match_id}/replay", response_model=MatchReplay, **FINISHED_ONLY)
async def match_replay(
    match_id: MatchId,
    history: HistoryDep,
    viewer: ViewerIdDep,
    start: Annotated[int, start_at("step")] = 0,
    limit: Annotated[
        int, Query(ge=1, le=REPLAY_PAGE, description="at most this many")
    ] = REPLAY_PAGE,
) -> Any:
    """The steps of a finished match from ``from`` on, with all hands open (at most
    ``limit``; ``next``: where the next page starts, null on the last; each step's
    ``deals_done`` counts the record's ``deals`` over by then); 409 ``match_live`` while
    it runs."""
    body = await history.replay(match_id, viewer, start=start, limit=limit)
    return Response(body, media_type="application/json")


@router.get("/{match_id}/analysis", response_model=MatchAnalysis, **FINISHED_ONLY)
async def match_analysis(
    match_id: MatchId,
    analysis: AnalysisDep,
    viewer: ViewerIdDep,
    start: Annotated[int, start_at("move")] = 0,
    limit: Annotated[
        int, Query(ge=1, le=ANALYSIS_PAGE, description="at most this many")
    ] = ANALYSIS_PAGE,
) -> Any:
    """The advice on the decisions of a finished match from ``from`` on (at most ``limit``;
    ``next``: where the next page starts, null on the last), once computed: what the hard
    bot's search would have played from that seat's view and what the move played cost in
    expected game points. 404 ``analysis_not_found`` until computed, 409 ``match_live`` while
    it runs."""
    return await analysis.get(match_id, viewer, start=start, limit=limit)


@router.post(
    "/{match_id}/analysis",
    status_code=202,
    response_model=AnalysisAsked,
    responses={409: {"model": ErrorBody}, 429: {"model": ErrorBody}, 503: {"model": ErrorBody}},
)
async def ask_for_analysis(match_id: MatchId, analysis: AnalysisDep, player: PlayerDep) -> Any:
    """Ask for a finished match's analysis (once per match; a limit per player an hour); it is
    computed in the background. 409 ``match_live``, 429 ``too_many_analyses``, 503
    ``analysis_busy``."""
    return await analysis.request(player, match_id)
