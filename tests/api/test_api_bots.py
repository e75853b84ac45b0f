"""Computer opponents over the real server: creating a table with a bot, giving a seat to a
bot, and a human playing whole matches against each level over the WebSocket."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.bots import LEVELS
from tests.support import Api, Client, live_server, pick, settings_for


@pytest.fixture
async def bot_server(database_url: str) -> AsyncIterator[str]:
    """A server whose bots answer without a pause, thinking in a worker process (the expert
    with a short budget)."""
    settings = settings_for(
        database_url, bot_pause=0.0, bot_expert_pause=0.0, bot_expert_budget=0.1, bot_workers=1
    )
    async with live_server(settings) as base:
        yield base


@pytest.fixture
async def bot_api(bot_server: str) -> AsyncIterator[Api]:
    async with httpx.AsyncClient(
        base_url=f"http://{bot_server}", timeout=10, verify=False
    ) as client:
        yield Api(client)


async def play_to_the_end(client: Client, welcome: dict[str, Any], rng: random.Random) -> dict:
    """Play seat 0's legal actions as they come until the match is over; the last event."""
    version, legal = welcome["version"], welcome["view"]["legal"]
    pending = False
    while True:
        if legal and not pending:
            action = pick(legal, rng)
            await client.send(
                {"type": "action", "id": str(version), "version": version, "action": action}
            )
            pending = True
        frame = await client.recv(timeout=60)
        if frame["type"] == "update":
            assert frame["version"] == version + 1, "a version was skipped"
            version, legal, pending = frame["version"], frame["legal"], False
            over = [e for e in frame["events"] if e["type"] == "match_over"]
            if over:
                return over[0]
        elif frame["type"] == "error":
            raise AssertionError(frame)


@pytest.mark.parametrize("level", LEVELS)
async def test_a_human_plays_a_whole_match_against_each_bot_level(
    bot_api: Api, bot_server: str, level: str
) -> None:
    anna = await bot_api.player("Anna")
    table = await bot_api.table(
        anna["token"], variant="schnapsen", options={"target": 3}, bots={"1": level}
    )
    assert table["status"] == "live"
    assert table["seats"][1]["name"] == f"Computer ({level})"
    client, welcome = await Client.open(bot_server, table["id"], anna["token"])
    try:
        over = await play_to_the_end(client, welcome, random.Random(level))
    finally:
        await client.close()
    assert over["winner"] in (0, 1)
    finished = await bot_api.call("GET", f"/api/tables/{table['id']}")
    assert finished["status"] == "finished"
    log = await bot_api.call("GET", f"/api/matches/{table['match_id']}/log")
    assert {a["seat"] for a in log["actions"]} == {0, 1}


async def test_bad_bot_seats_and_levels_are_refused_naming_the_field(bot_api: Api) -> None:
    anna = await bot_api.player("Anna")
    token = anna["token"]
    bad_level = await bot_api.call(
        "POST", "/api/tables", token, status=422, json={"bots": {"1": "brilliant"}}
    )
    assert bad_level["error"]["code"] == "validation_error"
    assert "bots.1" in bad_level["error"]["message"]
    bad_seat = await bot_api.call(
        "POST", "/api/tables", token, status=422, json={"bots": {"0": "easy"}}
    )
    assert bad_seat["error"]["code"] == "bad_bots" and "bots" in bad_seat["error"]["message"]
    far_seat = await bot_api.call(
        "POST", "/api/tables", token, status=422, json={"bots": {"5": "easy"}}
    )
    assert far_seat["error"]["code"] == "bad_bots"


async def test_a_seated_player_gives_the_empty_seat_to_a_bot(bot_api: Api) -> None:
    anna, bela = await bot_api.player("Anna"), await bot_api.player("Bela")
    table = await bot_api.table(anna["token"])
    path = f"/api/tables/{table['id']}/bots"
    refused = await bot_api.call("POST", path, bela["token"], status=403, json={"seat": 1})
    assert refused["error"]["code"] == "not_seated"
    bad = await bot_api.call("POST", path, anna["token"], status=422, json={"level": "x"})
    assert "level" in bad["error"]["message"]
    started = await bot_api.call("POST", path, anna["token"], json={"seat": 1, "level": "hard"})
    assert started["status"] == "live" and started["seats"][1]["name"] == "Computer (hard)"
    taken = await bot_api.call("POST", path, anna["token"], status=409, json={"seat": 1})
    assert taken["error"]["code"] in ("seat_taken", "table_not_open")
