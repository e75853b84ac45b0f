"""Hostile input over real WebSockets, driven by hypothesis, between the honest players' moves.

Against a ``talon serve`` subprocess: before each honest move a drawn burst of frames goes to
one connection (a seat's or a spectator's): not JSON, binary frames, wrong types, huge numbers,
deep nesting, unknown message types, stale and future versions, the other seat's move, bursts.
After each burst the table is exactly where it was (the same version; the same view in a fresh
welcome, for one connection in turn after each burst and for every one at the end),
the honest game goes on to its end, no request answers 5xx and the server log holds no
unhandled exception.
"""

from __future__ import annotations

import asyncio
import json
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.reducer import fold
from tests.reliability.server import module_server, post, unhandled_errors
from tests.support import Client

Junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
Versions = st.one_of(
    st.sampled_from(["stale", "future"]),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=5),
    st.none(),
    st.booleans(),
)
ActionBodies = st.one_of(
    st.sampled_from(["theirs", "legal_elsewhere"]),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["play", "exchange", "close", "claim", "pass", "bid", "x"])}
    ),
    st.fixed_dictionaries({"type": st.just("bid"), "level": Junk | st.integers(-2, 7)}),
    st.fixed_dictionaries(
        {"type": st.just("play"), "card": st.text(alphabet="789JQKTACDHS", max_size=3)}
    ),
    Junk,
)
Frames = st.one_of(
    st.binary(max_size=64).map(lambda b: ("bytes", b)),
    st.text(max_size=64).map(lambda t: ("text", t)),
    Junk.map(lambda j: ("json", j)),
    st.integers(min_value=1, max_value=2000).map(lambda d: ("text", "[" * d + "]" * d)),
    st.integers(min_value=1, max_value=2000).map(lambda d: ("text", '{"a":' * d + "1" + "}" * d)),
    st.text(alphabet=string.ascii_letters, max_size=12).map(
        lambda t: ("json", {"type": t, "id": 1})
    ),
    st.builds(
        lambda v, a, ref: ("action", v, a, ref),
        Versions,
        ActionBodies,
        st.one_of(st.none(), st.integers(), st.text(max_size=4), Junk),
    ),
    st.integers(min_value=5, max_value=60).map(lambda n: ("burst", n)),
    st.just(("json", {"type": "hello", "token": "x" * 43})),
    st.just(("text", "[" * 5000 + "]" * 5000)),  # deeper than the JSON parser's stack
)
# The target is a connection's index, taken modulo the table's connections (seats, spectator).
Bursts = st.lists(st.tuples(st.integers(0, 4), Frames), min_size=1, max_size=6)
Games = st.sampled_from(
    [
        ("sixty-six", {}),
        ("schnapsen", {}),
        ("three-hand", {}),
        # Defenders score a failed bid, so some side soon reaches the target.
        ("four-hand", {"defenders_score": True}),
        ("german-48", {"partners": True}),
    ]
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    yield from module_server(tmp_path_factory, "hostile")


def rendered(frame: tuple[Any, ...], version: int, theirs: dict[str, Any], moving: bool) -> Any:
    """The text or bytes a drawn frame stands for at this version."""
    kind = frame[0]
    if kind in ("bytes", "text"):
        return frame[1]
    if kind == "json":
        return json.dumps(frame[1])
    if kind == "burst":
        return None
    _, drawn_version, body, ref = frame
    at = drawn_version
    if isinstance(at, str):
        at = {"stale": version - 1, "future": version + 1}.get(at, at)
    if moving and at == version:
        at = version + 1  # the mover at the right version would just be playing
    action = body
    if isinstance(body, str):
        action = {"theirs": theirs, "legal_elsewhere": theirs}.get(body, body)
    try:
        return json.dumps({"type": "action", "id": ref, "version": at, "action": action})
    except (TypeError, ValueError):
        return json.dumps({"type": "action", "id": None, "version": at, "action": None})


async def drain(client: Client) -> None:
    """Wait until the server has answered everything sent so far on this connection."""
    await client.send({"type": "ping", "id": "drained"})
    while (await client.recv()) != {"type": "pong", "id": "drained"}:
        pass


def honest(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The honest players' move: bid the lowest level when nobody has bid, else pass, so the
    bidding ends at once; otherwise the first legal action."""
    if {"type": "bid", "level": 1} in legal:
        return {"type": "bid", "level": 1}
    return next((a for a in legal if a["type"] == "pass"), legal[0])


async def hostile_match(
    base: str, bursts: list[list[tuple[int, Any]]], game: tuple[str, dict[str, Any]]
) -> None:
    variant, options = game
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http:
        tokens = [(await post(http, "/api/players", None, {"name": n}))["token"] for n in "AB"]
        body = {"variant": variant, "options": {"target": 1, **options}}
        table = await post(http, "/api/tables", tokens[0], body)
        for name in "CD"[: len(table["seats"]) - 2]:
            tokens.append((await post(http, "/api/players", None, {"name": name}))["token"])
        for token in tokens[1:]:
            table = await post(http, f"/api/tables/{table['id']}/join", token, {})
        opened = [await Client.open(base, table["id"], t) for t in (*tokens, None)]
        clients = [c for c, _ in opened]
        views = [w["view"] for _, w in opened]
        version = 0
        for step in range(200):
            mover = views[0]["to_move"]
            if views[0]["match_over"] or mover is None:
                break
            theirs = honest(views[mover]["legal"])
            for target, frame in bursts[step % len(bursts)]:
                target %= len(clients)
                client = clients[target]
                if frame[0] == "burst":
                    for n in range(frame[1]):
                        await client.send({"type": "ping", "id": n})
                    continue
                await client.socket.send(rendered(frame, version, theirs, target == mover))
            for client in clients:
                await drain(client)
            table_now = (await http.get(f"/api/tables/{table['id']}")).json()
            assert table_now["version"] == version, "rejected input changed the table"
            # A fresh welcome of one connection a step, in turn (every one at the end):
            # reopening every connection after every burst cost most of this test's time.
            seat = step % len(clients)
            fresh, welcome = await Client.open(base, table["id"], (*tokens, None)[seat])
            assert welcome["view"] == views[seat], "rejected input changed a view"
            await fresh.close()
            await clients[mover].send(
                {"type": "action", "id": "honest", "version": version, "action": theirs}
            )
            seen = [await clients[mover].recv()]
            while seen[-1]["type"] != "ack":
                seen.append(await clients[mover].recv())
            version += 1
            assert seen[-1]["version"] == version  # the update came first, then the ack
            updates = [f for f in seen if f["type"] == "update"]
            assert [f["version"] for f in updates] == [version]
            for seat, client in enumerate(clients):
                update = updates[0] if seat == mover else await client.recv_until("update")
                assert update["version"] == version
                # The next step's fresh welcomes are checked against these folded pictures.
                views[seat] = fold(views[seat], update)
        assert views[0]["match_over"], "the honest players' match did not finish"
        for seat, token in enumerate((*tokens, None)):
            fresh, welcome = await Client.open(base, table["id"], token)
            assert welcome["view"] == views[seat], "a folded picture differs from a welcome"
            await fresh.close()
        for path in (f"/api/tables/{table['id']}", f"/api/matches/{table['match_id']}/log"):
            assert (await http.get(path)).status_code == 200
        for client in clients:
            await client.close()


@pytest.mark.slow
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(bursts=st.lists(Bursts, min_size=1, max_size=5), game=Games)
def test_hostile_frames_change_nothing_and_the_honest_match_finishes(
    server: tuple[str, Path], bursts: list[list[tuple[int, Any]]], game: tuple[str, Any]
) -> None:
    """At tables of two, three and four seats (bids and passes included)."""
    base, log = server
    asyncio.run(hostile_match(base, bursts, game))
    # Every REST answer during the match is checked where it is made (post() and the GETs).
    assert not unhandled_errors(log.read_text())
