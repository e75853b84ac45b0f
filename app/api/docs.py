"""``/docs`` and ``/openapi.json``: off unless ``EXPOSE_API_DOCS`` turns them on.

The interactive page is FastAPI's Swagger UI, which loads its script and style sheet from a
CDN at run time and starts itself with an inline script: fine on a developer's machine, not
on a public server. So both routes are off by default; when on, the page gets a policy of its
own that allows exactly what it loads (the CDN's origin and the hash of its one inline
script), and every other response keeps the strict one (``app/api/headers.py``).
"""

from __future__ import annotations

import base64
import hashlib
import re
from urllib.parse import urlsplit

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse

DOCS_PATH = "/docs"
OPENAPI_PATH = "/openapi.json"

INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)
LOADED = re.compile(r"""(?:src|href)="(https?://[^"]+)\"""")


def page_policy(html: str) -> str:
    """A Content-Security-Policy that allows this page's own inline scripts (by hash) and the
    origins it loads files from, and nothing else."""
    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in INLINE_SCRIPT.findall(html)
    ]
    origins = sorted({"{0.scheme}://{0.netloc}".format(urlsplit(u)) for u in LOADED.findall(html)})
    sources = " ".join(["'self'", *origins])
    return "; ".join(
        (
            "default-src 'self'",
            f"script-src {' '.join([sources, *hashes])}",
            f"style-src {sources}",
            f"img-src {sources} data:",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
        )
    )


def install(app: FastAPI) -> None:
    """Serve the Swagger UI page at ``/docs`` on ``app`` (built with ``openapi_url`` set to
    ``OPENAPI_PATH``, so the schema is served too)."""

    async def docs_page() -> HTMLResponse:
        page = get_swagger_ui_html(openapi_url=OPENAPI_PATH, title=f"{app.title} API")
        html = bytes(page.body).decode()
        return HTMLResponse(html, headers={"Content-Security-Policy": page_policy(html)})

    app.add_api_route(DOCS_PATH, docs_page, methods=["GET"], include_in_schema=False)
