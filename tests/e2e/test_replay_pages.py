"""The replay page asks for a long match's steps a page at a time, as the viewer steps on, and
reaches the last step; the verify page fetches every page and checks every deal."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import httpx
from playwright.sync_api import Request, expect

from tests.e2e.conftest import Server, shot
from tests.reliability.test_long_replay import long_match
from tests.support import in_thread

VERSIONS = 260  # more than one of the page's 200-step pages


def test_a_long_replay_is_paged_as_the_viewer_steps_on(new_page: Any, server: Server) -> None:
    base = f"{server.host}:{server.port}"
    # Playwright's own event loop runs in this thread: the match is played in another.
    match_id = in_thread(lambda: asyncio.run(long_match(base, VERSIONS)))
    page = new_page("viewer")
    asked: list[str] = []

    def seen(request: Request) -> None:
        if "/replay" in request.url:
            asked.append(request.url.split("/replay", 1)[1])

    page.on("request", seen)
    page.goto(f"/history/{match_id}")
    counter = page.locator(".step-of")
    expect(counter).to_contain_text("+")  # more steps to come
    assert asked == ["?limit=200"]
    for _ in range(200):
        if re.fullmatch(r"\D*(\d+)\D+\1\D*", counter.inner_text()):
            break
        page.keyboard.press("PageDown")
    expect(counter).not_to_contain_text("+")
    text = counter.inner_text()
    assert re.fullmatch(r"\D*(\d+)\D+\1\D*", text), text  # the last frame
    assert asked == ["?limit=200", "?from=200&limit=200"]
    expect(page.locator(".table-page.replay")).to_be_visible()
    shot(page, "replay-long-last-step")

    page.goto(f"/history/{match_id}/verify")
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_have_attribute("data-ok", "true", timeout=30_000)
    record = httpx.get(f"{server.url}/api/matches/{match_id}").json()
    expect(page.locator("tr[data-deal]")).to_have_count(len(record["deals"]))
