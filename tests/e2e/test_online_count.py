"""The "players online" count refreshes in place and nowhere else: the table page, drawn before
the count arrives, keeps its cards."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import Server
from tests.e2e.drive import live_table, take_seat


def test_a_refreshed_online_count_leaves_the_table_page_drawn(
    new_page: Any, server: Server
) -> None:
    table, (anna, _) = live_table(server.url)
    page = take_seat(new_page("anna"), table, anna)
    cards = page.locator(".hand.mine .card").count()
    assert cards == 6
    # The count asks again whenever the page comes into view (and every 30 s).
    with page.expect_response(lambda reply: reply.url.endswith("/api/online")):
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.get_by_test_id("header-online")).to_have_text("2 players online")
    expect(page.locator(".hand.mine .card")).to_have_count(cards)
    expect(page.locator(".table-page")).not_to_contain_text("player online")
