"""Cards move (unless the player asked for reduced motion), sounds are there when wanted, a
finished trick stays readable when the next card follows at once, and the summary and the
replay list every trick of the deal."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import Server, Watch, boxes, shot
from tests.e2e.drive import Seat, event_seen, live_table, never, play, take_seat

Opener = Callable[[str], Page]


@pytest.fixture
def anna_page(browser: Browser, server: Server, watch: Watch) -> Iterator[Opener]:
    """``anna_page(reduced_motion)``: Anna's page in a fresh context with that preference."""
    contexts = []

    def make(reduced_motion: str) -> Page:
        context = browser.new_context(
            base_url=server.url,
            locale="en-GB",
            viewport={"width": 1366, "height": 768},
            reduced_motion=reduced_motion,  # type: ignore[arg-type]
        )
        contexts.append(context)
        return watch.page(context.new_page(), f"anna ({reduced_motion})")

    yield make
    for context in contexts:
        context.close()


def bela_played(seats: list[Seat]) -> bool:
    return any(e["type"] == "card_played" and e["seat"] == 1 for e in seats[0].events)


# The animation of the card that just arrived on the trick, read in one step: a locator's
# evaluate finds the element first and reads it after, and a redraw in between (a presence
# frame) leaves it a detached element, whose computed style is empty.
ARRIVED_ANIMATION = """() => {
  const card = document.querySelector('.trick .card.arrive');
  return card && getComputedStyle(card).animationName;
}"""


@pytest.mark.parametrize(("preference", "moves"), [("no-preference", True), ("reduce", False)])
def test_a_card_played_moves_in_unless_motion_is_reduced(
    anna_page: Opener, server: Server, preference: str, moves: bool
) -> None:
    table, players = live_table(server.url)
    anna = take_seat(anna_page(preference), table, players[0])
    anna.evaluate("localStorage.setItem('talon.sound', '1')")
    play(server.url, table, players, random.Random(1), bela_played)
    expect(anna.locator(".trick .card.arrive")).to_have_count(1)
    name = anna.wait_for_function(ARRIVED_ANIMATION).json_value()
    assert (name == "arrive-top") if moves else (name == "none"), name
    made = anna.evaluate("import('/js/sounds.js').then(m => m.soundsMade())")
    assert made >= 1, "sound is on, yet Bela's card made no sound"


def test_no_sound_unless_switched_on(new_page: Any, server: Server) -> None:
    table, players = live_table(server.url)
    anna = take_seat(new_page("anna"), table, players[0])
    expect(anna.locator("#sound")).not_to_be_checked()
    play(server.url, table, players, random.Random(1), bela_played)
    expect(anna.locator(".trick .card")).not_to_have_count(0)
    assert anna.evaluate("import('/js/sounds.js').then(m => m.soundsMade())") == 0
    anna.check("#sound")
    assert anna.evaluate("localStorage.getItem('talon.sound')") == "1"


def test_a_finished_trick_stays_in_view_when_the_next_card_follows_at_once(
    new_page: Any, server: Server
) -> None:
    table, players = live_table(server.url)
    anna = take_seat(new_page("anna"), table, players[0])
    # Play on until a trick is won and the next card is led right after it.
    rng = random.Random(3)
    seats = play(server.url, table, players, rng, event_seen("trick_won"))
    trick = next(e["cards"] for e in seats[0].events if e["type"] == "trick_won")
    play(server.url, table, players, rng, event_seen("card_played"))
    peek = anna.get_by_test_id("peek")
    expect(peek).to_be_visible()
    shown = peek.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert shown == [c["card"] for c in trick]
    # It shows for 2.5 s: one look at each screen size, no more, while it is there.
    for size in ({"width": 1366, "height": 768}, {"width": 390, "height": 844}):
        anna.set_viewport_size(size)
        held, playing = boxes(anna, "[data-testid=peek]", ".trick .card")
        assert held and playing
        apart = (
            held["x"] + held["width"] <= playing["x"]
            or playing["x"] + playing["width"] <= held["x"]
            or held["y"] + held["height"] <= playing["y"]
            or playing["y"] + playing["height"] <= held["y"]
        )
        assert apart, f"the held trick covers the card being played at {size}"
    shot(anna, "held-trick-phone", full_page=False)
    expect(peek).to_be_hidden(timeout=5000)


def test_the_summary_and_the_replay_list_every_trick_of_the_deal(
    new_page: Any, server: Server
) -> None:
    table, players = live_table(server.url, target=1)
    anna = take_seat(new_page("anna", width=1366, height=768), table, players[0])
    seats = play(server.url, table, players, random.Random(9), never)
    result = next(e["result"] for e in seats[0].events if e["type"] == "deal_over")
    tricks = sum(result["tricks"]) + left_open(seats[0].events)
    expect(anna.get_by_test_id("trick-list").locator("li")).to_have_count(tricks)
    shot(anna, "summary-every-trick", full_page=False)
    anna.reload()  # the match is over: the welcome alone tells the last deal's tricks
    expect(anna.get_by_test_id("trick-list").locator("li")).to_have_count(tricks)

    match = httpx.get(f"{server.url}/api/tables/{table['id']}").json()["match_id"]
    anna.goto(f"/history/{match}")
    expect(anna.locator(".table-page.replay")).to_be_visible()
    anna.keyboard.press("PageDown")  # to the end of the (only) deal
    expect(
        anna.locator(".replay-summary").get_by_test_id("trick-list").locator("li")
    ).to_have_count(tricks)
    shot(anna, "replay-every-trick", full_page=False)


def left_open(events: list[dict[str, Any]]) -> int:
    """1 if the first deal ended with cards on the table that no trick took (a marriage led to
    66), else 0."""
    ended = next(i for i, e in enumerate(events) if e["type"] == "deal_over")
    for e in reversed(events[:ended]):
        if e["type"] == "trick_won":
            return 0
        if e["type"] == "card_played":
            return 1
    return 0


def test_the_summary_lists_a_trick_the_end_of_the_deal_left_open(
    new_page: Any, server: Server
) -> None:
    """A marriage led to 66 ends the deal with its card on the table and the next deal folded
    in at once: the summary still shows that card, as a trick nobody took."""
    page = new_page("anna")
    page.goto("/")
    won = {"winner": 1, "cards": [{"seat": 1, "card": "AH"}, {"seat": 0, "card": "KD"}]}
    led = [
        {"type": "card_played", "seat": 1, "card": "QS"},
        {"type": "marriage_declared", "seat": 1, "suit": "S", "points": 20, "shown": "KS"},
        {"type": "deal_over"},
        {"type": "deal_started", "deal_no": 2},
        {"type": "card_played", "seat": 0, "card": "9H"},
    ]
    taken = [
        {"type": "card_played", "seat": 0, "card": "TS"},
        {
            "type": "trick_won",
            "seat": 0,
            "cards": [{"seat": 1, "card": "QS"}, {"seat": 0, "card": "TS"}],
        },
        {"type": "deal_over"},
    ]
    tricks = page.evaluate(
        """([won, led, taken]) => import('/js/summary.js').then((m) => [
             m.endedDealTricks({ tricks: [won], trick: [] }, led),
             m.endedDealTricks({ tricks: [won], trick: [{ seat: 1, card: "QS" }] }, taken),
             m.endedDealTricks({ tricks: [won], trick: [{ seat: 1, card: "QS" }] }, []),
           ])""",
        [won, led, taken],
    )
    assert tricks[0] == [won, {"winner": None, "cards": [{"seat": 1, "card": "QS"}]}]
    assert tricks[1] == [won, {"winner": 0, "cards": taken[1]["cards"]}]
    # A reload after the match's end: the view alone, its open trick included.
    assert tricks[2] == tricks[0]
    listed = page.evaluate(
        """(tricks) => import('/js/summary.js')
             .then((m) => m.trickList(tricks, ["Anna", "Bela"]).textContent)""",
        tricks[0],
    )
    assert "The deal ended before this trick was won" in listed, listed
