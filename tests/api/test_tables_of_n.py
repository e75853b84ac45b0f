"""Tables of three and four over the real server: a human with computer players plays every
preset for more than two seats to the end, bids and passes included."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.api.test_api_bots import play_to_the_end
from tests.support import Api, Client, live_server, settings_for

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
    async with httpx.AsyncClient(base_url=f"http://{bot_server}", timeout=10) as http:
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
