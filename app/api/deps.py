"""Dependencies as ``Annotated`` aliases, so route signatures stay short."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.common.errors import Unauthorized
from app.history.analysis import AnalysisService
from app.history.service import HistoryService
from app.players.accounts import AccountService
from app.players.passkeys import PasskeyService
from app.players.profiles import ProfileService
from app.services import Services
from app.store import Player
from app.tables.service import TableService

bearer = HTTPBearer(auto_error=False, description="The token from POST /api/players.")


def get_services(request: Request) -> Services:
    """The running application's services (built by the lifespan)."""
    services: Services = request.app.state.services
    return services


def get_tables(request: Request) -> TableService:
    """The lobby and table registry."""
    return get_services(request).tables


def get_history(request: Request) -> HistoryService:
    """Match history queries."""
    return get_services(request).history


def get_accounts(request: Request) -> AccountService:
    """Accounts: upgrade, sign in and out, rename, delete."""
    return get_services(request).accounts


def get_profiles(request: Request) -> ProfileService:
    """Profiles and the leaderboard."""
    return get_services(request).profiles


def get_analysis(request: Request) -> AnalysisService:
    """Analyses of finished matches: ask for one, read it."""
    return get_services(request).analysis


def get_passkeys(request: Request) -> PasskeyService:
    """Passkeys: register, list, remove, sign in with one."""
    return get_services(request).passkeys


Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


async def optional_player(request: Request, creds: Credentials) -> Player | None:
    """The player if a token is sent (a bad token is still a 401), else None. A player
    identified here counts as online (``players.online``)."""
    if creds is None:
        return None
    services = get_services(request)
    player = await services.tables.identify(creds.credentials)
    services.online.seen(player.id)
    return player


async def optional_player_id(
    player: Annotated[Player | None, Depends(optional_player)],
) -> str | None:
    """The id of the player if a token is sent, else None (anyone)."""
    return player.id if player else None


async def current_player(player: Annotated[Player | None, Depends(optional_player)]) -> Player:
    """The player named by the bearer token; 401 without a valid one."""
    if player is None:
        raise Unauthorized("missing_token", "Send 'Authorization: Bearer <token>'.")
    return player


# For routes that take ``MaybePlayerDep``: tells the OpenAPI schema that the bearer token is
# optional there (an empty requirement next to the bearer one).
OPTIONAL_TOKEN: dict[str, Any] = {"security": [{}]}

ServicesDep = Annotated[Services, Depends(get_services)]
TablesDep = Annotated[TableService, Depends(get_tables)]
HistoryDep = Annotated[HistoryService, Depends(get_history)]
AccountsDep = Annotated[AccountService, Depends(get_accounts)]
ProfilesDep = Annotated[ProfileService, Depends(get_profiles)]
PasskeysDep = Annotated[PasskeyService, Depends(get_passkeys)]
AnalysisDep = Annotated[AnalysisService, Depends(get_analysis)]
PlayerDep = Annotated[Player, Depends(current_player)]
MaybePlayerDep = Annotated[Player | None, Depends(optional_player)]
ViewerIdDep = Annotated[str | None, Depends(optional_player_id)]
