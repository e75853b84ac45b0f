"""Passkeys: an account registers WebAuthn credentials and signs in with one instead of its
password (checked by the ``webauthn`` package).

Every ceremony starts with a challenge from the server, kept in the database so that any
worker can check the answer: it is bound to the player registering, or to the handle signing
in (none for a discoverable credential, whose account the authenticator names), answerable
for ``PASSKEY_CHALLENGE_SECONDS`` and taken at its first use, whatever the outcome. A
signature counter that does not move forward (on an authenticator that keeps one) is refused
as a replay.
"""

from __future__ import annotations

import binascii
import json
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, parse_authenticator_data
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.common.errors import Conflict, Invalid, NotFound, ServiceError, Unauthorized
from app.players import identity, names
from app.settings import Settings
from app.store import Passkey, Player
from app.store import passkeys as passkey_store
from app.store import players as player_store
from app.store.db import AsyncSession
from app.store.models import utcnow

log = logging.getLogger(__name__)
Clock = Callable[[], datetime]
REGISTER, SIGN_IN = "register", "sign_in"
MAX_PASSKEYS = 10
"""How many passkeys one account may hold."""
CHALLENGE_BYTES = 32


@dataclass(frozen=True)
class RelyingParty:
    """Who the passkeys are for: the relying-party id (a host name), the name shown by the
    browser, the origins the ceremonies may come from, and how long a challenge lives."""

    id: str
    name: str
    origins: list[str]
    challenge_seconds: float

    @classmethod
    def from_settings(cls, settings: Settings) -> RelyingParty:
        """The relying party the settings describe (derived from PUBLIC_URL by default)."""
        return cls(
            id=settings.relying_party_id,
            name=settings.passkey_rp_name,
            origins=settings.relying_party_origins,
            challenge_seconds=settings.passkey_challenge_seconds,
        )


def bad_challenge() -> Unauthorized:
    """The refusal of an answer to a challenge that is unknown, used, expired or not this
    caller's."""
    return Unauthorized(
        "passkey_bad_challenge",
        "This passkey challenge is unknown, already used or expired; start again.",
    )


def unknown_passkey() -> Unauthorized:
    """The refusal of a credential no account (or not the account named) has."""
    return Unauthorized("passkey_unknown", "No account has this passkey.")


def _challenge_of(credential: dict[str, Any]) -> str:
    """The challenge a browser's answer signed (base64url, from its clientDataJSON)."""
    try:
        data = json.loads(base64url_to_bytes(str(credential["response"]["clientDataJSON"])))
        return str(data["challenge"])
    except (KeyError, TypeError, ValueError, binascii.Error):
        raise Invalid("passkey_invalid", "This is not a passkey's answer.") from None


def _sign_count_of(credential: dict[str, Any]) -> int:
    """The signature counter in an authentication answer (verified afterwards)."""
    data = base64url_to_bytes(str(credential["response"]["authenticatorData"]))
    return parse_authenticator_data(data).sign_count


class PasskeyService:
    """Registering, listing, removing passkeys and signing in with one; each step runs in
    transactions of its own."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        party: RelyingParty,
        clock: Clock = utcnow,
    ) -> None:
        self.sessions = sessions
        self.party = party
        self.clock = clock

    async def registration_options(self, player: Player) -> dict[str, Any]:
        """The options for ``navigator.credentials.create`` (WebAuthn's JSON form): a new
        challenge bound to this account, its existing passkeys excluded."""
        async with self.sessions.begin() as session:
            row = await self._account(session, player.id)
            mine = await passkey_store.passkeys_of(session, row.id)
            if len(mine) >= MAX_PASSKEYS:
                raise self._too_many()
            challenge = secrets.token_bytes(CHALLENGE_BYTES)
            now = self.clock()
            await passkey_store.forget_challenges(session, now, player_id=row.id)
            await passkey_store.add_challenge(
                session, bytes_to_base64url(challenge), REGISTER, self._expiry(now), row.id
            )
            handle = row.handle or row.name
        options = generate_registration_options(
            rp_id=self.party.id,
            rp_name=self.party.name,
            user_name=handle,
            user_id=row.id.encode(),
            user_display_name=handle,
            challenge=challenge,
            timeout=int(self.party.challenge_seconds * 1000),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.PREFERRED,
                user_verification=UserVerificationRequirement.REQUIRED,
            ),
            exclude_credentials=[self._descriptor(p) for p in mine],
        )
        result: dict[str, Any] = json.loads(options_to_json(options))
        return result

    async def register(self, player: Player, credential: dict[str, Any]) -> Passkey:
        """Verify the browser's answer to this account's registration challenge and keep the
        new passkey; ``passkey_bad_challenge``, ``passkey_invalid``, ``passkey_taken``."""
        challenge = _challenge_of(credential)
        async with self.sessions.begin() as session:
            taken = await passkey_store.take_challenge(session, challenge, REGISTER, self.clock())
        if taken is None or taken.player_id != player.id:
            raise bad_challenge()
        try:
            verified = verify_registration_response(
                credential=credential,
                expected_challenge=base64url_to_bytes(challenge),
                expected_rp_id=self.party.id,
                expected_origin=self.party.origins,
                require_user_verification=True,
            )
        except WebAuthnException as exc:
            log.info("a passkey registration was refused: %s", exc)
            raise Invalid(
                "passkey_invalid", "The passkey's answer could not be verified; try again."
            ) from None
        credential_id = bytes_to_base64url(verified.credential_id)
        try:
            async with self.sessions.begin() as session:
                row = await self._account(session, player.id)
                if await passkey_store.count_passkeys(session, row.id) >= MAX_PASSKEYS:
                    raise self._too_many()
                if await passkey_store.get_passkey(session, credential_id) is not None:
                    raise self._taken()
                passkey = await passkey_store.add_passkey(
                    session,
                    credential_id,
                    row.id,
                    verified.credential_public_key,
                    verified.sign_count,
                )
        except IntegrityError:
            raise self._taken() from None
        log.info("an account added a passkey", extra={"player_id": player.id})
        return passkey

    async def passkeys(self, player: Player) -> Sequence[Passkey]:
        """The account's passkeys, oldest first."""
        async with self.sessions() as session:
            return await passkey_store.passkeys_of(session, player.id)

    async def remove(self, player: Player, credential_id: str) -> None:
        """Forget one of the account's passkeys; ``passkey_not_found`` when it has none so
        named (another account's passkey is never touched)."""
        async with self.sessions.begin() as session:
            if not await passkey_store.remove_passkey(session, player.id, credential_id):
                raise NotFound("passkey_not_found", "This account has no such passkey.")

    async def sign_in_options(self, handle: str | None) -> dict[str, Any]:
        """The options for ``navigator.credentials.get``: a new challenge, bound to the
        handle when one is given (its passkeys are then listed; an unknown handle looks the
        same as one without passkeys), else answerable by any discoverable passkey."""
        key = names.skeleton(handle) if handle else None
        challenge = secrets.token_bytes(CHALLENGE_BYTES)
        allowed: list[PublicKeyCredentialDescriptor] = []
        async with self.sessions.begin() as session:
            now = self.clock()
            await passkey_store.forget_challenges(session, now)
            if key:
                row = await player_store.player_by_handle_key(session, key)
                if row is not None:
                    allowed = [
                        self._descriptor(p)
                        for p in await passkey_store.passkeys_of(session, row.id)
                    ]
            await passkey_store.add_challenge(
                session, bytes_to_base64url(challenge), SIGN_IN, self._expiry(now), handle_key=key
            )
        options = generate_authentication_options(
            rp_id=self.party.id,
            challenge=challenge,
            timeout=int(self.party.challenge_seconds * 1000),
            allow_credentials=allowed,
            user_verification=UserVerificationRequirement.REQUIRED,
        )
        result: dict[str, Any] = json.loads(options_to_json(options))
        return result

    async def sign_in(self, credential: dict[str, Any]) -> tuple[Player, str]:
        """Verify the browser's answer to a sign-in challenge and hand out a new token for
        this device; ``passkey_bad_challenge``, ``passkey_unknown``, ``passkey_invalid``,
        ``passkey_replayed``."""
        challenge = _challenge_of(credential)
        now = self.clock()
        async with self.sessions.begin() as session:
            taken = await passkey_store.take_challenge(session, challenge, SIGN_IN, now)
        if taken is None:
            raise bad_challenge()
        credential_id = str(credential.get("id", ""))
        async with self.sessions() as session:
            passkey = await passkey_store.get_passkey(session, credential_id)
            owner = (
                None
                if passkey is None
                else await player_store.get_player(session, passkey.player_id)
            )
        if passkey is None or owner is None or owner.deleted_at is not None:
            raise unknown_passkey()
        if taken.handle_key is not None and taken.handle_key != owner.handle_key:
            raise unknown_passkey()
        try:
            user_handle = credential["response"].get("userHandle")
            if user_handle and base64url_to_bytes(str(user_handle)) != owner.id.encode():
                raise unknown_passkey()
            # The counter is checked below, with a code of its own: the library is given 0,
            # with which it checks none.
            verify_authentication_response(
                credential=credential,
                expected_challenge=base64url_to_bytes(challenge),
                expected_rp_id=self.party.id,
                expected_origin=self.party.origins,
                credential_public_key=passkey.public_key,
                credential_current_sign_count=0,
                require_user_verification=True,
            )
            counted = _sign_count_of(credential)
        except (WebAuthnException, binascii.Error, ValueError) as exc:
            log.info("a passkey sign-in was refused: %s", exc)
            raise Unauthorized(
                "passkey_invalid", "The passkey's answer could not be verified; try again."
            ) from None
        if (counted or passkey.sign_count) and counted <= passkey.sign_count:
            raise self._replayed()
        token = identity.new_token()
        async with self.sessions.begin() as session:
            if not await passkey_store.record_use(
                session, passkey.id, passkey.sign_count, counted, now
            ):
                raise self._replayed()
            await player_store.add_token(session, owner.id, identity.hash_token(token))
        log.info("an account signed in with a passkey", extra={"player_id": owner.id})
        return owner, token

    def _expiry(self, now: datetime) -> datetime:
        return now + timedelta(seconds=self.party.challenge_seconds)

    @staticmethod
    def _descriptor(passkey: Passkey) -> PublicKeyCredentialDescriptor:
        return PublicKeyCredentialDescriptor(id=base64url_to_bytes(passkey.id))

    @staticmethod
    async def _account(session: AsyncSession, player_id: str) -> Player:
        row = await player_store.get_player(session, player_id)
        if row is None or row.deleted_at is not None or not row.is_account:
            raise Conflict("not_account", "Only an account can have passkeys: create one first.")
        return row

    @staticmethod
    def _too_many() -> ServiceError:
        return Conflict(
            "too_many_passkeys", f"An account holds at most {MAX_PASSKEYS} passkeys; remove one."
        )

    @staticmethod
    def _taken() -> ServiceError:
        return Conflict("passkey_taken", "This passkey is already registered.")

    @staticmethod
    def _replayed() -> ServiceError:
        return Unauthorized(
            "passkey_replayed",
            "This passkey's signature counter did not move forward: the answer may be a "
            "copy. Try again, or remove the passkey if it keeps happening.",
        )
