"""Request bodies larger than ``MAX_BODY_BYTES`` are refused before they are parsed.

Every body the API takes is a few hundred bytes (a name, a table's options), so a large one
is refused with 413 ``body_too_large``: at once when its ``Content-Length`` says so, else as
soon as the bytes received pass the limit (a chunked body), before any JSON is parsed.
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import error_response

BODY_TOO_LARGE = "body_too_large"


def too_large_message(limit: int) -> str:
    """The sentence of a 413."""
    return f"Request bodies are limited to {limit} bytes."


class BodyLimit:
    """ASGI middleware: 413 ``body_too_large`` for HTTP request bodies over ``limit`` bytes."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            refusal = error_response(413, BODY_TOO_LARGE, too_large_message(self.limit))
            await refusal(scope, receive, send)
            return
        received = 0

        async def receive_within_limit() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    # Answered 413 by the API's handler (app/api/errors.py).
                    raise HTTPException(413, too_large_message(self.limit))
            return message

        await self.app(scope, receive_within_limit, send)
