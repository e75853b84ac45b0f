"""A hostile guest against a real ``talon serve`` over REST and the WebSocket: the chat's
limits come before its word filter, mutes and reports are limited, a piled-up accent is
refused as in a name, a flood of messages is dropped with few notices on a socket that stays
open, numbers past what JSON carries exactly are refused at the edge, three-hand has no
trump exchange, and every oversized frame gets the same close code and reason."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.reliability.server import post, served, unhandled_errors, wait_healthy
from tests.support import Client, free_port

LINES_PER_MINUTE = 3
FRAME_LIMIT = 16_384
FLOOD = 3_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("chat-limits")
    port = free_port()
    log = folder / "server.log"
    settings = {
        "CHAT_MESSAGES_PER_MINUTE": str(LINES_PER_MINUTE),
        "WS_MESSAGES_PER_SECOND": "100",
        "WS_MAX_FRAME_BYTES": str(FRAME_LIMIT),
        "EXPOSE_METRICS": "true",
    }
    with served(folder / "talon.db", port, log, **settings):
        asyncio.run(wait_healthy(f"127.0.0.1:{port}"))
        yield f"127.0.0.1:{port}"
    assert not unhandled_errors(Path(log).read_text()), "an unhandled exception in the log"


@contextlib.asynccontextmanager
async def table(
    base: str, variant: str = "sixty-six", **body: Any
) -> AsyncIterator[tuple[str, list[dict[str, Any]], list[Client]]]:
    """A live table of fresh guests (every seat taken), each connected; its id, the players
    and their connections."""
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http:
        first = await post(http, "/api/players", None, {"name": "Anna"})
        created = {"variant": variant, "clock": "none", **body}
        opened = await post(http, "/api/tables", first["token"], created)
        players = [first]
        for name in ("Bela", "Vera", "Dora")[: len(opened["seats"]) - 1]:
            players.append(await post(http, "/api/players", None, {"name": name}))
            await post(http, f"/api/tables/{opened['id']}/join", players[-1]["token"], {})
    clients = [(await Client.open(base, opened["id"], p["token"]))[0] for p in players]
    try:
        yield opened["id"], players, clients
    finally:
        for client in clients:
            await client.close()


async def answer(client: Client, message: dict[str, Any] | str) -> dict[str, Any]:
    """Send a message with id ``x``; the answer to it (an ack or an error)."""
    await client.send(message)
    while True:
        frame = await client.recv()
        if frame.get("id") == "x" and frame["type"] in ("chat_ack", "ack", "error", "pong"):
            return frame


async def filtered_lines(base: str) -> float:
    """How many chat lines the server has passed through a word filter so far."""
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http:
        text = (await http.get("/metrics")).text
    found = re.search(r"^talon_chat_filtered_lines_total (\S+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


async def test_the_word_filter_runs_only_on_lines_within_the_limits(server: str) -> None:
    async with table(server, chat_filter=True) as (_, _, (anna, bela)):
        for client in (anna, bela):
            await client.send({"type": "chat_join"})
            await client.recv_until("chat_history")
        before = await filtered_lines(server)
        # The line that cost the old filter most (0.2 s each), then a flood of it.
        texts = ["oh shit", "a." * 150, "fine"] + ["a." * 150] * 8
        answers = [
            await answer(anna, {"type": "chat", "id": "x", "room": "players", "text": t})
            for t in texts
        ]
        assert [a["type"] for a in answers] == ["chat_ack"] * 3 + ["error"] * 8
        assert {a["code"] for a in answers[3:]} == {"chat_rate_limited"}
        seen = [(await bela.recv_until("chat"))["text"] for _ in range(3)]
        assert seen == ["oh ****", "a." * 150, "fine"]
        # Only the three lines taken went through the filter: the eight refused did not.
        assert await filtered_lines(server) - before == 3


async def test_mutes_and_reports_are_limited_per_player(server: str) -> None:
    async with table(server) as (_, (_, bela_player), (anna, bela)):
        for client in (anna, bela):
            await client.send({"type": "chat_join"})
            await client.recv_until("chat_history")
        toggles = [
            await answer(
                anna,
                {"type": "chat_mute", "id": "x", "player_id": bela_player["id"], "muted": m},
            )
            for m in (True, False, True, False)
        ]
        assert [t["type"] for t in toggles] == ["chat_ack"] * 3 + ["error"]
        assert toggles[3]["code"] == "chat_rate_limited" and toggles[3]["retry_after"] >= 1
        lines = [
            await answer(who, {"type": "chat", "id": "x", "room": "players", "text": text})
            for who, text in ((bela, "one"), (bela, "two"), (bela, "three"), (anna, "four"))
        ]
        reports = [
            await answer(anna, {"type": "chat_report", "id": "x", "seq": line["seq"]})
            for line in lines
        ]
        assert [r["type"] for r in reports] == ["chat_ack"] * 3 + ["error"]
        assert reports[3]["code"] == "chat_rate_limited"


async def test_a_letter_under_a_pile_of_marks_is_refused_in_chat_as_in_a_name(
    server: str,
) -> None:
    piled = "a" + "\u0301" * 299
    async with httpx.AsyncClient(base_url=f"http://{server}", timeout=10, verify=False) as http:
        refused = await http.post("/api/players", json={"name": piled[:20]})
    assert refused.status_code == 422
    named = refused.json()["error"]
    async with table(server) as (_, _, (anna, _)):
        await anna.send({"type": "chat_join"})
        await anna.recv_until("chat_history")
        said = await answer(anna, {"type": "chat", "id": "x", "room": "players", "text": piled})
    assert (named["code"], said["code"]) == ("name_marks", "chat_marks")
    assert said["message"] == named["message"]


async def test_a_flood_is_dropped_with_a_notice_a_second_and_the_socket_stays(
    server: str,
) -> None:
    async with table(server) as (_, _, (anna, _)):
        frames: list[dict[str, Any]] = []

        async def read() -> None:
            while (frame := await anna.recv_any(30)) != {"type": "pong", "id": "end"}:
                frames.append(frame)

        reader = asyncio.create_task(read())
        for n in range(FLOOD):
            await anna.send({"type": "ping", "id": n})
        await asyncio.sleep(2.5)  # the bucket fills again (two seconds' worth)
        await anna.send({"type": "ping", "id": "end"})
        await reader  # answered: the socket is open
    pongs = [f for f in frames if f["type"] == "pong"]
    notices = [f for f in frames if f.get("code") == "rate_limited"]
    assert all(f["type"] in ("pong", "presence") or f in notices for f in frames)
    # Every message over the rate was dropped; far fewer notices than drops said so (one a
    # second at most, where the old server queued one per drop and closed the socket 4008).
    dropped = FLOOD - len(pongs)
    assert dropped > 0 and len(notices) >= 1 and len(notices) * 10 < dropped, (
        len(pongs),
        len(notices),
    )


async def test_three_hand_has_no_trump_exchange_to_refuse(server: str) -> None:
    async with (
        table(server, "three-hand") as (table_id, _, clients),
        httpx.AsyncClient(base_url=f"http://{server}", timeout=10, verify=False) as http,
    ):
        seen = await http.get(f"/api/tables/{table_id}")
        version = seen.json()["version"]
        refusals = [
            await answer(
                client,
                {"type": "action", "id": "x", "version": version, "action": {"type": "exchange"}},
            )
            for client in clients
        ]
    codes = sorted(r["code"] for r in refusals)
    assert codes == ["exchange_not_in_game", "not_your_turn", "not_your_turn"], refusals
    (own,) = [r for r in refusals if r["code"] == "exchange_not_in_game"]
    assert "no longer there" not in own["message"]


async def test_a_number_past_what_json_carries_exactly_is_refused_at_the_edge(
    server: str,
) -> None:
    def with_huge(message: dict[str, Any]) -> str:
        return json.dumps(message).replace('"HUGE"', str(2**64))  # as a client could write it

    async with table(server, "four-hand") as (_, _, clients):
        bid = {
            "type": "action",
            "id": "x",
            "version": 0,
            "action": {"type": "bid", "level": "HUGE"},
        }
        answers = [await answer(client, with_huge(bid)) for client in clients]
        ping = await answer(clients[0], with_huge({"type": "ping", "id": "x", "pad": "HUGE"}))
        after = await answer(clients[0], {"type": "ping", "id": "x"})
    assert {a["code"] for a in answers} == {"bad_number"}
    assert ping["type"] == "error" and ping["code"] == "bad_number"
    assert all("e+19" not in a["message"] for a in [*answers, ping])
    assert after == {"type": "pong", "id": "x"}


async def closed_for(client: Client, frame: str) -> tuple[int, str]:
    """Send ``frame``; the close code and reason the server answers with."""
    await client.socket.send(frame)
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(10):
            await asyncio.wait_for(client.socket.recv(), 10)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


async def test_every_oversized_frame_gets_the_same_close(server: str) -> None:
    async with table(server) as (table_id, players, _):
        closes = []
        for size in (FRAME_LIMIT + 1, 40_000, 100_000):  # the old server: two answers
            frame = json.dumps({"type": "ping", "pad": "x" * size})
            client, _ = await Client.open(server, table_id, players[0]["token"])
            closes.append((len(frame), await closed_for(client, frame)))
    for size, (code, reason) in closes:
        assert code == 1009
        assert reason == f"frame with {size} bytes exceeds limit of {FRAME_LIMIT} bytes"
