"""Presence in the browser: when one player closes the page, the other sees the dot by its
name change and the table wait for it, then may claim the match once the wait is over."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server, serve, shot
from tests.e2e.drive import live_table, take_seat


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """A server that waits only a few seconds for a player who left."""
    monkeypatch.setenv("PRESENCE_GRACE_SECONDS", "4")
    yield from serve(tmp_path, monkeypatch, "127.0.0.1")


def test_a_player_who_closes_the_page_is_shown_away_then_gone_and_can_be_claimed_against(
    new_page: Any, server: Server
) -> None:
    table, (anna, bela) = live_table(server.url)
    anna_page = take_seat(new_page("anna"), table, anna)
    bela_page = take_seat(new_page("bela"), table, bela)
    bela_dot = anna_page.locator('.seat[data-seat="1"] [data-testid=presence]')
    expect(bela_dot).to_have_attribute("data-state", "connected")
    expect(bela_dot).to_have_attribute("aria-label", "Bela is connected")
    expect(anna_page.get_by_test_id("header-online")).to_have_text("2 players online")

    bela_page.close()
    expect(bela_dot).to_have_attribute("data-state", "away")
    banner = anna_page.get_by_test_id("away-banner")
    expect(banner).to_contain_text("Your opponent Bela lost the connection; the game waits")
    seconds = int(banner.inner_text().split("waits ")[1].split(" s")[0])
    assert 0 < seconds <= 4
    shot(anna_page, "presence-away", full_page=False)

    expect(bela_dot).to_have_attribute("data-state", "gone")
    expect(banner).to_contain_text("Bela did not come back")
    # Two ways on: claim the match, or let a computer player take the gone seat.
    expect(anna_page.locator("[data-action=hand-to-computer]")).to_contain_text(
        "Let the computer play for Bela"
    )
    shot(anna_page, "presence-gone", full_page=False)
    anna_page.locator("[data-action=claim-victory]").click()
    expect(anna_page.locator("#claim-stake")).to_contain_text("Bela's resignation")
    shot(anna_page, "presence-claim", full_page=False)
    anna_page.locator("[data-action=claim-victory-yes]").click()
    expect(anna_page.get_by_test_id("match-winner")).to_contain_text("Anna")
