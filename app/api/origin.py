"""Cross-site WebSocket hijacking: only pages from allowed origins may open a table socket.

A browser always sends ``Origin`` with a WebSocket handshake, and a page on another site
cannot forge it; so a socket whose ``Origin`` is neither this server's own address (the
``Host`` it was reached at, or ``PUBLIC_URL``) nor one of ``ALLOWED_ORIGINS`` is refused with
close code 4003. Clients that are not browsers (bots, scripts) send no ``Origin`` and are let
through: they hold their token themselves, so there is no session to hijack.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.websockets import WebSocket

from app.settings import Settings

CLOSE_BAD_ORIGIN = 4003


def _origin_of(url: str) -> str:
    parts = urlsplit(url.strip())
    return f"{parts.scheme}://{parts.netloc}".lower()


def origin_allowed(origin: str | None, host: str | None, settings: Settings) -> bool:
    """True when a handshake with this ``Origin`` (and ``Host``) header may go ahead."""
    if origin is None:
        return True
    origin = origin.strip().lower()
    if origin == "null":
        return False
    allowed = {_origin_of(o) for o in settings.allowed_origins}
    allowed.add(_origin_of(settings.public_url))
    if host:
        allowed |= {f"http://{host.lower()}", f"https://{host.lower()}"}
    return origin in allowed


def websocket_origin_allowed(websocket: WebSocket, settings: Settings) -> bool:
    """``origin_allowed`` for a WebSocket handshake."""
    return origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), settings)
