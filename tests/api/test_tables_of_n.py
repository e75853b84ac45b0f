"""Tables of three and four over the real server: a human with computer players plays every
preset for more than two seats to the end, bids and passes included."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.api.test_api_bots import play_to_the_end
from tests.support import Api, Client, live_server, pick, settings_for

N_SEAT_GAMES = [
    ("three-hand", {"target": 2}, 3),
    ("four-hand", {"target": 2}, 4),
    ("german-32", {"players": 3, "target": 2}, 3),
    ("german-48", {"target": 2}, 4),
    ("german-48", {"target": 2, "partners": True}, 4),
]


@pytest.fixture
async def bot_server(database_url: str) -> AsyncIterator[str]:
    settings = settings_for(database_url, bot_pause=0.0, bot_workers=1)
    async with live_server(settings) as base:
        yield base


@pytest.mark.parametrize(("variant", "options", "seats"), N_SEAT_GAMES)
async def test_a_human_and_computer_players_finish_a_match(
    bot_server: str, variant: str, options: dict[str, object], seats: int
) -> None:
    async with httpx.AsyncClient(base_url=f"http://{bot_server}", timeout=10, verify=False) as http:
        api = Api(http)
        anna = await api.player("Anna")
        bots = {str(seat): "medium" for seat in range(1, seats)}
        table = await api.table(anna["token"], variant=variant, options=options, bots=bots)
        assert table["status"] == "live" and len(table["seats"]) == seats
        client, welcome = await Client.open(bot_server, table["id"], anna["token"])
        try:
            over = await play_to_the_end(client, welcome, random.Random(variant))
        finally:
            await client.close()
        log = await api.call("GET", f"/api/matches/{table['match_id']}/log")
    assert over["winner"] in range(seats)
    assert {a["seat"] for a in log["actions"]} == set(range(seats))


async def test_a_four_hand_match_record_lists_sides_bids_and_deal_winners(
    bot_server: str,
) -> None:
    """History of a partnership match: the sides, each deal's winning side and bid, and a
    replay that shows all four hands step by step."""
    async with httpx.AsyncClient(base_url=f"http://{bot_server}", timeout=10, verify=False) as http:
        api = Api(http)
        anna = await api.player("Anna")
        bots = {str(seat): "easy" for seat in range(1, 4)}
        table = await api.table(
            anna["token"], variant="four-hand", options={"target": 100}, bots=bots
        )
        client, welcome = await Client.open(bot_server, table["id"], anna["token"])
        try:
            await play_one_deal_then_resign(client, welcome, random.Random(7))
        finally:
            await client.close()
        record = await api.call("GET", f"/api/matches/{table['match_id']}")
        listed = await api.call("GET", f"/api/matches?variant=four-hand&player={anna['id']}")
        replay = await api.call("GET", f"/api/matches/{table['match_id']}/replay")
    assert record["sides"] == [0, 1, 0, 1]
    assert record["winner"] == 1 and len(record["game_points"]) == 2  # Anna's side resigned
    played = [d for d in record["deals"] if d["termination"] not in ("all_passed", "resign")]
    assert played and all(d["winner"] in (0, 1) and "bid" in d for d in played)
    assert [m["id"] for m in listed["matches"]] == [table["match_id"]]
    steps = replay["steps"]
    assert all(len(s["hands"]) == 4 for s in steps)
    bids = [s for s in steps if s["action"] and s["action"]["type"] in ("bid", "pass")]
    assert bids, "the replay shows the bidding"


async def play_one_deal_then_resign(
    client: Client, welcome: dict[str, Any], rng: random.Random
) -> None:
    """Seat 0 passes in every bidding and plays legal cards until a deal is played out (not
    all passed), then resigns for its side: the match ends at once."""
    version, legal = welcome["version"], welcome["view"]["legal"]
    played_deal = pending = False
    while True:
        if legal and not pending:
            if played_deal:
                action: dict[str, Any] = {"type": "resign"}
            else:
                action = next((a for a in legal if a["type"] == "pass"), None) or pick(legal, rng)
            await client.send(
                {"type": "action", "id": str(version), "version": version, "action": action}
            )
            pending = True
        frame = await client.recv(timeout=60)
        if frame["type"] == "update":
            version, legal, pending = frame["version"], frame["legal"], False
            for event in frame["events"]:
                if event["type"] == "deal_over":
                    played_deal |= event["result"]["termination"] != "all_passed"
                if event["type"] == "match_over":
                    return
        elif frame["type"] == "error":
            raise AssertionError(frame)
