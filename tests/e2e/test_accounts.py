"""Accounts in a real browser: a guest becomes an account, plays a rated match, signs in from a
second browser and finds its profile with the new rating, and the leaderboard."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from openskill.models import PlackettLuce
from playwright.sync_api import expect

from tests.e2e.conftest import Watch, shot
from tests.e2e.play import _has_invite

PASSWORD = "a long enough secret"
LIBRARY = PlackettLuce(mu=1500.0, sigma=500.0, beta=250.0, tau=5.0)


@pytest.fixture
def listed_from_the_first_match(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The server (started after this) lists players on the leaderboard from one match."""
    monkeypatch.setenv("LEADERBOARD_MIN_MATCHES", "1")
    yield


def sign_up(page: Any, handle: str) -> None:
    page.click("[data-testid=nav-account]")
    page.fill("#signup-handle", handle)
    page.fill("#signup-password", PASSWORD)
    page.click("[data-action=signup]")
    expect(page.locator(".profile-page h1")).to_contain_text(f"@{handle}")


def test_the_sign_up_form_says_why_a_password_is_refused(new_page: Any, watch: Watch) -> None:
    page = new_page("cleo", locale="de-DE")
    page.goto("/account")
    page.fill("#signup-handle", "cleo")
    page.fill("#signup-password", "password")
    watch.tolerate = True  # the refused password is a 422 on purpose
    page.click("[data-action=signup]")
    refusal = page.locator("#signup [data-testid=form-refusal]")
    expect(refusal).to_have_attribute("data-code", "weak_password")
    expect(refusal).to_contain_text("zu leicht zu erraten")
    watch.tolerate = False
    assert watch.tolerated and all("422" in p for p in watch.tolerated), watch.tolerated
    shot(page, "account-weak-password")
    page.fill("#signup-password", PASSWORD)
    page.click("[data-action=signup]")
    expect(page.locator(".profile-page h1")).to_contain_text("@cleo")


def test_a_guest_upgrades_plays_rated_and_finds_its_rating_from_another_browser(
    listed_from_the_first_match: None, new_page: Any
) -> None:
    # Anna plays as a guest first, then keeps it all as an account.
    anna = new_page("anna")
    anna.goto("/")
    anna.fill("#name", "Anna")
    anna.locator("form.who button[type=submit]").click()
    expect(anna.locator(".who")).to_contain_text("Anna")
    anna.click("[data-testid=nav-account]")
    expect(anna.locator("#signup")).to_be_visible()
    shot(anna, "account-upgrade")
    sign_up(anna, "anna")
    expect(anna.locator("[data-testid=nav-account]")).to_have_text("anna")

    # Bela signs up straight away (a guest is made for him on the way).
    bela = new_page("bela", locale="de-DE")
    bela.goto("/account")
    expect(bela.locator("#signup-title")).to_have_text("Konto anlegen")
    sign_up(bela, "bela")

    # A rated private table: Anna creates it, Bela comes by the invite link and resigns.
    anna.goto("/")
    anna.select_option("select[name=visibility]", "private")
    anna.select_option("select[name=rated]", "true")
    anna.click("[data-action=create]")
    link = anna.locator("#invite-link")
    expect(link).to_have_value(_has_invite())
    bela.goto(link.input_value())
    bela.locator(".join-form button[type=submit]").click()
    expect(bela.locator(".hand.mine .card")).to_have_count(6)
    bela.click("[data-action=resign]")
    bela.click("[data-action=resign-yes]")
    expect(anna.locator(".table-page")).to_contain_text("bela resigned")

    # A second browser: Anna signs in there and finds her profile and her new rating.
    [[won], [_lost]] = LIBRARY.rate([[LIBRARY.rating()], [LIBRARY.rating()]], ranks=[0, 1])
    elsewhere = new_page("anna-elsewhere", locale="it-IT")
    elsewhere.goto("/account")
    elsewhere.fill("#signin-handle", "ANNA")
    elsewhere.fill("#signin-password", PASSWORD)
    elsewhere.click("[data-action=signin]")
    rating = elsewhere.locator(".ratings li[data-family=sixty-six] .rating-value")
    expect(rating).to_contain_text(f"{round(won.mu)} ± {round(won.sigma)}")
    expect(elsewhere.locator(".profile-page h1")).to_contain_text("@anna")
    expect(elsewhere.locator(".stats")).to_contain_text("Vinte")
    expect(elsewhere.locator(".profile-page .matches li")).to_have_count(1)
    shot(elsewhere, "profile")

    # The leaderboard lists both, Anna first; her name leads to the same profile.
    elsewhere.click("#nav a[href='/leaderboard']")
    rows = elsewhere.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("anna")
    expect(rows.first).to_contain_text(str(round(won.mu)))
    expect(rows.nth(1)).to_contain_text("bela")
    shot(elsewhere, "leaderboard")
    rows.first.locator("a").click()
    expect(elsewhere.locator(".ratings li[data-family=sixty-six] .rating-value")).to_contain_text(
        str(round(won.mu))
    )

    # Signing out there leaves the first browser signed in.
    elsewhere.click("[data-testid=nav-account]")
    elsewhere.click("[data-action=signout]")
    expect(elsewhere.locator("#signin")).to_be_visible()
    anna.goto("/account")
    expect(anna.locator("[data-testid=signed-in]")).to_contain_text("anna")
