"""What a newcomer meets before the first card: no "0 players online" and one count only, the
computer's buttons under the game they play, the tables to join before the form on a phone, a
lobby notice that stays in the lobby, a header that follows a sign-out at once, and passkeys
explained at a numeric address instead of offered there to fail."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import Server, shot
from tests.e2e.test_accounts import sign_up

TOPS = """(selectors) => {
  const boxes = selectors.map((s) => document.querySelector(s)?.getBoundingClientRect());
  return boxes.every((b) => b && b.height > 0) ? boxes.map((b) => b.top) : null;
}"""
"""The tops of the elements the selectors name, once every one is drawn (else null)."""


def test_a_new_visitor_sees_no_empty_count_and_the_lobby_in_order(new_page: Any) -> None:
    page = new_page("newcomer", width=1280, height=800)
    with page.expect_response(lambda reply: reply.url.endswith("/api/online")):
        page.goto("/")
    expect(page.locator(".panel.computer")).to_be_visible()
    expect(page.locator("[data-online-count]")).to_have_count(1)  # the header's, not twice
    expect(page.get_by_test_id("header-online")).to_be_hidden()  # nobody counted yet
    expect(page.locator("body")).not_to_contain_text("0 players online")
    # Measured in one step in the page once both are drawn: the lobby redraws its panels as
    # the pools and the tables arrive, and a box read between two steps can be gone.
    game_y, computer_y = page.wait_for_function(
        TOPS, arg=["select[name=variant]", ".panel.computer"]
    ).json_value()
    assert computer_y > game_y, "the computer's buttons come first"
    shot(page, "lobby-newcomer", full_page=False)

    page.set_viewport_size({"width": 390, "height": 844})
    tables_y, form_y = page.wait_for_function(
        TOPS, arg=["#open-title", ".panel.create"]
    ).json_value()
    assert tables_y < form_y, "the tables come below the whole form"
    shot(page, "lobby-newcomer-phone", full_page=True)


def test_the_lobby_s_name_notice_stays_in_the_lobby(new_page: Any) -> None:
    page = new_page("anna")
    page.goto("/")
    # The games come from the server and redraw the form once they arrive; a refresh of the
    # tables lists redraws nothing else (test_lobby.py).
    expect(page.locator("select[name=variant] option")).to_have_count(6)
    page.click("[data-action=play-computer][data-level=easy]")
    toast = page.locator("#toast")
    expect(toast).to_have_text("Choose a name first.")
    page.fill("#name", "Anna")
    page.click("[data-action=play-computer][data-level=easy]")
    page.wait_for_url("**/t/**")
    # At once, not after the notice's own 4 s (an expect would wait those out).
    assert page.locator("#toast").evaluate("el => el.hidden"), "the lobby's notice followed"


def test_signing_out_clears_the_header_at_once(new_page: Any) -> None:
    page = new_page("anna")
    page.goto("/")
    sign_up(page, "anna")
    account = page.get_by_test_id("nav-account")
    expect(account).to_have_text("anna")
    account.click()
    page.click("[data-action=signout]")
    expect(account).to_have_text("Account")


def test_passkeys_at_a_numeric_address_say_where_they_work(new_page: Any, server: Server) -> None:
    assert server.url.startswith("http://127.0.0.1:")
    page = new_page("anna")
    page.goto("/account")
    expect(page.locator("[data-action=passkey-signin]")).to_have_count(0)
    why = page.get_by_test_id("passkeys-numeric")
    expect(why).to_contain_text("numeric address such as 127.0.0.1")
    link = why.locator("a")
    expect(link).to_have_attribute(
        "href", server.url.replace("127.0.0.1", "localhost") + "/account"
    )
    shot(page, "passkeys-numeric-address", full_page=False)
