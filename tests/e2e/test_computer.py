"""Playing against the computer from the lobby: a whole deal against the easy bot."""

from __future__ import annotations

import random
import re
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import shot
from tests.e2e.play import dismiss_summary, play_one, summary_shown, turn_of, version_of


def test_a_deal_against_the_easy_computer_from_the_lobby(new_page: Any) -> None:
    page = new_page("anna")
    page.goto("/")
    expect(page.locator("#computer-title")).to_have_text("Play against the computer")
    page.select_option("#language", "de")
    expect(page.locator("#computer-title")).to_have_text("Gegen den Computer spielen")
    expect(page.locator("[data-action=play-computer][data-level=hard]")).to_have_text("Schwer")
    expect(page.locator("[data-action=play-computer][data-level=expert]")).to_have_text("Experte")
    page.select_option("#language", "en")
    page.fill("#name", "Anna")
    page.click("[data-action=play-computer][data-level=easy]")
    expect(page.locator(".table-page")).to_be_visible()
    expect(page.locator(".hand.mine .card")).to_have_count(6)
    expect(page.locator(".table-page")).to_contain_text("Computer (Easy)")
    rng = random.Random(5)
    played = 0
    for _ in range(200):
        if summary_shown(page):
            break
        before, mine = turn_of(page)
        if not mine:  # the computer is thinking: wait for its move
            expect(page.locator(".table-page")).not_to_have_attribute(
                "data-version", str(before), timeout=30_000
            )
            continue
        play_one(page, rng)
        played += 1
        expect(page.locator(".table-page")).not_to_have_attribute("data-version", str(before))
    assert summary_shown(page), "the deal against the computer did not end"
    # The earliest a deal can end: a marriage of 40 and two tricks (the deals are random).
    assert played >= 2
    expect(page.get_by_test_id("summary")).to_contain_text(re.compile(r"\d"))
    shot(page, "computer-deal-over")
    dismiss_summary(page)
    # The match goes on: when it is Anna's move the tab says so, and the lobby takes her back.
    expect(page.locator(".table-page[data-my-turn=true]")).to_be_visible(timeout=30_000)
    expect(page).to_have_title("Your move · Talon")
    table_url, version = page.url, version_of(page)
    page.locator("#nav a", has_text="Lobby").click()  # within the page: the table lets go
    expect(page).not_to_have_title("Your move · Talon")
    yours = page.get_by_test_id("your-games")
    expect(yours).to_contain_text("Your games")
    expect(yours.locator(".table-row.your-move")).to_contain_text("Your move")
    shot(page, "lobby-your-games")
    yours.locator("a", has_text="Open").click()
    expect(page).to_have_url(table_url)
    expect(page.locator(".table-page")).to_have_attribute("data-version", str(version))
    expect(page).to_have_title("Your move · Talon")
