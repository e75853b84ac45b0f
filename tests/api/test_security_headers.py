"""Security headers on every response, a client page without inline scripts, and the
operator's endpoints (``/metrics``, ``/openapi.json``, ``/docs``) off unless turned on."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from tests.support import live_server, settings_for

STATIC = Path(__file__).resolve().parents[2] / "app" / "static"


@pytest.fixture
async def http(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with (
        live_server(settings_for(database_url)) as base,
        httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as client,
    ):
        yield client


def policy(response: httpx.Response) -> dict[str, str]:
    """The Content-Security-Policy as directive -> sources."""
    text = response.headers["content-security-policy"]
    return dict((part.strip() + " ").split(" ", 1) for part in text.split(";"))  # type: ignore[misc]


@pytest.mark.parametrize(
    "path", ["/", "/t/abc", "/js/main.js", "/api/tables", "/healthz", "/no-such-page"]
)
async def test_every_http_response_carries_the_security_headers(
    http: httpx.AsyncClient, path: str
) -> None:
    response = await http.get(path)
    directives = policy(response)
    assert directives["script-src"].strip() == "'self'"
    assert directives["frame-ancestors"].strip() == "'none'"  # no clickjacking of resign
    assert directives["object-src"].strip() == "'none'"
    assert "unsafe-inline" not in directives["default-src"] + directives["style-src"]
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["x-content-type-options"] == "nosniff"
    # An invite link's code must not travel to other sites in Referer.
    assert response.headers["referrer-policy"] == "no-referrer"


def test_the_client_has_no_inline_script_or_event_handler() -> None:
    """``script-src 'self'`` blocks inline scripts: the client must not need any."""
    html = (STATIC / "index.html").read_text()
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.DOTALL)
    assert scripts and all('src="/' in attrs and not body.strip() for attrs, body in scripts)
    for path in [STATIC / "index.html", *sorted((STATIC / "js").glob("*.js"))]:
        text = path.read_text()
        assert not re.search(r"""<[^>]*\son[a-z]+\s*=""", text), path.name
        assert "javascript:" not in text and "eval(" not in text, path.name


async def test_metrics_and_api_docs_are_off_by_default(http: httpx.AsyncClient) -> None:
    for path in ("/metrics", "/openapi.json", "/docs", "/redoc"):
        response = await http.get(path)
        assert response.status_code == 404, path
        assert response.json()["error"]["code"] == "not_found"


async def test_metrics_and_api_docs_when_turned_on(database_url: str) -> None:
    settings = settings_for(database_url, expose_metrics=True, expose_api_docs=True)
    async with (
        live_server(settings) as base,
        httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http,
    ):
        metrics = await http.get("/metrics")
        assert metrics.status_code == 200 and "talon_connections" in metrics.text
        schema = (await http.get("/openapi.json")).json()
        assert "/api/tables/{table_id}/join" in schema["paths"]
        docs = await http.get("/docs")
    assert docs.status_code == 200
    # The page's own policy allows its one inline script by hash, not every inline script.
    sources = policy(docs)["script-src"]
    assert "unsafe-inline" not in sources
    for body in re.findall(r"<script>(.*?)</script>", docs.text, re.DOTALL):
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in sources
    assert policy(docs)["frame-ancestors"].strip() == "'none'"
