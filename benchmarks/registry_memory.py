"""Registry memory: the server's resident memory while a client walks finished tables by id.

Writes ``--tables`` finished tables (each with a finished match and its whole action log)
into a fresh SQLite file, starts ``talon serve`` from ``--root`` (a source tree: this one by
default, or an older commit's export to compare), then walks every table by id: first
``GET /api/tables/{id}``, then a spectator's WebSocket greeting (hello, welcome, close).
Prints the server's RSS before, after each walk, and after ``--settle`` seconds (long enough
for idle tables to be evicted when ``--idle`` is shorter). Never asserts anything.

    .venv/bin/python benchmarks/registry_memory.py --tables 2000
    .venv/bin/python benchmarks/registry_memory.py --root /tmp/old-tree   # the same, older code
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from app.common.rules import rules_for_table  # noqa: E402
from app.engine import apply, legal_actions, new_match  # noqa: E402

if __package__:
    from benchmarks.load import free_port, rss_mib, wait_healthy
else:
    from load import free_port, rss_mib, wait_healthy


def finished_match(seed: str, rng: random.Random) -> tuple[list[tuple[int, dict]], object]:
    """A match to 7 game points played with random legal moves (never resigning)."""
    rules = rules_for_table("sixty-six", {})
    state = new_match(rules, seed, None)
    actions = []
    while not state.match_over:
        seat = state.to_move
        choices = [a for a in legal_actions(state, seat) if a.to_json()["type"] != "resign"]
        action = rng.choice(choices)
        state, _ = apply(state, action, seat)
        actions.append((seat, action.to_json()))
    return actions, state


def populate(database: Path, count: int) -> list[str]:
    """``count`` finished tables with their matches and logs, written in one transaction."""
    rng = random.Random(1)
    db = sqlite3.connect(database)
    now = "2026-01-01 00:00:00.000000"
    db.executemany(
        "INSERT INTO players (id, name, created_at) VALUES (?, ?, ?)",
        [("walkera", "Anna", now), ("walkerb", "Bela", now)],
    )
    ids = []
    for n in range(count):
        table_id, seed = f"walk{n:06d}", f"seed{n}"
        actions, state = finished_match(seed, rng)
        ids.append(table_id)
        db.execute(
            "INSERT INTO matches (table_id, variant, rules, seed, dealer, status, base_version,"
            " winner, game_points, deals, started_at, finished_at, rated, rating_applied)"
            " VALUES (?, 'sixty-six', '{}', ?, NULL, 'finished', 0, ?, ?, '[]', ?, ?, 0, 0)",
            (table_id, seed, state.match_winner, json.dumps(list(state.game_points)), now, now),
        )
        match_id = db.execute("SELECT last_insert_rowid()").fetchone()[0]
        db.execute(
            "INSERT INTO tables (id, invite_code, variant, options, visibility, spectators,"
            " history, status, seats, version, rated, match_id, created_by, created_at)"
            " VALUES (?, 'code', 'sixty-six', '{}', 'public', 1, 'after_match', 'finished',"
            " 2, ?, 0, ?, 'walkera', ?)",
            (table_id, len(actions), match_id, now),
        )
        for seat, player in ((0, "walkera"), (1, "walkerb")):
            db.execute("INSERT INTO table_seats VALUES (?, ?, ?)", (table_id, seat, player))
            db.execute("INSERT INTO match_seats VALUES (?, ?, ?)", (match_id, seat, player))
        db.executemany(
            "INSERT INTO actions (table_id, match_id, version, seat, action, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [
                (table_id, match_id, version, seat, json.dumps(action), now)
                for version, (seat, action) in enumerate(actions, 1)
            ],
        )
    db.commit()
    db.close()
    return ids


async def walk(args: argparse.Namespace, port: int, pid: int, ids: list[str]) -> None:
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=30, verify=False) as http:
        await wait_healthy(http)
        start = rss_mib(pid) or 0.0
        print(f"server RSS at start: {start:.1f} MiB")
        began = time.perf_counter()
        for table_id in ids:
            response = await http.get(f"/api/tables/{table_id}")
            assert response.status_code == 200, response.text
        after_get = rss_mib(pid) or 0.0
        print(
            f"after GET /api/tables/{{id}} x{len(ids)}: {after_get:.1f} MiB "
            f"(+{after_get - start:.1f} MiB, {time.perf_counter() - began:.1f} s)"
        )
    began = time.perf_counter()
    for table_id in ids:
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as ws:
            await ws.send(json.dumps({"type": "hello"}))
            welcome = json.loads(await ws.recv())
            assert welcome["type"] == "welcome", welcome
    after_ws = rss_mib(pid) or 0.0
    print(
        f"after a WebSocket greeting at each: {after_ws:.1f} MiB "
        f"(+{after_ws - start:.1f} MiB from start, {time.perf_counter() - began:.1f} s)"
    )
    await asyncio.sleep(args.settle)
    settled = rss_mib(pid) or 0.0
    print(f"after {args.settle:.0f} s more: {settled:.1f} MiB (+{settled - start:.1f} MiB)")
    print(f"per table walked: {(after_ws - start) * 1024 / len(ids):.1f} KiB")


def main(args: argparse.Namespace) -> None:
    root = Path(args.root).resolve()
    with tempfile.TemporaryDirectory() as scratch:
        database = Path(scratch) / "walk.db"
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite+aiosqlite:///{database}",
            "LOG_LEVEL": "warning",
            "WS_CONNECTIONS_PER_ADDRESS": "1000000",
            "WS_MESSAGES_PER_SECOND": "1000000",
            "TABLE_IDLE_SECONDS": str(args.idle),
        }
        python = sys.executable
        subprocess.run([python, "-m", "app.cli", "migrate"], cwd=root, env=env, check=True)
        began = time.perf_counter()
        ids = populate(database, args.tables)
        print(f"{len(ids)} finished tables written in {time.perf_counter() - began:.1f} s")
        port = free_port()
        server = subprocess.Popen(
            [python, "-m", "app.cli", "serve", "--port", str(port)],
            cwd=root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            asyncio.run(walk(args, port, server.pid, ids))
        finally:
            server.terminate()
            server.wait(timeout=20)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--root", default=str(HERE), help="the source tree to serve from")
    parser.add_argument("--idle", type=float, default=300.0, help="TABLE_IDLE_SECONDS")
    parser.add_argument("--settle", type=float, default=0.0, help="seconds to wait at the end")
    return parser.parse_args(argv)


if __name__ == "__main__":
    main(parse())
