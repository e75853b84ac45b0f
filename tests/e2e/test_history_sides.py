"""The history list reads sides from the server: a partnership's result is its side's, and its
opponents are the other side's players (the client counts no seats)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Route, expect

from tests.e2e.conftest import Server, shot
from tests.e2e.drive import guest, sit_as


def test_a_partnership_row_shows_its_side_s_result_and_opponents(
    new_page: Any, server: Server
) -> None:
    carla = guest(server.url, "Carla")
    names = ["Anna", "Bela", "Carla", "Dora"]
    match = {
        "id": 7,
        "table_id": "t",
        "variant": "four-hand",
        "rules": {},
        "status": "finished",
        "rated": False,
        "players": [
            {"seat": s, "player_id": carla["id"] if s == 2 else f"p{s}", "name": name}
            for s, name in enumerate(names)
        ],
        "sides": [0, 1, 0, 1],
        "winner": 1,
        "game_points": [3, 7],
        "deals": [],
        "started_at": "2026-11-23T10:00:00+00:00",
        "finished_at": "2026-11-23T10:30:00+00:00",
        "server_commitment": None,
    }

    def one_match(route: Route) -> None:
        route.fulfill(json={"matches": [match], "next": None})

    page = new_page("carla")
    sit_as(page.context, carla)
    page.route("**/api/matches?*", one_match)
    page.goto("/history")
    row = page.locator(".match-row[data-match='7']")
    expect(row.locator(".result")).to_have_class("result lost")  # Carla plays for side 0
    expect(row.locator(".match-score")).to_have_text("3 : 7")
    expect(row.locator(".match-main strong")).to_contain_text("Bela, Dora")
    expect(row.locator(".match-main strong")).not_to_contain_text("Anna")
    shot(page, "history-partnership")
