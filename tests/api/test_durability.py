"""SIGKILL the real server mid-match: no acknowledged action is lost or doubled.

Runs ``talon serve`` as a subprocess on SQLite, plays part of a match over WebSockets, kills
it with SIGKILL, restarts it, reconnects both players and a spectator with ``since``, and
finishes the match; every viewer's folded picture must equal a replay of the stored log.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.engine import Action, Rules, apply, new_match, view
from tests.forked import ServerProcess, fresh_sqlite
from tests.support import Api, Client, FoldingViewer, free_port, pick, sqlite_url

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def server_process(database: Path, port: int) -> Iterator[ServerProcess]:
    """``talon serve`` in a process of its own (``tests.forked``); killed (if still alive)
    on exit."""
    env = {
        **os.environ,
        "DATABASE_URL": sqlite_url(database),
        "LOG_LEVEL": "warning",
        # Tests create many players and tables from one address, and play as fast as they can.
        "PLAYERS_PER_MINUTE": "100000",
        "TABLES_PER_MINUTE": "100000",
        "WS_MESSAGES_PER_SECOND": "100000",
        "WS_CONNECTIONS_PER_ADDRESS": "100000",
        # Bots' turns take exactly BOT_PAUSE, as the browser tests expect.
        "BOT_PAUSE_JITTER": "0",
    }
    fresh_sqlite(database)
    process = ServerProcess(["serve", "--port", str(port)], env)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)


STARTUP_SECONDS = 180.0
"""How long a server may take to come up: generous, for a machine busy with other work (a
quiet one answers within a second or two, and the wait ends as soon as it does)."""


async def wait_healthy(base: str) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    async with httpx.AsyncClient(timeout=10, verify=False) as client:
        while time.monotonic() < deadline:
            try:
                if (await client.get(f"http://{base}/healthz")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.05)
    raise AssertionError(f"server did not come up within {STARTUP_SECONDS:.0f} s")


Viewer = FoldingViewer


async def play(
    seats: list[Viewer], watchers: list[Viewer], rng: random.Random, moves: int
) -> list[tuple[int, int, dict[str, Any]]]:
    """Play up to ``moves`` acknowledged actions; (version, seat, action) for each ack."""
    acked = []
    for _ in range(moves):
        state = seats[0].view
        if state["match_over"]:
            break
        seat = state["to_move"]
        actor = seats[seat]
        assert actor.client is not None
        chosen = pick(actor.view["legal"], rng)
        await actor.client.send(
            {"type": "action", "id": str(actor.version), "version": actor.version, "action": chosen}
        )
        target = actor.version + 1
        for viewer in watchers:
            await viewer.catch_up(target)
        ack = await actor.client.recv_until("ack")
        assert ack["version"] == target
        acked.append((target, seat, chosen))
    return acked


@pytest.mark.slow
async def test_a_killed_server_loses_no_acknowledged_action(tmp_path: Path) -> None:
    database = tmp_path / "talon.db"
    rng = random.Random(11)
    port = free_port()
    base = f"127.0.0.1:{port}"
    with server_process(database, port) as first:
        await wait_healthy(base)
        async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http:
            table, players = await Api(http).live_table(options={"target": 10})
        seats = [Viewer(p["token"]) for p in players]
        spectator = Viewer(None)
        everyone = [*seats, spectator]
        for viewer in everyone:
            await viewer.connect(base, table["id"], None)
        acked = await play(seats, everyone, rng, 20)
        # One more action in flight when the process dies: it may or may not have committed.
        mover = seats[seats[0].view["to_move"]]
        assert mover.client is not None
        await mover.client.send(
            {
                "type": "action",
                "id": "in-flight",
                "version": mover.version,
                "action": pick(mover.view["legal"], rng),
            }
        )
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    assert len(acked) == 20

    with server_process(database, port):
        await wait_healthy(base)
        for viewer in everyone:
            await viewer.connect(base, table["id"], since=viewer.version)
        async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http:
            now = (await Api(http).call("GET", f"/api/tables/{table['id']}"))["version"]
        assert now in (20, 21)
        for viewer in everyone:
            await viewer.catch_up(now)
        acked += await play(seats, everyone, rng, 10_000)
        assert seats[0].view["match_over"]
        async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http:
            log = await Api(http).call("GET", f"/api/matches/{table['match_id']}/log")
        fresh = [(await Client.open(base, table["id"], v.token))[1]["view"] for v in everyone]

    versions = [entry["version"] for entry in log["actions"]]
    assert versions == list(range(1, len(versions) + 1))  # no gap, no duplicate
    logged = {entry["version"]: (entry["seat"], entry["action"]) for entry in log["actions"]}
    for version, seat, action in acked:
        assert logged[version] == (seat, action)  # every acknowledged action, exactly once
    state = new_match(Rules.from_options(log["variant"], log["rules"]), log["seed"], log["dealer"])
    for entry in log["actions"]:
        state, _ = apply(state, Action.from_json(entry["action"]), entry["seat"])
    assert state.match_over
    for seat, viewer in zip((0, 1, None), everyone, strict=True):
        assert viewer.view == view(state, seat) == fresh[everyone.index(viewer)]
