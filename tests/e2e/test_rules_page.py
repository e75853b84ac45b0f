"""The rules in every language: docs/rules.md's two-player rules and every option it names,
reachable from the header, from the lobby's option labels, and from a first game's hints."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import Server, shot
from tests.e2e.drive import live_table, take_seat

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
LANGUAGES = ["en", "de", "pl", "it", "es"]


def two_player_options() -> set[str]:
    """The options docs/rules.md names for the classic two-player game (its section 2)."""
    text = RULES.read_text()
    section = text[text.index("## 2.") : text.index("## 3.")]
    return set(re.findall(r"[Oo]ption `([a-z_]+)`", section))


def test_every_option_of_the_two_player_rules_is_explained_in_every_language(
    new_page: Any,
) -> None:
    options = two_player_options()
    assert {"claim", "close_fail", "target", "strict", "schwarz"} <= options
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
        assert len(page.locator(".rules section[data-players]").all()) >= 10
    page.select_option("#language", "en")
    text = page.locator("article.rules").inner_text()
    for fact in ["Ace 11, ten 10, king 4, queen 3, jack 2", "66", "33", "40 in trumps"]:
        assert fact in text, fact
    shot(page, "rules-page")


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
    expect(hints.locator("a[href='/rules']")).to_be_visible()
    shot(anna, "first-game-hints", full_page=False)
    anna.click("[data-action=hints-done]")
    expect(hints).to_have_count(0)
    anna.reload()
    expect(anna.locator(".hand.mine .card")).to_have_count(6)
    expect(hints).to_have_count(0)
