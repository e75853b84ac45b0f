"""``GET /api/matches/{id}/replay``: a finished match step by step with every hand open."""

from __future__ import annotations

import random
from typing import Any

from tests.support import Api, Client, pick


async def play_to_the_end(
    base: str, table: dict[str, Any], players: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Play random legal actions until the match is over; each seat's first welcome view."""
    rng = random.Random(5)
    clients, views = [], []
    for player in players:
        client, welcome = await Client.open(base, table["id"], player["token"])
        clients.append(client)
        views.append(welcome["view"])
    version, to_move, legal = table["version"], views[0]["to_move"], None
    legal_of = [v["legal"] for v in views]
    while to_move is not None:
        action = pick(legal_of[to_move] if legal is None else legal, rng)
        await clients[to_move].send(
            {"type": "action", "id": "a", "version": version, "action": action}
        )
        frames = [await c.recv_until("update") for c in clients]
        version, to_move = frames[0]["version"], frames[0]["to_move"]
        legal = frames[to_move]["legal"] if to_move is not None else None
    for client in clients:
        await client.close()
    return views


async def test_a_live_match_has_no_replay(api: Api) -> None:
    table, _ = await api.live_table()
    body = await api.call("GET", f"/api/matches/{table['match_id']}/replay", status=409)
    assert body["error"]["code"] == "match_live"
    missing = await api.call("GET", "/api/matches/999999/replay", status=404)
    assert missing["error"]["code"] == "match_not_found"


async def test_a_finished_match_replays_every_action_with_all_hands_open(
    api: Api, server: str
) -> None:
    table, players = await api.live_table(options={"target": 1})
    first_views = await play_to_the_end(server, table, players)
    match_id = table["match_id"]
    log = await api.call("GET", f"/api/matches/{match_id}/log")
    replay = await api.call("GET", f"/api/matches/{match_id}/replay")

    steps = replay["steps"]
    assert [s["action"] for s in steps[1:]] == [a["action"] for a in log["actions"]]
    assert [s["seat"] for s in steps[1:]] == [a["seat"] for a in log["actions"]]
    assert steps[0]["action"] is None and steps[0]["version"] == log["base_version"]
    # The opening hands are exactly what each player was dealt.
    assert steps[0]["hands"] == [v["hand"] for v in first_views]
    for s in steps:
        assert s["view"]["seat"] is None and s["view"]["hand"] == []
        assert s["view"]["hand_counts"] == [len(hand) for hand in s["hands"]]
    last = steps[-1]
    assert last["view"]["match_over"] is True
    assert last["view"]["game_points"] == replay["game_points"] == log["game_points"]
    assert any(e["type"] == "deal_over" for e in last["events"])
