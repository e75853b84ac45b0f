"""Private tables stay private: watched only with the invite code, spectators kept out when
the players say so, and their matches out of strangers' history while they run (or for good).

Anyone could list a private table's live match through ``GET /api/matches`` and watch it
with a tokenless greeting, although the lobby promised "only with the invite link".
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from websockets.asyncio.client import connect

from tests.support import Api, Client, closed_with


async def refused(base: str, table_id: str, hello: dict[str, Any]) -> tuple[str, int]:
    """Greet with ``hello``; the error code and close code the server answers with."""
    socket = await connect(f"ws://{base}/ws/tables/{table_id}")
    await socket.send(json.dumps({"type": "hello", **hello}))
    frame = json.loads(await asyncio.wait_for(socket.recv(), 5))
    assert frame["type"] == "error" and frame["message"], frame
    return frame["code"], await closed_with(socket)


async def private_match(api: Api, **options: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A live private table (``options`` for the table) and its two players."""
    anna, bela = await api.player("Anna"), await api.player("Bela")
    table = await api.table(anna["token"], visibility="private", **options)
    joined = await api.join(bela["token"], table["id"], invite_code=table["invite_code"])
    assert joined["status"] == "live"
    return {**joined, "invite_code": table["invite_code"]}, [anna, bela]


async def resign(base: str, table_id: str, token: str) -> None:
    """End the match: the player in ``token``'s seat resigns."""
    client, welcome = await Client.open(base, table_id, token)
    version = welcome["version"]
    await client.send({"type": "action", "version": version, "action": {"type": "resign"}})
    await client.recv_until("ack")
    await client.close()


async def test_a_private_table_is_watched_only_with_its_invite_code(api: Api, server: str) -> None:
    table, (anna, _) = await private_match(api)
    stranger = await api.player("Cleo")
    for hello in (
        {"token": None},
        {"token": None, "invite": "wrong-code"},
        {"token": stranger["token"]},
    ):
        assert await refused(server, table["id"], hello) == ("invite_required", 4005), hello
    watcher, welcome = await Client.open(server, table["id"], invite=table["invite_code"])
    assert welcome["seat"] is None and welcome["view"]["hand"] == []
    seated, mine = await Client.open(server, table["id"], anna["token"])  # no code needed
    assert mine["seat"] == 0
    await watcher.close()
    await seated.close()


@pytest.mark.parametrize("visibility", ["public", "private"])
async def test_players_can_keep_spectators_out(api: Api, server: str, visibility: str) -> None:
    anna, bela = await api.player("Anna"), await api.player("Bela")
    table = await api.table(anna["token"], visibility=visibility, spectators=False)
    assert table["spectators"] is False
    joined = await api.join(bela["token"], table["id"], invite_code=table["invite_code"])
    assert joined["status"] == "live"
    for hello in ({"token": None}, {"token": None, "invite": table["invite_code"]}):
        assert await refused(server, table["id"], hello) == ("no_spectators", 4005)
    live = await api.call("GET", "/api/tables?status=live")
    assert table["id"] not in [t["id"] for t in live["tables"]]  # nothing to watch there
    seated, welcome = await Client.open(server, table["id"], bela["token"])
    assert welcome["seat"] == 1
    await seated.close()


def listed(page: dict[str, Any]) -> list[int]:
    return [m["id"] for m in page["matches"]]


async def test_strangers_find_a_private_match_in_history_only_once_it_is_over(
    api: Api, server: str
) -> None:
    table, (anna, _) = await private_match(api)
    match_id = table["match_id"]
    stranger = (await api.player("Cleo"))["token"]
    for token in (None, stranger):
        assert match_id not in listed(await api.call("GET", "/api/matches", token))
        for path in (f"/api/matches/{match_id}", f"/api/matches/{match_id}/log"):
            body = await api.call("GET", path, token, status=404)
            assert body["error"]["code"] == "match_not_found"
    # Its players see their own match while it runs.
    assert match_id in listed(await api.call("GET", "/api/matches", anna["token"]))
    assert (await api.call("GET", f"/api/matches/{match_id}", anna["token"]))["status"] == "live"
    await resign(server, table["id"], anna["token"])
    for token in (None, stranger):
        assert match_id in listed(await api.call("GET", "/api/matches", token))
        assert (await api.call("GET", f"/api/matches/{match_id}/log", token))["id"] == match_id


async def test_players_can_keep_a_private_match_out_of_history_for_good(
    api: Api, server: str
) -> None:
    table, (anna, bela) = await private_match(api, history="never")
    assert table["history"] == "never"
    match_id = table["match_id"]
    await resign(server, table["id"], bela["token"])
    stranger = (await api.player("Cleo"))["token"]
    for token in (None, stranger):
        assert match_id not in listed(await api.call("GET", "/api/matches", token))
        await api.call("GET", f"/api/matches/{match_id}/replay", token, status=404)
    for token in (anna["token"], bela["token"]):
        assert match_id in listed(await api.call("GET", "/api/matches", token))
        assert (await api.call("GET", f"/api/matches/{match_id}/log", token))["winner"] == 0
    # Nor does a player's match export show it to anyone but its players.
    export = f"/api/players/{anna['id']}/matches.ndjson"
    for token, shown in ((None, False), (stranger, False), (bela["token"], True)):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        lines = (await api.client.get(export, headers=headers)).text.splitlines()
        assert (match_id in [json.loads(line)["id"] for line in lines]) is shown, token


async def test_a_public_profile_counts_no_match_kept_out_of_history(api: Api, server: str) -> None:
    """Statistics, recent matches and the rating trend on a public profile come only from
    matches anyone may see: a ``history: never`` match leaves no trace there."""
    anna, bela = await api.player("Anna"), await api.player("Bela")
    for who, handle in ((anna, "anna"), (bela, "bela")):
        body = {"handle": handle, "password": "a long enough secret"}
        await api.call("POST", "/api/accounts", who["token"], json=body, status=201)
    matches = []
    for history in ("never", "after_match"):
        table = await api.table(anna["token"], visibility="private", history=history, rated=True)
        joined = await api.join(bela["token"], table["id"], invite_code=table["invite_code"])
        await resign(server, table["id"], bela["token"])
        matches.append(joined["match_id"])
        profile = await api.call("GET", f"/api/players/{anna['id']}")
        counted = 0 if history == "never" else 1
        assert profile["statistics"]["matches"] == counted, history
        assert profile["statistics"]["won"] == counted, history
        assert [m["id"] for m in profile["recent"]] == matches[1:]
        trend = [c["match_id"] for r in profile["ratings"] for c in r["trend"]]
        assert trend == matches[1:], history


async def test_only_a_private_table_can_keep_its_matches_unlisted(api: Api) -> None:
    anna = await api.player("Anna")
    body = await api.call(
        "POST", "/api/tables", anna["token"], status=422, json={"history": "never"}
    )
    assert body["error"]["code"] == "bad_history"


async def test_a_player_gets_back_to_its_private_tables_and_nobody_else_sees_them(
    api: Api, server: str
) -> None:
    """``GET /api/players/me/tables``: the way back to a private table, never someone else's."""
    table, (anna, _) = await private_match(api)
    carla = await api.player("Carla")
    client, welcome = await Client.open(server, table["id"], anna["token"])
    await client.close()

    mine = await api.call("GET", "/api/players/me/tables", anna["token"])
    theirs = await api.call("GET", "/api/players/me/tables", carla["token"])
    nobody = await api.call("GET", "/api/players/me/tables", status=401)

    (listed,) = mine["tables"]
    assert listed["id"] == table["id"] and listed["invite_code"] == table["invite_code"]
    assert listed["seat"] == 0 and listed["to_move"] == welcome["view"]["to_move"]
    assert theirs == {"tables": []}
    assert nobody["error"]["code"] == "missing_token"
