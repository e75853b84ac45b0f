"""Every string of the client exists in each of the five languages."""

from __future__ import annotations

from typing import Any


def test_every_language_has_every_string(new_page: Any) -> None:
    page = new_page("reader")
    page.goto("/")
    missing = page.evaluate("import('/js/i18n.js').then(m => m.missingKeys())")
    assert set(missing) == {"en", "de", "pl", "it", "es"}
    assert {language: keys for language, keys in missing.items() if keys} == {}
