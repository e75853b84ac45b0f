"""Two workers, one owner: a match played across two server processes that share one
PostgreSQL database and one redis-server, with the table's owner killed mid-match.

Anna opens the table on worker 1, which takes its lease and owns it; Bela joins through
worker 2, which forwards the join to the owner. Player A plays on worker 1; player B and a
spectator watch and play on worker 2, which relays their actions to the owner and the
owner's frames back, and holds no copy of the table (it applies no action). Worker 1 is
killed with SIGKILL while A's action is in flight; once its lease has run out worker 2 takes
it, rebuilds the table from the log and finishes the match, while every client reconnects
with ``since`` (B and the spectator are told to, A's worker is gone). Every connection must
have seen every version exactly once, each with exactly the events its viewer may see
(checked against a replay of the stored log), and no log line may carry a token, a seed or
a card.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from app.engine import Action, Rules, apply, new_match, redact, view
from tests.pg import PostgresCluster
from tests.scale.cluster import RedisServer, ResumingViewer, Worker, client, two_workers
from tests.support import Api, in_thread, pick

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


class Viewer(ResumingViewer):
    """A folding viewer on one worker that keeps every update it receives. When its
    connection is closed before its action was stored, it acts again once resumed (as a
    player would, seeing the table still waiting for it)."""

    def __init__(
        self, name: str, token: str | None, seat: int | None, invite: str | None = None
    ) -> None:
        super().__init__(token, invite)
        self.name, self.seat = name, seat
        self.updates: list[dict[str, Any]] = []
        self.pending: dict[str, Any] | None = None  # the action sent and not yet seen stored
        self.acknowledged: list[int] = []  # the versions its acks named

    async def resume(self, base: str | None = None, attempts: int = 60) -> dict[str, Any]:
        welcome = await super().resume(base, attempts)
        if self.pending is not None and self.pending["version"] == self.version:
            assert self.client is not None
            await self.client.send(self.pending)
        return welcome

    async def connect(self, worker: Worker, table_id: str, since: int | None) -> dict[str, Any]:  # type: ignore[override]
        welcome = await super().connect(worker.base, table_id, since)
        assert welcome["seat"] == self.seat, (self.name, welcome)
        return welcome

    def received(self, frame: dict[str, Any]) -> None:
        self.updates.append(copy.deepcopy(frame))  # fold may change the events it reads

    async def nothing_more(self) -> None:
        """No further update arrives (a duplicate would show up here)."""
        assert self.client is not None
        with pytest.raises(TimeoutError):
            while True:
                frame = await self.client.recv(timeout=1.0)
                assert frame["type"] != "update", (self.name, "an extra update", frame)


async def send_action(actor: Viewer, rng: random.Random, ref: str, *, pending: bool = True) -> int:
    """Send a random legal action (again after reconnecting if the connection was closed);
    the version it was sent at. ``pending``: send it again if a reconnection shows it was
    not stored."""
    chosen = pick(actor.view["legal"], rng)
    while True:
        assert actor.client is not None
        message = {"type": "action", "id": ref, "version": actor.version, "action": chosen}
        actor.pending = message if pending else None
        try:
            await actor.client.send(message)
        except ConnectionClosed:
            await actor.resume()  # sends ``pending`` again: the loop ends next time round
            if actor.version == message["version"]:
                return actor.version
            continue
        return actor.version


async def play(seats: list[Viewer], everyone: list[Viewer], rng: random.Random, moves: int) -> int:
    """Up to ``moves`` stored actions, each seen by every viewer and acknowledged (unless
    the actor's connection was closed between its update and its ack); how many."""
    played = 0
    while played < moves and not everyone[0].view["match_over"]:
        actor = seats[everyone[0].view["to_move"]]
        target = await send_action(actor, rng, f"m{actor.version + 1}") + 1
        for viewer in everyone:
            await viewer.catch_up(target)
        actor.pending = None
        assert actor.client is not None
        with contextlib.suppress(ConnectionClosed):  # handed over right after its update
            ack = await actor.client.recv_until("ack")
            assert ack["version"] == target
            actor.acknowledged.append(target)
        played += 1
    return played


def stored_match(log: dict[str, Any]) -> tuple[list[list[dict[str, Any]]], list[Any]]:
    """Replay the stored log: for each version, every viewer's redacted events."""
    rules = Rules.from_options(log["variant"], log["rules"])
    state = new_match(rules, log["seed"], log["dealer"])
    per_version: list[list[dict[str, Any]]] = []
    for entry in log["actions"]:
        state, events = apply(state, Action.from_json(entry["action"]), entry["seat"])
        per_version.append([redact(events, seat) for seat in (0, 1, None)])
    assert state.match_over
    return per_version, [view(state, seat) for seat in (0, 1, None)]


CARD = re.compile(r'"(?:[789TJQKA])[CDHS]"')


def check_logs(lines: list[str], table_id: str, secrets: list[str]) -> int:
    """Every line is JSON; each line about the table names it and its version; no secret
    and no card in any line. How many lines were about the table."""
    about = 0
    for line in lines:
        entry = json.loads(line)  # not JSON: fails here
        for secret in secrets:
            assert secret not in line, f"a secret in a log line: {line}"
        assert not CARD.search(line), f"a card in a log line: {line}"
        # A slow request's line names its path, which may hold the table's id; it is about
        # the request (a loaded machine writes them), not about the table.
        if table_id in line and entry.get("logger") != "app.api.slow_requests":
            about += 1
            assert entry.get("table_id") == table_id, line
            assert isinstance(entry.get("version"), int), line
    return about


def metric(text: str, name: str) -> float:
    """The sum of a metric's samples whose line starts with ``name``."""
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(name))


async def start_match(
    api1: Api, api2: Api
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Anna (on worker 1) opens a private table; Bela joins it through worker 2.
    Returns Anna, Bela, the table and Bela's join answer (the match is live)."""
    anna, bela = await api1.player("Anna"), await api2.player("Bela")
    table = await api1.table(anna["token"], options={"target": 7}, visibility="private")
    joined = await api2.join(bela["token"], table["id"], invite_code=table["invite_code"])
    assert joined["status"] == "live"
    return anna, bela, table, joined


async def connect_across(
    one: Worker,
    two: Worker,
    table_id: str,
    anna: dict[str, Any],
    bela: dict[str, Any],
    invite: str,
) -> list[Viewer]:
    """A on worker 1; B and a spectator (with the private table's ``invite``) on worker 2."""
    everyone = [
        Viewer("A", anna["token"], 0),
        Viewer("B", bela["token"], 1),
        Viewer("spectator", None, None, invite),
    ]
    for viewer, worker in zip(everyone, (one, two, two), strict=True):
        await viewer.connect(worker, table_id, None)
    return everyone


def check_every_version_once(log: dict[str, Any], everyone: list[Viewer]) -> None:
    """Every viewer saw every stored version exactly once, in order, with exactly its own
    redacted events, and ended with the view a replay of the log gives."""
    per_version, final_views = stored_match(log)
    versions = [entry["version"] for entry in log["actions"]]
    assert versions == list(range(1, len(versions) + 1))
    for index, viewer in enumerate(everyone):
        assert [u["version"] for u in viewer.updates] == versions, viewer.name
        for update, redacted in zip(viewer.updates, per_version, strict=True):
            assert update["events"] == redacted[index], (
                f"{viewer.name} at version {update['version']}: got "
                f"{json.dumps(update['events'])} but may see {json.dumps(redacted[index])}"
            )
        assert viewer.view == final_views[index], viewer.name


async def test_a_match_across_two_workers_survives_killing_one(
    pg_cluster: PostgresCluster, redis_server: RedisServer, tmp_path: Path
) -> None:
    database = in_thread(lambda: asyncio.run(pg_cluster.fresh_database()))
    rng = random.Random(66)
    async with two_workers(database, redis_server.url, tmp_path) as (one, two):
        async with client(one) as http1, client(two) as http2:
            api1, api2 = Api(http1), Api(http2)
            # B joins through worker 2, which forwards the join to the owner, worker 1.
            anna, bela, table, joined = await start_match(api1, api2)
            seen_by_one = await api1.call("GET", f"/api/tables/{table['id']}")
            assert seen_by_one["status"] == "live"
            assert seen_by_one["match_id"] == joined["match_id"]
            # A forwarded request's refusal comes back with its status and code.
            late = await api2.player("Late")
            path = f"/api/tables/{table['id']}/join"
            refused = await api2.call("POST", path, late["token"], status=409, json={})
            assert refused["error"]["code"] == "table_not_open"

        everyone = await connect_across(one, two, table["id"], anna, bela, table["invite_code"])
        a, b, _ = everyone
        seats = [a, b]

        # Play until it is A's turn after at least 12 moves, then kill worker 1 while A's
        # action is in flight: it may or may not have been stored.
        assert await play(seats, everyone, rng, 12) == 12
        while everyone[0].view["to_move"] != 0:
            assert await play(seats, everyone, rng, 1) == 1
        async with client(two) as http2:
            # B's actions were applied by the owner alone: worker 2 holds no live table.
            before = (await http2.get("/metrics")).text
        assert metric(before, "talon_live_tables") == 0
        assert metric(before, 'talon_actions_total{code="ok",outcome="accepted"}') == 0
        await send_action(a, rng, "in-flight", pending=False)
        one.kill()

        async with client(two) as http2:
            now = (await Api(http2).call("GET", f"/api/tables/{table['id']}"))["version"]
            assert now in (a.version, a.version + 1)
            await a.resume(two.base)  # waits until worker 2 holds the lease
            for viewer in everyone:
                await viewer.catch_up(now)
            await play(seats, everyone, rng, 10_000)
            assert a.view["match_over"]
            log = await Api(http2).call("GET", f"/api/matches/{joined['match_id']}/log")
            metrics = (await http2.get("/metrics")).text
        for viewer in everyone:
            await viewer.nothing_more()

    check_every_version_once(log, everyone)
    # Every acknowledged action is in the log once, at its version, as its seat's action.
    for viewer in (a, b):
        assert viewer.acknowledged, viewer.name
        for version in viewer.acknowledged:
            assert log["actions"][version - 1]["seat"] == viewer.seat, (viewer.name, version)

    # Worker 2 relayed worker 1's frames, then owned the table and accepted actions itself.
    assert all(viewer.resumed for viewer in everyone)
    assert metric(metrics, 'talon_actions_total{code="ok",outcome="accepted"}') > 0
    assert metric(metrics, "talon_fanout_lag_seconds_count") > 0
    assert metric(metrics, "talon_action_ack_seconds_count") > 0
    assert "talon_connections" in metrics and "talon_live_tables" in metrics

    secrets = [anna["token"], bela["token"], log["seed"], table["invite_code"]]
    lines = one.log_lines() + two.log_lines()
    assert check_logs(lines, table["id"], secrets) >= 2  # at least the match's start and end
