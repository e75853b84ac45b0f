"""Why a card may not be played is the server's word: each greyed card of the hand carries the
code the server's view gave it, and its hint is that code's sentence in the player's language."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, shot
from tests.e2e.drive import Seat, close_at_once, live_table, play, sit_as
from tests.e2e.play import dismiss_summary

RULE_CODES = {"must_follow_suit", "must_beat", "must_trump"}


def must_follow(seats: list[Seat]) -> bool:
    """``until`` for ``play``: Anna is on move and the rules forbid her some card."""
    anna = seats[0]
    return anna.to_move == 0 and bool(set(anna.unplayable.values()) & RULE_CODES)


def check_hints(page: Page, unplayable: dict[str, str]) -> None:
    """Every card the server forbids is greyed with the server's code and its sentence."""
    expect(page.locator(".hand.mine .card[data-legal=false]")).to_have_count(len(unplayable))
    for card, code in unplayable.items():
        shown = page.locator(f'.hand.mine .card[data-card="{card}"]').first
        expect(shown).to_have_attribute("data-reason-code", code)
        sentence = page.evaluate(f"import('/js/errors.js').then(m => m.errorText('{code}'))")
        assert sentence and not sentence.startswith("err_"), (code, sentence)
        expect(shown).to_have_attribute("data-reason", sentence)


def test_an_illegal_card_s_hint_is_the_translation_of_the_server_s_code(
    new_page: Any, server: Server
) -> None:
    table, players = live_table(server.url, target=10)
    anna = new_page("anna", locale="de-DE")
    sit_as(anna.context, players[0])
    anna.goto(f"/t/{table['id']}")
    expect(anna.locator(".hand.mine .card").first).to_be_visible()
    seats = play(server.url, table, players, random.Random(5), must_follow, close_at_once)
    assert must_follow(seats), "no strict-phase position came up"
    expect(anna.locator(".table-page")).to_have_attribute("data-version", str(seats[0].version))
    dismiss_summary(anna)
    check_hints(anna, seats[0].unplayable)  # folded from the updates
    forbidden = next(card for card, code in seats[0].unplayable.items() if code in RULE_CODES)
    anna.locator(f'.hand.mine .card[data-card="{forbidden}"]').first.focus()
    shot(anna, "card-reason-de", full_page=False)
    anna.reload()
    expect(anna.locator(".hand.mine .card").first).to_be_visible()
    dismiss_summary(anna)
    check_hints(anna, seats[0].unplayable)  # from a fresh welcome's view
