"""Table chat on the table's socket (docs/protocol.md, "Chat"): rooms, history, limits,
mutes, reports and the word filter."""

from __future__ import annotations

import argparse
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app import cli
from app.chat.operators import operator_mute
from app.settings import Settings
from app.store.db import create_engine, session_factory
from app.store.models import ChatReport
from tests.support import Api, Client, live_server, settings_for


@pytest.fixture
def backend() -> str:
    """Chat tests run on SQLite (the queries are plain; the migration test covers both)."""
    return "sqlite"


@pytest.fixture
async def chat_server(database_url: str) -> AsyncIterator[str]:
    """A server with a short line limit and a low per-player rate."""
    settings = settings_for(database_url, chat_max_length=20, chat_messages_per_minute=4)
    async with live_server(settings) as base:
        yield base


@pytest.fixture
async def chat_api(chat_server: str) -> AsyncIterator[Api]:
    async with httpx.AsyncClient(
        base_url=f"http://{chat_server}", timeout=10, verify=False
    ) as client:
        yield Api(client)


async def joined(base: str, table_id: str, token: str | None) -> tuple[Client, dict[str, Any]]:
    """A connection that joined the table's chat, and its ``chat_history``."""
    client, _ = await Client.open(base, table_id, token)
    await client.send({"type": "chat_join"})
    return client, await client.recv_until("chat_history")


# Chat lines a connection received while waiting for an answer, kept for ``chat_seen``.
PASSED: dict[int, list[dict[str, Any]]] = {}


@pytest.fixture(autouse=True)
def forget_passed_lines() -> None:
    PASSED.clear()


async def say(client: Client, ref: str, **line: Any) -> dict[str, Any]:
    """Send a line; the answer to it (``chat_ack`` or ``error``)."""
    await client.send({"type": "chat", "id": ref, **line})
    while True:
        frame = await client.recv()
        if frame["type"] in ("chat_ack", "error") and frame["id"] == ref:
            return frame
        if frame["type"] == "chat":
            PASSED.setdefault(id(client), []).append(frame)


async def chat_seen(client: Client) -> list[dict[str, Any]]:
    """The chat lines a connection received since it was last asked (a ping marks the end)."""
    await client.send({"type": "ping", "id": "end"})
    lines = PASSED.pop(id(client), [])
    while (frame := await client.recv())["type"] != "pong":
        if frame["type"] == "chat":
            lines.append(frame)
    return lines


async def table_with_spectator(
    api: Api, base: str, **body: Any
) -> tuple[dict[str, Any], list[dict[str, Any]], list[Client]]:
    """A live table, its players, and chat connections: seat 0, seat 1, a spectator."""
    table, players = await api.live_table(**body)
    watcher = await api.player("Vera")
    clients = [
        (await joined(base, table["id"], token))[0]
        for token in (players[0]["token"], players[1]["token"], watcher["token"])
    ]
    return table, [*players, watcher], clients


async def test_each_room_reaches_only_its_readers_during_a_live_match(
    chat_api: Api, chat_server: str
) -> None:
    _, _, (anna, bela, vera) = await table_with_spectator(chat_api, chat_server)
    ack = await say(anna, "a1", room="players", phrase="good_luck")
    assert ack["type"] == "chat_ack" and isinstance(ack["seq"], int)
    assert (await say(vera, "v1", room="spectators", text="Anna should trump"))["type"] == (
        "chat_ack"
    )
    for player in (anna, bela):
        lines = await chat_seen(player)
        assert [(line["room"], line.get("phrase")) for line in lines] == [("players", "good_luck")]
    watched = await chat_seen(vera)
    assert [(line["room"], line.get("text")) for line in watched] == [
        ("spectators", "Anna should trump")
    ]
    assert watched[0]["sender"]["seat"] is None and watched[0]["sender"]["name"] == "Vera"
    refused = await say(vera, "v2", room="players", text="hi")
    assert (refused["type"], refused["code"]) == ("error", "chat_not_allowed")
    refused = await say(bela, "b1", room="spectators", text="psst")
    assert refused["code"] == "chat_not_allowed"  # players write to spectators after the match


async def test_a_player_reads_the_spectators_only_after_opting_in(
    chat_api: Api, chat_server: str
) -> None:
    _, _, (anna, bela, vera) = await table_with_spectator(chat_api, chat_server)
    await say(vera, "v1", room="spectators", text="before")
    await anna.send({"type": "chat_options", "id": "o", "spectators": True})
    history = await anna.recv_until("chat_history")
    assert history["rooms"] == ["players", "spectators"]
    assert [m["text"] for m in history["messages"]] == ["before"]
    await say(vera, "v2", room="spectators", text="after")
    assert [line["text"] for line in await chat_seen(anna)] == ["after"]
    assert await chat_seen(bela) == []  # Bela did not opt in


async def test_a_reconnecting_player_gets_the_recent_lines_in_order(
    chat_api: Api, chat_server: str
) -> None:
    table, players, (anna, bela, vera) = await table_with_spectator(chat_api, chat_server)
    await say(anna, "a1", room="players", text="one")
    await say(bela, "b1", room="players", phrase="thanks")
    await say(vera, "v1", room="spectators", text="not for players")
    await bela.close()
    _, history = await joined(chat_server, table["id"], players[1]["token"])
    assert history["rooms"] == ["players"]
    assert [(m.get("text"), m.get("phrase")) for m in history["messages"]] == [
        ("one", None),
        (None, "thanks"),
    ]
    seqs = [m["seq"] for m in history["messages"]]
    assert seqs == sorted(seqs)
    assert history["max_length"] == 20
    spectator, watched = await joined(chat_server, table["id"], None)
    assert [m["text"] for m in watched["messages"]] == ["not for players"]
    refused = await say(spectator, "x", room="spectators", text="anonymous")
    assert refused["code"] == "chat_needs_player"


async def test_length_rate_and_shape_are_refused_with_codes(
    chat_api: Api, chat_server: str
) -> None:
    _, _, (anna, bela, _) = await table_with_spectator(chat_api, chat_server)
    too_long = await say(anna, "long", room="players", text="x" * 21)
    assert (too_long["code"], too_long["max_length"]) == ("chat_too_long", 20)
    assert (await say(anna, "empty", room="players", text=" \u200b\n"))["code"] == "chat_empty"
    assert (await say(anna, "p", room="players", phrase="gg_ez"))["code"] == "bad_phrase"
    assert (await say(anna, "both", room="players", phrase="thanks", text="x"))["code"] == (
        "bad_chat"
    )
    for n in range(4):
        assert (await say(anna, f"r{n}", room="players", text=f"line {n}"))["type"] == "chat_ack"
    limited = await say(anna, "r4", room="players", text="one too many")
    assert limited["code"] == "chat_rate_limited" and 1 <= limited["retry_after"] <= 60
    assert [line["text"] for line in await chat_seen(bela)] == [f"line {n}" for n in range(4)]
    assert (await say(bela, "b", room="players", text="mine"))["type"] == "chat_ack"  # per player


async def test_a_chat_message_before_joining_is_refused(chat_api: Api, chat_server: str) -> None:
    table, players = await chat_api.live_table()
    client, _ = await Client.open(chat_server, table["id"], players[0]["token"])
    refused = await say(client, "early", room="players", text="hi")
    assert refused["code"] == "chat_not_joined"


async def test_a_muted_sender_no_longer_reaches_the_player_who_muted_it(
    chat_api: Api, chat_server: str
) -> None:
    table, players, (anna, bela, _) = await table_with_spectator(chat_api, chat_server)
    bela_id = players[1]["id"]
    await anna.send({"type": "chat_mute", "id": "m", "player_id": bela_id, "muted": True})
    assert await anna.recv_until("chat_ack") == {"type": "chat_ack", "id": "m", "seq": None}
    assert (await say(bela, "b1", room="players", text="hello?"))["type"] == "chat_ack"
    assert await chat_seen(anna) == []
    await anna.close()
    _, history = await joined(chat_server, table["id"], players[0]["token"])
    assert history["muted"] == [bela_id] and history["messages"] == []
    await bela.send({"type": "chat_mute", "id": "self", "player_id": players[1]["id"]})
    assert (await bela.recv_until("error"))["code"] == "bad_chat"


async def test_a_reported_line_is_stored_for_an_operator(
    chat_api: Api, chat_server: str, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    table, players, (anna, bela, vera) = await table_with_spectator(chat_api, chat_server)
    seq = (await say(bela, "b1", room="players", text="rude words"))["seq"]
    await anna.send({"type": "chat_report", "id": "r", "seq": seq})
    assert await anna.recv_until("chat_ack") == {"type": "chat_ack", "id": "r", "seq": None}
    await vera.send({"type": "chat_report", "id": "r", "seq": seq})  # a room Vera cannot read
    assert (await vera.recv_until("error"))["code"] == "chat_line_not_found"
    engine = create_engine(database_url)
    try:
        async with session_factory(engine)() as session:
            reports = list(await session.scalars(select(ChatReport)))
    finally:
        await engine.dispose()
    assert [(r.message_id, r.reporter_id, r.sender_id, r.text) for r in reports] == [
        (seq, players[0]["id"], players[1]["id"], "rude words")
    ]
    assert reports[0].table_id == table["id"] and reports[0].room == "players"
    command = argparse.Namespace(command="chat-reports", limit=10)
    assert await cli.chat_command(Settings(database_url=database_url), command) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["seq"], r["text"], r["sender_id"]) for r in printed] == [
        (seq, "rude words", players[1]["id"])
    ]


async def test_a_player_muted_by_an_operator_is_told_so(
    chat_api: Api, chat_server: str, database_url: str
) -> None:
    _, players, (anna, bela, _) = await table_with_spectator(chat_api, chat_server)
    engine = create_engine(database_url)
    try:
        await operator_mute(session_factory(engine), players[1]["id"], True)
        refused = await say(bela, "b1", room="players", text="hello")
        assert refused["code"] == "chat_muted"
        await operator_mute(session_factory(engine), players[1]["id"], False)
    finally:
        await engine.dispose()
    assert (await say(bela, "b2", room="players", text="hello"))["type"] == "chat_ack"
    assert [line["text"] for line in await chat_seen(anna)] == ["hello"]


async def test_the_word_filter_is_a_table_option_off_by_default(
    chat_api: Api, chat_server: str
) -> None:
    _, _, (anna, bela, _) = await table_with_spectator(chat_api, chat_server, chat_filter=True)
    await say(anna, "a", room="players", text="oh shit")
    assert [line["text"] for line in await chat_seen(bela)] == ["oh ****"]
    _, _, (anna, bela, _) = await table_with_spectator(chat_api, chat_server)
    await say(anna, "a", room="players", text="oh shit")
    assert [line["text"] for line in await chat_seen(bela)] == ["oh shit"]


async def test_chat_frames_carry_no_table_version(chat_api: Api, chat_server: str) -> None:
    _, _, (anna, bela, _) = await table_with_spectator(chat_api, chat_server)
    await say(anna, "a", room="players", text="<b>hi</b>")
    (line,) = await chat_seen(bela)
    assert "version" not in line and line["text"] == "<b>hi</b>"
    assert set(line) == {"type", "seq", "room", "sender", "at", "text"}


async def test_once_the_match_is_over_players_and_spectators_talk(
    chat_api: Api, chat_server: str
) -> None:
    table, _, (anna, bela, vera) = await table_with_spectator(chat_api, chat_server)
    await anna.send({"type": "action", "id": "x", "version": 0, "action": {"type": "resign"}})
    await anna.recv_until("ack")
    assert (await chat_api.call("GET", f"/api/tables/{table['id']}"))["status"] == "finished"
    await say(vera, "v1", room="spectators", text="good game")
    assert (await say(anna, "a1", room="spectators", text="thanks"))["type"] == "chat_ack"
    assert [line["text"] for line in await chat_seen(bela)] == ["good game", "thanks"]
    assert [line["text"] for line in await chat_seen(vera)] == ["good game", "thanks"]
