"""Connection capacity: many WebSocket connections held by one server process, idle between moves.

Starts ``talon serve`` on a free loopback port with a fresh SQLite file, seats two players at
each of ``--tables`` untimed tables (no turn clock runs out while they wait), opens one
WebSocket per player (``--tables`` x 2 connections), plays a move at every table, holds every
connection idle for ``--hold`` seconds (past the server's 20 s WebSocket ping, so every
connection is pinged and answers), then plays one more move at every table over the same
connections. Raises the open-file limit of this process and so of the server it starts (the
server raises its own too). Prints connections opened and refused, connections dropped, moves
refused, and the server's resident memory before and after the connections (per connection).
Never asserts anything.

    .venv/bin/python benchmarks/connections.py --tables 5000
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

from load import free_port, rss_mib, start_server
from soak import Seat, Tally, one_move, print_load, raise_open_file_limit, set_up_tables


async def open_all(
    base: str, tables: list[tuple[str, list[str]]], tally: Tally, refused: Counter[str]
) -> list[list[Seat] | None]:
    gate = asyncio.Semaphore(200)

    async def seat_both(table_id: str, tokens: list[str]) -> list[Seat] | None:
        seats = []
        for token in tokens:
            async with gate:
                try:
                    seats.append(await Seat.open(base, table_id, token, tally))
                except Exception as exc:
                    refused[type(exc).__name__] += 1
        return seats if len(seats) == len(tokens) else None

    return await asyncio.gather(*(seat_both(t, tokens) for t, tokens in tables))


async def move_everywhere(seated: list[list[Seat] | None], rng: random.Random, tally: Tally):
    """One move at every table whose seats are both connected."""
    gate = asyncio.Semaphore(200)

    async def move(seats: list[Seat]) -> None:
        async with gate:
            await one_move(seats, rng, tally)

    await asyncio.gather(*(move(seats) for seats in seated if seats))


async def main(args: argparse.Namespace) -> None:
    limit = raise_open_file_limit()
    tally, refused = Tally(), Counter[str]()
    tmp = tempfile.TemporaryDirectory(prefix="talon-connections-")
    port = free_port()
    base = f"127.0.0.1:{port}"
    process = start_server(port, Path(tmp.name) / "connections.db")
    print(f"open-file limit {limit}; server pid {process.pid}", flush=True)
    load_before = os.getloadavg()
    rng = random.Random(args.seed)
    try:
        started = time.monotonic()
        # Untimed tables: set-up alone takes minutes at thousands of tables, and a turn clock
        # running out meanwhile would abort a match or hand its seat to a computer player.
        tables = await set_up_tables(base, args.tables, clock="none")
        print(f"{len(tables)} tables set up in {time.monotonic() - started:.0f} s", flush=True)
        await asyncio.sleep(2)
        rss_before = rss_mib(process.pid) or float("nan")
        started = time.monotonic()
        seated = await open_all(base, tables, tally, refused)
        opened = sum(2 for seats in seated if seats)
        opening = time.monotonic() - started
        print(f"{opened} connections open in {opening:.0f} s", flush=True)
        await move_everywhere(seated, rng, tally)
        print(f"a move at every table; holding idle for {args.hold:.0f} s", flush=True)
        await asyncio.sleep(args.hold)
        rss_held = rss_mib(process.pid) or float("nan")
        await move_everywhere(seated, rng, tally)
        rss_after = rss_mib(process.pid) or float("nan")
        own = rss_mib(os.getpid()) or float("nan")
        for seats in seated:
            for seat in seats or []:
                await seat.close()
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
        tmp.cleanup()
    per = (rss_held - rss_before) * 1024 / max(opened, 1)
    print(f"tables: {args.tables}  connections opened: {opened} of {2 * args.tables}")
    print(f"refused while opening: {sum(refused.values())} {dict(refused)}")
    print(
        f"dropped: {tally.dropped}  moves: {tally.moves} of {2 * len(tables)}"
        f"  refused moves: {dict(tally.refused)}  timeouts: {tally.timeouts}"
        f"  version gaps: {tally.gaps}  reader errors: {tally.errors}"
    )
    print(
        f"server RSS: {rss_before:.0f} MiB with the tables loaded, {rss_held:.0f} MiB holding"
        f" the connections ({per:.1f} KiB per connection), {rss_after:.0f} MiB after the last"
        f" moves; this load generator: {own:.0f} MiB"
    )
    print_load(load_before)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=5000, choices=range(1, 10_001), metavar="T")
    parser.add_argument("--hold", type=float, default=30.0, help="idle seconds, at most 300")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    args.hold = min(max(args.hold, 0.0), 300.0)
    return args


if __name__ == "__main__":
    asyncio.run(main(parse()))
