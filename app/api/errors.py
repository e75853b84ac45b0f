"""Every error leaves the API as ``{"error": {"code": ..., "message": ...}}``.

No handler ever puts a stack trace or an exception's text from outside the service layer into
a response.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from app.common.errors import (
    MAX_MESSAGE,
    STORE_ERRORS,
    ServiceError,
    clip,
    database_unavailable,
    unreachable,
)

log = logging.getLogger(__name__)

HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "body_too_large",
    415: "unsupported_media_type",
    422: "validation_error",
    429: "too_many_requests",
}


# How many of a request's validation problems one answer names.
MAX_PROBLEMS = 5


def error_response(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    """A JSON error response in the one shape the API uses."""
    body: dict[str, Any] = {"code": code, "message": message, **extra}
    return JSONResponse({"error": body}, status_code=status)


def _where(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "body"


async def on_service_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServiceError)
    response = error_response(exc.status, exc.code, exc.message, **exc.extra)
    if "retry_after" in exc.extra:  # 429: when the next request will be taken
        response.headers["Retry-After"] = str(exc.extra["retry_after"])
    return response


async def on_validation_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    # A location may hold a client's own text (a key of a mapping): each is capped.
    problems = [
        f"{clip(_where(tuple(e.get('loc', ()))))}: {e.get('msg', 'invalid')}"
        for e in exc.errors()[:MAX_PROBLEMS]
    ]
    message = clip("; ".join(problems), MAX_MESSAGE) or "Invalid request."
    return error_response(422, "validation_error", message)


# FastAPI's answer to a body it cannot decode at all (not UTF-8); an undecodable body is as
# invalid as malformed JSON, which FastAPI answers with 422.
UNPARSEABLE_BODY = "There was an error parsing the body"


async def on_http_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 400 and exc.detail == UNPARSEABLE_BODY:
        return error_response(422, "validation_error", "body: not valid JSON text.")
    code = HTTP_CODES.get(exc.status_code, "http_error")
    message = exc.detail if isinstance(exc.detail, str) else "Request failed."
    response = error_response(exc.status_code, code, message)
    if exc.headers:
        response.headers.update(exc.headers)
    return response


async def on_store_error(request: Request, exc: Exception) -> JSONResponse:
    if not unreachable(exc):
        return await on_unexpected(request, exc)
    log.warning("the database is unreachable (%s)", type(exc).__name__)
    refusal = database_unavailable()
    return error_response(refusal.status, refusal.code, refusal.message)


async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, "internal", "Something went wrong on the server.")


def install(app: FastAPI) -> None:
    """Register the handlers on ``app``."""
    app.add_exception_handler(ServiceError, on_service_error)
    app.add_exception_handler(RequestValidationError, on_validation_error)
    app.add_exception_handler(HTTPException, on_http_error)
    for store_error in STORE_ERRORS:
        app.add_exception_handler(store_error, on_store_error)
    app.add_exception_handler(Exception, on_unexpected)
