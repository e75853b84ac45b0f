"""Pools over the real server, as outside clients see them: players join over REST and poll
their entry until a wave seats them; ranges grow; the computer offer; leaving and going
offline (docs/pools.md)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
from sqlalchemy.ext.asyncio import create_async_engine

from app.store.models import Rating
from tests.api.test_accounts import account
from tests.api.test_api_rest import assert_error
from tests.support import Api, live_server, settings_for

PATIENCE = 60.0
"""How long a test waits for a wave to do what it must (a generous bound for a busy
machine; the tests assert what happened, never how fast)."""
FAST = {"pool_wave_seconds": 0.2, "pool_wave_jitter_seconds": 0.05}


@asynccontextmanager
async def pool_api(database_url: str, **settings: Any) -> AsyncIterator[Api]:
    """A REST client of a server whose waves run every few tenths of a second."""
    settings = {**FAST, **settings}
    async with (
        live_server(settings_for(database_url, **settings)) as base,
        httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as client,
    ):
        yield Api(client)


async def until(
    api: Api, token: str, done: Callable[[dict[str, Any]], bool], seen: list[Any] | None = None
) -> dict[str, Any]:
    """Poll the player's entry (which keeps it online) until ``done``; the entry then."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        entry = await api.call("GET", "/api/pools/entry", token)
        if seen is not None:
            seen.append(entry)
        if done(entry):
            return entry
        await asyncio.sleep(0.05)
    raise AssertionError(f"the entry never got there: {entry}")


def seated(entry: dict[str, Any]) -> bool:
    return entry["status"] == "seated"


async def seated_all(api: Api, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every player's entry once seated (all polled together, so all stay online)."""
    return list(await asyncio.gather(*(until(api, p["token"], seated) for p in players)))


async def live(api: Api, table_id: str) -> dict[str, Any]:
    """The table once its match has started (a wave starts it right after announcing it)."""
    deadline = time.monotonic() + PATIENCE
    while (table := await api.call("GET", f"/api/tables/{table_id}"))["status"] != "live":
        assert time.monotonic() < deadline, f"the table never started: {table}"
        await asyncio.sleep(0.05)
    return table


async def leave(api: Api, path: str, token: str) -> None:
    """Leave the pool by ``path`` (an answer with no body)."""
    headers = {"Authorization": f"Bearer {token}"}
    response = await api.client.request("DELETE", path, headers=headers)
    assert response.status_code == 204, (response.status_code, response.text)


async def waiting_in(api: Api, pool_id: str) -> int:
    pools = (await api.call("GET", "/api/pools"))["pools"]
    return next(pool["waiting"] for pool in pools if pool["id"] == pool_id)


async def test_two_accounts_in_one_pool_are_seated_together_at_a_rated_timed_table(
    database_url: str,
) -> None:
    async with pool_api(database_url) as api:
        anna, bela = await account(api, "anna", "Anna"), await account(api, "bela", "Bela")
        pools = (await api.call("GET", "/api/pools"))["pools"]
        assert {pool["id"] for pool in pools} >= {"sixty-six-2", "three-hand-3", "four-hand-4"}
        for player in (anna, bela):
            entry = await api.call("POST", "/api/pools/sixty-six-2/join", player["token"])
            assert entry["status"] in ("waiting", "seated") and entry["pool"] == "sixty-six-2"
        first, second = await seated_all(api, [anna, bela])
        table = first["table"]
        assert second["table"]["id"] == table["id"]
        assert {seat["player_id"] for seat in table["seats"]} == {anna["id"], bela["id"]}
        assert table["rated"] is True and (await live(api, table["id"]))["status"] == "live"
        assert table["visibility"] == "public" and table["clock"] == "move"
        mine = await api.call("GET", "/api/players/me/tables", anna["token"])
        assert [t["id"] for t in mine["tables"]] == [table["id"]]
        assert await waiting_in(api, "sixty-six-2") == 0


async def test_far_apart_ratings_are_paired_only_once_the_ranges_have_grown(
    database_url: str,
) -> None:
    engine = create_async_engine(database_url)
    growth, base = 400.0, 100.0
    try:
        async with pool_api(database_url, pool_range_growth=growth, pool_range_base=base) as api:
            strong = await account(api, "strong", "Strong")
            async with engine.begin() as connection:
                await connection.execute(
                    Rating.__table__.insert().values(
                        player_id=strong["id"], family="sixty-six", mu=2300.0, sigma=80.0
                    )
                )
            guest = await api.player("Guest")  # a guest is paired by the starting 1500
            joined = await api.call("POST", "/api/pools/sixty-six-2/join", strong["token"])
            assert joined["rating"] == 2300
            await api.call("POST", "/api/pools/sixty-six-2/join", guest["token"])
            entries = await seated_all(api, [strong, guest])
    finally:
        await engine.dispose()
    assert entries[0]["table"]["id"] == entries[1]["table"]["id"]
    assert entries[0]["table"]["rated"] is False  # a guest sits at it
    # Both had to wait until both ranges reached the 800 between them.
    needed = (800 - base) / growth
    assert min(entry["waited"] for entry in entries) >= needed


async def test_three_entrants_fill_a_three_hand_table(database_url: str) -> None:
    async with pool_api(database_url) as api:
        players = [await api.player(name) for name in ("Anna", "Bela", "Cili")]
        for player in players:
            await api.call("POST", "/api/pools/three-hand-3/join", player["token"])
        entries = await seated_all(api, players)
        assert len({entry["table"]["id"] for entry in entries}) == 1
        table = await live(api, entries[0]["table"]["id"])
    assert sorted(seat["player_id"] for seat in table["seats"]) == sorted(
        player["id"] for player in players
    )
    assert table["variant"] == "three-hand"


async def test_the_computer_offer_comes_after_its_time_and_seats_computers(
    database_url: str,
) -> None:
    after = 1.0
    async with pool_api(database_url, pool_bot_after_seconds=after) as api:
        anna = await api.player("Anna")
        joined = await api.call("POST", "/api/pools/four-hand-4/join", anna["token"])
        if joined["waited"] < after:
            assert joined["offer"] is None
        offered = await until(api, anna["token"], lambda entry: entry["offer"] is not None)
        assert offered["waited"] >= after and offered["offer"] == {"level": "medium"}
        entry = await api.call("POST", "/api/pools/entry/bots", anna["token"])
        assert entry["status"] == "seated"
        table = entry["table"]
        holders = {seat["seat"]: seat["player_id"] for seat in table["seats"]}
        assert holders[0] == anna["id"]
        assert all(holders[seat].startswith("bot") for seat in (1, 2, 3)), holders
        assert all("medium" in holders[seat] for seat in (1, 2, 3)), holders
        assert (await live(api, table["id"]))["status"] == "live"
        assert await waiting_in(api, "four-hand-4") == 0
        again = await api.call("POST", "/api/pools/entry/bots", anna["token"], status=404)
        assert_error(again, "not_in_pool")


async def test_leaving_takes_a_player_out_and_the_errors_have_their_codes(
    database_url: str,
) -> None:
    async with pool_api(database_url, pool_bot_after_seconds=3600) as api:
        anna, bela = await api.player("Anna"), await api.player("Bela")
        unknown = await api.call("POST", "/api/pools/nine-hand-9/join", anna["token"], status=404)
        assert_error(unknown, "unknown_pool")
        await api.call("POST", "/api/pools/sixty-six-2/join", anna["token"])
        other = await api.call("POST", "/api/pools/schnapsen-2/join", anna["token"], status=409)
        assert_error(other, "in_another_pool")
        early = await api.call("POST", "/api/pools/entry/bots", anna["token"], status=409)
        assert_error(early, "no_offer")
        await leave(api, "/api/pools/sixty-six-2/join", anna["token"])
        gone = await api.call("GET", "/api/pools/entry", anna["token"], status=404)
        assert_error(gone, "not_in_pool")
        again = await api.call("DELETE", "/api/pools/entry", anna["token"], status=404)
        assert_error(again, "not_in_pool")
        # Bela comes after Anna left: nobody is there to pair him with.
        await api.call("POST", "/api/pools/sixty-six-2/join", bela["token"])
        assert await waiting_in(api, "sixty-six-2") == 1
        # Anna may wait in another pool now, and leave it by the other door.
        await api.call("POST", "/api/pools/schnapsen-2/join", anna["token"])
        await leave(api, "/api/pools/entry", anna["token"])
        entry = await api.call("GET", "/api/pools/entry", bela["token"])
        assert entry["status"] == "waiting"
        assert await waiting_in(api, "schnapsen-2") == 0


async def test_a_player_gone_offline_is_taken_out_and_one_who_polls_stays(
    database_url: str,
) -> None:
    async with pool_api(database_url, online_window_seconds=1.0) as api:
        quiet, polling = await api.player("Quiet"), await api.player("Polling")
        await api.call("POST", "/api/pools/german-48-4/join", quiet["token"])
        await api.call("POST", "/api/pools/german-48-4/join", polling["token"])
        deadline = time.monotonic() + PATIENCE
        while await waiting_in(api, "german-48-4") > 1:  # no token: nobody is kept online
            assert time.monotonic() < deadline, "the quiet player was never taken out"
            await api.call("GET", "/api/players/me/tables", polling["token"])
            await asyncio.sleep(0.1)
        # Three more windows of polling only the player's tables: it stays in.
        until_then = time.monotonic() + 3.0
        while time.monotonic() < until_then:
            await api.call("GET", "/api/players/me/tables", polling["token"])
            await asyncio.sleep(0.1)
        assert await waiting_in(api, "german-48-4") == 1
        entry = await api.call("GET", "/api/pools/entry", polling["token"])
        assert entry["status"] == "waiting" and entry["waited"] > 3.0
        gone = await api.call("GET", "/api/pools/entry", quiet["token"], status=404)
        assert_error(gone, "not_in_pool")
