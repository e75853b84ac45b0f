"""The side log tells only the current deal's story, and tells it again after a reload."""

from __future__ import annotations

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
