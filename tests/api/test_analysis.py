"""Analysis of a finished match over the real server: asked for by a player, computed in a
bot worker process in the background, stored once and read by anyone who may see the match;
refused while the match runs, and bounded per player."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.bots.analysis import MARKS
from tests.api.test_api_bots import play_to_the_end
from tests.support import Api, Client, live_server, settings_for


@pytest.fixture
async def analysis_server(database_url: str) -> AsyncIterator[str]:
    settings = settings_for(
        database_url, bot_pause=0.0, bot_workers=1, analyses_per_hour=1, analysis_worlds=2
    )
    async with live_server(settings) as base:
        yield base


async def finished_match(api: Api, base: str, token: str) -> dict[str, Any]:
    """A Schnapsen match to one game point against the easy computer, played to its end;
    its table (``match_id`` included)."""
    table = await api.table(token, variant="schnapsen", options={"target": 1}, bots={"1": "easy"})
    client, welcome = await Client.open(base, table["id"], token)
    try:
        await play_to_the_end(client, welcome, random.Random(table["id"]))
    finally:
        await client.close()
    return table


async def analysed(api: Api, match_id: int) -> dict[str, Any]:
    """The analysis, once the server has stored it."""
    for _ in range(600):
        response = await api.client.get(f"/api/matches/{match_id}/analysis")
        if response.status_code == 200:
            return dict(response.json())
        assert response.json()["error"]["code"] == "analysis_not_found"
        await asyncio.sleep(0.05)
    raise AssertionError("the analysis never came")


async def test_a_finished_match_is_analysed_once_from_each_seat_s_view_and_asked_for_sparingly(
    analysis_server: str,
) -> None:
    async with httpx.AsyncClient(
        base_url=f"http://{analysis_server}", timeout=10, verify=False
    ) as http:
        api = Api(http)
        anna, bela = await api.player("Anna"), await api.player("Bela")
        live = await api.table(anna["token"], variant="schnapsen", bots={"1": "easy"})
        path = f"/api/matches/{live['match_id']}/analysis"
        assert (await api.call("GET", path, status=409))["error"]["code"] == "match_live"
        refused = await api.call("POST", path, anna["token"], status=409)
        assert refused["error"]["code"] == "match_live"

        table = await finished_match(api, analysis_server, anna["token"])
        path = f"/api/matches/{table['match_id']}/analysis"
        missing = await api.call("GET", path, status=404)
        assert missing["error"]["code"] == "analysis_not_found"
        assert (await api.call("POST", path, status=401))["error"]["code"] == "missing_token"
        asked = await api.call("POST", path, anna["token"], status=202)
        assert asked == {"match_id": table["match_id"], "status": "queued"}
        analysis = await analysed(api, table["match_id"])
        again = await api.call("POST", path, bela["token"], status=202)  # one per match
        log = await api.call("GET", f"/api/matches/{table['match_id']}/log")
        listed = await api.call("GET", f"/api/matches?player={anna['id']}")
        # One analysis an hour (the test's setting): Anna's next is refused.
        other = await finished_match(api, analysis_server, anna["token"])
        limited = await http.post(
            f"/api/matches/{other['match_id']}/analysis",
            headers={"Authorization": f"Bearer {anna['token']}"},
        )

    assert again == {"match_id": table["match_id"], "status": "done"}
    assert log["analysis"] == "done"  # every record of the match says so, lists included
    assert {m["id"]: m["analysis"] for m in listed["matches"]}[table["match_id"]] == "done"
    assert limited.status_code == 429
    assert limited.json()["error"]["code"] == "too_many_analyses"
    assert int(limited.headers["Retry-After"]) > 0
    moves = analysis["moves"]
    logged = {entry["version"]: entry for entry in log["actions"]}
    assert moves and {move["seat"] for move in moves} == {0, 1}
    for move in moves:
        entry = logged[move["version"]]
        assert (move["seat"], move["played"]) == (entry["seat"], entry["action"])
        assert move["lost"] >= 0 and move["mark"] in (None, *(name for name, _ in MARKS))
        assert move["best"]["type"] in ("play", "exchange", "close", "claim")
