"""A turn clock in the browser: two strangers at a public table, one closes the page while on
move, the clock (short here) runs out, a computer player takes the seat and the match goes
on; the player comes back and takes the seat again."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, serve, shot
from tests.e2e.drive import sit_as, take_seat
from tests.e2e.play import play_one, version_of
from tests.support import every_seat_acts, in_thread

MOVE_SECONDS = 8


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """A server whose per-move clock is a few seconds, with no bank."""
    monkeypatch.setenv("CLOCK_MOVE_SECONDS", str(MOVE_SECONDS))
    monkeypatch.setenv("CLOCK_BANK_SECONDS", "0")
    yield from serve(tmp_path, monkeypatch, "127.0.0.1")


def test_a_clock_runs_out_a_computer_player_takes_over_and_the_player_reclaims_the_seat(
    new_page: Any, server: Server
) -> None:
    with httpx.Client(base_url=server.url, timeout=10, verify=False) as http:
        players = [http.post("/api/players", json={"name": n}).json() for n in ("Anna", "Bela")]
        table = http.post(
            "/api/tables",
            headers={"Authorization": f"Bearer {players[0]['token']}"},
            json={"variant": "sixty-six", "visibility": "public"},
        ).json()
        assert table["clock"] == "move"  # a public table for strangers is timed
        anna = new_page("anna")
        sit_as(anna.context, players[0])
        anna.goto(f"/t/{table['id']}")
        expect(anna.get_by_test_id("waiting")).to_be_visible()
        http.post(  # the match starts, and with it the first player's clock
            f"/api/tables/{table['id']}/join",
            headers={"Authorization": f"Bearer {players[1]['token']}"},
            json={},
        ).raise_for_status()
    # Both play their first cards: before that, a clock that runs out aborts the match.
    tokens = [player["token"] for player in players]
    base = server.url.removeprefix("http://")
    assert in_thread(lambda: asyncio.run(every_seat_acts(base, table["id"], tokens)))
    expect(anna.locator(".hand.mine .card")).to_have_count(6)
    pages = [anna, take_seat(new_page("bela"), table, players[1])]
    on_move = seat_on_move(pages)
    stays, leaves = pages[1 - on_move], pages[on_move]
    name = players[on_move]["name"]
    clock = stays.get_by_test_id("clock")
    expect(clock).to_contain_text(name)  # the seat whose time runs, counting down
    shot(stays, "clock-running", full_page=False)
    version = version_of(stays)
    leaves.close()  # the player on move closes the page and does not come back in time
    away = stays.get_by_test_id("away-banner")  # the other is told at once, and waits
    expect(away).to_contain_text(f"{name} lost the connection")
    # It waits for the clock, which runs out well before the presence grace (60 s).
    waits = int(away.inner_text().split("waits ")[1].split(" s")[0])
    assert waits <= MOVE_SECONDS
    shot(stays, "clock-opponent-away", full_page=False)
    notice = stays.get_by_test_id("taken-over")
    expect(notice).to_contain_text(f"{name}'s time ran out", timeout=(MOVE_SECONDS + 10) * 1000)
    expect(stays.locator(f".seat[data-seat='{on_move}']")).to_contain_text("Computer (Medium)")
    # The computer player moves for the seat: the match goes on, and it is the other's turn.
    expect(stays.locator(".table-page[data-my-turn=true]")).to_be_visible(timeout=15_000)
    assert version_of(stays) > version
    shot(stays, "clock-taken-over", full_page=False)
    play_one(stays, random.Random(1))
    # The player comes back: told what happened, and takes the seat again.
    back = open_as_spectator(new_page, players[on_move], table["id"])
    expect(back.get_by_test_id("taken-over")).to_contain_text("Your time ran out")
    shot(back, "clock-reclaim", full_page=False)
    back.click("[data-action=reclaim]")
    expect(back.get_by_test_id("taken-over")).to_have_count(0)
    expect(back.locator(".hand.mine .card").first).to_be_visible()
    expect(stays.locator(f".seat[data-seat='{on_move}']")).to_contain_text(name)


def seat_on_move(pages: list[Page]) -> int:
    """The seat whose page says it is on move, waiting until one does (a page draws the
    match's updates when its socket and the machine get to it)."""
    deadline = time.monotonic() + 60
    while True:
        for seat, page in enumerate(pages):
            if page.locator(".table-page[data-my-turn=true]").count():
                return seat
        assert time.monotonic() < deadline, "no page says its player is on move"
        pages[0].wait_for_timeout(100)


def open_as_spectator(new_page: Any, player: dict[str, Any], table_id: str) -> Page:
    """The player's page while a computer player holds its seat (no hand of its own)."""
    page: Page = new_page("returning")
    sit_as(page.context, player)
    page.goto(f"/t/{table_id}")
    expect(page.get_by_test_id("watching")).to_be_visible()
    return page
