"""The rules in every language: every game the engine offers and every option a table may change,
reachable from the header, from the lobby's labels, and from a first game's hints, which fit
the game at the table (the stock, the dealer's trump card, the bidding)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from app.engine.catalog import catalog
from tests.e2e.conftest import Server, shot
from tests.e2e.drive import live_table, take_seat
from tests.e2e.play import summaries_closed

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
LANGUAGES = ["en", "de", "pl", "it", "es"]


def two_player_options() -> set[str]:
    """The options docs/rules.md names for the classic two-player game (its section 2)."""
    text = RULES.read_text()
    section = text[text.index("## 2.") : text.index("## 3.")]
    return set(re.findall(r"[Oo]ption `([a-z_]+)`", section))


def catalog_options() -> set[str]:
    """Every option some game lets a table change, and every preset's name."""
    return {option for entry in catalog() for option in entry["options"]}


def test_every_game_and_option_is_explained_in_every_language(new_page: Any) -> None:
    options = two_player_options() | catalog_options()
    assert {"claim", "close_fail", "target", "strict", "schwarz", "luna", "partners"} <= options
    presets = [entry["variant"] for entry in catalog()]
    page = new_page("reader")
    page.goto("/")
    page.click("#nav a[href='/rules']")
    for language in LANGUAGES:
        page.select_option("#language", language)
        expect(page.locator("article.rules")).to_have_attribute("lang", language)
        for option in sorted(options):
            expect(page.locator(f"#option-{option} + dd")).not_to_be_empty()
            title = page.locator(f"#option-{option}").inner_text()
            assert re.fullmatch(rf"\w[^()]* \({option}\)", title), f"{language}: {title}"
        for name in presets:  # each game has its section, listed in the contents
            expect(page.locator(f"section#{name} h2")).not_to_be_empty()
            expect(page.locator(f".rules-contents a[href='#{name}']")).to_have_count(1)
        for players in ("3", "4"):
            expect(page.locator(f".rules section[data-players~='{players}']").first).to_be_visible()
    page.select_option("#language", "en")
    text = page.locator("article.rules").inner_text()
    facts = [
        "Ace 11, ten 10, king 4, queen 3, jack 2",
        "40 in trumps",
        "set aside face down",
        "1 = 33 points, 2 = 66, 3 = 99, 4 = 132",
        "Luna",
        "the one played first wins the trick",
    ]
    for fact in facts:
        assert fact in text, fact
    shot(page, "rules-page")
    page.goto("/rules#four-hand")
    expect(page.locator("section#four-hand")).to_be_in_viewport()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/rules#german-32")
    expect(page.locator("section#german-32")).to_be_in_viewport()
    shot(page, "rules-page-phone", full_page=False)


def test_the_lobby_s_option_labels_open_their_explanation(new_page: Any) -> None:
    page = new_page("anna", locale="de-DE")
    page.goto("/")
    page.locator("select[name=close_fail]").locator("xpath=..").locator("a.rule-link").click()
    expect(page).to_have_url(re.compile(r"/rules#option-close_fail$"))
    expect(page.locator("#option-close_fail + dd")).to_contain_text("Zudrehen")
    expect(page.locator("#option-close_fail")).to_be_in_viewport()
    page.reload()  # the address itself opens the page, at the option
    expect(page.locator("#option-close_fail + dd")).to_contain_text("Zudrehen")
    expect(page.locator("#option-close_fail")).to_be_in_viewport()


def test_a_first_game_shows_hints_until_they_are_read(new_page: Any, server: Server) -> None:
    table, players = live_table(server.url)
    anna = take_seat(new_page("anna", locale="es-ES"), table, players[0])
    hints = anna.get_by_test_id("hints")
    expect(hints).to_contain_text("Tu primera partida")
    expect(hints.locator("a[href='/rules#sixty-six']")).to_be_visible()
    shot(anna, "first-game-hints", full_page=False)
    anna.click("[data-action=hints-done]")
    expect(hints).to_have_count(0)
    anna.reload()
    expect(anna.locator(".hand.mine .card")).to_have_count(6)
    expect(hints).to_have_count(0)


GAMES = [
    # (game, players, what its hints say, what they must not say)
    ("three-hand", None, "dealer's last card", "under the stock"),
    ("four-hand", None, "highest bidder leads", "first to 66"),
    ("german-32", "3", "2 cards lie set aside", "dealer's last card"),
    ("german-48", None, "every card is there twice", "highest bidder"),
]


def test_the_hints_fit_the_game_at_the_table(new_page: Any) -> None:
    """At three and four seats the hints speak of that game (no stock card in three-hand, no
    66 to reach in four-hand) and open its own section of the rules; reading them at one game
    leaves another game's hints to come."""
    page = new_page("anna")
    page.goto("/")
    page.fill("#name", "Anna")
    page.click("form button[type=submit]:has-text('Save')")
    with summaries_closed(page):  # the computers may end a deal while hints are read
        expect(page.locator("#name")).to_have_count(0)
        for game, players, says, never in GAMES:
            page.goto("/")
            page.select_option("select[name=variant]", game)
            if players:
                page.select_option("select[name=players]", players)
            page.click("[data-action=play-computer][data-level=easy]")
            hints = page.get_by_test_id("hints")
            expect(hints).to_contain_text(says)
            expect(hints).not_to_contain_text(never)
            expect(hints.locator(f"a[href='/rules#{game}']")).to_be_visible()
            if game == "four-hand":
                page.set_viewport_size({"width": 1280, "height": 800})
                shot(page, "four-hand-hints", full_page=False)
            page.click("[data-action=hints-done]")
            expect(hints).to_have_count(0)
        page.goto("/")
        page.select_option("select[name=variant]", "three-hand")
        page.click("[data-action=play-computer][data-level=easy]")
        expect(page.locator(".hand.mine .card")).to_have_count(8, timeout=15_000)
        expect(page.get_by_test_id("hints")).to_have_count(0)  # read once, for this game
        page.goto("/rules#three-hand")
        expect(page.locator("section#three-hand")).to_be_in_viewport()
