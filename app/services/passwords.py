"""Password hashing with Argon2id (argon2-cffi's defaults, RFC 9106's low-memory profile).

Hashing takes tens of milliseconds on purpose, so it runs in a thread and never holds up the
event loop. A password is never logged, stored or returned: only its hash is kept.
"""

from __future__ import annotations

import asyncio

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from app.services.errors import Invalid

MIN_PASSWORD, MAX_PASSWORD = 8, 256
HASHER = PasswordHasher()  # Argon2id; time cost 3, 64 MiB, 4 lanes
# Checked when no account has the handle, so both failures take the same time.
_UNKNOWN = HASHER.hash("no account has this handle")


def check_password(password: str) -> str:
    """The password if it is acceptable; ``Invalid`` ``bad_password`` otherwise (the message
    never repeats the password)."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise Invalid(
            "bad_password", f"A password must have {MIN_PASSWORD} to {MAX_PASSWORD} characters."
        )
    return password


async def hash_password(password: str) -> str:
    """The Argon2id hash to store."""
    return await asyncio.to_thread(HASHER.hash, password)


async def verify_password(stored: str | None, password: str) -> bool:
    """True when ``password`` matches the stored hash (a missing hash takes as long)."""

    def verify() -> bool:
        try:
            return HASHER.verify(stored or _UNKNOWN, password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False

    return await asyncio.to_thread(verify)
