"""A whole match over the real server: REST to sit down, WebSockets to play it out."""

from __future__ import annotations

import random

from tests.support import Api, Client, pick


async def test_two_players_play_a_match_to_the_end(api: Api, server: str) -> None:
    table, (anna, bela) = await api.live_table(options={"target": 2})
    clients = {}
    for seat, player in enumerate((anna, bela)):
        client, welcome = await Client.open(server, table["id"], player["token"])
        assert welcome["seat"] == seat
        clients[seat] = (client, welcome)
    rng = random.Random(7)
    version = clients[0][1]["version"]
    to_move, legal = (
        clients[0][1]["view"]["to_move"],
        {s: w["view"]["legal"] for s, (_, w) in clients.items()},
    )
    over = False
    while not over:
        client = clients[to_move][0]
        await client.send(
            {
                "type": "action",
                "id": f"a{version}",
                "version": version,
                "action": pick(legal[to_move], rng),
            }
        )
        for seat, (viewer, _) in clients.items():
            update = await viewer.recv_until("update")
            assert update["version"] == version + 1
            legal[seat] = update["legal"]
            over = over or any(e["type"] == "match_over" for e in update["events"])
            next_to_move = update["to_move"]
        ack = await client.recv_until("ack")
        assert ack == {"type": "ack", "id": f"a{version}", "version": version + 1}
        version += 1
        to_move = next_to_move
    match = await api.call("GET", f"/api/matches/{table['match_id']}")
    assert match["status"] == "finished"
    log = await api.call("GET", f"/api/matches/{table['match_id']}/log")
    assert len(log["actions"]) == version
