"""Queries on passkeys and their challenges. Never commits: the caller owns the transaction."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, func, select, update

from app.store.db import AsyncSession
from app.store.models import Passkey, PasskeyChallenge


async def add_challenge(
    session: AsyncSession,
    challenge: str,
    purpose: str,
    expires_at: datetime,
    player_id: str | None = None,
    handle_key: str | None = None,
) -> None:
    """Keep a challenge handed out, bound to a player (registering) or a handle (signing in)."""
    session.add(
        PasskeyChallenge(
            challenge=challenge,
            purpose=purpose,
            expires_at=expires_at,
            player_id=player_id,
            handle_key=handle_key,
        )
    )
    await session.flush()


async def forget_challenges(
    session: AsyncSession, now: datetime, player_id: str | None = None
) -> None:
    """Forget every challenge expired by ``now`` and, when ``player_id`` is given, every one
    handed out to that player (a player has at most one registration under way)."""
    await session.execute(delete(PasskeyChallenge).where(PasskeyChallenge.expires_at <= now))
    if player_id is not None:
        await session.execute(
            delete(PasskeyChallenge).where(PasskeyChallenge.player_id == player_id)
        )


async def take_challenge(
    session: AsyncSession, challenge: str, purpose: str, now: datetime
) -> PasskeyChallenge | None:
    """The challenge for ``purpose`` if it is known and not expired, deleted as it is taken:
    of two requests taking the same challenge at once, only one gets it."""
    row = await session.scalar(
        select(PasskeyChallenge).where(
            PasskeyChallenge.challenge == challenge,
            PasskeyChallenge.purpose == purpose,
            PasskeyChallenge.expires_at > now,
        )
    )
    if row is None:
        return None
    session.expunge(row)
    gone = await session.execute(
        delete(PasskeyChallenge).where(PasskeyChallenge.challenge == challenge)
    )
    return row if gone.rowcount == 1 else None  # type: ignore[attr-defined]


async def add_passkey(
    session: AsyncSession, credential_id: str, player_id: str, public_key: bytes, sign_count: int
) -> Passkey:
    """Store a newly registered credential of the player."""
    passkey = Passkey(
        id=credential_id, player_id=player_id, public_key=public_key, sign_count=sign_count
    )
    session.add(passkey)
    await session.flush()
    return passkey


async def get_passkey(session: AsyncSession, credential_id: str) -> Passkey | None:
    """One credential by its id."""
    return await session.get(Passkey, credential_id)


async def passkeys_of(session: AsyncSession, player_id: str) -> Sequence[Passkey]:
    """The player's credentials, oldest first."""
    query = select(Passkey).where(Passkey.player_id == player_id)
    return (await session.scalars(query.order_by(Passkey.created_at, Passkey.id))).all()


async def count_passkeys(session: AsyncSession, player_id: str) -> int:
    """How many credentials the player has."""
    query = select(func.count()).select_from(Passkey).where(Passkey.player_id == player_id)
    return int(await session.scalar(query) or 0)


async def record_use(
    session: AsyncSession, credential_id: str, seen: int, sign_count: int, now: datetime
) -> bool:
    """Store the counter of a signature just checked, provided the stored one is still
    ``seen`` (False when another sign-in moved it meanwhile)."""
    moved = await session.execute(
        update(Passkey)
        .where(Passkey.id == credential_id, Passkey.sign_count == seen)
        .values(sign_count=sign_count, last_used_at=now)
    )
    return bool(moved.rowcount == 1)  # type: ignore[attr-defined]


async def remove_passkey(session: AsyncSession, player_id: str, credential_id: str) -> bool:
    """Delete the player's credential; False when the player has none with this id."""
    gone = await session.execute(
        delete(Passkey).where(Passkey.id == credential_id, Passkey.player_id == player_id)
    )
    return bool(gone.rowcount == 1)  # type: ignore[attr-defined]


async def remove_all_passkeys(session: AsyncSession, player_id: str) -> None:
    """Delete every credential of the player (the account is deleted)."""
    await session.execute(delete(Passkey).where(Passkey.player_id == player_id))
