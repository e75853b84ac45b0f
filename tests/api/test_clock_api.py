"""Turn clocks over the real server: the defaults, the choices, the frames, and a clock that
runs out for real (a short clock) and ends the match in the store, with the record saying
who abandoned it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.support import Api, Client, every_seat_acts, live_server, settings_for


@pytest.fixture
async def short_clock(database_url: str) -> AsyncIterator[tuple[str, Api]]:
    """A server whose per-move clock is half a second with no bank."""
    settings = settings_for(database_url, clock_move_seconds=0.5, clock_bank_seconds=0.0)
    async with (
        live_server(settings) as base,
        httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as client,
    ):
        yield base, Api(client)


async def test_public_tables_for_strangers_are_timed_and_others_choose(api: Api) -> None:
    anna = await api.player("Anna")
    public = await api.call(
        "POST", "/api/tables", anna["token"], status=201, json={"visibility": "public"}
    )
    assert (public["clock"], public["on_timeout"], public["abandoned"]) == ("move", "takeover", [])
    private = await api.call(
        "POST", "/api/tables", anna["token"], status=201, json={"visibility": "private"}
    )
    assert private["clock"] == "none"
    against_bots = await api.call(
        "POST", "/api/tables", anna["token"], status=201, json={"bots": {"1": "easy"}}
    )
    assert against_bots["clock"] == "none"
    chosen = await api.table(
        anna["token"], visibility="private", clock="correspondence", on_timeout="forfeit"
    )
    assert (chosen["clock"], chosen["on_timeout"]) == ("correspondence", "forfeit")
    listed = await api.call("GET", "/api/tables?status=open")
    assert {t["id"]: t["clock"] for t in listed["tables"]}[public["id"]] == "move"
    bad = await api.call("POST", "/api/tables", anna["token"], status=422, json={"clock": "blitz"})
    assert bad["error"]["code"] == "validation_error"
    nothing = await api.call(
        "POST", f"/api/tables/{public['id']}/reclaim", anna["token"], status=409
    )
    assert nothing["error"]["code"] == "nothing_to_reclaim"


async def test_a_short_clock_runs_out_and_the_match_is_forfeited_in_the_store(
    short_clock: tuple[str, Api],
) -> None:
    base, api = short_clock
    for _ in range(10):  # both must play their first card within the half second each
        table, (anna, bela) = await api.live_table(clock="move", on_timeout="forfeit")
        client, welcome = await Client.open(base, table["id"], anna["token"])
        # Before every seat has acted, a clock that runs out aborts the match instead (on
        # a loaded machine even before Anna's socket is open: a welcome with no match).
        if welcome["view"] is not None:
            clock = await client.recv_until_any(("clock", "aborted"))
            tokens = [anna["token"], bela["token"]]
            if clock["type"] == "clock" and await every_seat_acts(base, table["id"], tokens):
                break
        await client.close()
    else:
        raise AssertionError("every match was aborted before both had played a card")
    assert clock["type"] == "clock" and clock["per_move"] == 0.5
    start = welcome["view"]["to_move"]
    assert clock["seat"] == start and 0 < clock["remaining"][start] <= 0.5
    while True:
        over = await client.recv_until("update", timeout=10)
        if over["events"] and over["events"][-1]["type"] == "match_over":
            break
        to_move = over["to_move"]
    # The update carries the clock as the resignation left it: nobody's time runs.
    assert over["clock"]["seat"] is None and over["clock"]["version"] == over["version"]
    await client.close()
    for _ in range(50):  # the record is written in the same transaction as the resignation
        record = await api.call("GET", f"/api/matches/{table['match_id']}")
        if record["status"] == "finished":
            break
        await asyncio.sleep(0.1)
    assert record["winner"] == 1 - to_move
    who = (anna, bela)[to_move]
    assert record["abandoned"] == [
        {"seat": to_move, "player_id": who["id"], "name": who["name"], "consequence": "forfeit"}
    ]
