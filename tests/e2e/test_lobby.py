"""The lobby in a real browser: names, languages, tables to join and to watch."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import shot


def test_the_lobby_speaks_five_languages_and_the_switcher_changes_every_string(
    new_page: Any,
) -> None:
    page = new_page("anna", locale="de-DE")
    page.goto("/")
    # Chosen from the browser's language...
    expect(page.locator("#create-title")).to_have_text("Neuer Tisch")
    expect(page.locator("[data-action=create]")).to_have_text("Tisch erstellen")
    # ...and switched by hand: every visible string follows.
    for code, title, create, history in [
        ("pl", "Nowy stół", "Utwórz stół", "Historia"),
        ("it", "Nuovo tavolo", "Crea tavolo", "Storico"),
        ("es", "Mesa nueva", "Crear mesa", "Historial"),
        ("en", "New table", "Create table", "History"),
    ]:
        page.select_option("#language", code)
        expect(page.locator("#create-title")).to_have_text(title)
        expect(page.locator("[data-action=create]")).to_have_text(create)
        expect(page.locator("#nav a[href='/history']")).to_have_text(history)
        expect(page.locator("html")).to_have_attribute("lang", code)
    page.reload()
    expect(page.locator("#create-title")).to_have_text("New table")  # the choice is kept
    page.fill("#name", "Anna")
    shot(page, "lobby")


def colour(page: Any, code: str) -> str:
    """The ink of a hero card, read in one step (the lobby redraws when its lists arrive)."""
    script = (
        "c => getComputedStyle(document.querySelector(`.hero [data-card=${c}] svg.face`)).color"
    )
    return str(page.evaluate(script, code))


def test_the_four_colour_deck_paints_diamonds_and_clubs_apart(new_page: Any) -> None:
    page = new_page("anna")
    page.goto("/")
    expect(page.locator(".tables, .panel .muted").first).to_be_visible()
    red = colour(page, "JD")
    assert red == colour(page, "AH") and red.startswith("rgb")
    page.check("#four-colour")
    expect(page.locator("body")).to_have_class("four-colour")
    assert colour(page, "JD") not in (red, "")
    assert colour(page, "AH") == red
    page.reload()
    expect(page.locator("#four-colour")).to_be_checked()
