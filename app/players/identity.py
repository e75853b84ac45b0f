"""Identities: random bearer tokens (one per signed-in device), stored only as SHA-256
hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from app.common.errors import Unauthorized
from app.players import names
from app.store import Player
from app.store import players as player_store
from app.store.db import AsyncSession


def new_token() -> str:
    """A bearer token carrying 256 random bits."""
    return secrets.token_urlsafe(32)


def new_id() -> str:
    """A short random identifier for players and tables (96 bits)."""
    return secrets.token_urlsafe(12)


def hash_token(token: str) -> str:
    """The stored form of a token: its SHA-256 in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def clean_name(name: str) -> str:
    """A player's display name normalised (``names.display_name``); ``Invalid`` otherwise."""
    return names.display_name(name)


async def find_player(session: AsyncSession, token: str) -> Player:
    """The player whose token this is; ``Unauthorized`` when there is none."""
    digest = hash_token(token)
    found = await player_store.token_owner(session, digest)
    if found is None or not hmac.compare_digest(found[0], digest):
        raise Unauthorized("bad_token", "The token is not valid.")
    return found[1]
