"""Accounts: a guest becomes an account with a handle and a password, signs in on other
devices, signs out, renames itself and deletes itself.

An account is the same player row as the guest it was: its id, its matches, its ratings and
its seats stay. Each device holds a token of its own (stored as a hash); signing out forgets
that one token, and closes the table sockets it opened, on every worker
(``revocations.py``). A deleted player keeps its row, so its matches stay public, under the name
``DELETED_NAME``, with handle, password, passkeys and every token gone.
"""

from __future__ import annotations

import logging

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.common.errors import Conflict, Forbidden, NotFound, Unauthorized
from app.players import identity, names, passwords
from app.players.bot_players import bot_level
from app.players.revocations import Revocations
from app.store import Player
from app.store import passkeys as passkey_store
from app.store import players as player_store
from app.store.db import AsyncSession
from app.store.models import utcnow

log = logging.getLogger(__name__)
DELETED_NAME = "deleted player"


class AccountService:
    """Account operations; each runs in one transaction of its own."""

    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], revocations: Revocations
    ) -> None:
        self.sessions = sessions
        self.revocations = revocations

    async def upgrade(
        self, player: Player, handle: str, password: str, name: str | None = None
    ) -> Player:
        """Turn the guest into an account named ``handle`` (unique however it is spelt);
        its display name becomes ``name``, or stays what it was when none is given. Every
        cheap refusal comes before the password is weighed and hashed; a password easy to
        guess is refused with ``weak_password``."""
        shown = names.handle(handle)
        display = names.display_name(name) if name is not None else None
        passwords.check_password(password)
        async with self.sessions() as session:
            row = await self._live(session, player.id)
            if row.is_account:
                raise self._already()
            await self._check_handle_free(session, shown, row.id)
            known = (shown, display or row.name)
        await passwords.check_strength(password, known)
        digest = await passwords.hash_password(password)
        try:
            async with self.sessions.begin() as session:
                row = await self._live(session, player.id)
                if row.is_account:  # a concurrent request made it one meanwhile
                    raise self._already()
                await self._check_handle_free(session, shown, row.id)
                row.handle, row.handle_key = shown, names.skeleton(shown)
                row.password_hash = digest
                row.name = display or row.name
        except IntegrityError:
            raise self._taken() from None
        log.info("a guest became an account", extra={"player_id": player.id})
        return row

    async def sign_in(self, handle: str, password: str) -> tuple[Player, str]:
        """A new token for the account with this handle, for another device;
        ``Unauthorized`` ``bad_credentials`` when the handle or the password is wrong."""
        if not passwords.plausible(password):  # no account has it: nothing to hash
            raise self._mismatch()
        async with self.sessions() as session:
            row = await player_store.player_by_handle_key(session, names.skeleton(handle))
        stored = row.password_hash if row is not None else None
        if not await passwords.verify_password(stored, password) or row is None:
            raise self._mismatch()
        token = identity.new_token()
        async with self.sessions.begin() as session:
            await player_store.add_token(session, row.id, identity.hash_token(token))
        log.info("an account signed in", extra={"player_id": row.id})
        return row, token

    async def sign_out(self, token: str) -> None:
        """Forget this token (the other devices stay signed in) and close the table sockets
        it opened."""
        digest = identity.hash_token(token)
        async with self.sessions.begin() as session:
            await player_store.revoke_token(session, digest)
        await self.revocations.revoke_token(digest)

    async def rename(
        self, player: Player, name: str | None = None, handle: str | None = None
    ) -> Player:
        """Change the display name and, for an account, the handle; nothing else changes."""
        display = names.display_name(name) if name is not None else None
        shown = names.handle(handle) if handle is not None else None
        try:
            async with self.sessions.begin() as session:
                row = await self._live(session, player.id)
                if shown is not None:
                    if not row.is_account:
                        raise Conflict("not_account", "Only an account has a handle.")
                    await self._check_handle_free(session, shown, row.id)
                    row.handle, row.handle_key = shown, names.skeleton(shown)
                if display is not None:
                    row.name = display
        except IntegrityError:
            raise self._taken() from None
        return row

    async def delete(self, player: Player, password: str | None) -> Player:
        """Delete the player: an account must confirm with its password. Its matches stay
        public under ``DELETED_NAME``; its handle is free again, every token is revoked and
        every passkey forgotten."""
        async with self.sessions() as session:
            row = await self._live(session, player.id)
        if row.is_account and not (
            passwords.plausible(password or "")  # else refused without hashing
            and await passwords.verify_password(row.password_hash, password or "")
        ):
            raise Forbidden("bad_credentials", "Deleting an account needs its password.")
        async with self.sessions.begin() as session:
            row = await self._live(session, player.id)
            row.name, row.handle, row.handle_key, row.password_hash = DELETED_NAME, None, None, None
            row.deleted_at = utcnow()
            await player_store.revoke_all_tokens(session, row.id)
            await passkey_store.remove_all_passkeys(session, row.id)
        await self.revocations.revoke_player(row.id)
        log.info("a player was deleted", extra={"player_id": player.id})
        return row

    @staticmethod
    async def _live(session: AsyncSession, player_id: str) -> Player:
        row = await player_store.get_player(session, player_id)
        if row is None or row.deleted_at is not None or bot_level(player_id) is not None:
            raise NotFound("player_not_found", "There is no such player.")
        return row

    async def _check_handle_free(self, session: AsyncSession, shown: str, own_id: str) -> None:
        holder = await player_store.player_by_handle_key(session, names.skeleton(shown))
        if holder is not None and holder.id != own_id:
            raise self._taken()

    @staticmethod
    def _mismatch() -> Unauthorized:
        return Unauthorized("bad_credentials", "That handle and password do not match.")

    @staticmethod
    def _already() -> Conflict:
        return Conflict("already_account", "This player is already an account.")

    @staticmethod
    def _taken() -> Conflict:
        return Conflict(
            "handle_taken", "That handle, or one that looks the same, belongs to another account."
        )
