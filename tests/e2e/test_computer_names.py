"""Several computer players at one table each have a name of their own (numbered in seat
order) on the felt, in the bidding, the deal log, the summary and the match's history; at a
partnership table the viewer's partner is marked on the felt, in the scoreboard and in the
bidding list."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, shot
from tests.e2e.drive import resign, rest_get
from tests.e2e.play import summaries_closed

COMPUTERS = ["Computer 1 (Easy)", "Computer 2 (Easy)", "Computer 3 (Easy)"]
SAME = re.compile(r"Computer \(Easy\)")  # the one name every computer had


def against_computers(page: Page, variant: str) -> None:
    page.goto("/")
    page.fill("#name", "Anna")
    page.select_option("select[name=variant]", variant)
    page.click("[data-action=play-computer][data-level=easy]")
    expect(page.locator(".hand.mine .card").first).to_be_visible()


def seat_names(page: Page) -> list[str]:
    return page.locator(".felt .seat .seat-label .name").all_inner_texts()


def test_four_computers_and_a_partner_are_told_apart(new_page: Any, server: Server) -> None:
    page = new_page("anna", width=1366, height=768)
    against_computers(page, "four-hand")
    expect(page.locator(".felt .seat .name")).to_have_count(4)
    assert sorted(seat_names(page)) == ["Anna", *COMPUTERS]
    # Anna sits in seat 0; her partner is seat 2, the second computer.
    partner = page.locator(".seat[data-seat='2'] [data-testid=partner]")
    expect(partner).to_have_text("(your partner)")
    expect(page.locator("[data-testid=partner]")).to_have_count(1)
    expect(page.locator(".scoreboard")).to_contain_text("you & Computer 2 (Easy)")
    expect(page.locator(".scoreboard")).to_contain_text("Computer 1 (Easy) & Computer 3 (Easy)")

    # The bidding, then the first lead: Anna bids the lowest level when asked (so the deal is
    # never passed out and dealt again) and plays a legal card on her turn.
    log = page.locator(".deal-log .announcements li")
    played = log.filter(has_text=re.compile(r"leads: "))  # the first lead names the trump
    with summaries_closed(page):
        for _ in range(300):
            if played.count():
                break
            if page.locator("[data-testid=bidding] button").count():
                page.locator("[data-testid=bidding] button").first.click()
            elif page.locator(".hand.mine .card[data-legal=true]").count():
                page.locator(".hand.mine .card[data-legal=true]").first.click()
            page.wait_for_timeout(200)
        expect(played.first).to_be_visible()
    listed = page.locator("[data-testid=bids] .bid-list li").all_inner_texts()
    assert listed and not any(SAME.search(line) for line in listed), listed
    assert all(line.startswith("Anna (you): ") for line in listed if "Anna" in line), listed
    computers = [line for line in listed if line.startswith("Computer")]
    assert all(re.match(r"Computer \d \(Easy\)", line) for line in computers), listed
    assert all("(your partner)" in line for line in listed if line.startswith("Computer 2")), listed
    story = log.all_inner_texts()
    assert any(re.match(r"Computer \d \(Easy\) ", line) for line in story), story
    assert not any(SAME.search(line) for line in story), story
    shot(page, "four-hand-computer-names", full_page=False)

    # Anna resigns: the summary and the history name each computer apart too.
    token = page.evaluate("JSON.parse(localStorage.getItem('talon.player')).token")
    table_id = page.url.split("/t/")[1].split("?")[0]
    resign(server.url, table_id, token)
    expect(page.get_by_test_id("match-winner")).to_contain_text("Computer 1 (Easy) & Computer 3")
    match_id = rest_get(f"{server.url}/api/tables/{table_id}").json()["match_id"]
    page.goto(f"/history/{match_id}")
    expect(page.locator(".felt .seat .name")).to_have_count(4)
    assert sorted(seat_names(page)) == ["Anna", *COMPUTERS]
    page.goto("/history")
    row = page.locator(f".match-row[data-match='{match_id}']")
    expect(row).to_contain_text("Anna vs Computer 1 (Easy), Computer 3 (Easy)")  # the other side


def test_three_hand_computers_have_names_of_their_own(new_page: Any) -> None:
    page = new_page("anna", width=390, height=844)
    against_computers(page, "three-hand")
    expect(page.locator(".felt .seat .name")).to_have_count(3)
    assert sorted(seat_names(page)) == ["Anna", *COMPUTERS[:2]]
    expect(page.locator("[data-testid=partner]")).to_have_count(0)  # no partners at three
    expect(page.locator(".scoreboard")).to_contain_text("Computer 2 (Easy)")
    shot(page, "three-hand-computer-names-phone", full_page=False)
