"""Errors the service layer raises; the API maps each to a status and an error body."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError, SQLAlchemyError

# What a database call can raise when the database is in trouble: SQLAlchemy's errors, and the
# driver's socket errors, which asyncpg lets through unwrapped when it cannot connect at all.
STORE_ERRORS: tuple[type[Exception], ...] = (SQLAlchemyError, OSError)


MAX_SHOWN = 40
"""How many characters of a client's own value an error message repeats."""
MAX_MESSAGE = 300
"""How long an error message may be, whatever it quotes."""
LONG_WORD = re.compile(rf"\S{{{MAX_SHOWN + 1},}}")


def clip(text: str, limit: int = MAX_SHOWN) -> str:
    """``text`` cut to ``limit`` characters (the cut marked with an ellipsis)."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def clip_words(text: str) -> str:
    """``text`` with every run of more than ``MAX_SHOWN`` non-blank characters clipped (a
    sentence from elsewhere that may quote a client's value)."""
    return LONG_WORD.sub(lambda found: clip(found.group(0)), text)


def shown(value: Any) -> str:
    """A client's value as an error message quotes it: its ``repr``, at most ``MAX_SHOWN``
    characters."""
    return clip(repr(value))


class ServiceError(Exception):
    """A request the service refuses, with a stable ``code`` and a sentence for people (at
    most ``MAX_MESSAGE`` characters, so no message repeats a long value in full)."""

    status = 400

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        message = clip(message, MAX_MESSAGE)
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


class Invalid(ServiceError):
    """The request names something impossible (bad variant, bad option, bad name)."""

    status = 422


class Unauthorized(ServiceError):
    """No valid bearer token."""

    status = 401


class Forbidden(ServiceError):
    """Valid identity, but not allowed (wrong invite code, not seated)."""

    status = 403


class NotFound(ServiceError):
    """No such table, match or player."""

    status = 404


class Conflict(ServiceError):
    """Not possible in the current state (seat taken, match live, stale version)."""

    status = 409


class Unavailable(ServiceError):
    """The storage failed; nothing changed, the client may retry."""

    status = 503


class Elsewhere(ServiceError):
    """Another worker owns the table (holds its lease): commands for it go there. Caught
    on the way; should one escape, the client is told to try again."""

    status = 503

    def __init__(self, owner: str) -> None:
        super().__init__("unavailable", "This table is served by another server.")
        self.owner = owner


class TableMoving(Unavailable):
    """A table passing between workers: its owner does not answer, or lost the table while
    a command was on its way. Nothing changed; clients see ``unavailable`` and try again
    (a table socket is closed with 4012 and resumes)."""


def table_moving() -> TableMoving:
    """The refusal while a table moves to another worker."""
    return TableMoving(
        "unavailable", "This table is moving to another server; try again in a moment."
    )


def unreachable(exc: BaseException) -> bool:
    """True when ``exc`` says the database could not be reached (stopped, restarting, the
    connection lost or timed out), as opposed to a database that answered with an error."""
    if isinstance(exc, (OSError, TimeoutError, OperationalError, InterfaceError)):
        return True
    return isinstance(exc, DBAPIError) and exc.connection_invalidated


def database_unavailable() -> Unavailable:
    """The refusal for anything that needed a database that does not answer."""
    return Unavailable(
        "unavailable", "The database is not answering; nothing was stored. Try again shortly."
    )
