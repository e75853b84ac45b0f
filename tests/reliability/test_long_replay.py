"""A long match's replay and log, from outside, against a ``talon serve`` subprocess.

Four guests at a four-hand table under ``failed_bid=bidders_lose`` who always bid Luna (it
fails at the first trick they lose) make four versions a deal and never finish; after a few
hundred versions one resigns. Its anonymous replay must then grow with the match's length, not
its length times its deals: a step weighs about the same at the end as at the start (each
deal's result is sent once, in the record's ``deals``), and a client pages through it with
``from`` and ``limit``, as through its log.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from tests.reliability.server import module_server, post, unhandled_errors
from tests.support import Client

VERSIONS = 400
NEVER_ENDS = {"failed_bid": "bidders_lose"}
"""Options under which four Luna bidders never finish a match (drift below zero for ever)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    yield from module_server(tmp_path_factory, "long-replay")


def luna_or_first(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Luna whenever it may be bid, else the first legal action (never a resignation)."""
    if {"type": "bid", "level": 5} in legal:
        return {"type": "bid", "level": 5}
    return next(a for a in legal if a["type"] != "resign")


async def long_match(base: str, versions: int) -> int:
    """A resigned four-hand match of ``versions`` versions and more (one more: the
    resignation); its id."""
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=30, verify=False) as http:
        tokens = [(await post(http, "/api/players", None, {"name": n}))["token"] for n in "ABCD"]
        body = {"variant": "four-hand", "options": NEVER_ENDS, "clock": "none"}
        table = await post(http, "/api/tables", tokens[0], body)
        for token in tokens[1:]:
            table = await post(http, f"/api/tables/{table['id']}/join", token, {})
    opened = [await Client.open(base, table["id"], token) for token in tokens]
    clients = [client for client, _ in opened]
    views = [welcome["view"] for _, welcome in opened]
    version, to_move, legal = table["version"], views[0]["to_move"], views[0]["legal"]
    legal = views[to_move]["legal"]
    while version < versions:
        assert to_move is not None, "the match ended"
        action = luna_or_first(legal)
        await clients[to_move].send(
            {"type": "action", "id": "a", "version": version, "action": action}
        )
        frames = [await client.recv_until("update") for client in clients]
        version, to_move = frames[0]["version"], frames[0]["to_move"]
        legal = frames[to_move]["legal"] if to_move is not None else []
    await clients[0].send(
        {"type": "action", "id": "r", "version": version, "action": {"type": "resign"}}
    )
    await clients[0].recv_until("update")
    for client in clients:
        await client.close()
    return int(table["match_id"])


async def fetch(http: httpx.AsyncClient, path: str) -> tuple[dict[str, Any], int]:
    """A JSON answer and its size in bytes."""
    response = await http.get(path)
    assert response.status_code == 200, response.text[:300]
    return orjson.loads(response.content), len(response.content)


async def check_replay_and_log(base: str, match_id: int) -> None:
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=120, verify=False) as http:
        record, _ = await fetch(http, f"/api/matches/{match_id}")
        assert record["status"] == "finished" and len(record["deals"]) > VERSIONS // 10
        total = VERSIONS + 2  # the start, every action, the resignation

        # The first page by default: every step of a short match, and here a bounded page.
        first, _ = await fetch(http, f"/api/matches/{match_id}/replay")
        assert first["total_steps"] == total
        assert len(first["steps"]) == min(total, 1000)

        # Paged by 150 (pieces are built by 100: pages cut across them).
        steps: list[dict[str, Any]] = []
        sizes: list[float] = []
        start: int | None = 0
        while start is not None:
            page, _ = await fetch(http, f"/api/matches/{match_id}/replay?from={start}&limit=150")
            assert page["total_steps"] == total and 0 < len(page["steps"]) <= 150
            steps.extend(page["steps"])
            sizes.append(sum(len(orjson.dumps(s)) for s in page["steps"]) / len(page["steps"]))
            assert page["deals"] == record["deals"]  # the results, once a page
            start = page["next"]
        assert [s["version"] for s in steps] == list(range(total))
        assert steps == first["steps"][: len(steps)]
        # A step at the end weighs what a step at the start does, though dozens of deals are over.
        assert steps[-1]["deals_done"] == len(record["deals"])
        assert max(sizes) < 2 * min(sizes), sizes
        assert all(s["view"]["deal_results"] == [] for s in steps)

        # Past the end: nothing, and no next page.
        past, _ = await fetch(http, f"/api/matches/{match_id}/replay?from={total}")
        assert past["steps"] == [] and past["next"] is None
        for bad in ("from=-1", "limit=0", "limit=1001"):
            response = await http.get(f"/api/matches/{match_id}/replay?{bad}")
            assert response.status_code == 422, (bad, response.status_code)

        # The log pages the same way.
        log, _ = await fetch(http, f"/api/matches/{match_id}/log?from=100&limit=50")
        assert log["total_actions"] == total - 1 and log["next"] == 150
        assert [a["version"] for a in log["actions"]] == list(range(101, 151))
        whole, _ = await fetch(http, f"/api/matches/{match_id}/log")
        assert len(whole["actions"]) == total - 1 and whole["next"] is None


def test_a_long_matchs_replay_grows_with_its_length_and_pages(server: tuple[str, Path]) -> None:
    base, log = server
    match_id = asyncio.run(long_match(base, VERSIONS))
    asyncio.run(check_replay_and_log(base, match_id))
    assert not unhandled_errors(log.read_text())
