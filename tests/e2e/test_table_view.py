"""What the table shows and tells: the turned trump card's rank, labels for screen readers."""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, boxes, shot
from tests.e2e.drive import live_table, never, play, take_seat

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
NAMES = {"A": "ace", "T": "ten", "K": "king", "Q": "queen", "J": "jack", "9": "nine"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def anna_at_a_live_table(new_page: Any, server: Server, **size: int) -> Page:
    table, players = live_table(server.url)
    return take_seat(new_page("anna", **size), table, players[0])


def assert_two_seats_face_each_other(page: Page) -> None:
    """The other seat is drawn at the top of the felt, the stock and trick in the middle and
    the bottom seat below them, each within the felt's width (not piled up at its foot)."""
    felt, top, middle, bottom = boxes(
        page, ".felt", ".felt .seat-top", ".felt .middle", ".felt .seat-bottom"
    )
    assert felt and top and middle and bottom
    assert top["y"] + top["height"] <= middle["y"] + 1, (top, middle)
    assert middle["y"] + middle["height"] <= bottom["y"] + 1, (middle, bottom)
    assert top["y"] < felt["y"] + felt["height"] / 3, (top, felt)
    for box in (top, middle, bottom):
        assert felt["x"] <= box["x"] and box["x"] + box["width"] <= felt["x"] + felt["width"] + 1


def test_the_turned_trump_card_s_rank_is_written_out(new_page: Any, server: Server) -> None:
    anna = anna_at_a_live_table(new_page, server, width=1366, height=768)
    assert_two_seats_face_each_other(anna)
    turned = anna.locator(".pile [data-zone=trump]")
    code = turned.get_attribute("data-card") or ""
    rank = "10" if code[0] == "T" else code[0]
    expect(anna.get_by_test_id("trump-rank")).to_have_text(rank + SUITS[code[1]])
    expect(turned).to_have_attribute(
        "aria-label", f"Turned trump card: {NAMES[code[0]]} of {SUIT_NAMES[code[1]]}"
    )
    (box,) = boxes(anna, "[data-testid=trump-rank]")  # in one step: the table may redraw
    assert box and box["width"] >= 20 and box["height"] >= 16, box
    shot(anna, "trump-rank", full_page=False)
    anna.set_viewport_size({"width": 390, "height": 844})
    expect(anna.get_by_test_id("trump-rank")).to_be_in_viewport(ratio=1)
    shot(anna, "trump-rank-phone", full_page=False)
    assert_two_seats_face_each_other(anna)
    if code[0] in "QJ":
        anna.select_option("#language", "de")
        expect(anna.get_by_test_id("trump-rank")).to_have_text(
            {"Q": "D", "J": "B"}[code[0]] + SUITS[code[1]]
        )


def test_screen_readers_hear_every_card_and_find_every_control_named(
    new_page: Any, server: Server
) -> None:
    table, players = live_table(server.url)
    anna = take_seat(new_page("anna"), table, players[0])
    expect(anna.locator(".stock-area")).to_have_attribute("aria-label", "12 cards in the stock")
    expect(anna.locator(".stock-area")).to_have_attribute("role", "group")

    bela_played = lambda seats: any(  # noqa: E731
        e["type"] == "card_played" and e["seat"] == 1 for e in seats[0].events
    )
    seats = play(server.url, table, players, random.Random(1), bela_played)
    card = next(e["card"] for e in seats[0].events if e["type"] == "card_played")
    name = f"{NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"
    expect(anna.locator("#sr-live")).to_contain_text(f"Bela plays the {name}")
    expect(anna.locator(f".trick [data-card='{card}']")).to_have_attribute(
        "aria-label", f"Bela: {name}"
    )
    anna.select_option("#language", "de")
    expect(anna.get_by_test_id("turn-actions")).to_have_attribute("aria-label", "Aktionen")
    expect(anna.locator(".announcements")).to_have_attribute(
        "aria-label", re.compile("Was in Spiel 1 geschah")
    )

    anna.goto("/")
    anna.locator(".who button").click()  # change the name: the form offers to forget it
    expect(anna.locator(".who button[aria-label]")).to_have_attribute(
        "aria-label", "Diesen Namen vergessen"
    )


def test_the_replay_takes_arrow_keys_without_a_focused_control(
    new_page: Any, server: Server
) -> None:
    table, players = live_table(server.url, target=1)
    play(server.url, table, players, random.Random(6), never)
    match = httpx.get(f"{server.url}/api/tables/{table['id']}").json()["match_id"]
    anna = new_page("anna")
    anna.goto(f"/history/{match}")
    replay = anna.locator(".table-page.replay")
    expect(replay).to_have_attribute("data-frame", "0")
    anna.locator("body").click(position={"x": 5, "y": 300})
    anna.keyboard.press("ArrowRight")
    anna.keyboard.press("ArrowRight")
    expect(replay).to_have_attribute("data-frame", "2")
    anna.keyboard.press("ArrowLeft")
    expect(replay).to_have_attribute("data-frame", "1")
    assert_two_seats_face_each_other(anna)
