"""Tournaments over the real server, as outside clients see them: an account creates an
event, players and computer entrants join, the players play their tables over the WebSocket
(a few random legal moves, then resign), and the client checks every round's pairings, the
standings and the tie-breaks by recomputing them itself (docs/tournaments.md)."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.test_accounts import account
from tests.support import Api, in_thread, live_server, migrated_sqlite, settings_for
from tests.tournaments.drive import (
    FAST,
    PATIENCE,
    SHORT,
    event_of,
    half,
    least_score_cost,
    no_repeats,
    pairing_cost,
    pairs_of,
    results,
    scores_before,
    take_part,
    tie_breaks,
    until_status,
)


def assert_error(response: httpx.Response, status: int, code: str) -> None:
    """The response is a refusal with ``status`` and ``code`` (and a sentence)."""
    assert response.status_code == status, (response.status_code, response.text)
    error = response.json()["error"]
    assert error["code"] == code and error["message"], error


@asynccontextmanager
async def event_api(database_url: str, **settings: Any) -> AsyncIterator[tuple[Api, str]]:
    """A REST client of a server whose events step five times a second, and its address."""
    async with (
        live_server(settings_for(database_url, **{**FAST, **settings})) as base,
        httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as client,
    ):
        yield Api(client), base


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_swiss_of_eight_pairs_by_score_without_repeats_and_ranks_by_the_tie_breaks(
    database_url: str,
) -> None:
    rng = random.Random(37)
    async with event_api(database_url, online_window_seconds=2.0) as (api, base):
        host = await account(api, "host", "Host")
        body = {
            "name": "Friday Swiss",
            "format": "swiss",
            "variant": "sixty-six",
            "options": SHORT,
            "rounds": 3,
            "access": "guests",
            "computers": True,
            "starts_in": 8,
        }
        event = await api.call("POST", "/api/tournaments", host["token"], json=body, status=201)
        event_id = event["id"]
        assert event["status"] == "upcoming" and event["rounds"] == 3
        people = [await api.player(name) for name in ("Anna", "Bela", "Cili", "Dora")]
        ghost = await api.player("Gabi")  # joins, then is never seen again
        for player in [*people, ghost]:
            await api.call("POST", f"/api/tournaments/{event_id}/join", player["token"])
        for level in ("easy", "easy", "medium"):
            path = f"/api/tournaments/{event_id}/computers"
            await api.call("POST", path, host["token"], json={"level": level})
        joined = await event_of(api, event_id)
        assert joined["entrants"] == 8 and len(joined["standings"]) == 8
        entrant = {
            p["id"]: (await event_of(api, event_id, p["token"]))["you"]["entrant"]
            for p in [*people, ghost]
        }
        await asyncio.gather(*(take_part(api, base, event_id, p, rng) for p in people))
        final = await until_status(api, event_id, "finished")
        rows = await results(api, event_id)

    assert final["round"] == 3
    everyone = [s["entrant"] for s in final["standings"]]
    computers = {s["entrant"] for s in final["standings"] if s["computer"]}
    assert len(computers) == 3 and entrant[ghost["id"]] not in computers
    pairings = final["pairings"]
    assert no_repeats(pairings)
    # Each game's result is stored once: two rows, one a win and one a loss (one row a bye).
    by_game: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        by_game.setdefault(r["game"], []).append(r)
    assert set(by_game) == {p["id"] for p in pairings}
    for game_rows in by_game.values():
        outcomes = sorted(r["outcome"] for r in game_rows)
        assert outcomes in (["bye"], ["loss", "win"], ["forfeit_loss", "forfeit_win"])
    # The ghost was gone when paired: it forfeited rounds 1 and 2 and was withdrawn.
    gone = entrant[ghost["id"]]
    assert [r["outcome"] for r in rows if r["entrant"] == gone] == ["forfeit_loss"] * 2
    played = [r for r in rows if gone not in (r["entrant"], r["opponent"])]
    assert {r["outcome"] for r in played} == {"win", "loss", "bye"}  # the others played
    assert next(s for s in final["standings"] if s["entrant"] == gone)["withdrawn"]
    met: set[frozenset[str]] = set()
    for rnd in (1, 2, 3):
        pairs, byes = pairs_of(pairings, rnd)
        playing = [x for pair in pairs for x in pair] + byes
        active = [e for e in everyone if e != gone or rnd < 3]
        assert sorted(playing) == sorted(active), rnd
        assert len(byes) == len(active) % 2, rnd  # one bye when odd, none when even
        scores = scores_before(rows, everyone, rnd)
        had_bye = {r["entrant"] for r in rows if r["outcome"] == "bye" and r["round"] < rnd}
        bye_ok = {e for e in active if e not in had_bye}
        best = least_score_cost(active, scores, met, bye_ok)
        assert pairing_cost(pairs, byes[0] if byes else None, scores, active) == best, rnd
        met |= {frozenset(pair) for pair in pairs}
    # The standings and their tie-breaks, recomputed from the results.
    mine = tie_breaks(rows, everyone, 3)
    for line in final["standings"]:
        points, buchholz, berger = mine[line["entrant"]]
        assert (line["points"], line["buchholz"], line["sonneborn_berger"]) == (
            points,
            buchholz,
            berger,
        ), line
    order = [s["entrant"] for s in final["standings"]]
    assert order == sorted(order, key=lambda e: (-half(mine[e][0]), -mine[e][1], -mine[e][2], e))
    assert [s["rank"] for s in final["standings"]] == list(range(1, 9))


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_creating_and_joining_refuse_with_stable_codes(database_url: str) -> None:
    async with event_api(database_url) as (api, _):
        guest = await api.player("Guest")
        host = await account(api, "host", "Host")
        swiss = {"name": "Club", "format": "swiss", "variant": "sixty-six", "rounds": 3}
        response = await api.client.post(
            "/api/tournaments", json=swiss, headers={"Authorization": f"Bearer {guest['token']}"}
        )
        assert_error(response, 403, "accounts_only")
        for bad, code in (
            ({**swiss, "rounds": 0}, "bad_tournament"),
            ({**swiss, "format": "arena"}, "bad_tournament"),
            ({**swiss, "variant": "three-hand"}, "tournament_seats"),
            ({**swiss, "variant": "nope"}, "unknown_variant"),
            ({**swiss, "clock": "none"}, "bad_clock"),
        ):
            response = await api.client.post(
                "/api/tournaments", json=bad, headers={"Authorization": f"Bearer {host['token']}"}
            )
            assert_error(response, 422, code)
        event = await api.call(
            "POST", "/api/tournaments", host["token"], json={**swiss, "starts_in": 600}, status=201
        )
        path = f"/api/tournaments/{event['id']}"
        headers = {"Authorization": f"Bearer {guest['token']}"}
        assert_error(await api.client.post(f"{path}/join", headers=headers), 403, "accounts_only")
        assert_error(
            await api.client.post(f"{path}/withdraw", headers=headers), 404, "not_registered"
        )
        assert_error(
            await api.client.post(f"{path}/computers", json={"level": "easy"}, headers=headers),
            403,
            "not_organizer",
        )
        own = {"Authorization": f"Bearer {host['token']}"}
        assert_error(
            await api.client.post(f"{path}/computers", json={"level": "easy"}, headers=own),
            403,
            "computers_not_allowed",
        )
        await api.call("POST", f"{path}/join", host["token"])
        assert_error(await api.client.post(f"{path}/join", headers=own), 409, "already_registered")
        left = await api.call("POST", f"{path}/withdraw", host["token"])
        assert left["entrants"] == 0 and left["you"] is None
        assert_error(await api.client.get("/api/tournaments/nope"), 404, "tournament_not_found")
        listed = await api.call("GET", "/api/tournaments")
        assert [e["id"] for e in listed["upcoming"]] == [event["id"]]
        assert listed["running"] == [] and listed["finished"] == []


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_an_event_table_refuses_an_abort_a_computer_and_a_rematch(database_url: str) -> None:
    async with event_api(database_url) as (api, _):
        host = await account(api, "host", "Host")
        body = {
            "name": "One game",
            "format": "swiss",
            "variant": "sixty-six",
            "options": SHORT,
            "rounds": 1,
            "access": "guests",
            "starts_in": 1,
        }
        event = await api.call("POST", "/api/tournaments", host["token"], json=body, status=201)
        path = f"/api/tournaments/{event['id']}"
        anna, bela = await api.player("Anna"), await api.player("Bela")
        for player in (anna, bela):
            await api.call("POST", f"{path}/join", player["token"])
        deadline = asyncio.get_running_loop().time() + PATIENCE
        while (
            table_id := (await event_of(api, event["id"], anna["token"]))["you"]["table"]
        ) is None:
            assert asyncio.get_running_loop().time() < deadline, "never seated"
            await asyncio.sleep(0.1)
        table = await api.call("GET", f"/api/tables/{table_id}")
        assert table["tournament"] == event["id"] and table["on_timeout"] == "forfeit"
        seat = next(s["seat"] for s in table["seats"] if s["player_id"] == anna["id"])
        headers = {"Authorization": f"Bearer {anna['token']}"}
        tables = f"/api/tables/{table_id}"
        response = await api.client.post(f"{tables}/abort", json={}, headers=headers)
        assert_error(response, 409, "event_no_abort")  # even before anyone has acted
        claim = {"seat": 1 - seat, "remedy": "bot"}
        response = await api.client.post(f"{tables}/claim-victory", json=claim, headers=headers)
        assert_error(response, 409, "event_no_computer")
        response = await api.client.post(f"{tables}/rematch", json={}, headers=headers)
        assert_error(response, 409, "event_no_rematch")  # the table plays this one match
        table = await api.call("GET", f"/api/tables/{table_id}")
    assert table["status"] == "live" and table["match_id"] is not None  # nothing was aborted


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_player_joins_a_partners_team_by_its_handle(database_url: str) -> None:
    async with event_api(database_url) as (api, _):
        host = await account(api, "host", "Host")
        body = {"name": "Pairs", "format": "swiss", "variant": "four-hand", "rounds": 2}
        event = await api.call(
            "POST", "/api/tournaments", host["token"], json={**body, "starts_in": 600}, status=201
        )
        path = f"/api/tournaments/{event['id']}"
        anna = await account(api, "anna", "Anna")
        started = await api.call("POST", f"{path}/join", anna["token"])
        assert [t["name"] for t in started["teams"]] == ["Anna"]
        bela, cili = await account(api, "bela", "Bela"), await account(api, "cili", "Cili")
        headers = {"Authorization": f"Bearer {bela['token']}"}
        for nobody in ("nobody", "host"):  # no such account; an account with no team here
            response = await api.client.post(
                f"{path}/join", json={"partner": nobody}, headers=headers
            )
            assert_error(response, 404, "team_not_found")
        joined = await api.call("POST", f"{path}/join", bela["token"], json={"partner": "ANNA"})
        assert joined["teams"] == [] and joined["entrants"] == 1
        assert [s["name"] for s in joined["standings"]] == ["Anna & Bela"]
        assert joined["you"]["entrant"] == started["you"]["entrant"]
        headers = {"Authorization": f"Bearer {cili['token']}"}
        response = await api.client.post(f"{path}/join", json={"partner": "bela"}, headers=headers)
        assert_error(response, 409, "team_full")


async def run_arena(
    database_url: str, duration: int
) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """An arena of ``duration`` seconds: two guests and a computer from the start, an account
    that joins once it runs, every person resigning at once. The event as it started, as it
    finished, and its results."""
    rng = random.Random(66)
    async with event_api(database_url) as (api, base):
        host = await account(api, "host", "Host")
        body = {
            "name": "Lunch arena",
            "format": "arena",
            "variant": "sixty-six",
            "options": SHORT,
            "duration": duration,
            "access": "guests",
            "computers": True,
            "starts_in": 1,
        }
        event = await api.call("POST", "/api/tournaments", host["token"], json=body, status=201)
        event_id = event["id"]
        people = [await api.player(name) for name in ("Anna", "Bela")]
        for player in people:
            await api.call("POST", f"/api/tournaments/{event_id}/join", player["token"])
        path = f"/api/tournaments/{event_id}/computers"
        await api.call("POST", path, host["token"], json={"level": "easy"})
        late = await account(api, "late", "Late")
        running = await until_status(api, event_id, "running")  # the fourth joins late:
        await api.call("POST", f"/api/tournaments/{event_id}/join", late["token"])
        players = [*people, late]
        # Each resigns at once: the computer, never waiting on anyone, wins on and on.
        await asyncio.gather(*(take_part(api, base, event_id, p, rng, 0) for p in players))
        final = await until_status(api, event_id, "finished")
        return running, final, await results(api, event_id)


def computer_games(final: dict[str, Any]) -> int:
    """How many games the event's computer entrant played."""
    computer = next(s["entrant"] for s in final["standings"] if s["computer"])
    return sum(computer in (g["a"], g["b"]) for g in final["pairings"])


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite"])
async def test_an_arena_pairs_whoever_is_free_scores_streaks_double_and_ends_on_time(
    database_url: str, sqlite_template: Path, tmp_path: Path
) -> None:
    # The streak rule needs three games of the computer's; a loaded machine fits fewer
    # into a short arena, and then a longer one is run on a fresh database.
    running, final, rows = await run_arena(database_url, 15)
    for duration in (45, 120):
        if computer_games(final) >= 3:
            break
        path = tmp_path / f"arena-{duration}.db"
        fresh = in_thread(partial(migrated_sqlite, sqlite_template, path))
        running, final, rows = await run_arena(fresh, duration)

    ends_at = running["ends_at"]
    games = final["pairings"]
    assert games and all(g["paired_at"] < ends_at for g in games)  # none paired after the end
    assert all(g["status"] == "finished" and g["result"] for g in games)  # each one counted
    computer = next(s["entrant"] for s in final["standings"] if s["computer"])
    entrants = [s["entrant"] for s in final["standings"]]
    # An entrant is in one game at a time; and pairing is as soon as free: at each wave, of
    # the entrants in no game then, at most one is left unpaired.
    for entrant in entrants:
        mine = [g for g in games if entrant in (g["a"], g["b"])]
        for earlier, later in itertools.pairwise(mine):
            assert later["paired_at"] >= earlier["finished_at"], (earlier, later)
    first = {e: min(g["paired_at"] for g in games if e in (g["a"], g["b"])) for e in entrants}
    for t in sorted({g["paired_at"] for g in games}):
        playing = [e for e in entrants if first[e] <= t]  # (the late one is known from then)
        busy = {x for g in games if g["paired_at"] < t < g["finished_at"] for x in (g["a"], g["b"])}
        paired = {x for g in games if g["paired_at"] == t for x in (g["a"], g["b"])}
        assert len(set(playing) - busy - paired) <= 1, t
    mine = [g for g in games if computer in (g["a"], g["b"])]
    assert len(mine) >= 3, mine  # the computer, who never waits on anyone, played on
    # The streak rule, recomputed: a win scores 2, or 4 after two wins in a row; a loss 0.
    for entrant in entrants:
        wins_in_a_row = 0
        for r in (r for r in rows if r["entrant"] == entrant):
            won = r["outcome"] in ("win", "forfeit_win")
            expected = (4 if wins_in_a_row >= 2 else 2) if won else 0
            assert r["points"] == expected, (entrant, r)
            wins_in_a_row = wins_in_a_row + 1 if won else 0
    assert {r["outcome"] for r in rows} == {"win", "loss"}
    assert any(r["points"] == 4 for r in rows if r["entrant"] == computer), [
        (r["outcome"], r["points"], r["game"]) for r in rows if r["entrant"] == computer
    ]
    totals = {e: sum(r["points"] for r in rows if r["entrant"] == e) for e in entrants}
    assert [s["points"] for s in final["standings"]] == sorted(totals.values(), reverse=True)
    assert all(s["points"] == totals[s["entrant"]] for s in final["standings"])


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_four_hand_team_swiss_seats_partners_across_and_meets_every_team_once(
    database_url: str,
) -> None:
    rng = random.Random(4)
    async with event_api(database_url) as (api, base):
        host = await account(api, "host", "Host")
        body = {
            "name": "Partners' Swiss",
            "format": "swiss",
            "variant": "four-hand",
            "options": SHORT,
            "rounds": 3,
            "access": "guests",
            "computers": True,
            "starts_in": 4,
        }
        event = await api.call("POST", "/api/tournaments", host["token"], json=body, status=201)
        event_id, path = event["id"], f"/api/tournaments/{event['id']}"
        assert event["seats"] == 4
        people = [await api.player(name) for name in ("Anna", "Bela", "Cili", "Dora", "Emma")]
        teams: dict[str, list[str]] = {}
        for first, second in ((people[0], people[1]), (people[2], people[3])):
            made = await api.call("POST", f"{path}/join", first["token"])
            team = made["you"]["entrant"]
            assert [t["id"] for t in made["teams"]] == [team]  # waiting for its partner
            await api.call("POST", f"{path}/join", second["token"], json={"team": team})
            teams[team] = [first["id"], second["id"]]
        alone = (await api.call("POST", f"{path}/join", people[4]["token"]))["you"]["entrant"]
        for level in ("easy", "medium"):
            await api.call("POST", f"{path}/computers", host["token"], json={"level": level})
        own = {"Authorization": f"Bearer {host['token']}"}
        full = {"team": next(iter(teams))}
        response = await api.client.post(f"{path}/join", json=full, headers=own)
        assert_error(response, 409, "team_full")
        nowhere = {"team": "nope"}
        response = await api.client.post(f"{path}/join", json=nowhere, headers=own)
        assert_error(response, 404, "team_not_found")
        await asyncio.gather(*(take_part(api, base, event_id, p, rng) for p in people[:4]))
        final = await until_status(api, event_id, "finished")
        rows = await results(api, event_id)
        tables = {
            g["table"]: await api.call("GET", f"/api/tables/{g['table']}")
            for g in final["pairings"]
            if g["table"] is not None
        }
        # Every match of the event lists it in its record, and the history filters by it.
        listed = await api.call("GET", "/api/matches", params={"tournament": event_id})
        other = await api.call("GET", "/api/matches", params={"tournament": "another"})
        record = await api.call("GET", f"/api/matches/{listed['matches'][0]['id']}")

    assert next(s for s in final["standings"] if s["entrant"] == alone)["withdrawn"]
    entrants = [s["entrant"] for s in final["standings"] if s["entrant"] != alone]
    assert len(entrants) == 4
    pairings = final["pairings"]
    assert no_repeats(pairings) and len(pairings) == 6  # three rounds of two games
    for rnd in (1, 2, 3):
        pairs, byes = pairs_of(pairings, rnd)
        assert byes == [] and sorted(x for pair in pairs for x in pair) == sorted(entrants)
    # Partners sit across: side a in seats 0 and 2, side b in 1 and 3.
    for game in pairings:
        seats = {s["seat"]: s["player_id"] for s in tables[game["table"]]["seats"]}
        for side, entrant in ((0, game["a"]), (1, game["b"])):
            if entrant in teams:
                assert [seats[side], seats[side + 2]] == teams[entrant], game
    assert {r["outcome"] for r in rows} == {"win", "loss"}  # everyone played every game
    assert sorted(m["table_id"] for m in listed["matches"]) == sorted(tables)
    assert {m["tournament"] for m in listed["matches"]} == {event_id}
    assert other["matches"] == [] and record["tournament"] == event_id
    mine = tie_breaks(rows, entrants, 3)
    for line in final["standings"]:
        if line["entrant"] in mine:
            assert (line["points"], line["buchholz"], line["sonneborn_berger"]) == (
                mine[line["entrant"]]
            )
