"""Sentences that read right at every count and every ending: a match resigned before any
point, a leaderboard that asks for one match, a move that was close but not best, the replay of
a table of three."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server, serve, shot
from tests.e2e.drive import live_table, never, play, sit_as, take_seat
from tests.e2e.test_analysis import step_to_advice


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """The usual test server, whose leaderboard lists players after one rated match."""
    monkeypatch.setenv("LEADERBOARD_MIN_MATCHES", "1")
    yield from serve(tmp_path, monkeypatch, "127.0.0.1")


def test_a_match_resigned_at_once_names_who_resigned_not_a_score(
    new_page: Any, server: Server
) -> None:
    table, players = live_table(server.url)
    anna = take_seat(new_page("anna"), table, players[0])
    anna.click("[data-action=resign]")
    anna.click("[data-action=resign-yes]")
    winner = anna.get_by_test_id("match-winner")
    expect(winner).to_have_text("Anna resigned: Bela wins the match.")
    shot(anna, "resigned-at-once", full_page=False)


def test_the_leaderboard_says_one_match_not_1_matches(new_page: Any) -> None:
    page = new_page("reader")
    page.goto("/leaderboard")
    text = page.locator("main, #app").first
    expect(text).to_contain_text("a rated match")
    expect(text).not_to_contain_text("1 rated matches")


def test_a_close_move_is_not_called_good(new_page: Any, server: Server) -> None:
    """A move that lost a little, too little for a mark, shows "Close to the best" with the
    better move, never "A good move" beside "Better". (The analysis is the server's answer
    with one move changed: computing a real one takes the expert's search a long time.)"""
    table, players = live_table(server.url, target=1)
    play(server.url, table, players, random.Random(4), never)
    match_id = httpx.get(f"{server.url}/api/tables/{table['id']}").json()["match_id"]
    log = httpx.get(f"{server.url}/api/matches/{match_id}/log").json()
    first = log["actions"][0]
    legal_other = {"type": "play", "card": "AS" if first["action"].get("card") != "AS" else "AH"}
    moves = [
        {
            "version": first["version"],
            "seat": first["seat"],
            "played": first["action"],
            "best": legal_other,
            "lost": 0.05,
            "mark": None,
            "values": [],
        }
    ]
    page = new_page("anna")
    sit_as(page.context, players[0])

    def record(route: Any) -> None:
        body = route.fetch().json()
        body["analysis"] = "done"
        route.fulfill(json=body)

    # Both come in pages (``?from=...``): every page of either is answered here.
    page.route(re.compile(rf"/api/matches/{match_id}/replay(\?.*)?$"), record)
    page.route(
        re.compile(rf"/api/matches/{match_id}/analysis(\?.*)?$"),
        lambda r: r.fulfill(json={"moves": moves, "next": None, "total_moves": len(moves)}),
    )
    page.goto(f"/history/{match_id}")
    expect(page.locator(".replay-controls")).to_be_visible()
    step_to_advice(page)
    advice = page.get_by_test_id("analysis-move")
    expect(advice).to_contain_text("Close to the best")
    expect(advice).to_contain_text("Better:")
    expect(advice).not_to_contain_text("A good move")


def test_a_three_player_replay_names_every_player(new_page: Any) -> None:
    page = new_page("anna")
    page.goto("/")
    page.fill("#name", "Anna")
    page.select_option("select[name=variant]", "three-hand")
    page.click("[data-action=play-computer][data-level=easy]")
    expect(page.locator(".hand.mine .card")).to_have_count(8, timeout=15_000)
    page.click("[data-action=resign]")
    page.click("[data-action=resign-yes]")
    expect(page.get_by_test_id("match-winner")).to_be_visible()
    page.goto("/history")
    page.locator(".matches a").first.click()
    title = page.locator(".replay-title")
    # Every player, by the name the table showed (not the record's lower-case level).
    expect(title).to_have_text(re.compile(r"^Replay: Anna, [^,]+, [^,]+$"))
    expect(title).not_to_contain_text("(easy)")
    # The side seats' open hands stay on their own sides of the table.
    left = page.locator(".seat-left .hand").bounding_box()
    right = page.locator(".seat-right .hand").bounding_box()
    assert left and right and left["x"] + left["width"] <= right["x"], (left, right)
    shot(page, "three-player-replay", full_page=False)
