"""A slow HTTP request is logged as a warning with its path and status, never its query."""

from __future__ import annotations

import asyncio
import logging

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from app.api.slow_requests import SlowRequests


async def answer(request: Request) -> PlainTextResponse:
    await asyncio.sleep(float(request.query_params.get("wait", "0")))
    return PlainTextResponse("ok", status_code=202)


def client(threshold: float) -> httpx.AsyncClient:
    app = SlowRequests(Starlette(routes=[Route("/tables/t1", answer)]), threshold=threshold)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")


async def test_a_slow_request_is_logged_without_its_query(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="app.api.slow_requests")
    async with client(threshold=0.05) as http:
        response = await http.get("/tables/t1?wait=0.1&invite=SECRET-CODE")
    assert response.status_code == 202
    (line,) = caplog.records
    assert line.levelno == logging.WARNING
    assert "GET /tables/t1 answered 202 in" in line.getMessage()
    assert "SECRET-CODE" not in line.getMessage()


async def test_quick_requests_and_a_zero_threshold_log_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="app.api.slow_requests")
    async with client(threshold=5.0) as http:
        await http.get("/tables/t1")
    async with client(threshold=0) as http:
        await http.get("/tables/t1?wait=0.05")
    assert caplog.records == []
