"""An arena of computer entrants run by the real server: the owner's pairing time per wave,
games per minute, and the server's CPU.

Run ``python -m benchmarks.tournament_arena`` (by default 500 computer entrants for two
minutes; ``--entrants 40 --seconds 30`` for a quick look). A server (SQLite in a temporary
folder, bots in threads) runs in this process; an account creates the arena, adds the
computer entrants of the easy level and waits for the end. Matches are one deal
(``target`` 1). Every ``pair_arena`` call of the owner is timed; the CPU is this process's
(server, owner and bots together). Figures are printed, nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import update
from sqlalchemy.ext.asyncio import create_async_engine

from app.store import Tournament
from app.tournaments import owner as owner_module
from tests.support import Api, live_server, migrated_sqlite, settings_for

WAVES: list[tuple[int, float]] = []  # (players in the wave, seconds to pair it)


def timed_pair_arena(players: Any, *args: Any, **kwargs: Any) -> Any:
    players = list(players)
    start = time.perf_counter()
    pairs = PAIR_ARENA(players, *args, **kwargs)
    WAVES.append((len(players), time.perf_counter() - start))
    return pairs


PAIR_ARENA = owner_module.pair_arena
owner_module.pair_arena = timed_pair_arena  # type: ignore[assignment]


async def run(url: str, entrants: int, seconds: float) -> None:
    settings = settings_for(
        url,
        tournament_tick_seconds=1.0,
        bot_pause=0.05,
        bot_pause_jitter=0.0,
        bot_follow_pause=0.0,
        bot_budget=0.02,
        bot_workers=0,
    )
    async with (
        live_server(settings) as base,
        httpx.AsyncClient(base_url=f"http://{base}", timeout=60, verify=False) as client,
    ):
        api = Api(client)
        host = await api.player("Host")
        body = {"handle": "host", "password": "correct horse battery"}
        await api.call("POST", "/api/accounts", host["token"], json=body, status=201)
        form = {
            "name": "Benchmark arena",
            "format": "arena",
            "variant": "sixty-six",
            "options": {"target": 1},
            "duration": seconds,
            "computers": True,
            "starts_in": 600,
        }
        event = await api.call("POST", "/api/tournaments", host["token"], json=form, status=201)
        path = f"/api/tournaments/{event['id']}"
        for _ in range(entrants):
            await api.call("POST", f"{path}/computers", host["token"], json={"level": "easy"})
        # Start now that the entrants are in (the start time is in the event's row).
        engine = create_async_engine(url)
        now = time.time()
        async with engine.begin() as connection:
            await connection.execute(
                update(Tournament)
                .where(Tournament.id == event["id"])
                .values(starts_at=now, ends_at=now + seconds)
            )
        await engine.dispose()
        cpu, wall = time.process_time(), time.monotonic()
        while (await api.call("GET", path))["status"] != "finished":
            await asyncio.sleep(1.0)
        cpu, wall = time.process_time() - cpu, time.monotonic() - wall
        final = await api.call("GET", path)
    games = [g for g in final["pairings"] if g["status"] == "finished"]
    ms = sorted(t * 1000 for _, t in WAVES) or [0.0]
    print(f"entrants {entrants}, arena {seconds:.0f} s, run {wall:.1f} s to the last game")
    print(f"waves {len(WAVES)}, players per wave: median {statistics.median(n for n, _ in WAVES)}")
    print(
        f"pairing per wave: median {statistics.median(ms):.2f} ms, "
        f"p99 {ms[round(0.99 * (len(ms) - 1))]:.2f} ms, max {ms[-1]:.2f} ms"
    )
    print(f"games {len(games)}, {len(games) / (seconds / 60):.0f} per minute of the arena")
    print(f"CPU of the server process {cpu:.1f} s over {wall:.1f} s ({100 * cpu / wall:.0f}%)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entrants", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=120.0)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="talon-arena-"))
    url = migrated_sqlite(folder / "template.db", folder / "talon.db")
    asyncio.run(run(url, args.entrants, args.seconds))


if __name__ == "__main__":
    main()
