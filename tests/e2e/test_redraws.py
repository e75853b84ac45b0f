"""How the table page draws itself again from socket frames: a press is not lost to a frame that
arrives while the button is held (a button replaced between press and release gets no click),
and a burst of frames is drawn once, not once each."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, boxes
from tests.e2e.drive import Seat, live_table, play, take_seat


def press(page: Page, selector: str) -> None:
    """Hold the mouse down on the element (without releasing it). A frame drawn between
    measuring the element and pressing (a seat's presence, say) may have moved it; then
    the press missed, and it is made again where the element is now."""
    for _ in range(5):
        expect(page.locator(selector)).to_be_visible()
        [box] = boxes(page, selector)  # in one step: a redraw cannot come between
        if box is None:
            continue
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        if page.locator(f"{selector}:active").count() == 1:
            return
        page.mouse.up()
    raise AssertionError(f"every press missed {selector}")


def a_card(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A card played without a marriage (its words for screen readers: "... plays ...")."""
    return rng.choice([a for a in legal if a["type"] == "play" and not a.get("marriage")])


def bela_on_move(seats: list[Seat]) -> bool:
    return seats[0].to_move == 1


class Scene:
    """Anna's page at a live table, drawn, with Bela on move (her first game's hints shown)."""

    def __init__(self, new_page: Any, server: Server) -> None:
        self.url = server.url
        self.table, self.players = live_table(server.url)
        self.rng = random.Random(3)
        seats = play(self.url, self.table, self.players, self.rng, bela_on_move)
        self.version = seats[0].version
        self.anna = take_seat(new_page("anna"), self.table, self.players[0])
        self.drawn(self.version)

    def drawn(self, version: int) -> None:
        """Wait until Anna's page shows ``version``."""
        expect(self.anna.locator(".table-page")).to_have_attribute("data-version", str(version))

    def bela_plays(self) -> None:
        """Bela plays a card; return once Anna's page has taken it in (it tells screen
        readers at once, whether or not it may draw the table yet)."""
        version = self.version
        play(self.url, self.table, self.players, self.rng, lambda s: s[0].version > version, a_card)
        expect(self.anna.locator("#sr-live")).to_contain_text("Bela plays")


def test_a_button_held_while_the_opponent_moves_still_clicks(new_page: Any, server: Server) -> None:
    scene = Scene(new_page, server)
    anna, version = scene.anna, scene.version
    hints = anna.get_by_test_id("hints")
    press(anna, "[data-action=hints-done]")
    scene.bela_plays()  # before the release
    anna.mouse.up()
    expect(hints).to_have_count(0)
    # And the held redraw comes once the press is over.
    scene.drawn(version + 1)


COUNT_DRAWS = """() => {
  const root = document.querySelector('.table-page').parentElement;
  window.draws = 0;
  new MutationObserver((records) => {
    window.draws += records.filter((r) => r.target === root && r.removedNodes.length).length;
  }).observe(root, { childList: true });
}"""

BUSY_FOR_EIGHT_SECONDS = """() => setTimeout(() => {
  const end = Date.now() + 8000;
  while (Date.now() < end);
})"""


def test_a_burst_of_updates_is_drawn_once_not_once_each(new_page: Any, server: Server) -> None:
    table, players = live_table(server.url)
    anna = take_seat(new_page("anna"), table, players[0])
    rng = random.Random(4)
    anna.evaluate(COUNT_DRAWS)
    # The page's thread is busy for a while (as a slow phone's is), and ten moves arrive
    # meanwhile: once free, it must catch up with a draw or two, not ten.
    anna.evaluate(BUSY_FOR_EIGHT_SECONDS)
    seats = play(server.url, table, players, rng, lambda seats: seats[0].version >= 10)
    expect(anna.locator(".table-page")).to_have_attribute("data-version", str(seats[0].version))
    draws = anna.evaluate("() => window.draws")
    assert 1 <= draws <= 3, f"ten updates drawn {draws} times"


# A press, its release and the next press within one task of the page: the first release's
# end of its hold comes after the second press has begun (on a busy page, timers wait behind
# input). The second press must still hold the page's redraws.
PRESS_RELEASE_PRESS = """() => {
  const button = document.querySelector('[data-action=hints-done]');
  button.dataset.pressed = 'twice';
  const pointer = { bubbles: true, pointerId: 1, isPrimary: true, pointerType: 'mouse' };
  button.dispatchEvent(new PointerEvent('pointerdown', pointer));
  button.dispatchEvent(new PointerEvent('pointerup', pointer));
  button.dispatchEvent(new PointerEvent('pointerdown', pointer));
}"""

TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def test_a_second_press_is_not_ended_by_the_first_release(new_page: Any, server: Server) -> None:
    scene = Scene(new_page, server)
    anna, version = scene.anna, scene.version
    anna.evaluate(PRESS_RELEASE_PRESS)
    scene.bela_plays()
    anna.evaluate(TWO_FRAMES)
    # Still the pressed button: the update's redraw waits for the second press's release.
    expect(anna.locator("[data-pressed=twice]")).to_have_count(1)
    scene.drawn(version)
    anna.evaluate("() => document.dispatchEvent(new PointerEvent('pointerup', { bubbles: true }))")
    scene.drawn(version + 1)
    expect(anna.locator("[data-pressed=twice]")).to_have_count(0)
