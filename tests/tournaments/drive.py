"""An outside client of tournaments: players who poll their event over REST (which keeps them
online) and play the table they are paired at over the WebSocket, making a few random legal
moves and then resigning; and the reference checks a client can make of what it is shown."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterable
from typing import Any

from tests.support import Api, Client

PATIENCE = 120.0
"""How long a test waits for an event to move on (generous for a busy machine; the tests
assert what happened, never how fast)."""
FAST = {
    "tournament_tick_seconds": 0.2,
    "bot_pause": 0.02,
    "bot_pause_jitter": 0.0,
    "bot_follow_pause": 0.0,
    "bot_budget": 0.02,
    "bot_workers": 0,
    "clock_move_seconds": 30.0,
    "clock_bank_seconds": 0.0,
}
SHORT = {"target": 1}
"""A match of one deal: tournaments of many games stay short."""


async def event_of(api: Api, event_id: str, token: str | None = None) -> dict[str, Any]:
    return await api.call("GET", f"/api/tournaments/{event_id}", token)  # type: ignore[no-any-return]


async def until_status(api: Api, event_id: str, status: str) -> dict[str, Any]:
    """Poll the event until it has ``status``; the event then."""
    deadline = time.monotonic() + PATIENCE
    while (event := await event_of(api, event_id))["status"] != status:
        assert time.monotonic() < deadline, f"the event never got {status}: {event}"
        await asyncio.sleep(0.1)
    return event


async def results(api: Api, event_id: str) -> list[dict[str, Any]]:
    """The event's results, read from its NDJSON."""
    response = await api.client.get(f"/api/tournaments/{event_id}/results.ndjson")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in response.text.splitlines() if line]


async def play_table(
    base: str, table_id: str, token: str, rng: random.Random, moves: int = 3
) -> None:
    """Play one seat of a table's match: up to ``moves`` random legal moves, then resign."""
    client, welcome = await Client.open(base, table_id, token)
    try:
        budget = rng.randint(0, moves)
        view = welcome["view"]
        while view is None:  # the match has not started yet: its welcome comes when it does
            frame = await client.recv(timeout=PATIENCE)
            view = frame.get("view") if frame["type"] == "welcome" else None
        if view["match_over"]:
            return
        version, legal = welcome["version"] if welcome["view"] else frame["version"], view["legal"]
        resigned = False
        while True:
            action = None
            if budget <= 0 and not resigned:  # a resignation is never listed as legal
                action, resigned = {"type": "resign"}, True
            elif legal and not resigned:
                action, budget = rng.choice(legal), budget - 1
            if action is not None:
                message = {"type": "action", "id": f"{version}", "version": version}
                await client.send({**message, "action": action})
                legal = []
            frame = await client.recv(timeout=PATIENCE)
            if frame["type"] == "update":
                version, legal = frame["version"], frame.get("legal", [])
                if any(e["type"] == "match_over" for e in frame["events"]):
                    return
            elif frame["type"] == "welcome" and frame["view"] is not None:
                version, legal = frame["version"], frame["view"]["legal"]
                if frame["view"]["match_over"]:
                    return
            elif frame["type"] == "aborted":
                return
            elif frame["type"] == "error":  # another seat acted first: try again
                assert frame["code"] == "stale_version", frame
                resigned = False
    finally:
        await client.close()


async def take_part(
    api: Api,
    base: str,
    event_id: str,
    player: dict[str, Any],
    rng: random.Random,
    moves: int = 3,
) -> list[str]:
    """Poll the event as ``player`` and play every table it is paired at (``moves``: at
    most that many random moves before resigning), until the event finishes; the tables
    played."""
    played: list[str] = []
    deadline = time.monotonic() + 3 * PATIENCE
    while time.monotonic() < deadline:
        event = await event_of(api, event_id, player["token"])
        if event["status"] == "finished":
            return played
        you = event["you"]
        if you is not None and you["table"] is not None and you["table"] not in played:
            played.append(you["table"])
            await play_table(base, you["table"], player["token"], rng, moves)
        await asyncio.sleep(0.1)
    raise AssertionError(f"the event never finished: {event}")


# -- what a client checks by itself --------------------------------------------------------------


def half(score: float) -> int:
    return round(score * 2)


def scores_before(
    rows: list[dict[str, Any]], entrants: Iterable[str], rnd: int
) -> dict[str, float]:
    """Every entrant's points before round ``rnd``."""
    scores = dict.fromkeys(entrants, 0.0)
    for r in rows:
        if r["round"] < rnd:
            scores[r["entrant"]] += r["points"]
    return scores


def least_score_cost(
    players: list[str], scores: dict[str, float], met: set[frozenset[str]], bye_ok: set[str]
) -> int:
    """The smallest sum of squared score differences (in half points) of any pairing of
    ``players`` with no repeat (an odd one out takes the bye, costing its distance above
    the lowest score), by brute force."""
    lowest = min(half(scores[p]) for p in players)
    best = None

    def walk(left: list[str], cost: int) -> None:
        nonlocal best
        if best is not None and cost >= best:
            return
        if not left:
            best = cost
            return
        first, rest = left[0], left[1:]
        for i, other in enumerate(rest):
            if frozenset((first, other)) in met:
                continue
            d = half(scores[first]) - half(scores[other])
            walk(rest[:i] + rest[i + 1 :], cost + d * d)
        if len(left) % 2 == 1 and first in bye_ok:
            d = half(scores[first]) - lowest
            walk(rest, cost + d * d)

    walk(sorted(players), 0)
    assert best is not None
    return best


def pairing_cost(
    pairs: list[tuple[str, str]], bye: str | None, scores: dict[str, float], players: list[str]
) -> int:
    lowest = min(half(scores[p]) for p in players)
    cost = sum((half(scores[a]) - half(scores[b])) ** 2 for a, b in pairs)
    if bye is not None:
        cost += (half(scores[bye]) - lowest) ** 2
    return cost


def tie_breaks(
    rows: list[dict[str, Any]], entrants: list[str], rounds: int
) -> dict[str, tuple[float, float, float]]:
    """Points, Buchholz and Sonneborn-Berger of every entrant, by the FIDE rules (an
    unplayed game, a bye or a forfeit, counted against a virtual opponent who starts with
    the player's score, takes the opposite result and draws every later round)."""
    points = dict.fromkeys(entrants, 0.0)
    for r in rows:
        points[r["entrant"]] += r["points"]
    buchholz = dict.fromkeys(entrants, 0.0)
    berger = dict.fromkeys(entrants, 0.0)
    for e in entrants:
        mine = sorted((r for r in rows if r["entrant"] == e), key=lambda r: r["round"])
        before = 0.0
        for r in mine:
            got = r["points"]
            if r["outcome"] in ("bye", "forfeit_win", "forfeit_loss"):
                theirs = before + (1 - got) + 0.5 * (rounds - r["round"])
            else:
                theirs = points[r["opponent"]]
            buchholz[e] += theirs
            berger[e] += theirs * got
            before += got
    return {e: (points[e], buchholz[e], berger[e]) for e in entrants}


def pairs_of(pairings: list[dict[str, Any]], rnd: int) -> tuple[list[tuple[str, str]], list[str]]:
    """A round's pairs and its byes."""
    pairs = [(p["a"], p["b"]) for p in pairings if p["round"] == rnd and p["b"] is not None]
    byes = [p["a"] for p in pairings if p["round"] == rnd and p["b"] is None]
    return pairs, byes


def no_repeats(pairings: list[dict[str, Any]]) -> bool:
    met = [frozenset((p["a"], p["b"])) for p in pairings if p["b"] is not None]
    return len(met) == len(set(met))
