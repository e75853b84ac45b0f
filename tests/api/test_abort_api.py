"""Aborting a match through the running server (docs/protocol.md, "Aborting a match"): until
every seat has acted in the first deal a seated player ends the match with no winner, and a
rated match between two accounts then leaves both ratings and both statistics as they were,
over REST and over the WebSocket alike; after that point the abort is refused and nothing
changes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.api.test_ratings import resigned_match, signed_up
from tests.support import Api, Client, every_seat_acts, live_server, settings_for


@pytest.fixture
async def site(database_url: str) -> AsyncIterator[tuple[str, Api]]:
    async with (
        live_server(settings_for(database_url)) as base,
        httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http,
    ):
        yield base, Api(http)


async def figures(api: Api, player: dict[str, Any]) -> tuple[Any, Any]:
    """A player's ratings and statistics as its profile shows them."""
    profile = await api.call("GET", f"/api/players/{player['id']}")
    return profile["ratings"], profile["statistics"]


async def rated_pair(base: str, api: Api) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two accounts that already have a rating and statistics (one rated match played), so
    that a change of either would show."""
    anna, bela = await signed_up(api, "anna"), await signed_up(api, "bela")
    await resigned_match(base, api, anna, bela, rated=True)
    return anna, bela


async def rated_table(api: Api, anna: dict[str, Any], bela: dict[str, Any]) -> dict[str, Any]:
    """A rated table between the two, its match just started (version unchanged since)."""
    opened = await api.table(anna["token"], rated=True)
    joined = await api.join(bela["token"], opened["id"], invite_code=opened["invite_code"])
    assert joined["status"] == "live"
    match = await api.call("GET", f"/api/matches/{joined['match_id']}")
    assert match["rated"] is True
    return joined


async def check_aborted(
    api: Api, table: dict[str, Any], players: list[dict[str, Any]], before: list[Any]
) -> None:
    """The match is over with no winner, the table waits with both seated, ratings and
    statistics did not move, and the public record, log and replay are fine with it."""
    match_id = table["match_id"]
    record = await api.call("GET", f"/api/matches/{match_id}")
    assert (record["status"], record["winner"]) == ("aborted", None)
    assert record["finished_at"] is not None and record["deals"] == []
    assert [await figures(api, player) for player in players] == before
    after = await api.call("GET", f"/api/tables/{table['id']}")
    assert (after["status"], after["match_id"], after["version"]) == ("open", None, 0)
    assert [s["player_id"] for s in after["seats"]] == [p["id"] for p in players]
    log = await api.call("GET", f"/api/matches/{match_id}/log")
    assert log["status"] == "aborted" and log["actions"] == [] and log["seed"]
    replay = await api.call("GET", f"/api/matches/{match_id}/replay")
    assert replay["total_steps"] == 1 and replay["steps"][0]["view"]["match_over"] is False
    listed = await api.call("GET", f"/api/matches?player={players[0]['id']}")
    assert [m["status"] for m in listed["matches"]] == ["aborted", "finished"]
    refused = await api.call("POST", f"/api/matches/{match_id}/analysis", players[0]["token"], 409)
    assert refused["error"]["code"] == "match_aborted"


async def test_a_rated_match_aborted_over_rest_at_version_0_rates_and_counts_nothing(
    site: tuple[str, Api],
) -> None:
    base, api = site
    anna, bela = await rated_pair(base, api)
    before = [await figures(api, anna), await figures(api, bela)]
    table = await rated_table(api, anna, bela)
    watcher, welcome = await Client.open(base, table["id"], bela["token"])
    assert welcome["abortable"] is True and welcome["version"] == 0
    aborted = await api.call("POST", f"/api/tables/{table['id']}/abort", anna["token"])
    assert aborted["status"] == "open"
    # Every viewer is told, then sees the table waiting and no match.
    frame = await watcher.recv_until("aborted")
    assert frame == {
        "type": "aborted",
        "match_id": table["match_id"],
        "seat": 0,
        "reason": "player",
        "left": False,
    }
    again = await watcher.recv_until("welcome")
    assert again["view"] is None and again["abortable"] is False
    await watcher.close()
    await check_aborted(api, table, [anna, bela], before)
    # The table is back to waiting: a new match starts when both accept one.
    offer = await api.call("POST", f"/api/tables/{table['id']}/rematch", bela["token"])
    assert offer["rematch"]["outcome"] == "pending"
    started = await api.call("POST", f"/api/tables/{table['id']}/rematch", anna["token"])
    assert started["status"] == "live" and started["match_id"] != table["match_id"]


async def test_a_rated_match_aborted_over_the_websocket_rates_and_counts_nothing(
    site: tuple[str, Api],
) -> None:
    base, api = site
    anna, bela = await rated_pair(base, api)
    before = [await figures(api, anna), await figures(api, bela)]
    table = await rated_table(api, anna, bela)
    spectator, _ = await Client.open(base, table["id"])
    await spectator.send({"type": "abort", "id": "s1"})
    refused = await spectator.recv_until("error")
    assert (refused["code"], refused["id"]) == ("not_seated", "s1")
    client, welcome = await Client.open(base, table["id"], bela["token"])
    assert welcome["abortable"] is True
    await client.send({"type": "abort", "id": "x1", "leave": "yes"})
    bad = await client.recv_until("error")
    assert (bad["code"], bad["id"]) == ("bad_message", "x1")
    await client.send({"type": "abort", "id": "x2"})
    frame = await client.recv_until("aborted")
    assert (frame["seat"], frame["reason"], frame["left"]) == (1, "player", False)
    assert (await spectator.recv_until("aborted")) == frame
    await client.close()
    await spectator.close()
    await check_aborted(api, table, [anna, bela], before)


async def test_once_every_seat_has_acted_an_abort_is_refused_and_changes_nothing(
    site: tuple[str, Api],
) -> None:
    base, api = site
    anna, bela = await rated_pair(base, api)
    table = await rated_table(api, anna, bela)
    version = await every_seat_acts(base, table["id"], [anna["token"], bela["token"]])
    assert version is not None and version >= 2
    before = [await figures(api, anna), await figures(api, bela)]
    refused = await api.call("POST", f"/api/tables/{table['id']}/abort", anna["token"], 409)
    assert refused["error"]["code"] == "abort_too_late"
    client, welcome = await Client.open(base, table["id"], bela["token"])
    assert welcome["abortable"] is False
    await client.send({"type": "abort", "id": "late"})
    error = await client.recv_until("error")
    assert (error["code"], error["id"]) == ("abort_too_late", "late")
    await client.close()
    after = await api.call("GET", f"/api/tables/{table['id']}")
    assert (after["status"], after["version"], after["match_id"]) == (
        "live",
        version,
        table["match_id"],
    )
    record = await api.call("GET", f"/api/matches/{table['match_id']}")
    assert record["status"] == "live"
    assert [await figures(api, anna), await figures(api, bela)] == before
