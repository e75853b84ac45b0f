"""The lobby in a real browser: names, languages, tables to join and to watch."""

from __future__ import annotations

import json
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import shot
from tests.e2e.drive import guest


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


def test_the_game_and_its_house_rules_come_from_the_server(new_page: Any, server: Any) -> None:
    """The game list is the server's (GET /api/variants); a game's own defaults fill the form,
    and the table is created with what was chosen."""
    page = new_page("anna")
    page.goto("/")
    page.fill("#name", "Anna")
    games = page.locator("select[name=variant] option")
    expect(games).to_have_count(6)
    assert games.evaluate_all("os => os.map(o => o.value)") == [
        "sixty-six",
        "schnapsen",
        "german-32",
        "three-hand",
        "four-hand",
        "german-48",
    ]
    page.select_option("select[name=variant]", "schnapsen")
    page.select_option("select[name=claim]", "manual")
    page.select_option("select[name=close_fail]", "closer_minus_3")
    page.click("[data-action=create]")
    page.wait_for_url("**/t/*")
    table_id = page.url.rstrip("/").split("/")[-1]
    table = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    assert table["variant"] == "schnapsen"
    assert table["options"]["claim"] == "manual"
    assert table["options"]["close_fail"] == "closer_minus_3"
    assert table["options"]["exchange_rank"] == "J"


def test_the_form_offers_only_what_the_server_lists(new_page: Any, server: Any) -> None:
    """A server serving one game with a fixed claim rule: the form shows that game alone and
    no claim choice (the client keeps no list of its own)."""
    catalog = httpx.get(f"{server.url}/api/variants").json()
    only = next(v for v in catalog["variants"] if v["variant"] == "schnapsen")
    only["fixed"]["claim"] = only["options"].pop("claim") and "fixed here"
    body = json.dumps({"variants": [only]})
    page = new_page("anna")
    page.route(
        "**/api/variants", lambda route: route.fulfill(body=body, content_type="application/json")
    )
    page.goto("/")
    games = page.locator("select[name=variant] option")
    expect(games).to_have_count(1)
    expect(games).to_have_attribute("value", "schnapsen")
    expect(page.locator("select[name=close_fail]")).to_be_visible()
    expect(page.locator("select[name=claim]")).to_have_count(0)


def test_a_refresh_redraws_the_tables_but_not_the_buttons_under_a_click(
    new_page: Any, server: Any
) -> None:
    """The lobby asks for the tables every few seconds. A new table shows in the list, while
    the form and its buttons stay the same elements: a button redrawn between the press and
    the release of a click made no click (the click was lost), and a form being filled in
    was drawn again."""
    page = new_page("anna")
    page.goto("/")
    page.fill("#name", "Anna")
    page.select_option("select[name=variant]", "schnapsen")
    expect(page.locator("ul.tables.open")).to_have_count(0)  # no open table yet
    button = page.locator("[data-action=play-computer][data-level=easy]").element_handle()
    host = guest(server.url, "Bela")
    created = httpx.post(
        f"{server.url}/api/tables",
        headers={"Authorization": f"Bearer {host['token']}"},
        json={"variant": "sixty-six", "clock": "none"},
    )
    assert created.status_code == 201, created.text
    expect(page.locator("ul.tables.open li")).to_have_count(1)  # the next refresh shows it
    assert button.evaluate("e => e.isConnected"), "the refresh drew the lobby's buttons again"
    expect(page.locator("select[name=variant]")).to_have_value("schnapsen")
