"""Tables of three and four in a real browser: the felt drawn for every seat count, a whole
three-hand deal against two computer players, and four-hand bidding with a human partner."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import shot
from tests.e2e.play import dismiss_summary, play_card, summary_shown, turn_of, version_of
from tests.support import Client, in_thread


def wait_for_move(page: Page, before: int) -> None:
    """Wait for the table to move on from version ``before`` (read with the turn: turn_of)."""
    expect(page.locator(".table-page")).not_to_have_attribute(
        "data-version", str(before), timeout=30_000
    )


# Pressed and measured in one step in the page: a computer player's move redraws the middle
# (two separate reads can fall on either side of a redraw), and a claim can end the deal and
# take the last trick (and its button) away in between.
PEEK_AND_MEASURE = """() => {
    const button = document.querySelector("button[aria-pressed]");
    if (button && button.getAttribute("aria-pressed") === "false") button.click();
    const box = (el) => el && el.getClientRects().length ? el.getBoundingClientRect() : null;
    const peek = box(document.querySelector("[data-testid=peek]"));
    const label = box(document.querySelector(".trump-label"));
    return peek && label ? {peek: peek.toJSON(), label: label.toJSON()} : null;
}"""


def open_the_peek_narrow(page: Page) -> dict[str, Any] | None:
    """At a narrow width (the middle squeezed between the seats), open the last trick's peek;
    where the peek and the trump's label are then, or None if the deal moved on meanwhile.
    Clicked in the page: at this width the turn's sticky buttons can sit over the peek's
    button wherever Playwright would scroll it to."""
    page.set_viewport_size({"width": 600, "height": 900})
    try:
        found: dict[str, Any] = page.wait_for_function(
            PEEK_AND_MEASURE, timeout=10_000
        ).json_value()
    except PlaywrightTimeout:
        return None
    return found


# Every whole trick of three the page draws, from now on: the side each of its cards came
# from, noted at each change of the page (a whole trick is in view only until the next lead,
# which a computer player makes after its pause: a look between two moves of the test can
# come too late on a busy machine).
WATCH_TRICKS = """() => {
    window.wholeTricks = [];
    const look = () => {
        const cards = [...document.querySelectorAll(".trick .card")];
        if (cards.length !== 3) return;
        const sides = cards.map((c) => [...c.classList].find((k) => k.startsWith("from-")));
        window.wholeTricks.push(sides.sort().join(" "));
    };
    new MutationObserver(look).observe(document.body, {
        childList: true, subtree: true, attributes: true,
    });
    look();
}"""


def act(page: Page, rng: random.Random) -> None:
    """One legal thing for the player on move: a bid or pass in the bidding, else a card (a
    deal summary still open is closed first: everybody may have passed)."""
    dismiss_summary(page)
    bids = page.locator("[data-testid=bidding] button")
    if bids.count():
        bids.nth(rng.randrange(bids.count())).click()
        return
    legal = page.locator(".hand.mine .card[data-legal=true]")
    count = legal.count()
    assert count > 0, "the player on move has no legal card"
    play_card(page, legal.nth(rng.randrange(count)))


def test_a_three_hand_deal_against_two_computer_players(new_page: Any) -> None:
    page = new_page("anna")
    page.goto("/")
    page.fill("#name", "Anna")
    page.select_option("select[name=variant]", "three-hand")
    expect(page.locator("select[name=close_fail]")).to_have_count(0)  # no stock to close
    page.click("[data-action=play-computer][data-level=easy]")
    expect(page.locator(".table-page")).to_be_visible()
    felt = page.locator(".felt.seats-3")
    expect(felt.locator(".seat")).to_have_count(3)
    expect(felt.locator(".seat-left")).to_contain_text("Computer 1 (Easy)")
    expect(felt.locator(".seat-right")).to_contain_text("Computer 2 (Easy)")
    expect(page.locator(".hand.mine .card")).to_have_count(8, timeout=15_000)
    page.set_viewport_size({"width": 1366, "height": 768})
    shot(page, "three-hand-desktop", full_page=False)
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "three-hand-phone", full_page=False)
    page.set_viewport_size({"width": 1366, "height": 768})
    rng = random.Random(3)
    page.evaluate(WATCH_TRICKS)
    played = 0
    for _ in range(120):
        if summary_shown(page):
            break
        before, mine = turn_of(page)
        if mine:
            act(page, rng)
            played += 1
        wait_for_move(page, before)
    assert summary_shown(page), "the three-hand deal did not end"
    # The earliest a deal can end: a marriage of 40 and two tricks (the deals are random).
    assert played >= 2
    # Each whole trick drawn: every card lies on its own player's side.
    tricks = set(page.evaluate("() => window.wholeTricks"))
    assert tricks == {"from-bottom from-left from-right"}, tricks
    summary = page.get_by_test_id("summary")
    expect(summary.locator("table.summary thead th")).to_have_count(4)  # a column per seat
    shot(page, "three-hand-deal-over")
    dismiss_summary(page)


def test_four_hand_bidding_with_a_human_partner(new_page: Any, server: Any) -> None:
    """Anna and her partner Bela (a second browser) against two computer players: the
    bidding panel offers the server's levels, every call shows in both browsers, and the
    winner of the bidding leads the first tricks."""
    with httpx.Client(base_url=server.url, timeout=10, verify=False) as http:
        anna_id = http.post("/api/players", json={"name": "Anna"}).json()
        bela_id = http.post("/api/players", json={"name": "Bela"}).json()
        table = http.post(
            "/api/tables",
            headers={"Authorization": f"Bearer {anna_id['token']}"},
            json={
                "variant": "four-hand",
                "options": {},
                "visibility": "private",
                "bots": {"1": "medium", "3": "medium"},
            },
        ).json()
        joined = http.post(
            f"/api/tables/{table['id']}/join",
            headers={"Authorization": f"Bearer {bela_id['token']}"},
            json={"invite_code": table["invite_code"]},
        )
        assert joined.status_code == 200, joined.text
    pages = {}
    for who, player, locale, width, height in (
        ("anna", anna_id, "en-GB", 1366, 768),
        ("bela", bela_id, "de-DE", 390, 844),  # Bela plays on a phone
    ):
        page = new_page(who, locale=locale, width=width, height=height)
        identity = {"id": player["id"], "name": player["name"], "token": player["token"]}
        page.add_init_script(f"localStorage.setItem('talon.player', '{json.dumps(identity)}')")
        page.goto(f"/t/{table['id']}")
        expect(page.locator(".felt.seats-4 .seat")).to_have_count(4)
        pages[who] = page
    anna, bela = pages["anna"], pages["bela"]
    watcher = new_page("cora")
    watcher.goto(f"/t/{table['id']}?invite={table['invite_code']}")
    expect(watcher.get_by_test_id("watching")).to_be_visible()
    # Partners sit across from each other; the computer players left and right.
    expect(anna.locator(".seat-top")).to_contain_text("Bela")
    expect(bela.locator(".seat-top")).to_contain_text("Anna")
    expect(anna.locator(".seat-left")).to_contain_text("Computer")
    rng = random.Random(4)
    saw_panel = False
    for _ in range(1200):
        # Done once the bidding a human took part in is over and the first card is on the
        # table. A computer player in forehand may call Luna before any human is asked: then
        # the deal is played out and the next one bid.
        if saw_panel and anna.locator(".high-bid").count() and anna.locator(".trick .card").count():
            break
        page = next((p for p in (anna, bela) if turn_of(p)[1]), None)
        if page is None:  # a computer player is thinking
            anna.wait_for_timeout(100)
            continue
        panel = page.get_by_test_id("bidding")
        if panel.count():
            if not saw_panel:
                shot(page, "four-hand-bidding", full_page=False)
                saw_panel = True
            # The levels offered are those above the bid that stands, each with its goal.
            levels = panel.locator("[data-action=bid]").evaluate_all(
                "bs => bs.map(b => Number(b.dataset.level))"
            )
            assert levels and levels == list(range(levels[0], 6))
            expect(panel.locator("[data-action=bid]").first).to_contain_text(
                "Luna" if levels[0] == 5 else str(33 * levels[0])
            )
        before = version_of(page)
        act(page, rng)
        expect(page.locator(".table-page")).not_to_have_attribute("data-version", str(before))
    assert saw_panel, "no human was asked to bid"
    expect(anna.locator(".high-bid")).to_be_visible()
    # Both partners read the same calls, in their own languages.
    calls = anna.get_by_test_id("bids").locator("li")
    expect(bela.get_by_test_id("bids").locator("li")).to_have_count(calls.count())
    assert calls.count() >= 1
    shot(anna, "four-hand-play", full_page=False)
    # The spectator's page against the server's truth for a spectator, at the same version:
    # once a human is on move, nothing changes until they act.
    for _ in range(300):
        if turn_of(anna)[1] or turn_of(bela)[1]:
            break
        anna.wait_for_timeout(100)
    now = max(version_of(anna), version_of(bela))
    expect(watcher.locator(".table-page")).to_have_attribute("data-version", str(now))
    truth = in_thread(lambda: asyncio.run(spectator_view(server.url, table)))
    assert truth["version"] == now
    seen = truth["view"]
    expect(watcher.locator(".hand.mine, .hand.open")).to_have_count(0)  # no face-up hand
    for seat in range(4):
        count = watcher.locator(f".seat[data-seat='{seat}'] .hand .count")
        if seat == seen["sitting_out"]:
            expect(count).to_have_count(0)
        else:
            expect(count).to_have_text(str(seen["hand_counts"][seat]))
    trick = watcher.locator(".trick .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    # Between tricks the finished one stays in the middle until the next card is led.
    shown = seen["trick"] or (seen["last_trick"] or {"cards": []})["cards"]
    assert trick == [c["card"] for c in shown]
    expect(watcher.get_by_test_id("bids").locator("li")).to_have_count(len(seen["bids"]))
    shot(watcher, "four-hand-spectator", full_page=False)
    shot(bela, "four-hand-phone", full_page=False)


async def spectator_view(url: str, table: dict[str, Any]) -> dict[str, Any]:
    """A spectator's welcome straight from the server (version and view)."""
    client, welcome = await Client.open(
        url.removeprefix("http://"), table["id"], invite=table["invite_code"]
    )
    await client.close()
    return welcome


def test_two_friends_fill_a_four_hand_table_with_two_computers(new_page: Any, server: Any) -> None:
    """Anna opens a four-hand table, Bela joins by its link, and Anna's waiting room gives the
    two empty seats to computer players: the match starts with four hands."""
    with httpx.Client(base_url=server.url, verify=False) as http:
        anna = http.post("/api/players", json={"name": "Anna"}).json()
        bela = http.post("/api/players", json={"name": "Bela"}).json()
        table = http.post(
            "/api/tables",
            json={"variant": "four-hand", "visibility": "private"},
            headers={"Authorization": f"Bearer {anna['token']}"},
        ).json()
        http.post(
            f"/api/tables/{table['id']}/join",
            json={"invite_code": table["invite_code"]},
            headers={"Authorization": f"Bearer {bela['token']}"},
        ).raise_for_status()
    page = new_page("anna", width=1280, height=800)
    saved = json.dumps(json.dumps(anna))
    page.context.add_init_script(f"localStorage.setItem('talon.player', {saved})")
    page.goto(f"/t/{table['id']}")
    offer = page.get_by_test_id("add-computer")
    expect(offer).to_contain_text("2 empty")
    shot(page, "add-computer-waiting", full_page=False)
    offer.locator("[data-action=add-computer][data-level=medium]").click()
    expect(offer).to_contain_text("1 empty")
    offer.locator("[data-action=add-computer][data-level=easy]").click()
    expect(page.locator(".felt.seats-4 .seat")).to_have_count(4, timeout=15_000)
    expect(page.locator(".hand.mine .card")).to_have_count(6)
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "add-computer-started-phone", full_page=False)


def test_four_seats_show_whole_names_and_the_last_trick_beside_the_trump(
    new_page: Any,
) -> None:
    """The scoreboard of a table of four cuts no name, and the last trick's peek leaves the
    trump's label readable."""
    page = new_page("anna", width=1280, height=800)
    page.goto("/")
    page.fill("#name", "Anna")
    page.select_option("select[name=variant]", "four-hand")
    page.click("[data-action=play-computer][data-level=easy]")
    expect(page.locator(".hand.mine .card")).to_have_count(6, timeout=15_000)
    cut = page.locator(".scoreboard .gp-name").evaluate_all(
        "ns => ns.filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent)"
    )
    assert cut == [], f"names cut short: {cut}"
    rng = random.Random(5)
    boxes = None
    for _ in range(80):
        if page.locator("button[aria-pressed]").count():  # a trick is finished: peek at it
            boxes = open_the_peek_narrow(page)
            if boxes is not None:
                break
            page.set_viewport_size({"width": 1280, "height": 800})  # the deal moved on
        if summary_shown(page):  # everybody passed: the next deal
            dismiss_summary(page)
            continue
        before, mine = turn_of(page)
        if mine:
            act(page, rng)
        wait_for_move(page, before)
    assert boxes is not None, "no trick was finished"
    peek, label = boxes["peek"], boxes["label"]
    apart = (
        peek["x"] >= label["x"] + label["width"]
        or label["x"] >= peek["x"] + peek["width"]
        or peek["y"] >= label["y"] + label["height"]
        or label["y"] >= peek["y"] + peek["height"]
    )
    assert apart, f"the peek {peek} covers the trump's label {label}"
    # Scrolled in one step in the page: the computer players' moves redraw the middle, which a
    # locator's scroll would find detached on a busy machine.
    page.evaluate("() => document.querySelector('.felt .middle')?.scrollIntoView()")
    shot(page, "four-hand-last-trick", full_page=False)
