"""Chat frames drawn by hypothesis over real WebSockets against a ``talon serve`` subprocess:
well-formed, malformed and hostile ``chat*`` messages from both players and a spectator of a
live match. No message is answered with ``internal`` (each gets ``chat_ack``,
``chat_history`` or an ``error`` with a stable code), no spectators' line reaches a player
and no players' line reaches the spectator, every line keeps its shape and length limit, the
table's version never moves, and the server log holds no unhandled exception."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import connect

from tests.reliability.server import module_server, post, unhandled_errors
from tests.reliability.test_hostile_input import Junk
from tests.support import Client

MAX_LENGTH = 40
Kinds = st.sampled_from(
    ["chat", "chat", "chat", "chat_join", "chat_mute", "chat_report", "chat_options", "chatx"]
)
Rooms = st.one_of(st.sampled_from(["players", "spectators"]), Junk)
Texts = st.one_of(
    st.text(max_size=MAX_LENGTH + 10),
    st.just("<script>alert(1)</script> https://example.com"),
    st.just("\u202e\u200b\x00 \n"),
    Junk,
)
Phrases = st.one_of(st.sampled_from(["good_luck", "thanks", "rematch", "gg"]), Junk)
ChatMessages = st.fixed_dictionaries(
    {"type": Kinds},
    optional={
        "id": st.one_of(st.text(max_size=6), st.integers(), Junk),
        "room": Rooms,
        "text": Texts,
        "phrase": Phrases,
        "seq": st.one_of(st.integers(min_value=-(2**70), max_value=2**70), Junk),
        "player_id": st.one_of(st.sampled_from(["anna", "bela", "vera"]), Junk),
        "muted": st.one_of(st.booleans(), Junk),
        "spectators": st.one_of(st.booleans(), st.none(), Junk),
    },
)
# Lines in a room their writer may use, with a drawn text or phrase: they reach the checks
# past the room's (the drawn messages above rarely do).
Lines = st.builds(
    lambda ref, content: {"type": "chat", "id": ref, **content},
    st.text(max_size=4),
    st.one_of(st.builds(lambda t: {"text": t}, Texts), st.builds(lambda p: {"phrase": p}, Phrases)),
)


def in_own_room(target: int, line: dict[str, Any]) -> dict[str, Any]:
    return {**line, "room": "players" if target < 2 else "spectators"}


Bursts = st.lists(
    st.one_of(
        st.tuples(st.sampled_from([0, 1, 2]), ChatMessages),
        st.sampled_from([0, 1, 2]).flatmap(
            lambda target: Lines.map(lambda line: (target, in_own_room(target, line)))
        ),
    ),
    min_size=1,
    max_size=12,
)
LINE_KEYS = {"type", "seq", "room", "sender", "at", "text", "phrase"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    limits = {"CHAT_MESSAGES_PER_MINUTE": "1000000", "CHAT_MAX_LENGTH": str(MAX_LENGTH)}
    yield from module_server(tmp_path_factory, "chat-fuzz", **limits)


def real_ids(message: dict[str, Any], ids: dict[str, str]) -> dict[str, Any]:
    """The message with a drawn player name replaced by that player's id."""
    found = message.get("player_id")
    if isinstance(found, str) and found in ids:
        return {**message, "player_id": ids[found]}
    return message


def check_line(frame: dict[str, Any], reader: int, spectators_shown: bool) -> None:
    """A line a connection received: its shape, and a room it may read (a player reads the
    spectators' room during the match only when it asked for it)."""
    assert set(frame) <= LINE_KEYS, frame
    assert isinstance(frame["seq"], int) and frame["room"] in ("players", "spectators")
    room = frame["room"]
    if reader < 2:
        assert room == "players" or (room == "spectators" and spectators_shown), (reader, frame)
    else:
        assert room == "spectators", (reader, frame)
    if "text" in frame:
        assert isinstance(frame["text"], str) and 0 < len(frame["text"]) <= MAX_LENGTH


# Every wait on the server is generous: on a machine busy with other work an answer may take
# many seconds, and a wait that gives up early fails an example that would pass, which
# hypothesis then reports as flaky. A quiet machine answers at once, so nothing waits longer.
PATIENCE = 120.0


async def greeted(base: str, table_id: str, token: str) -> Client:
    """A player's connection to the table, once its welcome has come."""
    url = f"ws://{base}/ws/tables/{table_id}"
    client = Client(await connect(url, max_size=2**22, open_timeout=PATIENCE))
    await client.send({"type": "hello", "token": token, "since": None})
    welcome = await client.recv(PATIENCE)
    assert welcome["type"] == "welcome", welcome
    return client


async def fuzzed_table(base: str, bursts: list[list[tuple[int, dict[str, Any]]]]) -> None:
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=PATIENCE, verify=False) as http:
        players = [await post(http, "/api/players", None, {"name": n}) for n in ("A", "B", "V")]
        tokens = [p["token"] for p in players]
        ids = dict(zip(["anna", "bela", "vera"], [p["id"] for p in players], strict=True))
        table = await post(http, "/api/tables", tokens[0], {"options": {"target": 7}})
        table = await post(http, f"/api/tables/{table['id']}/join", tokens[1], {})
        clients = [await greeted(base, table["id"], t) for t in tokens]
        for client in clients:
            await client.send({"type": "chat_join"})
        # Whether each player shows the spectators' room: after a burst, as its last valid
        # ``chat_options`` left it; during a burst, also if any of its options showed it (its
        # messages and the spectator's are handled side by side).
        shown = [False, False, False]
        for burst in bursts:
            during = list(shown)
            for target, message in burst:
                await clients[target].send(json.dumps(real_ids(message, ids)))
                choice = message.get("spectators")
                valid = choice is None or isinstance(choice, bool)  # the server refuses others
                if message["type"] == "chat_options" and valid:
                    shown[target] = choice is True
                    during[target] = during[target] or shown[target]
            for reader, client in enumerate(clients):
                await client.send({"type": "ping", "id": "drained"})
                while (frame := await client.recv(PATIENCE)) != {"type": "pong", "id": "drained"}:
                    assert frame["type"] != "error" or frame["code"] != "internal", frame
                    if frame["type"] == "chat":
                        check_line(frame, reader, during[reader])
        table_now = (await http.get(f"/api/tables/{table['id']}")).json()
        assert table_now["version"] == 0 and table_now["status"] == "live"
        for client in clients:
            await client.close()


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(bursts=st.lists(Bursts, min_size=1, max_size=3))
def test_fuzzed_chat_frames_are_answered_and_never_cross_rooms(
    server: tuple[str, Path], bursts: list[list[tuple[int, dict[str, Any]]]]
) -> None:
    base, log = server
    asyncio.run(fuzzed_table(base, bursts))
    assert not unhandled_errors(log.read_text())
