"""Close and claim cannot be taken back: the page says what is at stake and asks first; the deal
summary explains every game-point value, a failed close included."""

from __future__ import annotations

import random
import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, shot
from tests.e2e.drive import live_table, may, play, take_seat

LANGUAGES = ["en", "de", "pl", "it", "es"]


def open_as_anna(new_page: Any, server: Server, **options: Any) -> tuple[Page, dict[str, Any]]:
    """Anna's page at a live table where she may close (or claim, in manual mode) now."""
    table, players = live_table(server.url, **options)
    kind = "claim" if options.get("claim") == "manual" else "close"
    play(server.url, table, players, random.Random(4), may(0, kind))
    anna = take_seat(new_page("anna", width=1366, height=768), table, players[0])
    expect(anna.locator(f"[data-action={kind}]")).to_be_visible()
    return anna, {"table": table, "players": players}


def test_closing_says_what_is_at_stake_and_asks_first(new_page: Any, server: Server) -> None:
    anna, _ = open_as_anna(new_page, server)
    version = anna.locator(".table-page").get_attribute("data-version")
    anna.click("[data-action=close]")
    stake = anna.get_by_test_id("stake")
    expect(stake).to_contain_text("If you do not, Bela scores 2 game points, or 3 if Bela")
    shot(anna, "close-confirm", full_page=False)
    anna.click("[data-action=confirm-no]")
    expect(stake).to_have_count(0)
    expect(anna.locator(".table-page")).to_have_attribute("data-version", version or "")

    anna.click("[data-action=close]")
    anna.check("#skip-confirm")
    anna.click("[data-action=confirm-yes]")
    expect(anna.locator(".closed-mark")).to_be_visible()
    skipped = anna.evaluate("JSON.parse(localStorage.getItem('talon.skipConfirm'))")
    assert list(skipped.values()) == [["close"]]


def test_the_stake_follows_the_tables_close_fail_rule(new_page: Any, server: Server) -> None:
    anna, _ = open_as_anna(new_page, server, close_fail="closer_minus_3")
    anna.select_option("#language", "de")
    anna.click("[data-action=close]")
    expect(anna.get_by_test_id("stake")).to_contain_text("verlierst du 3 Gewinnpunkte")


def test_a_manual_claim_is_confirmed_and_its_button_is_not_the_bright_one(
    new_page: Any, server: Server
) -> None:
    anna, _ = open_as_anna(new_page, server, claim="manual")
    claim = anna.locator("[data-action=claim]")
    expect(claim).not_to_have_class(re.compile(r"\bprimary\b"))
    claim.click()
    expect(anna.get_by_test_id("stake")).to_contain_text("Claiming 66 ends the deal")
    anna.click("[data-action=confirm-yes]")
    expect(anna.get_by_test_id("summary")).to_be_visible()
    # Anna claimed with nothing in hand yet: the summary blames her, not Bela who won the deal.
    expect(anna.locator(".why")).to_contain_text("Anna claimed 66 without having it.")
    expect(anna.locator(".why")).to_contain_text("points for Bela")
    shot(anna, "wrong-claim-summary", full_page=False)


# (termination, winner, closed_by, game points, options): every way a deal can be valued.
RESULTS = [
    ("reached_66", 0, None, [1, 0], {}),
    ("reached_66", 0, None, [2, 0], {}),
    ("reached_66", 0, None, [3, 0], {}),
    ("reached_66", 0, None, [3, 0], {"schwarz": "zero_points"}),
    ("claim", 1, None, [0, 2], {}),
    ("last_trick", 0, None, [1, 0], {}),
    ("last_trick", 0, None, [2, 0], {}),
    ("closed", 0, 0, [1, 0], {}),
    ("closed", 0, 0, [2, 0], {}),
    ("closed", 0, 0, [3, 0], {}),
    ("close_failed", 1, 0, [0, 2], {"close_fail": "opponent_2_or_3"}),
    ("close_failed", 1, 0, [0, 3], {"close_fail": "opponent_2_or_3"}),
    ("close_failed", 1, 0, [-3, 0], {"close_fail": "closer_minus_3"}),
    ("close_failed", 1, 0, [0, 2], {"close_fail": "closer_value_min_2"}),
    ("close_failed", 1, 0, [0, 3], {"close_fail": "closer_value_min_2"}),
    ("wrong_claim", 1, None, [0, 2], {"wrong_claim": "opponent_2_or_3"}),
    ("wrong_claim", 1, None, [0, 3], {"wrong_claim": "opponent_2_or_3"}),
    ("wrong_claim", 1, None, [0, 1], {"wrong_claim": "claimer_value"}),
]

WHY = """async ([results, language]) => {
  const { setLang } = await import('/js/i18n.js');
  const { why } = await import('/js/summary.js');
  setLang(language);
  const base = { close_fail: 'opponent_2_or_3', wrong_claim: 'opponent_2_or_3' };
  return results.map(([termination, winner, closed_by, game_points, options]) => {
    const result = { termination, winner, closed_by, game_points };
    return why(result, ['Anna', 'Bela'], { schwarz: 'no_tricks', ...base, ...options });
  });
}"""


def test_the_why_names_the_rule_behind_every_game_point_value(new_page: Any) -> None:
    page = new_page("reader")
    page.goto("/")
    for language in LANGUAGES:
        texts = page.evaluate(WHY, [RESULTS, language])
        for (termination, _, _, points, _), text in zip(RESULTS, texts, strict=True):
            case = f"{language} {termination} {points}: {text}"
            assert not re.search(r"\b[a-z]+_[a-z0-9_]+\b", text), "an untranslated key: " + case
            value = max(points, key=abs)
            assert str(abs(value)) in text.split(".", 1)[1] or value == 1, case
            assert text.count(".") >= 2, "no sentence for the value: " + case
            if termination == "close_failed":  # Anna closed and failed
                assert "Anna" in text and ("Bela" in text or points[0] < 0), case


# Results whose sentence needs more than the termination: the server's ``played_out``, the
# sides of a partnership (four seats), a bid: (seats, result, what it says, what it must not).
SIDES = [
    (
        2,
        {"termination": "last_trick", "winner": 0, "game_points": [1, 0], "played_out": True},
        ["Nobody reached 66", "played out"],
        ["Anna reached 66"],
    ),
    (
        2,
        {"termination": "last_trick", "winner": 0, "game_points": [1, 0]},
        ["Anna reached 66 with the last trick", "33 or more"],
        ["Nobody", "played out"],
    ),
    (
        2,
        {"termination": "last_trick", "winner": 1, "game_points": [0, 2]},
        ["Bela reached 66 with the last trick", "under 33"],
        ["Nobody"],
    ),
    (
        3,
        {"termination": "void", "winner": None, "game_points": [0, 0, 0]},
        ["nobody reached 66", "does not count"],
        ["?"],
    ),
    (
        4,
        {"termination": "all_passed", "winner": None, "game_points": [0, 0]},
        ["Everybody passed"],
        ["?"],
    ),
    (
        4,
        {
            "termination": "bid_made",
            "winner": 1,
            "game_points": [1, 3],
            "bid": {"seat": 3, "level": 3},
        },
        ["Dora's side made its bid of 3", "3 points", "Anna & Carla scores 1"],
        ["?"],
    ),
    (
        4,
        {
            "termination": "bid_failed",
            "winner": 1,
            "game_points": [-2, 0],
            "bid": {"seat": 2, "level": 2},
        },
        ["Carla's side did not make its bid of 2", "Anna & Carla loses 2"],
        ["?"],
    ),
    (
        4,
        {"termination": "reached_66", "winner": 1, "game_points": [0, 2]},
        ["Bela & Dora reached 66", "under 33"],
        ["?"],
    ),
    (  # the claimer is the seat the server names, not one of the winner's side
        3,
        {"termination": "wrong_claim", "winner": 2, "claimed": 0, "game_points": [0, 0, 2]},
        ["Anna claimed 66 without having it", "2 points for Carla"],
        ["Carla claimed", "Bela"],
    ),
    (
        4,
        {"termination": "wrong_claim", "winner": 0, "claimed": 3, "game_points": [2, 0]},
        ["Dora claimed 66 without having it", "2 points for Anna & Carla"],
        ["Anna & Carla claimed"],
    ),
    (
        3,
        {"termination": "claim", "winner": 1, "claimed": 1, "game_points": [0, 1, 0]},
        ["Bela claimed 66 correctly"],
        ["?"],
    ),
]

SIDE_WHY = """async (cases) => {
  const { setLang } = await import('/js/i18n.js');
  const { why } = await import('/js/summary.js');
  const { sideNames } = await import('/js/board.js');
  setLang('en');
  const rules = { schwarz: 'no_tricks', close_fail: 'opponent_2_or_3' };
  return cases.map(([seats, r]) => {
    const names = ['Anna', 'Bela', 'Carla', 'Dora'].slice(0, seats);
    const sides = sideNames({ sides: seats === 4 ? [0, 1, 0, 1] : undefined }, names);
    return why({ closed_by: null, ...r }, names, rules, sides);
  });
}"""


def test_the_why_follows_the_server_s_reason_and_sides(new_page: Any) -> None:
    """The last trick's point is the played-out rule's only when the server says so, and a
    partnership's result names both partners (the winner and game points are per side)."""
    page = new_page("reader")
    page.goto("/")
    texts = page.evaluate(SIDE_WHY, [[seats, result] for seats, result, _, _ in SIDES])
    for (_, result, says, never_says), text in zip(SIDES, texts, strict=True):
        for words in says:
            assert words in text, f"{result}: {text}"
        for words in never_says:
            assert words not in text, f"{result}: {text}"
        assert not re.search(r"\b[a-z]+_[a-z0-9_]+\b", text), f"an untranslated key: {text}"


def test_a_resignation_names_the_seat_the_result_says_resigned(new_page: Any) -> None:
    """The client counts no seats: with three players the one who resigned need not sit
    next to the winner."""
    page = new_page("reader")
    page.goto("/")
    text = page.evaluate(
        """async () => {
      const { setLang } = await import('/js/i18n.js');
      const { why } = await import('/js/summary.js');
      setLang('en');
      const result = { termination: 'resign', winner: 1, resigned: 0, closed_by: null,
                       game_points: [0, 0, 0] };
      return why(result, ['Anna', 'Bela', 'Carla'], {});
    }"""
    )
    assert text.startswith("Anna resigned."), text
