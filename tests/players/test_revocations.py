"""Revocations close the sockets of a token or a player: watched before, watched a moment
after (a greeting that read the token just before it was revoked), heard from another worker,
or found revoked in the database after the bus lost messages."""

from __future__ import annotations

from app.players import identity
from app.players.revocations import Revocations
from app.services import Services


class Socket:
    """A stand-in for a table socket: counts its closes."""

    def __init__(self) -> None:
        self.closed = 0

    def revoke(self) -> None:
        self.closed += 1


async def test_a_token_or_a_player_revoked_closes_its_sockets_only(services: Services) -> None:
    now = [0.0]
    revocations = Revocations(services.accounts.sessions, clock=lambda: now[0], remember=60)
    phone, laptop, other = Socket(), Socket(), Socket()
    revocations.watch(phone, "phone-hash", "anna")
    revocations.watch(laptop, "laptop-hash", "anna")
    revocations.watch(other, "bela-hash", "bela")
    await revocations.revoke_token("phone-hash")
    assert (phone.closed, laptop.closed, other.closed) == (1, 0, 0)
    revocations.on_bus_message({"kind": "player", "key": "anna"})  # from another worker
    assert (phone.closed, laptop.closed, other.closed) == (1, 1, 0)
    assert revocations.watched() == 1
    # A socket greeted with a revoked token just before the revocation is closed when watched.
    late = Socket()
    now[0] = 59.0
    revocations.watch(late, "phone-hash", "anna")
    assert late.closed == 1
    # ... but a revocation is remembered only for a while (the greeting checks the database).
    now[0] = 121.0
    later = Socket()
    revocations.watch(later, "phone-hash", "anna")
    assert later.closed == 0
    revocations.forget(later)
    revocations.forget(other)
    assert revocations.watched() == 0


async def test_a_recheck_closes_the_sockets_of_tokens_the_database_lost(
    services: Services,
) -> None:
    anna, kept = await services.tables.create_player("Anna")
    _, gone = await services.tables.create_player("Bela")
    revocations = Revocations(services.accounts.sessions)
    kept_socket, gone_socket = Socket(), Socket()
    revocations.watch(kept_socket, identity.hash_token(kept), anna.id)
    revocations.watch(gone_socket, identity.hash_token(gone), "bela")
    # Signed out through another worker whose message never came.
    await services.accounts.sign_out(gone)
    assert await revocations.recheck() == 1
    assert (kept_socket.closed, gone_socket.closed) == (0, 1)
