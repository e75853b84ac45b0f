"""Table chat in the browser: two players and a spectator. Lines reach the right room only, a
quick phrase shows in each reader's language, a player reads the spectators only after asking,
and a line with markup shows as the characters typed (no element, no link)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import STILL, Server, Watch, shot
from tests.e2e.drive import guest, live_table, sit_as
from tests.e2e.play import start_private_table

HOSTILE = "<b>bold</b> <img src=x onerror=\"document.title='owned'\"> https://example.com"


@pytest.fixture
def pages(browser: Browser, server: Server, watch: Watch) -> Iterator[Any]:
    """``pages(who, player, path, locale, viewport, phone)``: a watched page at ``path`` as
    ``player``."""
    contexts = []

    def make(
        who: str,
        player: dict[str, Any],
        path: str,
        locale: str = "en-GB",
        viewport: tuple[int, int] = (1366, 768),
        phone: bool = False,
    ) -> Page:
        context = browser.new_context(
            base_url=server.url,
            reduced_motion=STILL,
            locale=locale,
            viewport={"width": viewport[0], "height": viewport[1]},
            has_touch=phone,
            is_mobile=phone,
        )
        contexts.append(context)
        sit_as(context, player)
        page = watch.page(context.new_page(), who)
        page.goto(path)
        expect(page.locator(".chat")).to_be_visible()
        return page

    yield make
    for context in contexts:
        context.close()


def texts(page: Page) -> list[str]:
    return page.locator(".chat-line .chat-text").all_inner_texts()


def test_two_players_and_a_spectator_chat_in_their_own_rooms(pages: Any, server: Server) -> None:
    table, (anna, bela) = live_table(server.url)
    vera = guest(server.url, "Vera")
    path = f"/t/{table['id']}"
    anna_page = pages("anna", anna, path)
    bela_page = pages("bela", bela, path, locale="de-DE", viewport=(390, 844), phone=True)
    vera_page = pages("vera", vera, f"{path}?invite={table['invite_code']}")
    expect(vera_page.locator(".chat-tabs")).to_be_hidden()  # one room: no tabs

    anna_page.locator(".chat-phrase[data-phrase='good_luck']").click()
    expect(bela_page.locator(".chat-text")).to_have_text(["Viel Glück!"])
    expect(anna_page.locator(".chat-text")).to_have_text(["Good luck!"])

    anna_page.locator(".chat-input").fill(HOSTILE)
    anna_page.locator(".chat-input").press("Enter")
    expect(bela_page.locator(".chat-text")).to_have_count(2)
    assert texts(bela_page)[1] == HOSTILE  # the characters typed, markup and all
    assert bela_page.locator(".chat-lines b, .chat-lines img, .chat-lines a").count() == 0
    assert bela_page.title() != "owned"
    expect(anna_page.locator(".chat-input")).to_have_value("")

    vera_page.locator(".chat-input").fill("Anna, lead the ace!")
    vera_page.locator(".chat-form button").click()
    expect(vera_page.locator(".chat-text")).to_have_text(["Anna, lead the ace!"])
    assert texts(vera_page) == ["Anna, lead the ace!"]  # the players' room is not hers

    anna_page.locator(".chat-tab[data-room='spectators']").click()
    expect(anna_page.locator(".chat-note")).to_contain_text("hidden")
    assert texts(anna_page) == []  # not relayed while the match is live
    shot(anna_page, "chat-desktop-spectators-hidden", full_page=False)
    anna_page.locator("[data-action='chat-show-spectators']").click()
    expect(anna_page.locator(".chat-text")).to_have_text(["Anna, lead the ace!"])

    bela_page.locator(".chat-tab[data-room='spectators']").click()
    assert texts(bela_page) == []  # Bela did not ask
    bela_page.locator(".chat-tab[data-room='players']").click()
    bela_page.locator(".chat").scroll_into_view_if_needed()
    shot(vera_page, "chat-desktop-spectator", full_page=False)
    shot(anna_page, "chat-desktop", full_page=False)
    shot(bela_page, "chat-phone", full_page=False)


def test_players_who_sat_down_from_the_waiting_room_land_in_the_players_room(
    new_page: Any,
) -> None:
    """Anna waits for an opponent and Bela sits down from the invite link: neither page was
    seated when the chat first drew, and both must show the players' room, open for writing,
    as soon as the match starts (no reload)."""
    seats = start_private_table(new_page, second_locale="en-GB")
    for page in seats.pages:
        expect(page.locator(".chat-tab[data-room='players']")).to_have_attribute(
            "aria-selected", "true"
        )
        expect(page.locator(".chat-input")).to_be_enabled()
        expect(page.locator(".chat-input")).to_have_attribute(
            "placeholder", re.compile("^(?!Read)")
        )
    seats.pages[1].locator(".chat-phrase[data-phrase='good_luck']").click()
    expect(seats.pages[0].locator(".chat-text")).to_have_text(["Good luck!"])
    seats.pages[0].locator(".chat").scroll_into_view_if_needed()
    shot(seats.pages[0], "chat-players-room-after-waiting", full_page=False)
