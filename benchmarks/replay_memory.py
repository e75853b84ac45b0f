"""Replay memory: a long match's replay size, the server's memory after it, and another
table's worst ping while replays are fetched.

Writes one finished four-hand match of ``--versions`` versions into a fresh SQLite file: four
seats that always bid Luna under ``failed_bid=bidders_lose`` (stored without that key, as an
older record is, so older code reads it too), resigned at the end. Then, for each source tree
in ``--roots`` in turn (``--rounds`` times, alternating), starts ``talon serve`` on a copy of
that file and, while a spectator at another table pings every 20 ms:

1. fetches the whole replay once, as a client does (page after page where the server pages;
   one answer where it does not), and prints its bytes and the server's RSS after;
2. fetches it ``--concurrent`` times at once, and prints the RSS after and the worst ping
   during these fetches.

Never asserts anything. ``--cache-bytes 0`` keeps no replay in memory (every fetch builds its
pages again), for trees that have the setting.

    git worktree add /tmp/old-tree <commit>
    .venv/bin/python benchmarks/replay_memory.py --roots /tmp/old-tree . --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from app.engine import Action, State, apply, legal_actions, new_match, preset  # noqa: E402

if __package__:
    from benchmarks.load import free_port, rss_mib, wait_healthy
else:
    from load import free_port, rss_mib, wait_healthy


def luna_match(versions: int) -> tuple[list[tuple[int, dict[str, object]]], State, dict]:
    """Actions of a four-hand match whose seats always bid Luna, resigned after ``versions``."""
    rules = preset("four-hand", failed_bid="bidders_lose")
    state = new_match(rules, "long-luna", 0)
    rng = random.Random(1)
    actions = []
    while len(actions) < versions:
        seat = state.to_move
        legal = [a for a in legal_actions(state, seat) if a.type != "resign"]
        luna = [a for a in legal if a.level == 5]
        action = luna[0] if luna else rng.choice(legal)
        state, _ = apply(state, action, seat)
        actions.append((seat, action.to_json()))
    resign = Action.simple("resign")
    seat = state.to_move
    state, _ = apply(state, resign, seat)
    actions.append((seat, resign.to_json()))
    options = rules.options()
    del options["failed_bid"]  # as a record stored before the option existed
    return actions, state, options


def populate(database: Path, versions: int) -> int:
    """The long match, finished, with its seats and log; its id."""
    actions, state, options = luna_match(versions)
    db = sqlite3.connect(database)
    now = "2026-01-01 00:00:00.000000"
    names = [(f"luna{n}", f"Luna{n}", now) for n in range(4)]
    db.executemany("INSERT INTO players (id, name, created_at) VALUES (?, ?, ?)", names)
    deals = [r.to_json(reveal_seed=True) for r in state.deal_results]
    db.execute(
        "INSERT INTO matches (table_id, variant, rules, seed, dealer, status, base_version,"
        " winner, game_points, deals, started_at, finished_at, rated, rating_applied)"
        " VALUES ('long', 'four-hand', ?, 'long-luna', 0, 'finished', 0, ?, ?, ?, ?, ?, 0, 0)",
        (
            json.dumps(options),
            state.match_winner,
            json.dumps(list(state.game_points)),
            json.dumps(deals),
            now,
            now,
        ),
    )
    match_id = int(db.execute("SELECT last_insert_rowid()").fetchone()[0])
    db.execute(
        "INSERT INTO tables (id, invite_code, variant, options, visibility, spectators,"
        " history, status, seats, version, rated, match_id, created_by, created_at)"
        " VALUES ('long', 'code', 'four-hand', ?, 'public', 1, 'after_match', 'finished',"
        " 4, ?, 0, ?, 'luna0', ?)",
        (json.dumps(options), len(actions), match_id, now),
    )
    for seat in range(4):
        player = f"luna{seat}"
        db.execute(
            "INSERT INTO table_seats (table_id, seat, player_id) VALUES ('long', ?, ?)",
            (seat, player),
        )
        db.execute(
            "INSERT INTO match_seats (match_id, seat, player_id) VALUES (?, ?, ?)",
            (match_id, seat, player),
        )
    db.executemany(
        "INSERT INTO actions (table_id, match_id, version, seat, action, created_at)"
        " VALUES ('long', ?, ?, ?, ?, ?)",
        [
            (match_id, version, seat, json.dumps(action), now)
            for version, (seat, action) in enumerate(actions, 1)
        ],
    )
    db.commit()
    db.close()
    print(f"match {match_id}: {len(actions)} versions, {len(deals)} deals")
    return match_id


async def whole_replay(http: httpx.AsyncClient, match_id: int) -> int:
    """Every step of the replay, page after page where the server pages; bytes received."""
    size, start = 0, 0
    while True:
        response = await http.get(f"/api/matches/{match_id}/replay?from={start}")
        assert response.status_code == 200, response.text[:200]
        size += len(response.content)
        following = orjson.loads(response.content).get("next")
        if following is None:
            return size
        start = following


def ping_samples(port: int, table_id: str, stop: Any, out: Any) -> None:
    """In a process of its own (so that the benchmark's own parsing of large answers delays
    no ping): a spectator at another table pings every 20 ms until ``stop`` is set, then sends
    ``out`` every ``(monotonic time sent, round trip)``."""

    async def run() -> list[tuple[float, float]]:
        samples = []
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as ws:
            await ws.send(json.dumps({"type": "hello"}))
            await ws.recv()
            n = 0
            while not stop.is_set():
                n += 1
                sent = time.monotonic()
                await ws.send(json.dumps({"type": "ping", "id": n}))
                while json.loads(await ws.recv()).get("type") != "pong":
                    pass
                samples.append((sent, time.monotonic() - sent))
                await asyncio.sleep(0.02)
        return samples

    out.send(asyncio.run(run()))


def worst(samples: list[tuple[float, float]], start: float, end: float) -> float:
    """The longest round trip of a ping sent between ``start`` and ``end``."""
    return max((rtt for sent, rtt in samples if start <= sent <= end), default=float("nan"))


async def measure(port: int, pid: int, match_id: int, concurrent: int) -> dict[str, float]:
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=600, verify=False) as http:
        await wait_healthy(http)
        token = (await http.post("/api/players", json={"name": "Pinger"})).json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        table = await http.post("/api/tables", json={"variant": "sixty-six"}, headers=headers)
        start = rss_mib(pid) or 0.0
        stop = multiprocessing.Event()
        receiving, sending = multiprocessing.Pipe(duplex=False)
        pinger = multiprocessing.Process(
            target=ping_samples, args=(port, table.json()["id"], stop, sending)
        )
        pinger.start()
        await asyncio.sleep(1.0)
        one_began = time.monotonic()
        size = await whole_replay(http, match_id)
        one_ended = time.monotonic()
        after_one = rss_mib(pid) or 0.0
        await asyncio.sleep(0.5)
        many_began = time.monotonic()
        await asyncio.gather(*(whole_replay(http, match_id) for _ in range(concurrent)))
        many_ended = time.monotonic()
        after_many = rss_mib(pid) or 0.0
        stop.set()
        samples = await asyncio.to_thread(receiving.recv)
        pinger.join()
    return {
        "bytes": size,
        "rss_start": start,
        "rss_one": after_one,
        "rss_many": after_many,
        "first_s": one_ended - one_began,
        "many_s": many_ended - many_began,
        "worst_ping_one": worst(samples, one_began, one_ended),
        "worst_ping_many": worst(samples, many_began, many_ended),
    }


def serve_once(
    root: Path, template: Path, match_id: int, concurrent: int, cache_bytes: int | None
) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as scratch:
        database = Path(scratch) / "replay.db"
        shutil.copy(template, database)
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite+aiosqlite:///{database}",
            "LOG_LEVEL": "warning",
            "WS_MESSAGES_PER_SECOND": "1000000",
        }
        if cache_bytes is not None:
            env["REPLAY_CACHE_BYTES"] = str(cache_bytes)
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
            cwd=root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            return asyncio.run(measure(port, server.pid, match_id, concurrent))
        finally:
            server.terminate()
            server.wait(timeout=30)


def main(args: argparse.Namespace) -> None:
    roots = [Path(root).resolve() for root in args.roots]
    with tempfile.TemporaryDirectory() as scratch:
        template = Path(scratch) / "template.db"
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite+aiosqlite:///{template}",
            "LOG_LEVEL": "warning",
        }
        subprocess.run(
            [sys.executable, "-m", "app.cli", "migrate"], cwd=roots[0], env=env, check=True
        )
        match_id = populate(template, args.versions)
        print(
            f"{'tree':<28} {'replay MiB':>10} {'RSS start':>9} {'after 1':>8}"
            f" {f'after {args.concurrent}':>8} {'1 fetch s':>9}"
            f" {f'{args.concurrent} at once s':>12}"
            f" {'worst ping 1':>12} {f'worst ping {args.concurrent}':>12}"
        )
        for _ in range(args.rounds):
            for root in roots:
                r = serve_once(root, template, match_id, args.concurrent, args.cache_bytes)
                print(
                    f"{str(root)[-28:]:<28} {r['bytes'] / 2**20:>10.1f} {r['rss_start']:>9.0f}"
                    f" {r['rss_one']:>8.0f} {r['rss_many']:>8.0f} {r['first_s']:>9.1f}"
                    f" {r['many_s']:>12.1f} {r['worst_ping_one'] * 1000:>10.0f}ms"
                    f" {r['worst_ping_many'] * 1000:>10.0f}ms",
                    flush=True,
                )


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--versions", type=int, default=2000)
    parser.add_argument("--roots", nargs="+", default=[str(HERE)], help="source trees to serve")
    parser.add_argument("--rounds", type=int, default=1, help="times to serve each tree")
    parser.add_argument("--concurrent", type=int, default=3, help="replays fetched at once")
    parser.add_argument(
        "--cache-bytes", type=int, default=None, help="REPLAY_CACHE_BYTES (0: nothing kept)"
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    main(parse())
