"""The database goes away mid-match and comes back: nothing is acknowledged that was not
stored, the table is unchanged, and play resumes.

On PostgreSQL the test's own throwaway cluster is really stopped (``pg_ctl stop -m fast``,
which cuts the server's pooled connections) and started again; the server must reconnect.
On SQLite, where a process running as root can write to any file, every statement fails with
SQLite's own ``disk I/O error`` while the outage lasts (an engine hook on the server's engine).

While the database is away: an action is answered ``unavailable`` (with a sentence), no viewer
gets an update, a fresh spectator's welcome is what it was before, a seat cannot greet (1013
after an ``unavailable`` error), and REST answers 503 ``unavailable``. Once it is back, the very
same action is acknowledged and the match is played to its end; the stored log holds every
acknowledged action once and nothing else, and every viewer's folded picture is the engine's.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from sqlalchemy import event
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.engine import Action, Rules, apply, new_match, view
from app.main import create_app
from app.store.migrate import upgrade
from tests.api.test_durability import Viewer, play
from tests.pg import PostgresCluster
from tests.support import Api, Client, free_port, in_thread, migrated_sqlite, pick, settings_for

GENEROUS = {"players_per_minute": 10_000, "tables_per_minute": 10_000}


@contextlib.asynccontextmanager
async def serving(app: FastAPI) -> AsyncIterator[str]:
    """``app`` under uvicorn on a free loopback port; yields host:port."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    task = asyncio.create_task(server.serve())
    while not server.started:
        assert not task.done(), "the server did not start"
        await asyncio.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)


class Outage:
    """How the database goes away and comes back, for one backend."""

    def __init__(self, url: str, down: Callable[[FastAPI], None], up: Callable[[], None]):
        self.url, self.down, self.up = url, down, up


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def outage(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "sqlite":
        failing = {"now": False}

        def fail_statements(*_: Any) -> None:
            if failing["now"]:
                raise sqlite3.OperationalError("disk I/O error")

        def down(app: FastAPI) -> None:
            services = app.state.services
            # The server's engine and the group commit's own writer connection.
            for engine in (services.engine.sync_engine, services.committer.writer):
                if not event.contains(engine, "before_cursor_execute", fail_statements):
                    event.listen(engine, "before_cursor_execute", fail_statements)
            failing["now"] = True

        def up() -> None:
            failing["now"] = False

        url = migrated_sqlite(tmp_path / "template.db", tmp_path / "talon.db")
        yield Outage(url, down, up)
        return
    cluster = PostgresCluster()  # its own: this one is stopped mid-test
    cluster.start()
    try:
        in_thread(lambda: asyncio.run(cluster.execute("CREATE DATABASE talon")))
        url = cluster.url("talon")
        in_thread(lambda: upgrade(url))
        yield Outage(url, lambda _app: cluster.halt(), cluster.serve)
    finally:
        cluster.stop()


async def no_update_until_pong(viewer: Viewer, ref: str) -> None:
    """A ping's pong arrives and no update came before it."""
    assert viewer.client is not None
    await viewer.client.send({"type": "ping", "id": ref})
    while True:
        frame = await viewer.client.recv()
        assert frame["type"] != "update", f"an update while the database was away: {frame}"
        if frame["type"] == "pong" and frame["id"] == ref:
            return


async def test_an_unavailable_database_loses_nothing_and_play_resumes(outage: Outage) -> None:
    app = create_app(settings_for(outage.url, **GENEROUS))
    rng = random.Random(7)
    async with (
        serving(app) as base,
        httpx.AsyncClient(base_url=f"http://{base}", timeout=10, verify=False) as http,
    ):
        api = Api(http)
        table, players = await api.live_table(options={"target": 1})
        seats = [Viewer(p["token"]) for p in players]
        everyone = [*seats, Viewer(None)]
        for viewer in everyone:
            await viewer.connect(base, table["id"], None)
        # One trick: the deal (and the match) cannot be over yet, whatever the server dealt.
        acked = await play(seats, everyone, rng, 2)
        assert len(acked) == 2 and not seats[0].view["match_over"]
        _, before = await Client.open(base, table["id"])

        outage.down(app)
        mover = seats[seats[0].view["to_move"]]
        assert mover.client is not None
        action = pick(mover.view["legal"], rng)
        message = {"type": "action", "id": "x", "version": mover.version, "action": action}
        for attempt in range(2):  # the first meets the pool's dead connections, the next none
            await mover.client.send({**message, "id": f"x{attempt}"})
            refusal = await mover.client.recv_until_any(("ack", "error"))
            assert refusal["type"] == "error", (
                f"acknowledged while the database was away: {refusal}"
            )
            assert refusal["code"] == "unavailable", refusal
            assert refusal["message"].endswith("."), refusal
        for index, viewer in enumerate(everyone):
            await no_update_until_pong(viewer, f"p{index}")
        _, during = await Client.open(base, table["id"])
        assert during == before, "the table changed while the database was away"
        async with connect(f"ws://{base}/ws/tables/{table['id']}") as socket:
            await socket.send(f'{{"type": "hello", "token": "{players[0]["token"]}"}}')
            refused = await asyncio.wait_for(socket.recv(), 10)
            assert '"unavailable"' in refused
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(socket.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        response = await http.post("/api/players", json={"name": "Cleo"})
        assert response.status_code == 503, response.text
        assert response.json()["error"]["code"] == "unavailable"

        outage.up()
        await mover.client.send({**message, "id": "again"})
        target = mover.version + 1
        for viewer in everyone:
            await viewer.catch_up(target)
        ack = await mover.client.recv_until("ack")
        assert ack["version"] == target
        acked.append((target, seats.index(mover), action))
        acked += await play(seats, everyone, rng, 10_000)
        assert seats[0].view["match_over"]
        log = await api.call("GET", f"/api/matches/{table['match_id']}/log")
        fresh = [(await Client.open(base, table["id"], v.token))[1]["view"] for v in everyone]

    stored = [(entry["version"], entry["seat"], entry["action"]) for entry in log["actions"]]
    assert stored == acked, "the stored log is not exactly the acknowledged actions"
    state = new_match(Rules.from_options(log["variant"], log["rules"]), log["seed"], log["dealer"])
    for entry in log["actions"]:
        state, _ = apply(state, Action.from_json(entry["action"]), entry["seat"])
    for index, (seat, viewer) in enumerate(zip((0, 1, None), everyone, strict=True)):
        assert viewer.view == view(state, seat) == fresh[index]
