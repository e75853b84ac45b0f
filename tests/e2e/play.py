"""Playing through the pages: only cards and buttons the page offers as legal are clicked."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Error, Locator, Page, expect


@dataclass
class Seats:
    """Two players' pages (seat 0 created the table, seat 1 came by the invite link)."""

    pages: list[Page]
    table_id: str
    invite: str
    """The invite link (a private table's spectators need it too)."""


def version_of(page: Page) -> int:
    return int(page.locator(".table-page").get_attribute("data-version") or "-1")


# Both from one draw of the page (see turn_of).
TURN = """() => {
    const table = document.querySelector(".table-page");
    return table ? [Number(table.dataset.version), table.dataset.myTurn === "true"] : [-1, false];
}"""


def turn_of(page: Page) -> tuple[int, bool]:
    """The table's version on the page and whether the page's player is on move at it, read
    in one step. Read one after the other they can come from two draws: the version before
    a computer player's move with the turn that move gave. A move made at that turn then
    seems to land at once (the version already differs), and the next look finds the turn
    just played still drawn, its cards gone from under it as the move lands."""
    version, mine = page.evaluate(TURN)
    return int(version), bool(mine)


def start_private_table(
    new_page: Callable[..., Page], second_locale: str = "pl-PL", visibility: str = "private"
) -> Seats:
    """Anna creates a private (or public) table in the lobby; Bela opens the invite link and
    sits down."""
    anna = new_page("anna")
    anna.goto("/")
    anna.fill("#name", "Anna")
    anna.select_option("select[name=visibility]", visibility)
    anna.click("[data-action=create]")
    link = anna.locator("#invite-link")
    expect(link).to_have_value(_has_invite())
    invite = link.input_value()
    bela = new_page("bela", locale=second_locale)
    bela.goto(invite)
    bela.fill("#join-name", "Bela")
    bela.locator(".join-form button[type=submit]").click()
    for page in (anna, bela):
        expect(page.locator(".table-page")).to_be_visible()
        expect(page.locator(".hand.mine .card")).to_have_count(6)
        # Bela's page greets the table again as a seated player: no move before that.
        expect(page.locator(".table-page")).to_have_attribute("data-online", "true")
    table_id = invite.split("/t/")[1].split("?")[0]
    return Seats([anna, bela], table_id, invite)


def _has_invite() -> Any:
    import re

    return re.compile(r"/t/[\w-]+\?invite=")


def mover(seats: Seats) -> Page | None:
    """The page whose player is on move, or None (deal over)."""
    for page in seats.pages:
        if page.locator(".table-page").get_attribute("data-my-turn") == "true":
            return page
    return None


def summary_shown(page: Page) -> bool:
    return page.get_by_test_id("summary").is_visible()


def dismiss_summary(page: Page) -> None:
    """Close a deal summary (the next deal is already dealt underneath)."""
    if summary_shown(page):
        page.click("[data-action=continue]")


@contextlib.contextmanager
def summaries_closed(page: Page) -> Iterator[None]:
    """While inside, a deal summary that covers what the test clicks is closed first, as a
    player would close it. At three and four seats the computers may end a deal by their own
    moves (a Luna lost while the page's player, the bidder's partner, sits out). Outside, a
    summary stays for the test to read (a match's end is one)."""
    button = page.locator(".overlay [data-action=continue]")
    page.add_locator_handler(button, lambda found: found.click())
    try:
        yield
    finally:
        page.remove_locator_handler(button)


def play_one(page: Page, rng: random.Random) -> None:
    """Click one legal thing: sometimes a legal exchange, else a legal card (with a marriage
    when the page offers one). A deal summary still open is closed first."""
    dismiss_summary(page)
    exchange = page.locator("[data-action=exchange]")
    if exchange.count() and rng.random() < 0.5:
        exchange.click()
        return
    legal = page.locator(".hand.mine .card[data-legal=true]")
    count = legal.count()
    assert count > 0, "the player on move has no legal card"
    play_card(page, legal.nth(rng.randrange(count)))


# What a click on a card led to: the marriage question, the move (a new version), or not yet.
MARRIAGE_OR_MOVE = """(before) => {
    if (document.querySelector(".marriage-choice [data-action=marriage]")) return "asked";
    const table = document.querySelector(".table-page");
    return table && Number(table.dataset.version) !== before ? "moved" : null;
}"""


def play_card(page: Page, card: Locator) -> None:
    """Click a legal ``card`` of the hand, declaring the marriage when the page asks whether
    to. The question is drawn once the press's click has been handled (a press holds the
    page's redraws), so it is waited for, with the move it would otherwise be."""
    before, _ = turn_of(page)
    card.click()
    found = page.wait_for_function(MARRIAGE_OR_MOVE, arg=before, timeout=15_000).json_value()
    if found == "asked":
        page.click(".marriage-choice [data-action=marriage]")


def wait_version(pages: list[Page], version: int) -> None:
    for page in pages:
        expect(page.locator(".table-page")).to_have_attribute("data-version", str(version))


def play_until_deal_ends(
    seats: Seats,
    watchers: list[Page],
    rng: random.Random,
    after_each: Callable[[int], None] | None = None,
    limit: int = 60,
) -> int:
    """Play until both players see the deal summary; returns the final version."""
    everyone = [*seats.pages, *watchers]
    version = version_of(seats.pages[0])
    for _ in range(limit):
        if all(summary_shown(p) for p in seats.pages):
            return version
        page = mover(seats)
        assert page is not None, "nobody is on move and no summary is shown"
        play_one(page, rng)
        version += 1
        wait_version(everyone, version)
        if after_each:
            after_each(version)
    raise AssertionError("the deal did not end")


def face_up(page: Page, zones: str = "") -> list[str]:
    """Card codes drawn face up on the page (optionally only in some zones, e.g. 'trick,last')."""
    selector = (
        ",".join(f"[data-card][data-zone={z}]" for z in zones.split(","))
        if zones
        else "[data-card]"
    )
    return page.locator(selector).evaluate_all("els => els.map(e => e.dataset.card)")


def play_by_keyboard(page: Page) -> str:
    """Walk the hand with the arrow keys to the first legal card and play it with Enter."""
    hand = page.locator(".hand.mine .card")
    hand.first.focus()
    for _ in range(hand.count() + 1):
        focused = page.locator(".hand.mine .card:focus")
        if focused.get_attribute("data-legal") == "true":
            code = focused.get_attribute("data-card") or ""
            page.keyboard.press("Enter")
            choice = page.locator(".marriage-choice [data-action=marriage]")
            if choice.count():
                page.keyboard.press("Enter")  # the marriage button has the focus
            return code
        page.keyboard.press("ArrowRight")
    raise AssertionError("no legal card reachable with the arrow keys")


def tap_a_disabled(target: Locator, tries: int = 3) -> None:
    """Tap an element the page marks disabled (``aria-disabled``: Playwright would wait for it
    to be enabled, so the tap is forced). A forced tap does not wait for the element to stay
    put: a redraw between finding it and tapping it (a presence frame, say) replaces it, and
    the tap fails as "not visible". A finger would tap again; so does this, a few times."""
    for attempt in range(tries):
        try:
            target.tap(force=True)
            return
        except Error as error:
            replaced = "not visible" in error.message or "not attached" in error.message
            if not replaced or attempt == tries - 1:
                raise
