"""The WebSocket protocol (docs/protocol.md): greeting, acting, errors, close codes, resuming."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from websockets.asyncio.client import connect

from tests.support import Api, Client, closed_with


async def live(api: Api, server: str) -> tuple[dict[str, Any], list[Client], list[dict[str, Any]]]:
    """A live table with both players connected; their welcomes."""
    table, players = await api.live_table()
    opened = [await Client.open(server, table["id"], p["token"]) for p in players]
    return table, [c for c, _ in opened], [w for _, w in opened]


def mover(welcomes: list[dict[str, Any]]) -> int:
    return int(welcomes[0]["view"]["to_move"])


def action(version: int, body: dict[str, Any], ref: str = "c1") -> dict[str, Any]:
    return {"type": "action", "id": ref, "version": version, "action": body}


async def test_seats_see_their_own_hand_and_spectators_see_none(api: Api, server: str) -> None:
    table, _clients, welcomes = await live(api, server)
    _spectator, watched = await Client.open(server, table["id"])
    assert [w["seat"] for w in welcomes] == [0, 1] and watched["seat"] is None
    assert all(len(w["view"]["hand"]) == 6 for w in welcomes)
    assert watched["view"]["hand"] == [] and watched["view"]["legal"] == []
    assert not set(welcomes[0]["view"]["hand"]) & set(welcomes[1]["view"]["hand"])
    assert {w["version"] for w in (*welcomes, watched)} == {0}
    assert all(w["match_id"] == table["match_id"] for w in welcomes)


async def test_an_action_is_acked_and_every_viewer_gets_the_update(api: Api, server: str) -> None:
    table, clients, welcomes = await live(api, server)
    spectator, _ = await Client.open(server, table["id"])
    seat = mover(welcomes)
    card = welcomes[seat]["view"]["hand"][0]
    await clients[seat].send(action(0, {"type": "play", "card": card}, "a-1"))
    updates = [await c.recv_until("update") for c in (*clients, spectator)]
    assert {u["version"] for u in updates} == {1}
    played = [u["events"][0] for u in updates]
    assert all((e["type"], e["seat"], e["card"]) == ("card_played", seat, card) for e in played)
    assert updates[1 - seat]["legal"] and updates[seat]["legal"] == [] and updates[2]["legal"] == []
    assert all(u["to_move"] == 1 - seat for u in updates)
    assert await clients[seat].recv_until("ack") == {"type": "ack", "id": "a-1", "version": 1}


async def test_illegal_actions_answer_the_engine_code_and_change_nothing(
    api: Api, server: str
) -> None:
    table, clients, welcomes = await live(api, server)
    seat = mover(welcomes)
    other = clients[1 - seat]
    card = welcomes[1 - seat]["view"]["hand"][0]
    await other.send(action(0, {"type": "play", "card": card}))
    error = await other.recv()
    assert error["type"] == "error" and error["code"] == "not_your_turn" and error["id"] == "c1"
    foreign = welcomes[1 - seat]["view"]["hand"][0]
    await clients[seat].send(action(0, {"type": "play", "card": foreign}, "c2"))
    error = await clients[seat].recv()
    assert error["code"] == "card_not_in_hand"
    hidden = set(welcomes[1 - seat]["view"]["hand"]) - {foreign}
    assert not any(code in error["message"] for code in hidden)  # no other hidden card
    await clients[seat].send(action(0, {"type": "dance"}, "c3"))
    assert (await clients[seat].recv())["code"] == "bad_action"
    table_now = await api.call("GET", f"/api/tables/{table['id']}")
    assert table_now["version"] == 0


async def test_a_stale_version_is_refused_with_the_current_version(api: Api, server: str) -> None:
    _, clients, welcomes = await live(api, server)
    seat = mover(welcomes)
    await clients[seat].send(action(7, {"type": "play", "card": welcomes[seat]["view"]["hand"][0]}))
    error = await clients[seat].recv()
    assert error["code"] == "stale_version" and error["version"] == 0


async def test_a_spectator_cannot_act(api: Api, server: str) -> None:
    table, _, _welcomes = await live(api, server)
    spectator, _ = await Client.open(server, table["id"])
    await spectator.send(action(0, {"type": "resign"}))
    error = await spectator.recv()
    assert error["code"] == "not_seated"
    await spectator.send({"type": "ping", "id": 3})
    assert await spectator.recv() == {"type": "pong", "id": 3}


async def test_malformed_messages_get_errors_and_the_connection_carries_on(
    api: Api, server: str
) -> None:
    _, clients, _ = await live(api, server)
    client = clients[0]
    await client.send("{not json")
    assert (await client.recv())["code"] == "bad_json"
    await client.send("[1, 2]")
    assert (await client.recv())["code"] == "bad_message"
    await client.send({"type": "shout", "id": "x"})
    assert (await client.recv()) | {"message": ""} == {
        "type": "error",
        "id": "x",
        "code": "unknown_type",
        "message": "",
    }
    await client.send({"type": "hello"})
    assert (await client.recv())["code"] == "already_greeted"
    await client.send({"type": "action", "id": "v", "version": "0", "action": {}})
    assert (await client.recv())["code"] == "bad_message"
    await client.send({"type": "ping"})
    assert (await client.recv())["type"] == "pong"


async def test_an_oversized_frame_closes_with_1009(api: Api, server: str) -> None:
    _, clients, _ = await live(api, server)
    await clients[0].send(json.dumps({"type": "ping", "pad": "x" * 20_000}))
    assert await closed_with(clients[0].socket) == 1009


@pytest.mark.parametrize(
    ("first", "code"),
    [
        ("hi", 4000),
        ({"type": "action"}, 4000),
        ({"type": "hello", "token": "wrong"}, 4001),
        ({"type": "hello", "since": "x"}, 4000),
    ],
)
async def test_a_bad_greeting_closes_with_a_documented_code(
    api: Api, server: str, first: Any, code: int
) -> None:
    table, _ = await api.live_table()
    socket = await connect(f"ws://{server}/ws/tables/{table['id']}")
    await socket.send(first if isinstance(first, str) else json.dumps(first))
    error = json.loads(await asyncio.wait_for(socket.recv(), 5))
    assert error["type"] == "error"
    assert await closed_with(socket) == code


async def test_an_unknown_table_closes_with_4004(server: str) -> None:
    socket = await connect(f"ws://{server}/ws/tables/nope")
    await socket.send(json.dumps({"type": "hello"}))
    assert json.loads(await asyncio.wait_for(socket.recv(), 5))["code"] == "table_not_found"
    assert await closed_with(socket) == 4004


async def test_reconnecting_with_since_replays_the_missing_versions(api: Api, server: str) -> None:
    table, clients, welcomes = await live(api, server)
    version, legal, to_move = 0, [w["view"]["legal"] for w in welcomes], mover(welcomes)
    for _ in range(3):
        await clients[to_move].send(action(version, legal[to_move][0], f"m{version}"))
        for seat, client in enumerate(clients):
            update = await client.recv_until("update")
            legal[seat] = update["legal"]
        await clients[to_move].recv_until("ack")
        to_move, version = update["to_move"], version + 1
    again, head = await Client.open(server, table["id"], None, since=1)
    assert head["version"] == 1 and head["view"] is None and head["resumed"] is True
    replayed = [await again.recv() for _ in range(2)]
    assert [u["version"] for u in replayed] == [2, 3]
    _fresh, snapshot = await Client.open(server, table["id"], None, since=99)
    assert snapshot["version"] == 3 and snapshot["view"]["seat"] is None


async def test_resigning_ends_the_match_and_rematch_starts_a_new_one(api: Api, server: str) -> None:
    table, players = await api.live_table()
    clients = [(await Client.open(server, table["id"], p["token"]))[0] for p in players]
    await clients[1].send(action(0, {"type": "resign"}))
    update = await clients[0].recv_until("update")
    assert any(e["type"] == "match_over" for e in update["events"])
    match = await api.call("GET", f"/api/matches/{table['match_id']}")
    assert match["status"] == "finished" and match["winner"] == 0
    log = await api.call("GET", f"/api/matches/{table['match_id']}/log")
    assert log["actions"] == [{"version": 1, "seat": 1, "action": {"type": "resign"}}]
    assert len(log["seed"]) >= 32
    assert (await api.call("GET", f"/api/tables/{table['id']}"))["status"] == "finished"
    path = f"/api/tables/{table['id']}/rematch"
    offer = await api.call("POST", path, players[1]["token"])  # an offer: Anna must accept
    assert offer["status"] == "finished" and offer["rematch"]["accepted"] == [1]
    for client in clients:
        offered = await client.recv_until("rematch")
        assert offered["offered_by"] == 1 and offered["outcome"] == "pending"
    again = await api.call("POST", path, players[0]["token"])
    assert again["status"] == "live" and again["match_id"] != table["match_id"]
    for seat, client in enumerate(clients):
        welcome = await client.recv_until("welcome")
        assert welcome["match_id"] == again["match_id"] and welcome["seat"] == seat
        assert welcome["version"] == 1 and len(welcome["view"]["hand"]) == 6


async def test_two_clients_racing_on_one_version_exactly_one_wins(api: Api, server: str) -> None:
    table, players = await api.live_table()
    first = [await Client.open(server, table["id"], p["token"]) for p in players]
    seat = first[0][1]["view"]["to_move"]
    twin, _ = await Client.open(server, table["id"], players[seat]["token"])
    hand = first[seat][1]["view"]["hand"]
    mine = first[seat][0]
    await asyncio.gather(
        mine.send(action(0, {"type": "play", "card": hand[0]}, "left")),
        twin.send(action(0, {"type": "play", "card": hand[1]}, "right")),
    )
    answers = [
        await mine.recv_until_any(("ack", "error")),
        await twin.recv_until_any(("ack", "error")),
    ]
    kinds = sorted(a["type"] for a in answers)
    assert kinds == ["ack", "error"]
    loser = next(a for a in answers if a["type"] == "error")
    assert loser["code"] == "stale_version" and loser["version"] == 1
    assert (await api.call("GET", f"/api/tables/{table['id']}"))["version"] == 1
