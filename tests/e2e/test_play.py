"""Two players and a spectator in real browsers play a whole deal, then look at the history."""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import Server, shot
from tests.e2e.play import face_up, play_until_deal_ends, start_private_table


def test_a_deal_played_by_clicks_shows_the_spectator_only_public_cards(
    new_page: Any, server: Server
) -> None:
    # A private table is watched only with its invite link: without it the page says why.
    seats = start_private_table(new_page)
    anna, bela = seats.pages
    carla = new_page("carla")
    carla.goto(f"/t/{seats.table_id}")
    expect(carla.get_by_test_id("no-watching")).to_contain_text("invite link")
    carla.goto(seats.invite)
    expect(carla.get_by_test_id("watching")).to_be_visible()
    expect(carla.locator(".hand.mine")).to_have_count(0)
    expect(carla.locator(".seat-label .name")).to_have_text(["Bela", "Anna"])

    # Every card the spectator's page ever shows played (in a trick, the last trick or the
    # summary), caught as the page draws it: a finished trick stays in view only a moment.
    carla.evaluate(
        """() => {
          window.playedSeen = new Set();
          const zones = ["trick", "last", "summary"].map((z) => `[data-card][data-zone=${z}]`);
          const grab = () => document.querySelectorAll(zones.join(","))
            .forEach((e) => window.playedSeen.add(e.dataset.card));
          new MutationObserver(grab).observe(document.body, { subtree: true, childList: true });
          grab();
        }"""
    )
    seen: dict[int, dict[str, list[str]]] = {}

    def look(version: int) -> None:
        seen[version] = {
            # The deal summary shows the finished deal's last trick; the rest is the board.
            "spectator": face_up(carla, "trick,last,trump,shown,back,stock,hand"),
            "played": face_up(carla, "trick,last,summary"),
            "anna": face_up(anna, "hand"),
            "bela": face_up(bela, "hand"),
        }
        if version == 5:
            anna.mouse.move(5, 5)
            shot(anna, "table-mid-deal")
            anna.set_viewport_size({"width": 375, "height": 760})
            shot(anna, "table-mid-deal-phone")
            anna.set_viewport_size({"width": 1280, "height": 860})

    look(0)
    play_until_deal_ends(seats, [carla], random.Random(7), after_each=look)
    for page in seats.pages:
        expect(page.get_by_test_id("summary")).to_be_visible()
        expect(page.locator(".why")).not_to_be_empty()
    shot(anna, "deal-summary")

    # Anna continues, then resigns: the match is over and its replay becomes public.
    anna.click("[data-action=continue]")
    anna.click("[data-action=resign]")
    anna.click("[data-action=resign-yes]")
    for page in (anna, bela, carla):
        expect(page.get_by_test_id("match-winner")).to_contain_text("Bela")
        expect(page.locator(".why")).to_contain_text("Anna")  # in each page's language
        expect(page.locator(".why")).not_to_contain_text("Bela")
    expect(anna.locator("[data-action=rematch]")).to_be_visible()
    expect(carla.locator("[data-action=rematch]")).to_have_count(0)

    table = httpx.get(f"{server.url}/api/tables/{seats.table_id}").json()
    replay = httpx.get(f"{server.url}/api/matches/{table['match_id']}/replay").json()
    steps = {step["version"]: step for step in replay["steps"]}
    deal_one_played = set()
    for step in replay["steps"]:
        if step["action"] and step["action"]["type"] == "play" and step["version"] in seen:
            deal_one_played.add(step["action"]["card"])
    for version, pages in seen.items():
        truth = steps[version]
        public = {s["card"] for s in truth["view"]["shown"]}
        hidden = (set(truth["hands"][0]) | set(truth["hands"][1])) - public
        leaked = hidden & set(pages["spectator"])
        assert not leaked, f"the spectator saw hidden cards {leaked} at version {version}"
        assert sorted(pages["anna"]) == sorted(truth["hands"][0]), f"Anna's hand at {version}"
        assert sorted(pages["bela"]) == sorted(truth["hands"][1]), f"Bela's hand at {version}"
    watched = {card for pages in seen.values() for card in pages["played"]}
    watched |= set(carla.evaluate("() => [...window.playedSeen]"))
    assert deal_one_played and deal_one_played <= watched, deal_one_played - watched

    # History: Anna finds the match and steps through its replay with every hand open.
    anna.goto("/history")
    row = anna.locator(f".match-row[data-match='{table['match_id']}']")
    expect(row).to_contain_text("Bela")
    shot(anna, "history")
    row.locator("a").click()
    expect(anna.locator(".replay .hand.open")).to_have_count(2)
    expect(anna.locator(".replay .hand.open").first.locator(".card")).to_have_count(6)
    # A deal can end after a few moves: step forward at most to the replay's last step.
    expect(anna.locator(".step-of")).to_have_text(re.compile(r"^\s*\S+ 1 \S+ \d+\s*$"))
    total = int(anna.locator(".step-of").inner_text().split()[-1])
    forward = min(7, total - 1)
    for _ in range(forward):
        anna.locator(".replay-controls [data-keep-focus]").click()
    step = re.compile(rf"^\s*\S+ {1 + forward} \S+ {total}\s*$")
    expect(anna.locator(".step-of")).to_have_text(step)
    shot(anna, "replay")
