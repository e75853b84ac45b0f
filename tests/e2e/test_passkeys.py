"""Passkeys in a real browser, with Chromium's virtual authenticator: an account adds a passkey
on its account page, and a second browser holding the same passkey signs in with it, without a
password or even a handle.

WebAuthn needs a secure page, so this server is reached at http://localhost (its PUBLIC_URL,
hence the relying-party id ``localhost``), not at 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server, serve, shot

PASSWORD = "a long enough secret"
AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """The test server, as pages reach it: by the name ``localhost``."""
    yield from serve(tmp_path, monkeypatch, "localhost")


def authenticator(page: Any) -> tuple[Any, str]:
    """A virtual platform authenticator in the page's browser context: the DevTools session
    and the authenticator's id."""
    devtools = page.context.new_cdp_session(page)
    devtools.send("WebAuthn.enable")
    added = devtools.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return devtools, added["authenticatorId"]


def test_a_passkey_added_in_one_browser_signs_in_in_another(new_page: Any) -> None:
    anna = new_page("anna")
    devtools, first = authenticator(anna)
    anna.goto("/account")
    anna.fill("#signup-handle", "anna")
    anna.fill("#signup-password", PASSWORD)
    anna.click("[data-action=signup]")
    expect(anna.locator(".profile-page h1")).to_contain_text("@anna")

    anna.click("[data-testid=nav-account]")
    expect(anna.locator(".passkeys")).to_contain_text("No passkey yet.")
    anna.click("[data-action=passkey-add]")
    expect(anna.locator(".passkey-list li")).to_have_count(1)
    expect(anna.locator(".passkey-list li")).to_contain_text("not used yet")
    shot(anna, "account-passkeys")
    [held] = devtools.send("WebAuthn.getCredentials", {"authenticatorId": first})["credentials"]
    assert held["isResidentCredential"] and held["rpId"] == "localhost"

    # Another browser holding the same passkey (as a synced one would be): no handle typed.
    elsewhere = new_page("anna-elsewhere", locale="de-DE")
    devtools, second = authenticator(elsewhere)
    devtools.send("WebAuthn.addCredential", {"authenticatorId": second, "credential": held})
    elsewhere.goto("/account")
    expect(elsewhere.locator("[data-action=passkey-signin]")).to_have_text("Mit Passkey anmelden")
    shot(elsewhere, "passkey-sign-in")
    elsewhere.click("[data-action=passkey-signin]")
    expect(elsewhere.locator(".profile-page h1")).to_contain_text("@anna")
    elsewhere.click("[data-testid=nav-account]")
    expect(elsewhere.locator("[data-testid=signed-in]")).to_contain_text("anna")
    expect(elsewhere.locator(".passkey-list li")).to_contain_text("zuletzt benutzt")

    # Removed in the first browser: that list is empty again.
    anna.reload()
    anna.click("[data-action=passkey-remove]")
    expect(anna.locator(".passkeys")).to_contain_text("No passkey yet.")
