"""Aborting in the browser: at the start of a match both players see Abort; one presses it,
both see the table waiting again and say so, a new match starts when both accept it, and once
both have played their first card Abort is gone (Resign stays)."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, shot
from tests.e2e.drive import live_table, take_seat
from tests.e2e.play import play_one, version_of, wait_version


def on_move(pages: list[Page]) -> Page:
    """The page whose player is on move."""
    for page in pages:
        if page.locator(".table-page[data-my-turn=true]").count():
            return page
    raise AssertionError("nobody is on move")


def test_abort_at_the_start_then_a_new_match_and_no_abort_once_both_have_played(
    new_page: Any, server: Server
) -> None:
    table, players = live_table(server.url)
    anna = take_seat(new_page("anna"), table, players[0])
    bela = take_seat(new_page("bela", locale="de-DE"), table, players[1])
    pages = [anna, bela]
    for page in pages:
        expect(page.locator("[data-action=abort]")).to_be_visible()
    expect(bela.locator("[data-action=abort]")).to_have_text("Abbrechen")
    shot(anna, "abort-offered", full_page=False)

    anna.click("[data-action=abort]")
    for page in pages:
        expect(page.get_by_test_id("waiting")).to_be_visible()
        expect(page.locator(".hand.mine .card")).to_have_count(0)
    expect(anna.get_by_test_id("aborted")).to_have_text(
        "Anna aborted the match: no winner, no rating change."
    )
    expect(bela.get_by_test_id("aborted")).to_contain_text("Anna hat die Partie abgebrochen")
    expect(anna.get_by_test_id("new-match")).to_be_visible()
    shot(anna, "abort-back-to-waiting", full_page=False)

    # A new match starts when both accept one.
    anna.click("[data-testid=new-match] [data-action=rematch]")
    bela.click("[data-testid=new-match] [data-action=rematch-accept]")
    for page in pages:
        expect(page.locator(".hand.mine .card")).to_have_count(6)
        expect(page.locator("[data-action=abort]")).to_be_visible()

    # The first card of one player leaves Abort; the other's first action takes it away.
    rng = random.Random(5)
    first = on_move(pages)
    while True:  # an exchange first keeps the same player on move
        version = version_of(first)
        play_one(first, rng)
        wait_version(pages, version + 1)
        if on_move(pages) is not first:
            break
    second = on_move(pages)
    for page in pages:
        expect(page.locator("[data-action=abort]")).to_be_visible()
    play_one(second, rng)
    for page in pages:
        expect(page.locator("[data-action=abort]")).to_have_count(0)
        expect(page.locator("[data-action=resign]")).to_be_visible()
    shot(second, "abort-gone-after-both-played", full_page=False)
