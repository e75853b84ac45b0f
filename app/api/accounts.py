"""``/api/accounts``: a guest becomes an account; signing in and out, with a password or a
passkey; an account's passkeys."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from app.api.deps import AccountsDep, Credentials, PasskeysDep, PlayerDep
from app.api.limits import SignInLimit, account_signed_in, limit_account_sign_ins
from app.api.schemas import (
    AccountCreate,
    ErrorBody,
    PasskeyAnswer,
    PasskeyOut,
    PasskeySignInStart,
    PlayerCreated,
    PlayerOut,
    SignIn,
)
from app.players import names
from app.store import Passkey

router = APIRouter(prefix="/api/accounts", tags=["accounts"])


@router.post(
    "",
    status_code=201,
    response_model=PlayerOut,
    responses={
        401: {"model": ErrorBody},
        409: {"model": ErrorBody},
        422: {"model": ErrorBody},
        429: {"model": ErrorBody},
        503: {"model": ErrorBody},
    },
)
async def create_account(
    body: AccountCreate, player: PlayerDep, accounts: AccountsDep, _: SignInLimit = None
) -> PlayerOut:
    """The guest holding the token becomes an account: same id, matches, ratings and seats.
    409 ``handle_taken`` when the handle, or one that looks the same, is another account's;
    422 ``weak_password`` for a password easy to guess; 429 past ``SIGN_INS_PER_MINUTE``."""
    row = await accounts.upgrade(player, body.handle, body.password, body.name)
    return PlayerOut(id=row.id, name=row.name, handle=row.handle)


@router.post(
    "/sign-in",
    status_code=201,
    response_model=PlayerCreated,
    responses={401: {"model": ErrorBody}, 429: {"model": ErrorBody}, 503: {"model": ErrorBody}},
)
async def sign_in(
    body: SignIn, request: Request, accounts: AccountsDep, _: SignInLimit = None
) -> PlayerCreated:
    """A new token for this device; 401 ``bad_credentials`` for a wrong handle or password;
    429 past ``SIGN_INS_PER_MINUTE`` from this address or ``SIGN_INS_PER_ACCOUNT`` for this
    handle (from any address)."""
    account = names.skeleton(body.handle)
    await limit_account_sign_ins(request, account)
    row, token = await accounts.sign_in(body.handle, body.password)
    await account_signed_in(request, account)
    return PlayerCreated(id=row.id, name=row.name, handle=row.handle, token=token)


@router.post("/sign-out", status_code=204, responses={401: {"model": ErrorBody}})
async def sign_out(_: PlayerDep, creds: Credentials, accounts: AccountsDep) -> Response:
    """Revoke the token sent (this device only)."""
    assert creds is not None  # PlayerDep refused a request without one
    await accounts.sign_out(creds.credentials)
    return Response(status_code=204)


@router.post(
    "/passkeys/options",
    response_model=dict[str, Any],
    responses={401: {"model": ErrorBody}, 409: {"model": ErrorBody}},
)
async def passkey_registration_options(player: PlayerDep, passkeys: PasskeysDep) -> dict[str, Any]:
    """Options for ``navigator.credentials.create`` (WebAuthn JSON, base64url fields) with a
    challenge bound to this account, answerable once within ``PASSKEY_CHALLENGE_SECONDS``;
    409 ``not_account`` for a guest, ``too_many_passkeys``."""
    return await passkeys.registration_options(player)


@router.post(
    "/passkeys",
    status_code=201,
    response_model=PasskeyOut,
    responses={401: {"model": ErrorBody}, 409: {"model": ErrorBody}, 422: {"model": ErrorBody}},
)
async def register_passkey(
    body: PasskeyAnswer, player: PlayerDep, passkeys: PasskeysDep
) -> PasskeyOut:
    """Keep the passkey the browser created for the challenge of ``/passkeys/options``;
    401 ``passkey_bad_challenge``; 409 ``passkey_taken``; 422 ``passkey_invalid``."""
    row = await passkeys.register(player, body.credential)
    return _passkey_out(row)


@router.get("/passkeys", response_model=list[PasskeyOut], responses={401: {"model": ErrorBody}})
async def list_passkeys(player: PlayerDep, passkeys: PasskeysDep) -> list[PasskeyOut]:
    """The account's passkeys, oldest first."""
    return [_passkey_out(row) for row in await passkeys.passkeys(player)]


@router.delete(
    "/passkeys/{credential_id}",
    status_code=204,
    responses={401: {"model": ErrorBody}, 404: {"model": ErrorBody}},
)
async def remove_passkey(credential_id: str, player: PlayerDep, passkeys: PasskeysDep) -> Response:
    """Forget one of the account's passkeys; 404 ``passkey_not_found``."""
    await passkeys.remove(player, credential_id)
    return Response(status_code=204)


@router.post(
    "/passkeys/sign-in/options",
    response_model=dict[str, Any],
    responses={422: {"model": ErrorBody}, 429: {"model": ErrorBody}},
)
async def passkey_sign_in_options(
    body: PasskeySignInStart, passkeys: PasskeysDep, _: SignInLimit = None
) -> dict[str, Any]:
    """Options for ``navigator.credentials.get``: a challenge bound to ``handle`` when one is
    given (its passkeys listed), else any discoverable passkey may answer; 429 past
    ``SIGN_INS_PER_MINUTE``."""
    return await passkeys.sign_in_options(body.handle)


@router.post(
    "/passkeys/sign-in",
    status_code=201,
    response_model=PlayerCreated,
    responses={401: {"model": ErrorBody}, 422: {"model": ErrorBody}},
)
async def passkey_sign_in(body: PasskeyAnswer, passkeys: PasskeysDep) -> PlayerCreated:
    """A new token for this device, for the account whose passkey answered the challenge;
    401 ``passkey_bad_challenge``, ``passkey_unknown``, ``passkey_invalid``,
    ``passkey_replayed``."""
    row, token = await passkeys.sign_in(body.credential)
    return PlayerCreated(id=row.id, name=row.name, handle=row.handle, token=token)


def _passkey_out(row: Passkey) -> PasskeyOut:
    return PasskeyOut(id=row.id, created_at=row.created_at, last_used_at=row.last_used_at)
