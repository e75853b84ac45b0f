"""A player a computer replaced at a private table finds the table in "Your games" and takes
the seat back from its page, without the invite link."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server, serve, shot
from tests.e2e.drive import sit_as
from tests.support import every_seat_acts, in_thread

MOVE_SECONDS = 6


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """A server whose per-move clock is a few seconds, with no bank."""
    monkeypatch.setenv("CLOCK_MOVE_SECONDS", str(MOVE_SECONDS))
    monkeypatch.setenv("CLOCK_BANK_SECONDS", "0")
    yield from serve(tmp_path, monkeypatch, "127.0.0.1")


def test_a_replaced_player_finds_a_private_table_and_takes_the_seat_back(
    new_page: Any, server: Server
) -> None:
    with httpx.Client(base_url=server.url, timeout=30, verify=False) as http:
        players = [http.post("/api/players", json={"name": n}).json() for n in ("Anna", "Bela")]
        bearer = [{"Authorization": f"Bearer {p['token']}"} for p in players]
        body = {"variant": "sixty-six", "visibility": "private", "clock": "move"}
        table = http.post("/api/tables", headers=bearer[0], json=body).json()
        join = {"invite_code": table["invite_code"]}
        http.post(f"/api/tables/{table['id']}/join", headers=bearer[1], json=join)
        # Both play their first cards: before that, a clock that runs out aborts the match.
        tokens = [player["token"] for player in players]
        base = server.url.removeprefix("http://")
        assert in_thread(lambda: asyncio.run(every_seat_acts(base, table["id"], tokens)))
        mine = http.get("/api/players/me/tables", headers=bearer[0]).json()["tables"][0]
        on_move = mine["to_move"]
        # Nobody moves now: the clock of the player on move runs out and a computer takes over.
        for _ in range(300):
            seats = http.get(f"/api/tables/{table['id']}").json()["seats"]
            if seats[on_move]["player_id"].startswith("bot."):
                break
            time.sleep(0.2)
        else:
            raise AssertionError("no computer took the seat over")

    page = new_page(players[on_move]["name"].lower())
    sit_as(page.context, players[on_move])
    page.goto("/")
    row = page.locator(f"[data-testid=your-games] [data-table='{table['id']}']")
    expect(row).to_contain_text("A computer player holds your seat")
    shot(page, "your-games-taken-over", full_page=False)
    row.locator("a").click()
    notice = page.get_by_test_id("taken-over")
    expect(notice).to_be_visible()
    page.click("[data-action=reclaim]")
    expect(page.locator(".hand.mine .card").first).to_be_visible()
    expect(page.locator(f".seat[data-seat='{on_move}']")).to_contain_text(players[on_move]["name"])
    shot(page, "private-seat-reclaimed", full_page=False)
