"""Refusals reach players in their language: every error code has a sentence in each of the
five languages; a wrong invite link and a missing replay say so plainly and offer a way back."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import Server, Watch
from tests.e2e.drive import live_table

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["en", "de", "pl", "it", "es"]
CODE = r"([a-z]+(?:_[a-z]+)*)"
RAISED = re.compile(
    r"\b(?:Invalid|Unauthorized|Forbidden|NotFound|Conflict|Unavailable|ServiceError|RateLimited"
    rf"|ActionRejected|IllegalAction|error_frame|__init__)\(\s*\"{CODE}\""
)
RESPONSE = re.compile(rf"error_response\(\s*\d+,\s*\"{CODE}\"")
ASSIGNED = re.compile(rf"\bcode = \"{CODE}\"(?: if .* else \"{CODE}\")?")
HTTP_CODE = re.compile(rf"^\s+\d{{3}}: \"{CODE}\",$", re.M)
ENUM_MEMBER = re.compile(rf"^\s+[A-Z_]+ = \"{CODE}\"$", re.M)  # app.engine.Illegal


def codes_in_the_code() -> set[str]:
    """Every error code the server's source can send."""
    found: set[str] = set()
    for path in (ROOT / "app").rglob("*.py"):
        text = path.read_text()
        found |= set(RAISED.findall(text)) | set(RESPONSE.findall(text))
        found |= {c for pair in ASSIGNED.findall(text) for c in pair if c}
        found |= set(HTTP_CODE.findall(text)) if path.name == "errors.py" else set()
        found |= set(ENUM_MEMBER.findall(text)) if path.name == "errors.py" else set()
    return found


def codes_in_the_protocol() -> set[str]:
    """Every error code docs/protocol.md names in its REST table and its WebSocket errors."""
    found: set[str] = set()
    for line in (ROOT / "docs" / "protocol.md").read_text().splitlines():
        cells = re.sub(r"\([^()]*\)", "", line).split("|")  # asides name fields, not codes
        if line.startswith("| `GET") or line.startswith("| `POST"):
            found |= set(re.findall(rf"`{CODE}`", cells[3]))
        elif line.startswith("| `") and len(cells) == 4:  # | `code` | when |
            found |= set(re.findall(rf"`{CODE}`", cells[1]))
        elif line.startswith("| engine codes"):
            found |= set(re.findall(rf"`{CODE}`", cells[2]))
    return found


def test_the_code_collection_finds_the_known_codes() -> None:
    code, docs = codes_in_the_code(), codes_in_the_protocol()
    assert {"must_follow_suit", "bad_invite_code", "validation_error", "not_found"} <= code
    assert {"must_follow_suit", "bad_invite_code", "stale_version", "rate_limited"} <= docs


def test_every_error_code_has_a_sentence_in_every_language(new_page: Any) -> None:
    codes = sorted(codes_in_the_code() | codes_in_the_protocol() | {"http_error"})
    page = new_page("reader")
    page.goto("/")
    missing = page.evaluate(
        """async ([codes, languages]) => {
          const { setLang, t } = await import('/js/i18n.js');
          const missing = [];
          for (const language of languages) {
            setLang(language);
            for (const code of codes) {
              if (t(`err_${code}`) === `err_${code}`) missing.push(`${language}: ${code}`);
            }
          }
          setLang('en');
          return missing;
        }""",
        [codes, LANGUAGES],
    )
    assert missing == [], missing


def test_a_wrong_invite_link_says_so_and_offers_the_lobby(
    new_page: Any, server: Server, watch: Watch
) -> None:
    anna = httpx.post(f"{server.url}/api/players", json={"name": "Anna"}).json()
    table = httpx.post(
        f"{server.url}/api/tables",
        json={"variant": "sixty-six", "options": {}, "visibility": "private"},
        headers={"Authorization": f"Bearer {anna['token']}"},
    ).json()
    bela = new_page("bela", locale="de-DE")
    bela.goto(f"/t/{table['id']}?invite=wrong")
    bela.fill("#join-name", "Bela")
    watch.tolerate = True  # the refused join is a 403 on purpose
    bela.locator(".join-form button[type=submit]").click()
    panel = bela.get_by_test_id("bad-invite")
    expect(panel).to_contain_text("Dieser Einladungslink funktioniert nicht")
    watch.tolerate = False
    assert all("403" in p for p in watch.tolerated), watch.tolerated
    panel.locator("a[href='/']").click()
    expect(bela.locator("#computer-title")).to_be_visible()


def test_a_missing_replay_says_so_in_the_players_language_with_a_way_back(
    new_page: Any, server: Server, watch: Watch
) -> None:
    live_table(server.url)  # a match exists, but not this one
    page = new_page("anna", locale="it-IT")
    watch.tolerate = True
    page.goto("/history/99999")
    problem = page.get_by_test_id("replay-problem")
    expect(problem).to_contain_text("Questa partita non esiste.")
    expect(problem).not_to_contain_text("no such match")
    watch.tolerate = False
    assert all("404" in p for p in watch.tolerated), watch.tolerated
    problem.locator("a[href='/history']").click()
    expect(page.locator(".history h1")).to_be_visible()


def test_an_unknown_table_says_so_with_a_way_back(
    new_page: Any, server: Server, watch: Watch
) -> None:
    page = new_page("anna", locale="de-DE")
    watch.tolerate = True  # the table's 404 is the point
    page.goto("/t/no-such-table")
    expect(page.locator("main h1")).to_have_text("Diesen Tisch gibt es nicht.")
    watch.tolerate = False
    assert watch.tolerated and all("404" in p for p in watch.tolerated), watch.tolerated
    page.locator("main a[href='/']").click()
    expect(page.locator("#computer-title")).to_be_visible()
