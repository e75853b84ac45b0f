"""Play now in the browser: two pages that press Play now in the same pool both land at the
same table (a desktop and a phone); a page left waiting shows the time waited and the rating
range, then the computer offer, and accepting it seats the player with computers."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server, serve, shot
from tests.e2e.drive import guest, sit_as

BOT_AFTER = 3.0


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """A server whose pools pair every few tenths of a second and offer the computer after
    a few seconds of waiting."""
    monkeypatch.setenv("POOL_WAVE_SECONDS", "0.3")
    monkeypatch.setenv("POOL_WAVE_JITTER_SECONDS", "0.05")
    monkeypatch.setenv("POOL_BOT_AFTER_SECONDS", str(BOT_AFTER))
    yield from serve(tmp_path, monkeypatch, "127.0.0.1")


def test_two_pages_pressing_play_now_in_one_pool_land_at_the_same_table(
    new_page: Any, server: Server
) -> None:
    anna, bela = guest(server.url, "Anna"), guest(server.url, "Bela")
    anna_page, bela_page = new_page("anna"), new_page("bela", width=390, height=844)
    sit_as(anna_page.context, anna)
    sit_as(bela_page.context, bela)
    for page in (anna_page, bela_page):
        page.goto("/")
        expect(page.get_by_test_id("play-now").locator("[data-pool=schnapsen-2]")).to_be_visible()
    shot(anna_page, "play-now-lobby-desktop", full_page=False)
    shot(bela_page, "play-now-lobby-phone", full_page=False)
    anna_page.get_by_test_id("play-now").locator("[data-pool=schnapsen-2]").click()
    expect(anna_page.get_by_test_id("pool-waiting")).to_be_visible()
    bela_page.get_by_test_id("play-now").locator("[data-pool=schnapsen-2]").click()
    for page in (anna_page, bela_page):
        expect(page).to_have_url(_table_url())
        expect(page.locator(".hand.mine .card").first).to_be_visible()
    assert anna_page.url == bela_page.url
    shot(bela_page, "play-now-seated-phone", full_page=False)


def test_a_waiting_page_gets_the_computer_offer_and_accepting_seats_it_with_computers(
    new_page: Any, server: Server
) -> None:
    anna = guest(server.url, "Anna")
    page = new_page("anna", width=390, height=844)
    sit_as(page.context, anna)
    page.goto("/")
    page.get_by_test_id("play-now").locator("[data-pool=four-hand-4]").click()
    waiting = page.get_by_test_id("pool-waiting")
    expect(waiting).to_contain_text("Four-hand")
    expect(page.get_by_test_id("pool-range")).to_contain_text(re.compile(r"rated \d+ to \d+"))
    shot(page, "play-now-waiting-phone", full_page=False)
    offer = page.get_by_test_id("pool-offer")
    expect(offer).to_contain_text("Medium")
    expect(waiting).to_contain_text(re.compile(r"0:0[3-9]|0:[1-5]\d|\d+:\d\d"))
    shot(page, "play-now-offer-phone", full_page=False)
    page.set_viewport_size({"width": 1280, "height": 800})
    shot(page, "play-now-offer-desktop", full_page=False)
    offer.get_by_role("button", name="Play the computers").click()
    expect(page).to_have_url(_table_url())
    expect(page.locator(".hand.mine .card").first).to_be_visible()
    table_id = page.url.rsplit("/", 1)[-1]
    table = page.request.get(f"{server.url}/api/tables/{table_id}").json()
    holders = {seat["seat"]: seat["player_id"] for seat in table["seats"]}
    assert holders[0] == anna["id"]
    assert all(holders[seat].startswith("bot") for seat in (1, 2, 3)), holders


def _table_url() -> re.Pattern[str]:
    return re.compile(r".*/t/[\w-]+$")
