"""A player's own tables: every table waiting or under way where it holds a seat (private and
computer tables included), with its seat and whose move it is, whether or not the table is
loaded in memory."""

from __future__ import annotations

import random

from app.services import Services
from tests.tables.helpers import play_random, started_table
from tests.tables.test_registry import on_clock


async def test_a_player_finds_every_table_where_it_holds_a_seat(services: Services) -> None:
    tables = services.tables
    authority, (anna, bela) = await started_table(services)
    await play_random(authority, [anna, bela], random.Random(3), 5)
    carla, _ = await tables.create_player("Carla")
    private = await tables.create_table(anna, "sixty-six", {}, "private")
    computer = await tables.create_table(anna, "three-hand", {}, "private", {1: "easy", 2: "easy"})
    left = await tables.create_table(anna, "sixty-six", {}, "public")
    await tables.leave(anna, left["id"])
    others = await tables.create_table(carla, "sixty-six", {}, "public")

    listed = {t["id"]: t for t in await tables.tables_of(anna)}

    assert set(listed) == {authority.table_id, private["id"], computer["id"]}
    assert others["id"] not in listed and left["id"] not in listed
    live = listed[authority.table_id]
    assert live["seat"] == 0 and live["status"] == "live"
    assert authority.state is not None and live["to_move"] == authority.state.to_move
    assert listed[private["id"]]["to_move"] is None  # nobody moves before the match starts
    assert listed[private["id"]]["invite_code"] == private["invite_code"]  # she sits there
    assert listed[computer["id"]]["status"] == "live"
    assert [t["seat"] for t in await tables.tables_of(bela)] == [1]


async def test_whose_move_comes_from_the_log_when_the_table_is_not_loaded(
    services: Services,
) -> None:
    tables = services.tables
    clock = on_clock(services)
    authority, players = await started_table(services)
    await play_random(authority, players, random.Random(8), 7)
    assert authority.state is not None
    expected = authority.state.to_move
    clock.now += tables.idle_seconds
    tables.evict_idle()
    assert tables.loaded() == 0

    (listed,) = await tables.tables_of(players[0])

    assert listed["to_move"] == expected
    assert tables.loaded() == 0  # read from the store, nothing kept
