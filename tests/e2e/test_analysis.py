"""The replay page asks for a finished match's analysis and shows the advice beside each move,
to the player who asked and to anyone else who opens the replay."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, serve, shot
from tests.e2e.drive import live_table, never, play, sit_as


def step_to_advice(page: Page) -> None:
    """Wait until the page has the match's advice, then step through the replay from its
    step shown until a move with advice is shown. (The advice arrives after the replay: steps
    taken before it came could pass the moves it is for.)"""
    expect(page.locator("aside.side[data-analysis=ready]")).to_be_visible(timeout=30_000)
    advice = page.get_by_test_id("analysis-move")
    for _ in range(12):
        if advice.count():
            return
        page.keyboard.press("ArrowRight")
    expect(advice).to_be_visible()


def wait_for_analysis(url: str, match_id: int, timeout_s: float = 600.0) -> None:
    """Wait until the server has stored the match's analysis (the expert's search takes
    seconds per decision in the background worker, which runs at a lower priority: on a
    loaded machine it gets the processor last)."""
    deadline = time.monotonic() + timeout_s
    while httpx.get(f"{url}/api/matches/{match_id}/analysis").status_code != 200:
        assert time.monotonic() < deadline, "the analysis was not stored in time"
        time.sleep(0.5)


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """A server whose analysis samples fewer worlds per decision (the page shows the same
    kinds of advice; the search is shorter)."""
    monkeypatch.setenv("ANALYSIS_WORLDS", "16")
    yield from serve(tmp_path, monkeypatch, "127.0.0.1")


def test_the_replay_shows_the_advice_on_each_move(new_page: Any, server: Server) -> None:
    table, players = live_table(server.url, target=1)
    play(server.url, table, players, random.Random(4), never)
    match_id = httpx.get(f"{server.url}/api/tables/{table['id']}").json()["match_id"]

    anna = new_page("anna")
    sit_as(anna.context, players[0])
    anna.goto(f"/history/{match_id}")
    anna.click("[data-action=analyse]")
    expect(anna.get_by_test_id("analysis-queued")).to_be_visible()
    wait_for_analysis(server.url, match_id)
    step_to_advice(anna)  # the page, not reloaded, looks again and finds it stored
    advice = anna.get_by_test_id("analysis-move")
    expect(advice).to_contain_text(
        re.compile("A good move|Close to the best|Inaccuracy|Mistake|Blunder")
    )
    shot(anna, "replay-analysis")

    stranger = new_page("stranger", locale="de-DE")
    stranger.goto(f"/history/{match_id}")
    expect(stranger.locator(".replay-controls")).to_be_visible()
    step_to_advice(stranger)
    analysed = httpx.get(f"{server.url}/api/matches/{match_id}/analysis").json()
    assert analysed["moves"], "the stored analysis has the moves the page shows"
