"""Errors the service layer raises; the API maps each to a status and an error body."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A request the service refuses, with a stable ``code`` and a sentence for people."""

    status = 400

    def __init__(self, code: str, message: str, **extra: Any) -> None:
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
