"""A press on the table page is not lost to a frame that arrives while the button is held: the
page redraws itself at every update, and a button replaced between press and release gets no
click."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import Server
from tests.e2e.drive import live_table, play, take_seat


def test_a_button_held_while_the_opponent_moves_still_clicks(new_page: Any, server: Server) -> None:
    table, players = live_table(server.url)
    rng = random.Random(3)
    seats = play(server.url, table, players, rng, lambda seats: seats[0].to_move == 1)
    anna = take_seat(new_page("anna"), table, players[0])
    expect(anna.locator(".table-page")).to_have_attribute("data-version", str(seats[0].version))
    hints = anna.get_by_test_id("hints")
    box = anna.locator("[data-action=hints-done]").bounding_box()
    assert box, "no hints to close at a first game"
    anna.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    anna.mouse.down()
    version = seats[0].version
    play(server.url, table, players, rng, lambda seats: seats[0].version > version)
    # The page has taken Bela's move in (it tells screen readers at once) before the release.
    expect(anna.locator("#sr-live")).to_contain_text("Bela plays")
    anna.mouse.up()
    expect(hints).to_have_count(0)
    # And the held redraw comes once the press is over.
    expect(anna.locator(".table-page")).to_have_attribute("data-version", str(version + 1))
