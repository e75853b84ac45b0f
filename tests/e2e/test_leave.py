"""Leave table: before the match it frees the seat; during play it says that it resigns,
asks, resigns for the player's side and goes back to the lobby."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import Server, shot
from tests.e2e.drive import live_table, take_seat


def test_leaving_before_the_start_frees_the_seat(new_page: Any, server: Server) -> None:
    anna = new_page("anna")
    anna.goto("/")
    anna.fill("#name", "Anna")
    anna.select_option("select[name=visibility]", "private")
    anna.click("[data-action=create]")
    expect(anna.get_by_test_id("waiting")).to_contain_text("Frees your seat")
    table_id = anna.url.split("/t/")[1].split("?")[0]
    anna.click("[data-action=leave]")
    expect(anna.locator(".lobby")).to_be_visible()
    table = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    assert table["status"] == "finished" and not any(s["player_id"] for s in table["seats"])
    token = anna.evaluate("JSON.parse(localStorage.getItem('talon.player')).token")
    mine = httpx.get(
        f"{server.url}/api/players/me/tables", headers={"Authorization": f"Bearer {token}"}
    )
    assert mine.json() == {"tables": []}  # no table of hers is left


def test_leaving_during_play_resigns_after_asking(new_page: Any, server: Server) -> None:
    table, players = live_table(server.url)
    anna = take_seat(new_page("anna", width=1366, height=768), table, players[0])
    anna.click("[data-action=leave]")
    expect(anna.get_by_test_id("leave-stake")).to_contain_text("resigns the match")
    shot(anna, "leave-confirm", full_page=False)
    version = anna.locator(".table-page").get_attribute("data-version")
    anna.get_by_role("button", name="Cancel").click()  # nothing happens without a yes
    expect(anna.locator(".table-page")).to_have_attribute("data-version", version or "")
    anna.click("[data-action=leave]")
    anna.click("[data-action=leave-yes]")
    expect(anna.locator(".lobby")).to_be_visible()
    match_id = table["match_id"]
    record = httpx.get(f"{server.url}/api/matches/{match_id}").json()
    assert record["status"] == "finished" and record["winner"] == 1  # Bela's side won
