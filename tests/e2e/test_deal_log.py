"""The side log tells only the current deal's story, and tells it again after a reload."""

from __future__ import annotations

import contextlib
import random
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import Server, shot
from tests.e2e.drive import Seat, event_seen, live_table, marry, play, take_seat


def declared_and_deal_goes_on(seats: list[Seat]) -> bool:
    """A marriage was just declared and did not end the deal."""
    kinds = [e["type"] for e in seats[0].events]
    return "marriage_declared" in kinds and "deal_over" not in kinds


def test_the_log_starts_afresh_each_deal_and_survives_a_reload(
    new_page: Any, server: Server
) -> None:
    table, players = live_table(server.url, target=10)
    anna = take_seat(new_page("anna", width=1366, height=768), table, players[0])
    rng = random.Random(8)
    seats = play(server.url, table, players, rng, declared_and_deal_goes_on, marry)
    declared = next(e for e in seats[0].events if e["type"] == "marriage_declared")
    log = anna.locator(".deal-log .announcements li")
    expect(log.first).to_contain_text("declares a marriage")
    entries = log.all_inner_texts()
    deal = anna.locator(".table-page").get_attribute("data-deal-no")

    anna.reload()
    expect(anna.locator(".table-page")).to_have_attribute("data-deal-no", deal or "")
    expect(log).to_have_text(entries)
    shot(anna, "deal-log-after-reload", full_page=False)

    play(server.url, table, players, rng, event_seen("deal_started"), marry)
    expect(anna.get_by_test_id("summary")).to_be_visible()
    anna.click("[data-action=continue]")
    expect(anna.locator(".table-page")).to_have_attribute("data-deal-no", str(int(deal or 0) + 1))
    expect(log).to_have_count(0)
    expect(anna.locator(".log-title")).to_contain_text(f"Deal {int(deal or 0) + 1}")
    anna.click(".earlier-deals summary")
    expect(anna.locator(".earlier-deals li").first).to_contain_text(f"Deal {deal}: won by")
    anna.reload()
    expect(anna.locator(".log-title")).to_contain_text(f"Deal {int(deal or 0) + 1}")
    expect(log).to_have_count(0)
    assert declared["seat"] in (0, 1)


def test_before_trump_is_named_the_log_says_so_in_every_language(new_page: Any) -> None:
    """Four-hand: until the first card led names trump, the log's title says trump is not
    named yet, with no empty suit icon (screen readers read the title out)."""
    phrases = {
        "en": "trump not named yet",
        "de": "Trumpf noch nicht bestimmt",
        "pl": "atut jeszcze nieznany",
        "it": "briscola non ancora scelta",
        "es": "triunfo aún sin elegir",
    }
    page = new_page("anna")
    title = page.locator(".deal-log .log-title")
    # Anna's turn to bid: no card led yet, and the table waits for her. (A computer that bids
    # Luna before her turn leads at once: then another table.)
    bids = page.get_by_test_id("bidding").locator("button").first
    for _ in range(4):
        page.goto("/")
        if page.locator("#name").count():
            page.fill("#name", "Anna")
        page.select_option("select[name=variant]", "four-hand")
        page.click("[data-action=play-computer][data-level=easy]")
        page.wait_for_url("**/t/**")
        with contextlib.suppress(AssertionError):
            expect(bids).to_be_visible(timeout=30_000)
            break
    expect(bids).to_be_visible()
    for language, phrase in phrases.items():
        page.select_option("#language", language)
        expect(title).to_contain_text(phrase)
        expect(title).not_to_contain_text("null")
        expect(title.locator(".suit-icon")).to_have_count(0)
    page.select_option("#language", "en")
    shot(page, "four-hand-log-before-trump", full_page=False)
    page.set_viewport_size({"width": 390, "height": 844})
    title.scroll_into_view_if_needed()
    shot(page, "four-hand-log-before-trump-phone", full_page=False)
