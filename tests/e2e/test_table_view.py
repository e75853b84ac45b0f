"""What the table shows and tells: the turned trump card's rank, labels for screen readers."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, shot
from tests.e2e.drive import live_table, sit_as

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
NAMES = {"A": "ace", "T": "ten", "K": "king", "Q": "queen", "J": "jack", "9": "nine"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def anna_at_a_live_table(new_page: Any, server: Server, **size: int) -> Page:
    table, players = live_table(server.url)
    anna = new_page("anna", **size)
    sit_as(anna.context, players[0])
    anna.goto(f"/t/{table['id']}")
    expect(anna.locator(".hand.mine .card")).to_have_count(6)
    return anna


def test_the_turned_trump_card_s_rank_is_written_out(new_page: Any, server: Server) -> None:
    anna = anna_at_a_live_table(new_page, server, width=1366, height=768)
    turned = anna.locator(".pile [data-zone=trump]")
    code = turned.get_attribute("data-card") or ""
    rank = "10" if code[0] == "T" else code[0]
    expect(anna.get_by_test_id("trump-rank")).to_have_text(rank + SUITS[code[1]])
    expect(turned).to_have_attribute(
        "aria-label", f"Turned trump card: {NAMES[code[0]]} of {SUIT_NAMES[code[1]]}"
    )
    box = anna.get_by_test_id("trump-rank").bounding_box()
    assert box and box["width"] >= 20 and box["height"] >= 16, box
    shot(anna, "trump-rank", full_page=False)
    anna.set_viewport_size({"width": 390, "height": 844})
    expect(anna.get_by_test_id("trump-rank")).to_be_in_viewport(ratio=1)
    shot(anna, "trump-rank-phone", full_page=False)
    if code[0] in "QJ":
        anna.select_option("#language", "de")
        expect(anna.get_by_test_id("trump-rank")).to_have_text(
            {"Q": "D", "J": "B"}[code[0]] + SUITS[code[1]]
        )
