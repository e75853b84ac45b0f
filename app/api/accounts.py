"""``/api/accounts``: a guest becomes an account; signing in and out."""

from __future__ import annotations

from fastapi import APIRouter, Response

from app.api.deps import AccountsDep, Credentials, PlayerDep
from app.api.limits import SignInLimit
from app.api.schemas import AccountCreate, ErrorBody, PlayerCreated, PlayerOut, SignIn

router = APIRouter(prefix="/api/accounts", tags=["accounts"])


@router.post(
    "",
    status_code=201,
    response_model=PlayerOut,
    responses={401: {"model": ErrorBody}, 409: {"model": ErrorBody}, 422: {"model": ErrorBody}},
)
async def create_account(
    body: AccountCreate, player: PlayerDep, accounts: AccountsDep
) -> PlayerOut:
    """The guest holding the token becomes an account: same id, matches, ratings and seats.
    409 ``handle_taken`` when the handle, or one that looks the same, is another account's."""
    row = await accounts.upgrade(player, body.handle, body.password, body.name)
    return PlayerOut(id=row.id, name=row.name, handle=row.handle)


@router.post(
    "/sign-in",
    status_code=201,
    response_model=PlayerCreated,
    responses={401: {"model": ErrorBody}, 429: {"model": ErrorBody}},
)
async def sign_in(body: SignIn, accounts: AccountsDep, _: SignInLimit = None) -> PlayerCreated:
    """A new token for this device; 401 ``bad_credentials`` for a wrong handle or password."""
    row, token = await accounts.sign_in(body.handle, body.password)
    return PlayerCreated(id=row.id, name=row.name, handle=row.handle, token=token)


@router.post("/sign-out", status_code=204, responses={401: {"model": ErrorBody}})
async def sign_out(_: PlayerDep, creds: Credentials, accounts: AccountsDep) -> Response:
    """Revoke the token sent (this device only)."""
    assert creds is not None  # PlayerDep refused a request without one
    await accounts.sign_out(creds.credentials)
    return Response(status_code=204)
