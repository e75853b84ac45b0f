"""Challenges in the browser: a player challenges another from its profile, the other page's
panel shows the challenge (flashing) and accepting it takes both pages to the new table; a
challenge link takes a newcomer, once named, to the table too."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import Server, shot
from tests.e2e.drive import guest, live_table, resign, rest_post, sit_as, take_seat


def test_a_challenge_from_a_profile_is_accepted_in_the_other_page(
    new_page: Any, server: Server
) -> None:
    anna, bela = guest(server.url, "Anna"), guest(server.url, "Bela")
    anna_page, bela_page = new_page("anna"), new_page("bela")
    sit_as(anna_page.context, anna)
    sit_as(bela_page.context, bela)
    bela_page.goto("/")
    anna_page.goto(f"/players/{bela['id']}")
    anna_page.get_by_role("button", name="Challenge Bela").click()
    form = anna_page.locator(".challenge-form")
    form.locator("select[name=variant]").select_option("schnapsen")
    form.locator("select[name=target]").select_option("10")
    form.locator("select[name=clock]").select_option("move")
    shot(anna_page, "challenge-form", full_page=False)
    anna_page.get_by_role("button", name="Send the challenge").click()
    expect(anna_page.locator(".challenge-button")).to_contain_text("Challenge sent to Bela")
    headers = {"Authorization": f"Bearer {bela['token']}"}
    (made,) = anna_page.request.get(f"{server.url}/api/challenges", headers=headers).json()[
        "incoming"
    ]
    assert (made["variant"], made["options"]["target"], made["clock"]) == ("schnapsen", 10, "move")
    expect(anna_page.get_by_test_id("challenges")).to_contain_text("Waiting for Bela: Schnapsen")

    panel = bela_page.get_by_test_id("challenges")
    expect(panel).to_contain_text("Anna challenges you: Schnapsen")
    expect(panel).to_have_class("challenges flashing")
    shot(bela_page, "challenge-incoming", full_page=False)
    panel.get_by_role("button", name="Accept").click()

    for page in (bela_page, anna_page):
        expect(page).to_have_url(_table_url())
        expect(page.locator(".hand.mine .card").first).to_be_visible()
    assert anna_page.url == bela_page.url
    expect(panel).to_be_hidden()


def test_a_challenge_link_seats_a_newcomer_once_named(new_page: Any, server: Server) -> None:
    anna = guest(server.url, "Anna")
    headers = {"Authorization": f"Bearer {anna['token']}"}
    made = rest_post(f"{server.url}/api/challenges", json={}, headers=headers).json()
    page = new_page("carl", locale="de-DE", width=390, height=844)  # a phone
    page.goto(f"/?challenge={made['id']}")
    panel = page.get_by_test_id("challenges")
    panel.get_by_role("textbox").fill("Carl")
    shot(page, "challenge-link-phone", full_page=False)
    panel.get_by_role("button", name="Annehmen").click()
    expect(page).to_have_url(_table_url())
    expect(page.locator(".hand.mine .card").first).to_be_visible()
    # Answered: Anna's list is empty again.
    mine = page.request.get(f"{server.url}/api/challenges", headers=headers).json()
    assert mine == {"incoming": [], "outgoing": []}


def _table_url() -> re.Pattern[str]:
    return re.compile(r".*/t/[\w-]+$")


def test_a_finished_match_offers_to_challenge_the_other_player(
    new_page: Any, server: Server
) -> None:
    table, (anna, bela) = live_table(server.url)
    page = take_seat(new_page("anna"), table, anna)
    resign(server.url, table["id"], bela["token"])
    summary = page.get_by_test_id("summary")
    summary.get_by_role("button", name="Challenge Bela").click()
    summary.get_by_role("button", name="Send the challenge").click()
    expect(summary).to_contain_text("Challenge sent to Bela")
    shot(page, "challenge-after-match", full_page=False)
    headers = {"Authorization": f"Bearer {bela['token']}"}
    theirs = page.request.get(f"{server.url}/api/challenges", headers=headers).json()
    assert [c["challenger"]["id"] for c in theirs["incoming"]] == [anna["id"]]
