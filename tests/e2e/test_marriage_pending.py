"""A marriage declared before the declarer's first trick shows its points as pending."""

from __future__ import annotations

import random
import re
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import Server, shot
from tests.e2e.drive import live_table, may_marry_before_a_trick, play, take_seat


def test_a_marriage_before_the_first_trick_shows_its_points_pending(
    new_page: Any, server: Server
) -> None:
    # A long match: somewhere Anna leads holding a marriage before she has won a trick.
    table, players = live_table(server.url, target=100)
    seats = play(server.url, table, players, random.Random(2), may_marry_before_a_trick(0))
    assert seats[0].to_move is not None, "the match ended without such a moment"
    card = next(a["card"] for a in seats[0].legal if a.get("marriage"))
    anna = take_seat(new_page("anna", width=1366, height=768), table, players[0])
    expect(anna.get_by_test_id("pending")).to_have_count(0)
    anna.click(f".hand.mine .card[data-card='{card}']")
    # The offer's points and its pending note are the server's (the view's `declarable`).
    (offer,) = [m for m in seats[0].declarable if m["suit"] == card[1]]
    assert offer["pending"]
    choice = anna.locator(".marriage-choice [data-action=marriage]")
    expect(choice).to_have_attribute("data-points", str(offer["points"]))
    expect(choice).to_contain_text(f"Marriage {offer['points']}")
    expect(anna.get_by_test_id("marriage-pending")).to_have_text(
        f"({offer['points']} pending until Anna wins a trick)"
    )
    shot(anna, "marriage-offer-pending", full_page=False)
    choice.click()
    said = anna.locator(".announcements li").first
    expect(said).to_contain_text("pending until Anna wins a trick")
    expect(said).to_contain_text(f": {offer['points']}")
    pending = anna.locator(".seat-bottom").get_by_test_id("pending")
    expect(pending).to_have_text(f"+{offer['points']} pending")
    expect(pending).to_have_attribute("aria-label", re.compile("until Anna wins a trick"))
    shot(anna, "marriage-pending", full_page=False)
