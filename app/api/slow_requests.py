"""A warning for every HTTP request the server took long to answer.

The access log is off (every request would be a line); an operator still wants to hear about
a request that waited, for the database or anything else. The line names the method, the
path (never the query string, which may carry an invite code), the status and the seconds.
"""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)


class SlowRequests:
    """ASGI middleware: logs a warning when an HTTP response is complete more than
    ``threshold`` seconds after its request arrived (0 or less: never)."""

    def __init__(self, app: ASGIApp, threshold: float) -> None:
        self.app, self.threshold = app, threshold

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.threshold <= 0:
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 0

        async def timed(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, timed)
        finally:
            seconds = time.perf_counter() - started
            if seconds > self.threshold:
                log.warning(
                    "a slow request: %s %s answered %s in %.2f s",
                    scope["method"],
                    scope["path"][:200],
                    status or "nothing",
                    seconds,
                    extra={"seconds": round(seconds, 3), "status": status},
                )
