"""The leak audit: many random matches through the real server, every frame checked (the tests
are ``test_leak_audit.py`` and ``test_leak_audit_seats.py``).

A ``talon serve`` subprocess on a free loopback port; for each match every seat (two, three or
four: partners included) and two spectators are connected over real WebSockets and every frame
each of them receives is kept. The seats play random legal moves (now and then one resigns)
while REST calls look at the table and the match. Once the match is over its public log is
replayed with the engine, which gives the truth at every version; then, for every connection
and every frame:

* no card that viewer may not know at that version (another seat's hand, the stock) is in any
  value, key or error text; no deal seed appears before the match is over;
* the two spectators received exactly the same frames, and a seat's updates hold the same
  events in the same order as a spectator's, except the seat's own draws (so neither the number
  nor the order of events says anything about hidden cards);
* folding the welcome and the updates gives the engine's view of the final state;
* REST answers during play hold no hidden card, and the match's log and replay are refused
  (409) until the match is over.

In manual claim mode, additionally no running score is sent to anyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

from app.engine import Action, Rules, State, apply, new_match, view
from tests.engine.reducer import fold
from tests.engine.test_views_and_events import hidden_from
from tests.reliability.server import (
    card_codes,
    post,
    served,
    unhandled_errors,
    wait_healthy,
)
from tests.support import free_port

CONCURRENT = 64
MATCHES = int(__import__("os").environ.get("LEAK_AUDIT_MATCHES", "1000"))
PRIVATE_DRAWS = ("card_drawn", "hand_dealt")
PATIENCE = 120.0
"""Seconds to wait for a frame: a quiet machine answers in milliseconds, one loaded by other
work (the client's 64 matches and the server share its cores) may take many seconds."""
LONGEST = 240
"""Actions after which a seat resigns: random bidding can sink a four-hand side for ever."""
TWO_SEATS = [("sixty-six", {}), ("schnapsen", {})]
MORE_SEATS = [
    ("three-hand", {}),
    ("german-32", {"players": 3}),
    ("four-hand", {}),
    ("german-48", {"partners": True}),
]


class Recorder:
    """One connection: keeps every frame; wakes whoever waits for a version or an answer."""

    def __init__(self, socket: ClientConnection, seat: int | None) -> None:
        self.socket = socket
        self.seat = seat
        self.frames: list[dict[str, Any]] = []
        self.version = -1
        self.picture: dict[str, Any] = {}
        self.answers: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.moved = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.socket:
            frame = orjson.loads(raw)
            self.frames.append(frame)
            kind = frame["type"]
            if kind == "welcome":
                self.version, self.picture = frame["version"], frame["view"]
            elif kind == "update":
                self.version = frame["version"]
                moves = {"to_move": frame["to_move"], "legal": frame["legal"]}
                self.picture = {**self.picture, **moves}
            elif kind in ("ack", "error"):
                self.answers.put_nowait(frame)
            self.moved.set()

    async def reach(self, version: int) -> None:
        while self.version < version:
            self.moved.clear()
            await asyncio.wait_for(self.moved.wait(), PATIENCE)

    async def close(self) -> None:
        await self.socket.close()
        await self.reader


@dataclass
class Played:
    """One match as the connections saw it, and the REST answers taken during play."""

    table_id: str
    match_id: int
    connections: list[Recorder]
    rest: list[tuple[int, Any]] = field(default_factory=list)
    log: dict[str, Any] = field(default_factory=dict)


async def open_recorder(base: str, table_id: str, token: str | None, seat: int | None) -> Recorder:
    socket = await connect(f"ws://{base}/ws/tables/{table_id}", max_size=2**22)
    recorder = Recorder(socket, seat)
    await socket.send(json.dumps({"type": "hello", "token": token, "since": None}))
    await recorder.reach(0)
    return recorder


async def look(http: httpx.AsyncClient, played: Played, version: int, tokens: list[str]) -> None:
    """REST during play: tables and matches as anyone and as each seat; the log refused."""
    table_id, match_id = played.table_id, played.match_id
    for token in (None, tokens[0]):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        for path in (f"/api/tables/{table_id}", f"/api/matches/{match_id}"):
            response = await http.get(path, headers=headers)
            assert response.status_code == 200, response.text
            played.rest.append((version, response.json()))
    for path in ("/api/tables?status=live", "/api/matches?limit=5"):
        played.rest.append((version, (await http.get(path)).json()))
    for path in (f"/api/matches/{match_id}/log", f"/api/matches/{match_id}/replay"):
        response = await http.get(path)
        assert response.status_code == 409 and response.json()["error"]["code"] == "match_live"
        played.rest.append((version, response.json()))


async def play_one(
    base: str,
    http: httpx.AsyncClient,
    rng: random.Random,
    options: dict[str, Any],
    tokens: list[str],
    games: list[tuple[str, dict[str, Any]]],
) -> Played:
    variant, own = rng.choice(games)
    body = {"variant": variant, "options": {**options, **own}}
    table = await post(http, "/api/tables", tokens[0], body)
    tokens = tokens[: len(table["seats"])]
    for token in tokens[1:]:
        table = await post(http, f"/api/tables/{table['id']}/join", token, {})
    seats = [await open_recorder(base, table["id"], t, s) for s, t in enumerate(tokens)]
    watchers = [await open_recorder(base, table["id"], None, None) for _ in range(2)]
    everyone = [*seats, *watchers]
    played = Played(table["id"], table["match_id"], everyone)
    version = 0
    resign_chance = rng.choice([0.0, 0.0, 0.02, 0.1])
    # REST calls cost more than a whole match's frames: one match in five is looked at.
    look_at = {rng.randrange(12)} if rng.random() < 0.2 else set()
    while True:
        picture = seats[0].picture
        if picture.get("match_over") or picture["to_move"] is None:
            break
        if version in look_at:
            await look(http, played, version, tokens)
        if rng.random() < resign_chance or version >= LONGEST:
            actor, action = rng.choice(seats), {"type": "resign"}
        else:
            actor = seats[picture["to_move"]]
            action = rng.choice([a for a in actor.picture["legal"] if a["type"] != "resign"])
        message = {"type": "action", "id": version, "version": version, "action": action}
        await actor.socket.send(json.dumps(message))
        answer = await asyncio.wait_for(actor.answers.get(), PATIENCE)
        assert answer == {"type": "ack", "id": version, "version": version + 1}, answer
        version += 1
        for recorder in everyone:
            await recorder.reach(version)
        if action["type"] == "resign":
            break
        seats[0].picture = fold_flags(seats[0])
    response = await http.get(f"/api/matches/{played.match_id}/log")
    assert response.status_code == 200, response.text
    played.log = response.json()
    for recorder in everyone:
        await recorder.close()
    return played


def fold_flags(recorder: Recorder) -> dict[str, Any]:
    """The recorder's picture with ``match_over`` from the frames seen so far."""
    over = any(
        e["type"] == "match_over"
        for f in recorder.frames
        if f["type"] == "update"
        for e in f["events"]
    )
    return {**recorder.picture, "match_over": over}


def truth(log: dict[str, Any]) -> tuple[list[State], list[list[Any]], set[str]]:
    """States at every version (index = version), the engine's events, and every deal seed."""
    rules = Rules.from_options(log["variant"], log["rules"])
    state = new_match(rules, log["seed"], log["dealer"])
    states, events = [state], [[]]
    for entry in log["actions"]:
        state, produced = apply(state, Action.from_json(entry["action"]), entry["seat"])
        states.append(state)
        events.append(produced)
    seeds = {d["seed"] for d in log["deals"] if d.get("seed")}
    return states, events, seeds


def check_update(
    frame: dict[str, Any], seat: int | None, before: State, after: State, events: list[Any]
) -> None:
    """No hidden card in an update, judging events of an ended deal by that deal's cards."""
    shown = {e.data["shown"] for e in events if e.type == "marriage_declared"}
    played = {e.data["card"] for e in events if e.type == "card_played"} | shown
    start = next((i for i, e in enumerate(frame["events"]) if e["type"] == "deal_started"), None)
    ended = frame["events"] if start is None else frame["events"][:start]
    fresh = [] if start is None else frame["events"][start:]
    secret_before = hidden_from(before, seat) - played
    secret_after = hidden_from(after, seat)
    for event in ended:
        own = event["type"] in PRIVATE_DRAWS and event.get("seat") == seat
        secret = secret_after if start is None else secret_before
        if not own:
            assert not card_codes(event) & secret, (seat, event)
    for event in fresh:
        assert not card_codes(event) & secret_after, (seat, event)
    envelope = {k: v for k, v in frame.items() if k != "events"}
    assert not card_codes(envelope) & secret_after, (seat, envelope)


def no_running_score(frame: dict[str, Any]) -> None:
    """Manual claim mode: nobody is told a running score."""
    if frame["type"] == "welcome" and frame["view"] is not None:
        assert frame["view"]["scores"] is None
    for event in frame.get("events", ()):
        if event["type"] not in ("claim", "deal_over"):
            assert "score" not in event, event
            assert event["type"] != "trick_won" or "points" not in event, event


def untimed(frame: dict[str, Any]) -> dict[str, Any]:
    """A frame without the time-dependent fields of a turn clock's frame."""
    if frame["type"] != "clock":
        return frame
    return {k: v for k, v in frame.items() if k not in ("remaining", "server_time")}


def audit(played: Played, manual: bool) -> int:
    """Check every frame of one match; how many frames were checked."""
    states, events, seeds = truth(played.log)
    last = len(states) - 1
    assert states[last].match_over
    seats = [*range(len(played.connections) - 2), None, None]
    # A clock frame counts down from when it was sent: the one each greeting gets depends on
    # when that viewer arrived (every other field of it is the same). Presence frames carry
    # the server's time and follow each connection's comings and goings.
    spectators = [
        [untimed(f) for f in r.frames if f.get("type") != "presence"]
        for r in played.connections[-2:]
    ]
    assert spectators[0] == spectators[1], "two spectators were told different things"
    secret_seeds = [seed.encode() for seed in seeds]
    checked = 0
    by_version: dict[int, list[list[tuple[str, Any]]]] = {}
    for recorder, seat in zip(played.connections, seats, strict=True):
        version, picture = 0, None
        for frame in recorder.frames:
            checked += 1
            if frame.get("version", version) < last:
                text = orjson.dumps(frame)
                assert not any(s in text for s in secret_seeds), "a deal seed before the end"
            if manual:
                no_running_score(frame)
            if frame["type"] == "update":
                assert frame["version"] == version + 1, "a gap or a duplicate version"
                version = frame["version"]
                check_update(frame, seat, states[version - 1], states[version], events[version])
                picture = fold(picture, frame)
                shape = [(e["type"], e.get("seat")) for e in frame["events"]]
                by_version.setdefault(version, []).append((seat, shape))
            else:
                if frame["type"] == "welcome":
                    version, picture = frame["version"], frame["view"]
                assert not card_codes(frame) & hidden_from(states[version], seat), (seat, frame)
        assert version == last
        assert picture == view(states[last], seat), "a folded picture differs from the truth"
    for shapes in by_version.values():
        public = shapes[-1][1]
        for seat, shape in shapes:
            mine = [s for s in shape if not (s[0] in PRIVATE_DRAWS and s[1] == seat)]
            theirs = [s for s in public if not (s[0] in PRIVATE_DRAWS and s[1] == seat)]
            assert mine == theirs, "a seat's events differ in number or order from a spectator's"
    for version, body in played.rest:
        assert not card_codes(body) & hidden_from(states[version], None), body
        assert not any(s in json.dumps(body) for s in seeds)
    return checked


async def run_audit(
    tmp_path: Path,
    matches: int,
    options: dict[str, Any],
    seed: int,
    games: list[tuple[str, dict[str, Any]]] = TWO_SEATS,
) -> None:
    port = free_port()
    base = f"127.0.0.1:{port}"
    log = tmp_path / "server.log"
    rng = random.Random(seed)
    gate = asyncio.Semaphore(CONCURRENT)
    manual = options.get("claim") == "manual"
    totals = {"matches": 0, "frames": 0}

    async def one(n: int) -> None:
        async with gate:
            # A player may sit at many tables: a group per slot (and its own HTTP client),
            # reused match after match.
            tokens, http = slots.pop()
            seeded = random.Random(rng.random() + n)
            played = await play_one(base, http, seeded, options, tokens, games)
            slots.append((tokens, http))
        totals["frames"] += audit(played, manual)
        totals["matches"] += 1

    # Public tables run a turn clock; an hour a move keeps its frames in the audit without
    # a loaded machine's stall handing a seat to a computer player in the middle of a match.
    clock = {"CLOCK_MOVE_SECONDS": "3600"}
    with served(tmp_path / "talon.db", port, log, LOG_LEVEL="warning", **clock):
        await wait_healthy(base)
        # A client per slot: one client's pool of 64 connections scans every connection
        # for each request, which cost the audit more CPU than its checks.
        async with contextlib.AsyncExitStack() as stack:
            clients = [
                await stack.enter_async_context(
                    # Plain HTTP: no certificates to load for each client.
                    httpx.AsyncClient(base_url=f"http://{base}", timeout=30, verify=False)
                )
                for _ in range(CONCURRENT)
            ]
            size = max(4 if name in dict(MORE_SEATS) else 2 for name, _ in games)
            names = [f"P{n}" for n in range(size * CONCURRENT)]
            players = [await post(clients[0], "/api/players", None, {"name": n}) for n in names]
            tokens = [p["token"] for p in players]
            groups = [tokens[i : i + size] for i in range(0, len(tokens), size)]
            slots = list(zip(groups, clients, strict=True))
            await asyncio.gather(*(one(n) for n in range(matches)))
    assert totals["matches"] == matches
    assert totals["frames"] > 20 * matches
    assert not unhandled_errors(log.read_text())
