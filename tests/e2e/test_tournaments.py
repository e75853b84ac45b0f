"""Tournaments in the browser: an account creates a one-round Swiss over REST, two people join
it from its event page (a desktop and a phone) during the countdown, are paired, and each page
goes to their table by itself; back on the event page the game is one click away; the table
offers no abort and, once over, the way back to the event instead of a rematch; one resigns,
and on a third page watching the event the standings move on their own and the podium shows."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server, serve, shot
from tests.e2e.drive import guest, resign, rest_get, rest_post, sit_as

PATIENCE = 60_000
"""How long (ms) a page may take to show what the event has done: generous for a busy machine;
a quiet one shows it within a few seconds."""
PASSWORD = "correct horse battery"
JOINING = 20
"""Seconds from the event's creation to its start, for both pages to join (an event with fewer
than two entrants at its start finishes at once)."""


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """A server whose event owner steps every fifth of a second."""
    monkeypatch.setenv("TOURNAMENT_TICK_SECONDS", "0.2")
    yield from serve(tmp_path, monkeypatch, "127.0.0.1")


def host_account(base: str) -> dict[str, Any]:
    """A guest upgraded to an account (an account creates events)."""
    host = guest(base, "Host")
    upgraded = rest_post(
        f"{base}/api/accounts",
        json={"handle": "host", "password": PASSWORD},
        headers={"Authorization": f"Bearer {host['token']}"},
    )
    upgraded.raise_for_status()
    return host


def _table_url() -> re.Pattern[str]:
    return re.compile(r"/t/[\w-]+$")


def test_two_people_join_an_arena_are_sent_to_their_table_and_the_standings_move(
    new_page: Any, server: Server
) -> None:
    host = host_account(server.url)
    body = {
        "name": "Evening Swiss",
        "format": "swiss",
        "variant": "sixty-six",
        "options": {"target": 1},
        "access": "guests",
        "starts_in": JOINING,
        "rounds": 1,
    }
    created = rest_post(
        f"{server.url}/api/tournaments",
        json=body,
        headers={"Authorization": f"Bearer {host['token']}"},
    )
    assert created.status_code == 201, created.text
    event_id = created.json()["id"]
    event_path = f"/tournaments/{event_id}"

    watcher = new_page("host")
    sit_as(watcher.context, host)
    watcher.goto("/")
    watcher.get_by_test_id("tournaments-card").get_by_role("link").click()
    expect(watcher.get_by_test_id("tournaments")).to_contain_text("Evening Swiss")
    shot(watcher, "tournaments-list-desktop", full_page=False)
    watcher.get_by_role("link", name="Evening Swiss").click()
    expect(watcher).to_have_url(re.compile(re.escape(event_path) + "$"))
    expect(watcher.get_by_test_id("countdown")).to_contain_text(re.compile(r"Starts in 0:\d\d"))
    shot(watcher, "tournament-upcoming-desktop", full_page=False)

    anna, bela = guest(server.url, "Anna"), guest(server.url, "Bela")
    anna_page, bela_page = new_page("anna"), new_page("bela", width=390, height=844)
    for page, player in ((anna_page, anna), (bela_page, bela)):
        sit_as(page.context, player)
        page.goto(event_path)
        page.get_by_role("button", name="Join").click()
        expect(page.get_by_test_id("tournament-joined")).to_be_visible()
    shot(bela_page, "tournament-joined-phone", full_page=False)

    # Paired: both pages go to the table by themselves, the same one.
    for page in (anna_page, bela_page):
        expect(page).to_have_url(_table_url(), timeout=PATIENCE)
        expect(page.locator(".hand.mine .card").first).to_be_visible(timeout=PATIENCE)
    assert anna_page.url == bela_page.url
    table_id = anna_page.url.rsplit("/", 1)[-1]
    standings = watcher.get_by_test_id("standings")
    expect(watcher.get_by_test_id("pairings").locator("[data-status=playing]")).to_have_count(
        1, timeout=PATIENCE
    )
    expect(standings.locator("[data-entrant] >> text=Bela")).to_be_visible()

    # Back on the event page, the game under way is one click away.
    bela_page.goto(event_path)
    game = bela_page.get_by_test_id("tournament-game")
    expect(game).to_be_visible(timeout=PATIENCE)
    shot(bela_page, "tournament-running-phone")
    game.click()
    expect(bela_page).to_have_url(re.compile(f"/t/{table_id}$"))
    # An event's table leads back to the event and offers no abort, even before anyone has
    # acted (the event decides the game: docs/tournaments.md).
    expect(bela_page.locator(".hand.mine .card").first).to_be_visible(timeout=PATIENCE)
    expect(bela_page.locator("[data-action=back-to-event]")).to_be_visible()
    expect(bela_page.locator("[data-action=abort]")).to_have_count(0)

    resign(server.url, table_id, anna["token"])

    # The match over, the table offers the way back to the event and no rematch.
    summary = bela_page.get_by_test_id("summary")
    expect(summary.locator("[data-action=back-to-event]")).to_be_visible(timeout=PATIENCE)
    expect(summary.locator("[data-action=rematch]")).to_have_count(0)
    shot(bela_page, "tournament-game-over-phone", full_page=False)

    # The watching page reads the event again by itself: Bela's win is counted, the event ends.
    event = rest_get(f"{server.url}/api/tournaments/{event_id}").json()
    mine = {row["name"]: row["entrant"] for row in event["standings"]}
    bela_row = standings.locator(f"tr[data-entrant='{mine['Bela']}']")
    anna_row = standings.locator(f"tr[data-entrant='{mine['Anna']}']")
    expect(bela_row).to_have_attribute("data-points", "1", timeout=PATIENCE)
    expect(anna_row).to_have_attribute("data-points", "0")
    expect(standings.locator("tbody tr").first).to_have_attribute("data-entrant", mine["Bela"])
    podium = watcher.get_by_test_id("podium")
    expect(podium).to_be_visible(timeout=PATIENCE)
    expect(podium.locator("li").first).to_contain_text("Bela")
    shot(watcher, "tournament-finished-desktop")
    watcher.set_viewport_size({"width": 390, "height": 844})
    shot(watcher, "tournament-finished-phone")


def test_an_account_creates_a_team_event_through_the_form_adds_a_computer_and_a_team_forms(
    new_page: Any, server: Server
) -> None:
    host = host_account(server.url)
    visitor = new_page("visitor")
    sit_as(visitor.context, guest(server.url, "Gast"))
    visitor.goto("/tournaments")
    form = visitor.get_by_test_id("tournament-create")
    expect(form).to_contain_text("An account creates tournaments")  # a guest gets no form
    expect(form.locator("form")).to_have_count(0)

    page = new_page("host", width=1280, height=800)
    sit_as(page.context, {**host, "handle": "host"})
    page.goto("/tournaments")
    form = page.get_by_test_id("tournament-create")
    form.get_by_label("Name").fill("Club night")
    form.locator("select[name=format]").select_option("swiss")
    form.locator("select[name=variant]").select_option("four-hand")
    form.locator("select[name=target]").select_option("3")
    form.get_by_label("Starts in (minutes)").fill("30")
    form.get_by_label("Rounds").fill("2")
    form.locator("select[name=access]").select_option("guests")
    form.get_by_label("Computer entrants allowed").check()
    shot(page, "tournament-create-desktop", full_page=False)
    page.set_viewport_size({"width": 390, "height": 844})
    form.scroll_into_view_if_needed()
    shot(page, "tournament-create-phone", full_page=False)
    page.set_viewport_size({"width": 1280, "height": 800})
    form.get_by_role("button", name="Create the tournament").click()

    expect(page).to_have_url(re.compile(r"/tournaments/\w+$"))
    event_id = page.url.rsplit("/", 1)[-1]
    expect(page.get_by_test_id("tournament")).to_contain_text("Club night")
    event = rest_get(f"{server.url}/api/tournaments/{event_id}").json()
    chosen = {k: event[k] for k in ("format", "variant", "rounds", "access", "computers", "clock")}
    assert chosen == {
        "format": "swiss",
        "variant": "four-hand",
        "rounds": 2,
        "access": "guests",
        "computers": True,
        "clock": "move",
    }
    assert event["options"]["target"] == 3 and event["status"] == "upcoming"
    assert event["created_by"] == host["id"] and not event["rated"]

    # The creator adds a computer entrant of a level, and starts a team.
    adding = page.get_by_test_id("add-computer-entrant")
    adding.locator("select[name=level]").select_option("hard")
    adding.get_by_role("button", name="Add a computer entrant").click()
    standings = page.get_by_test_id("standings")
    expect(standings).to_contain_text("Computer (hard)")
    expect(standings.locator(".tag.computer")).to_have_count(1)
    page.get_by_role("button", name="Start a team").click()
    expect(page.get_by_test_id("team-waiting")).to_be_visible()

    # A partner on a phone joins that team by the host's handle.
    partner = new_page("bela", width=390, height=844)
    sit_as(partner.context, guest(server.url, "Bela"))
    partner.goto(f"/tournaments/{event_id}")
    teams = partner.get_by_test_id("tournament-teams")
    expect(teams).to_contain_text("Join Host")  # the teams waiting, too
    teams.get_by_label("Your partner's handle").fill("HOST")
    teams.get_by_role("button", name="Join your partner's team").click()
    expect(partner.get_by_test_id("tournament-joined")).to_be_visible()
    expect(partner.get_by_test_id("standings")).to_contain_text("Host & Bela")
    shot(partner, "tournament-team-phone")
    expect(page.get_by_test_id("team-waiting")).to_have_count(0, timeout=PATIENCE)
    shot(page, "tournament-team-desktop", full_page=False)
    event = rest_get(f"{server.url}/api/tournaments/{event_id}").json()
    assert event["teams"] == [] and event["entrants"] == 2
