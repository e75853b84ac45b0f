"""Passwords: which are acceptable, and hashing with Argon2id (argon2-cffi's defaults, RFC
9106's low-memory profile).

A password needs 8 to 256 characters and must not be easy to guess: ``zxcvbn`` estimates how
many guesses it would take (common passwords, words, names, keyboard walks, repeats, dates,
the handle and display name themselves) and a score below ``MIN_STRENGTH`` is refused.

Hashing takes tenths of a second of CPU and 64 MiB on purpose, so every hash, check and
strength estimate runs in a pool of its own (``THREADS``: half the machine's cores, at least
one, so that the event loop keeps a core), never on the event loop; at most ``QUEUE`` of them
may wait or run at once, past which a request is refused with 503 ``passwords_busy`` (and
``Retry-After``) instead of making everyone's sign-in wait behind a flood. A password
is never logged, stored or returned: only its hash is kept.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn import zxcvbn  # type: ignore[import-untyped,import-not-found,unused-ignore]

from app.common.errors import Invalid, Unavailable

MIN_PASSWORD, MAX_PASSWORD = 8, 256
MIN_STRENGTH = 2
"""zxcvbn's score (0 to 4) a password needs: 2 is "somewhat guessable", more than 10^8
guesses; ``password``, ``12345678``, ``iloveyou1`` and eight spaces score 0 or 1."""
STRENGTH_CHARACTERS = 72
"""How much of a password zxcvbn reads (its own limit; its cost grows with the length)."""
THREADS = max(1, (os.cpu_count() or 2) // 2)
QUEUE = 8 * THREADS
HASHER = PasswordHasher()  # Argon2id; time cost 3, 64 MiB, 4 lanes
# Checked when no account has the handle, so both failures take the same time.
_UNKNOWN = HASHER.hash("no account has this handle")
_POOL = ThreadPoolExecutor(THREADS, thread_name_prefix="password")
_pending = 0
T = TypeVar("T")


def check_password(password: str) -> str:
    """The password if its length is acceptable; ``Invalid`` ``bad_password`` otherwise (the
    message never repeats the password). Cheap: the strength is ``check_strength``'s."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise Invalid(
            "bad_password", f"A password must have {MIN_PASSWORD} to {MAX_PASSWORD} characters."
        )
    return password


def plausible(password: str) -> bool:
    """False for a password no account can have (its length), refused without hashing."""
    return MIN_PASSWORD <= len(password) <= MAX_PASSWORD


def strength(password: str, known: Iterable[str] = ()) -> int:
    """zxcvbn's score (0 to 4) for ``password``, which must not be or contain the ``known``
    words (the handle, the display name) either."""
    words = [word for word in known if word]
    return int(zxcvbn(password[:STRENGTH_CHARACTERS], user_inputs=words)["score"])


async def check_strength(password: str, known: Iterable[str] = ()) -> None:
    """``Invalid`` ``weak_password`` unless ``password`` is hard enough to guess."""
    if await _run(strength, password, list(known)) < MIN_STRENGTH:
        raise Invalid(
            "weak_password",
            "This password is too easy to guess (a common password, a word, a name, a "
            "keyboard row or a repeat): choose a longer one, such as a few unrelated words.",
        )


async def hash_password(password: str) -> str:
    """The Argon2id hash to store."""
    return await _run(HASHER.hash, password)


async def verify_password(stored: str | None, password: str) -> bool:
    """True when ``password`` matches the stored hash (a missing hash takes as long)."""

    def verify() -> bool:
        try:
            return HASHER.verify(stored or _UNKNOWN, password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False

    return await _run(verify)


async def _run(work: Callable[..., T], *args: object) -> T:
    """``work(*args)`` in the password pool; ``passwords_busy`` when ``QUEUE`` jobs are
    already waiting or running."""
    global _pending
    if _pending >= QUEUE:
        raise Unavailable(
            "passwords_busy",
            "The server is checking too many passwords right now; try again in a moment.",
            retry_after=1,
        )
    _pending += 1
    loop = asyncio.get_running_loop()
    job = _POOL.submit(work, *args)
    # Counted until the thread is done, even when the request that asked is cancelled.
    job.add_done_callback(lambda _: _call_soon(loop, _finished))
    return await asyncio.wrap_future(job)


def _finished() -> None:
    global _pending
    _pending -= 1


def _call_soon(loop: asyncio.AbstractEventLoop, callback: Callable[[], None]) -> None:
    try:
        loop.call_soon_threadsafe(callback)
    except RuntimeError:  # the loop closed meanwhile: nobody else counts any more
        callback()
