"""The "Verify this match" page re-deals finished matches in the browser exactly as the engine
deals them (docs/fairness.md), accepts an honest record and points at a tampered one."""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from playwright.sync_api import Route, expect

from app.engine.dealing import (
    bot_contribution,
    deal_seed,
    first_dealer,
    match_seed,
    seed_commitment,
    shuffled_deck,
)
from tests.e2e.conftest import Server, shot
from tests.e2e.drive import (
    Choose,
    guest,
    live_table,
    never,
    play,
    resign,
    rest_get,
    rest_post,
    take_seat,
)

FAIRNESS = """async ([seeds, sizes]) => {
  const f = await import('/js/fairness.js');
  return seeds.map((seed, i) => ({
    match: f.matchSeed(seed, seeds.slice(i, i + (i % 4))),
    bot: f.botContribution(seed, i % 4),
    commitment: f.commitment(seed),
    deal: [1, 2, 17].map((k) => f.dealSeed(seed, k)),
    dealer: f.firstDealer(seed, 2),
    decks: sizes.map((size) => f.shuffled(size, seed).join(' ')),
  }));
}"""


def test_the_browser_s_shuffle_is_the_engine_s_for_many_seeds(new_page: Any) -> None:
    rng = random.Random(18)
    seeds = [rng.randbytes(rng.randrange(1, 40)).hex() for _ in range(150)] + ["", "é€"]
    sizes = [24, 20, 32, 48]
    page = new_page("verifier")
    page.goto("/")
    results = page.evaluate(FAIRNESS, [seeds, sizes])
    for i, (seed, got) in enumerate(zip(seeds, results, strict=True)):
        assert got["match"] == match_seed(seed, seeds[i : i + i % 4]), seed
        assert got["bot"] == bot_contribution(seed, i % 4), seed
        assert got["commitment"] == seed_commitment(seed), seed
        assert got["deal"] == [deal_seed(seed, k) for k in (1, 2, 17)], seed
        assert got["dealer"] == first_dealer(seed, 2), seed
        engine = [" ".join(c.code for c in shuffled_deck(size, seed)) for size in sizes]
        assert got["decks"] == engine, seed


def finished_match(
    server: Server, rng: random.Random, bela_sends: bool = True, **options: Any
) -> dict[str, Any]:
    """A match between Anna and Bela played to its end; Anna sends a contribution, and Bela
    one when ``bela_sends`` (else his seat adds the default)."""
    players = [guest(server.url, "Anna"), guest(server.url, "Bela")]
    bearer = [{"Authorization": f"Bearer {p['token']}"} for p in players]
    parts = [rng.randbytes(16).hex(), rng.randbytes(16).hex() if bela_sends else None]
    body = {"options": options, "visibility": "private", "contribution": parts[0]}
    table = rest_post(f"{server.url}/api/tables", json=body, headers=bearer[0]).json()
    join = {"invite_code": table["invite_code"], "contribution": parts[1]}
    url = f"{server.url}/api/tables/{table['id']}/join"
    rest_post(url, json=join, headers=bearer[1]).raise_for_status()
    play(server.url, table, players, rng, never)
    match_id = rest_get(f"{server.url}/api/tables/{table['id']}").json()["match_id"]
    return dict(rest_get(f"{server.url}/api/matches/{match_id}/log").json())


def test_the_page_and_the_engine_agree_on_many_matches(new_page: Any, server: Server) -> None:
    rng = random.Random(21)
    # The first match is watched live by Anna's page, so its commitments were seen then too.
    table, players = live_table(server.url, target=3)
    anna = take_seat(new_page("anna", width=1366, height=768), table, players[0])
    play(server.url, table, players, rng, never)
    expect(anna.get_by_test_id("match-winner")).to_be_visible()
    anna.click("[data-action=verify]")
    expect(anna.get_by_test_id("verdict")).to_have_attribute("data-ok", "true")
    expect(anna.locator(".verify-table .check.none")).to_have_count(0)  # every deal seen live

    # A rematch offered from Anna's page: her browser sends its part, after seeing the
    # commitment; Bela accepts, sending none.
    anna.go_back()
    anna.click("[data-action=rematch]")
    expect(anna.get_by_test_id("rematch-offer")).to_be_visible()
    accept = f"{server.url}/api/tables/{table['id']}/rematch"
    headers = {"Authorization": f"Bearer {players[1]['token']}"}
    rest_post(accept, headers=headers).raise_for_status()
    expect(anna.locator(".hand.mine .card").first).to_be_visible()
    play(server.url, table, players, rng, never)
    expect(anna.get_by_test_id("match-winner")).to_be_visible()
    anna.click("[data-action=verify]")
    expect(anna.get_by_test_id("verdict")).to_have_attribute("data-ok", "true")
    for check in ("server_commitment", "seen_commitment", "bots", "yours", "match_seed"):
        mark = anna.locator(f".verify-seed tr[data-check={check}] td")
        expect(mark).to_have_text("✓")  # "bots": Bela sent nothing, so his seat adds ""
    shot(anna, "verify-match", full_page=True)

    logs = [finished_match(server, rng, bela_sends=n != 1, target=3) for n in range(4)]
    logs.append(finished_match(server, rng, target=3, close_fail="closer_minus_3"))
    while sum(len(log["deals"]) for log in logs) < 8:  # a short match can be one deal long
        logs.append(finished_match(server, rng, target=3))
    deals = 0
    for log in logs:
        anna.goto(f"/history/{log['id']}/verify")
        expect(anna.get_by_test_id("verdict")).to_have_attribute("data-ok", "true")
        rows = anna.locator(".verify-table tbody tr")
        expect(rows).to_have_count(len(log["deals"]))
        for deal in log["deals"]:
            row = anna.locator(f".verify-table tr[data-deal='{deal['deal_no']}']")
            engine = " ".join(c.code for c in shuffled_deck(24, deal["seed"]))
            assert row.get_attribute("data-deck") == engine
            assert deal["seed"] == deal_seed(log["seed"], deal["deal_no"])
            deals += 1
        parts = [c["value"] for c in log["contributions"]]
        assert log["seed"] == match_seed(log["server_seed"], parts)
        assert log["server_commitment"] == seed_commitment(log["server_seed"])
        seed_row = anna.locator(".verify-seed tr[data-check=match_seed] td")
        expect(seed_row).to_have_text("✓")
    assert deals >= 8
    assert {c["source"] for log in logs for c in log["contributions"]} == {"player", "missing"}


def test_a_tampered_record_is_caught(new_page: Any, server: Server) -> None:
    log = finished_match(server, random.Random(5), target=1)
    page = new_page("verifier")

    def swap_a_card(route: Route) -> None:
        replay = route.fetch().json()
        hand = replay["steps"][0]["hands"][0]
        other = replay["steps"][0]["hands"][1]
        hand[0], other[0] = other[0], hand[0]  # one card moved from one hand to the other
        route.fulfill(json=replay)

    page.route(f"**/api/matches/{log['id']}/replay", swap_a_card)
    page.goto(f"/history/{log['id']}/verify")
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-ok", "false")
    hands = page.locator(".verify-table tr[data-deal='1'] td").nth(4)
    expect(hands).to_have_text("✗")

    def change_a_seed(route: Route) -> None:
        replay = route.fetch().json()
        replay["deals"][0]["seed"] = seed_commitment("another seed")
        route.fulfill(body=json.dumps(replay), content_type="application/json")

    page.unroute(f"**/api/matches/{log['id']}/replay")
    page.route(f"**/api/matches/{log['id']}/replay", change_a_seed)
    page.reload()
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-ok", "false")
    seed = page.locator(".verify-table tr[data-deal='1'] td").nth(0)
    expect(seed).to_have_text("✗")

    def change_a_contribution(route: Route) -> None:
        replay = route.fetch().json()
        replay["contributions"][1]["value"] = "0" * 32  # Bela's part, said afterwards
        route.fulfill(json=replay)

    page.unroute(f"**/api/matches/{log['id']}/replay")
    page.route(f"**/api/matches/{log['id']}/replay", change_a_contribution)
    page.reload()
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-ok", "false")
    expect(page.locator(".verify-seed tr[data-check=match_seed] td")).to_have_text("✗")


# Every preset at every seat count, with options that change the deal's shape or its end.
TABLES: list[tuple[str, dict[str, Any]]] = [
    ("sixty-six", {"target": 2, "claim": "manual"}),
    ("schnapsen", {"target": 2}),
    ("german-32", {"target": 2}),
    ("german-32", {"players": 3, "target": 2, "claim": "manual"}),
    ("three-hand", {"target": 2}),
    ("four-hand", {"target": 1}),
    ("four-hand", {"target": 1, "all_pass": "same_dealer", "defenders_score": True}),
    ("german-48", {"target": 2}),
    ("german-48", {"target": 2, "partners": True, "claim": "manual"}),
]
NAMES = ["Anna", "Bela", "Cleo", "Dora"]


def seats_of(variant: str, options: dict[str, Any]) -> int:
    return int(
        options.get("players", {"three-hand": 3, "four-hand": 4, "german-48": 4}.get(variant, 2))
    )


def open_table(
    base: str, variant: str, options: dict[str, Any], rng: random.Random
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A private table of ``variant`` with a guest in every seat (each sending a contribution),
    its match under way."""
    players = [guest(base, name) for name in NAMES[: seats_of(variant, options)]]
    bearer = [{"Authorization": f"Bearer {p['token']}"} for p in players]
    body = {"variant": variant, "options": options, "visibility": "private"}
    body["contribution"] = rng.randbytes(16).hex()
    table = rest_post(f"{base}/api/tables", json=body, headers=bearer[0]).json()
    for seat in range(1, len(players)):
        join = {"invite_code": table["invite_code"], "seat": seat}
        join["contribution"] = rng.randbytes(16).hex()
        url = f"{base}/api/tables/{table['id']}/join"
        rest_post(url, json=join, headers=bearer[seat]).raise_for_status()
    return table, players


def any_legal(resign_after: int | None) -> Choose:
    """Random legal actions of every kind (closing, claiming and exchanging now and then); the
    player on move resigns after ``resign_after`` actions (None: never)."""
    count = 0

    def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        nonlocal count
        count += 1
        if resign_after is not None and count > resign_after:
            return {"type": "resign"}
        if legal and legal[0]["type"] in ("bid", "pass"):  # the lowest bid now and then
            return legal[0] if rng.random() < 0.3 else legal[-1]
        rare = [a for a in legal if a["type"] in ("close", "claim", "exchange")]
        if rare and rng.random() < 0.05:
            return rng.choice(rare)
        return rng.choice([a for a in legal if a["type"] not in ("close", "claim")] or legal)

    return choose


def finished_record(base: str, variant: str, options: dict[str, Any], seed: int) -> int:
    """One match of ``variant`` ended one way, chosen by ``seed``: resigned before any card
    (seed 0 of 3), resigned after some random actions (1: in the first deal or a later one),
    or played to its end over one deal or several (2). Returns its id."""
    rng = random.Random(seed)
    table, players = open_table(base, variant, options, rng)
    resign_after = [0, rng.randrange(3, 60), None][seed % 3]
    play(base, table, players, rng, never, any_legal(resign_after))
    return int(rest_get(f"{base}/api/tables/{table['id']}").json()["match_id"])


def resigned_against_computers(base: str, variant: str, options: dict[str, Any]) -> int:
    """A match of ``variant`` between Anna and a computer in every other seat (so the match
    seed has the computers' parts), which Anna resigns at once. Returns its id."""
    anna = guest(base, "Anna")
    bots = {seat: "easy" for seat in range(1, seats_of(variant, options))}
    body = {"variant": variant, "options": options, "bots": bots, "contribution": "ab" * 16}
    bearer = {"Authorization": f"Bearer {anna['token']}"}
    table = rest_post(f"{base}/api/tables", json=body, headers=bearer).json()
    resign(base, table["id"], anna["token"])
    return int(rest_get(f"{base}/api/tables/{table['id']}").json()["match_id"])


def finished_records(base: str) -> list[tuple[str, int]]:
    """Matches of every table above ended every way, made three at a time, and some against
    computer players: (what, match id)."""
    jobs = [(v, o, 35 * 3 + 3 * i + k) for i, (v, o) in enumerate(TABLES) for k in range(3)]
    versus = [(v, o) for v, o in TABLES if seats_of(v, o) > 2 or v == "schnapsen"]
    with ThreadPoolExecutor(3) as pool:
        ids = list(pool.map(lambda job: finished_record(base, *job), jobs))
        bot_ids = list(pool.map(lambda job: resigned_against_computers(base, *job), versus))
    ends = ["at once", "mid-match", "at its end"]
    made = [(f"{v} {o} ended {ends[k % 3]}", i) for (v, o, k), i in zip(jobs, ids, strict=True)]
    made += [(f"{v} {o} against computers", i) for (v, o), i in zip(versus, bot_ids, strict=True)]
    return made


CHECK_ALL = """async (ids) => {
  const v = await import('/js/verify.js');
  const out = [];
  for (const id of ids) {
    const replay = await (await fetch(`/api/matches/${id}/replay`)).json();
    out.push({ deals: v.verifyMatch(replay).map((r) => r.checks), seed: v.verifySeed(replay) });
  }
  return out;
}"""


def test_the_page_accepts_honest_matches_of_every_preset(new_page: Any, server: Server) -> None:
    made = finished_records(server.url)
    page = new_page("verifier")
    page.goto("/")
    results = page.evaluate(CHECK_ALL, [match_id for _, match_id in made])
    failed = []
    deals = 0
    for (what, match_id), got in zip(made, results, strict=True):
        deals += len(got["deals"])
        for deal_no, checks in enumerate(got["deals"], 1):
            bad = [name for name, ok in checks.items() if ok is False]
            if bad:
                failed.append(f"{what} (match {match_id}) deal {deal_no}: {bad}")
        if got["seed"]["match_seed"] is not True or got["seed"]["server_commitment"] is not True:
            failed.append(f"{what} (match {match_id}): seed checks {got['seed']}")
    assert not failed, "\n".join(failed)
    assert deals > len(made)  # some matches went over several deals
    assert {r["seed"]["bots"] for r in results} == {None, True}
    # The page itself, for the four-hand match played over the most deals.
    four = [(len(r["deals"]), m[1]) for m, r in zip(made, results, strict=True) if "four" in m[0]]
    page.goto(f"/history/{max(four)[1]}/verify")
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-ok", "true")
    shot(page, "verify-four-hand", full_page=True)
