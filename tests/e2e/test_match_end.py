"""The end of a match: every deal in the dialog, and its buttons on screen whatever the length."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import Server, shot
from tests.e2e.drive import live_table, never, play, take_seat


def test_after_a_long_match_rematch_and_lobby_stay_on_a_laptop_screen(
    new_page: Any, server: Server
) -> None:
    table, players = live_table(server.url, target=10)
    anna = take_seat(new_page("anna", width=1366, height=768), table, players[0])
    play(server.url, table, players, random.Random(11), never)
    expect(anna.get_by_test_id("match-winner")).to_contain_text("wins the match")
    assert anna.locator("table.deals tbody tr").count() >= 4
    expect(anna.locator("[data-action=rematch]")).to_be_in_viewport(ratio=1)
    expect(anna.locator(".dialog-buttons a[href='/']")).to_be_in_viewport(ratio=1)
    shot(anna, "match-over-1366x768", full_page=False)
    anna.set_viewport_size({"width": 390, "height": 844})
    expect(anna.locator("[data-action=rematch]")).to_be_in_viewport(ratio=1)
    shot(anna, "match-over-phone", full_page=False)
