"""On a phone: the deck-colour switch keeps its label, a tapped card's reason does not stay
stuck, and an opponent's declaration shows on the table itself."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import STILL, Server, Watch, boxes, shot
from tests.e2e.drive import Seat, live_table, marry, play, sit_as
from tests.e2e.play import dismiss_summary, tap_a_disabled

PHONE = {"width": 390, "height": 844}


def may_marry(seat: int) -> Any:
    """``until`` for ``play``: stop when ``seat`` may declare a marriage."""
    return lambda seats: any(a.get("marriage") for a in seats[seat].legal)


@pytest.fixture
def phone(browser: Browser, server: Server, watch: Watch) -> Iterator[Page]:
    """A touch phone's page (no hover, coarse pointer)."""
    context = browser.new_context(
        base_url=server.url,
        locale="en-GB",
        viewport=PHONE,
        has_touch=True,
        is_mobile=True,
        reduced_motion=STILL,
    )
    yield watch.page(context.new_page(), "phone")
    context.close()


def test_the_four_colour_switch_has_a_visible_label_on_a_phone(phone: Page) -> None:
    phone.goto("/")
    for switch, text in (("#four-colour", "Four-colour deck"), ("#sound", "Sound")):
        label = phone.locator(f"#prefs label:has({switch}) span")
        expect(label).to_have_text(text)
        box = label.bounding_box()
        assert box and box["width"] > 30 and box["height"] > 10, (text, box)
        expect(label).to_be_in_viewport(ratio=1)
    shot(phone, "phone-lobby", full_page=False)


def wider_than_the_phone(page: Page) -> list[str]:
    """Elements reaching past the screen's right edge: a phone then zooms the page out, and
    fixed dialogs (the deal summary) slide partly off screen. What a scrolling row clips (the
    header's links) widens nothing."""
    return page.evaluate(
        """() => {
          const width = document.documentElement.clientWidth;
          return [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right > width + 1)
            .filter((e) => !e.parentElement.closest('#nav'))
            .map((e) => `${e.tagName}#${e.id}.${e.className}`);
        }"""
    )


def test_no_page_is_wider_than_a_phone(phone: Page, server: Server) -> None:
    table, players = live_table(server.url)
    sit_as(phone.context, players[0])
    for path in ("/", "/history", "/rules", "/leaderboard", "/account", f"/t/{table['id']}"):
        phone.goto(path)
        expect(phone.locator("#nav a").first).to_be_visible()
        assert wider_than_the_phone(phone) == [], path


def bela_declared(seats: list[Seat]) -> bool:
    """Bela just declared a marriage, and it did not end the deal."""
    events = seats[0].events
    declared = any(e["type"] == "marriage_declared" and e["seat"] == 1 for e in events)
    return declared and not any(e["type"] == "deal_over" for e in events)


TAPPED_CARD_S_REASON = """() => {
  const card = document.querySelector('.hand.mine .card[data-legal=false]');
  return getComputedStyle(card, '::after').content;
}"""


def test_a_tapped_card_s_reason_does_not_stay_and_bela_s_marriage_shows_on_the_table(
    phone: Page, server: Server
) -> None:
    # A long match: it must not end before Bela has declared a marriage.
    table, players = live_table(server.url, target=30)
    sit_as(phone.context, players[0])
    phone.goto(f"/t/{table['id']}")
    expect(phone.locator(".hand.mine .card")).to_have_count(6)
    rng = random.Random(12)
    play(server.url, table, players, rng, lambda seats: seats[0].to_move == 1)
    expect(phone.locator(".table-page")).to_have_attribute("data-my-turn", "false")
    waiting = phone.locator(".hand.mine .card[data-legal=false]").first
    tap_a_disabled(waiting)
    expect(phone.locator("#toast")).to_contain_text("not your turn")
    # Read in one step (a redraw between finding the card and reading it would leave a
    # detached card, whose computed style is empty).
    after = phone.evaluate(TAPPED_CARD_S_REASON)
    assert after in ("none", "normal"), f"the reason stays on the tapped card: {after}"

    seats = play(server.url, table, players, rng, bela_declared, marry)
    assert bela_declared(seats), "the match ended before Bela declared a marriage"
    # The page has every update the server sent (not an earlier moment of Anna's turn).
    expect(phone.locator(".table-page")).to_have_attribute("data-version", str(seats[0].version))
    expect(phone.locator(".table-page")).to_have_attribute("data-my-turn", "true")
    dismiss_summary(phone)  # an earlier deal's summary may still cover the table
    callout = phone.get_by_test_id("callout")
    expect(callout).to_contain_text("Bela declares a marriage")
    expect(callout).to_be_in_viewport(ratio=1)
    felt, box = boxes(phone, ".felt", "[data-testid=callout]")
    assert felt and box and felt["y"] <= box["y"] <= felt["y"] + felt["height"], (felt, box)
    shot(phone, "phone-callout", full_page=False)


def test_this_turn_s_buttons_stay_in_view_and_a_marriage_does_not_jump(
    phone: Page, server: Server
) -> None:
    """On a phone the header is short, the marriage choice shows under the table without
    scrolling the page, and this turn's buttons stay on screen while the table is."""
    table, players = live_table(server.url, target=100)
    seats = play(server.url, table, players, random.Random(2), may_marry(0))
    card = next(a["card"] for a in seats[0].legal if a.get("marriage"))
    sit_as(phone.context, players[0])
    phone.goto(f"/t/{table['id']}")
    expect(phone.locator(".hand.mine .card").first).to_be_visible()
    header = phone.locator(".topbar").bounding_box()
    assert header and header["height"] <= 110, f"the header takes {header} of the screen"
    before = phone.evaluate("window.scrollY")
    phone.locator(f".hand.mine .card[data-card='{card}']").tap()
    choice = phone.locator(".marriage-choice [data-action=marriage]")
    expect(choice).to_be_visible()
    assert phone.evaluate("window.scrollY") == before, "the page jumped"
    expect(choice).to_be_in_viewport(ratio=1)
    shot(phone, "phone-marriage-choice", full_page=False)
