"""The end of a match: every deal in the dialog, its buttons on screen whatever the length, and a
rematch only when both players agree."""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import Server, shot
from tests.e2e.drive import live_table, never, play, take_seat


def test_after_a_long_match_rematch_and_lobby_stay_on_a_laptop_screen(
    new_page: Any, server: Server
) -> None:
    table, players = live_table(server.url, target=10)
    anna = take_seat(new_page("anna", width=1366, height=768), table, players[0])
    play(server.url, table, players, random.Random(11), never)
    # The page draws every move of a dozen deals played as fast as REST allows: patient.
    winner = anna.get_by_test_id("match-winner")
    expect(winner).to_contain_text("wins the match", timeout=60_000)
    assert anna.locator("table.deals tbody tr").count() >= 4
    expect(anna.locator("[data-action=rematch]")).to_be_in_viewport(ratio=1)
    expect(anna.locator(".dialog-buttons a[href='/']")).to_be_in_viewport(ratio=1)
    shot(anna, "match-over-1366x768", full_page=False)
    anna.set_viewport_size({"width": 390, "height": 844})
    expect(anna.locator("[data-action=rematch]")).to_be_in_viewport(ratio=1)
    shot(anna, "match-over-phone", full_page=False)


def test_a_rematch_is_offered_declined_offered_again_and_accepted(
    new_page: Any, server: Server
) -> None:
    table, players = live_table(server.url)
    anna = take_seat(new_page("anna"), table, players[0])
    bela = take_seat(new_page("bela", locale="de-DE"), table, players[1])
    bela.click("[data-action=resign]")
    bela.click("[data-action=resign-yes]")
    for page in (anna, bela):
        expect(page.get_by_test_id("match-winner")).to_be_visible()

    # Anna offers; Bela sees who offers, the seconds left, and declines: the offer is gone.
    anna.click("[data-action=rematch]")
    offer = bela.get_by_test_id("rematch-offer")
    expect(offer).to_contain_text("Anna bietet eine Revanche an")
    # The offer leaves who is connected as it was (it is no presence frame).
    anna_dot = bela.locator('.seat[data-seat="0"] [data-testid=presence]')
    expect(anna_dot).to_have_attribute("data-state", "connected")
    expect(bela.get_by_test_id("rematch-seconds")).to_have_text(re.compile(r"noch (59|60) s"))
    bela.click("[data-action=rematch-decline]")
    expect(anna.get_by_test_id("rematch-ended")).to_have_text("Bela declined the rematch.")
    expect(anna.locator("[data-action=rematch]")).to_be_visible()

    # Anna offers again: her page waits for Bela, whose Accept starts the new match.
    anna.click("[data-action=rematch]")
    mine = anna.get_by_test_id("rematch-offer")
    expect(mine).to_have_attribute("data-mine", "true")
    expect(mine).to_contain_text("Waiting for Bela to accept")
    expect(mine).to_contain_text("Accepted: Anna")
    expect(anna.locator("[data-action=rematch]")).to_have_count(0)
    expect(offer).to_contain_text("Anna bietet eine Revanche an")
    shot(anna, "rematch-waiting", full_page=False)
    shot(bela, "rematch-offered", full_page=False)
    bela.click("[data-action=rematch-accept]")
    for page in (anna, bela):
        expect(page.get_by_test_id("summary")).to_have_count(0)
        expect(page.locator(".hand.mine .card")).to_have_count(6)
    again = httpx.get(f"{server.url}/api/tables/{table['id']}").json()
    assert again["status"] == "live" and again["match_id"] != table["match_id"]


def test_a_decline_that_overtakes_the_offer_s_own_answer_stands(
    new_page: Any, server: Server
) -> None:
    """Anna's page hears Bela decline before the answer to its own offer comes back (a busy
    network): the decline stands, the older answer does not show the offer again."""
    table, players = live_table(server.url)
    anna = take_seat(new_page("anna"), table, players[0])
    bela = take_seat(new_page("bela"), table, players[1])
    bela.click("[data-action=resign]")
    bela.click("[data-action=resign-yes]")
    expect(anna.get_by_test_id("match-winner")).to_be_visible()
    held: list[Any] = []  # Anna's offer, sent to the server, its answer kept back

    def hold(route: Any) -> None:
        held.append((route, route.fetch()))

    anna.route("**/api/tables/*/rematch", hold)
    anna.click("[data-action=rematch]")
    bela.click("[data-action=rematch-decline]")
    ended = anna.get_by_test_id("rematch-ended")
    expect(ended).to_have_text("Bela declined the rematch.")
    route, answer = held[0]
    with anna.expect_request_finished():
        route.fulfill(response=answer)
    anna.evaluate("() => new Promise((done) => setTimeout(done, 50))")  # the page reads it
    expect(ended).to_have_text("Bela declined the rematch.")
    expect(anna.get_by_test_id("rematch-offer")).to_have_count(0)
