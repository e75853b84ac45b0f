"""Passkey challenges expire: an answer that comes after ``PASSKEY_CHALLENGE_SECONDS`` is
refused, on a clock the test moves."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.common.errors import Unauthorized
from app.players.passkeys import PasskeyService, RelyingParty
from app.services import Services
from app.store import players as player_store
from app.store.models import utcnow
from tests.authenticator import SoftAuthenticator

PARTY = RelyingParty(
    id="localhost", name="Talon", origins=["http://localhost:8000"], challenge_seconds=60
)


async def test_an_answer_after_the_challenge_expired_is_refused(services: Services) -> None:
    sessions = services.accounts.sessions
    async with sessions.begin() as session:
        guest = await player_store.add_player(session, "p-anna", "Anna", None)
    anna = await services.accounts.upgrade(guest, "anna", "a long enough secret")
    now = [utcnow()]
    passkeys = PasskeyService(sessions, PARTY, clock=lambda: now[0])
    phone = SoftAuthenticator(PARTY.id, PARTY.origins[0])

    late = phone.create(await passkeys.registration_options(anna))
    now[0] += timedelta(seconds=61)
    with pytest.raises(Unauthorized) as refused:
        await passkeys.register(anna, late)
    assert refused.value.code == "passkey_bad_challenge"

    await passkeys.register(anna, phone.create(await passkeys.registration_options(anna)))
    options = await passkeys.sign_in_options("anna")
    now[0] += timedelta(seconds=59)
    player, _ = await passkeys.sign_in(phone.get(options))
    assert player.id == anna.id
    options = await passkeys.sign_in_options(None)
    now[0] += timedelta(seconds=61)
    with pytest.raises(Unauthorized) as refused:
        await passkeys.sign_in(phone.get(options))
    assert refused.value.code == "passkey_bad_challenge"
