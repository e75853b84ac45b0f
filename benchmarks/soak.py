"""Soak: thousands of tables playing at human pace for minutes, against one server process.

Starts ``talon serve`` on a free loopback port with a fresh SQLite file, sets up ``--tables``
tables of two players (50 at a time; matches to 100 game points: they run for the whole soak,
with the server's default turn clock), seats each table's players as soon as it is set up (its
clock runs from then), and lets each table move every ``--min-pause`` to ``--max-pause``
seconds for ``--duration`` seconds.
Every seat folds its welcome and updates (``tests/engine/reducer.py``) and checks that each
version comes exactly once. Counts refused actions, timeouts, dropped connections and version
gaps; samples the server's resident memory every 30 s; at the end compares every seat's
folded picture with a fresh welcome (desyncs). Prints figures, never asserts a timing.

    .venv/bin/python benchmarks/soak.py --tables 2000 --duration 600
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from load import ROOT, free_port, rss_mib, set_up_table, start_server, wait_healthy
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(ROOT))
from app.cli import raise_open_file_limit  # this process's, inherited by the server
from tests.engine.reducer import fold  # the reference reducer

ANSWER_TIMEOUT = 30.0
RSS_EVERY = 30.0


@dataclass
class Tally:
    """What went wrong, and how much went right."""

    moves: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    timeouts: int = 0
    dropped: int = 0
    gaps: int = 0
    errors: int = 0
    desyncs: int = 0
    compared: int = 0
    rss: list[tuple[float, float]] = field(default_factory=list)


class Seat:
    """One player's socket; a reader task folds updates and hands acks and errors over."""

    def __init__(self, socket: ClientConnection, welcome: dict[str, Any], tally: Tally) -> None:
        self.socket = socket
        self.seat: int | None = welcome["seat"]  # None: a spectator (its seat was taken over)
        self.view: dict[str, Any] | None = welcome["view"]  # None: no match at the table
        self.version: int = welcome["version"]
        self.answers: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.moved = asyncio.Event()
        self.tally = tally
        self.closing = False
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, base: str, table_id: str, token: str, tally: Tally) -> Seat:
        socket = await connect(f"ws://{base}/ws/tables/{table_id}", max_size=2**22)
        await socket.send(json.dumps({"type": "hello", "token": token, "since": None}))
        while True:
            frame = json.loads(await socket.recv())
            if frame["type"] == "welcome":
                return cls(socket, frame, tally)

    async def _read(self) -> None:
        try:
            async for raw in self.socket:
                frame = json.loads(raw)
                kind = frame["type"]
                if kind == "welcome" and not frame.get("resumed"):  # a match began or ended
                    self.seat, self.view = frame["seat"], frame["view"]
                    self.version = frame["version"]
                    self.moved.set()
                elif kind == "update":
                    if frame["version"] != self.version + 1:
                        self.tally.gaps += 1
                    self.view = fold(self.view, frame)
                    self.version = frame["version"]
                    self.moved.set()
                elif kind in ("ack", "error"):
                    self.answers.put_nowait(frame)
        except (ConnectionClosed, OSError):
            pass  # counted below unless we closed it ourselves
        except Exception:
            # Any other error is a bug of this script or of the server's frames: say so at
            # once instead of leaving every later move of this seat to time out.
            self.tally.errors += 1
            raise
        if not self.closing:
            self.tally.dropped += 1

    async def reach(self, version: int) -> None:
        while self.version < version:
            self.moved.clear()
            await self.moved.wait()

    async def close(self) -> None:
        self.closing = True
        await self.socket.close()
        self.reader.cancel()


async def one_move(seats: list[Seat], rng: random.Random, tally: Tally) -> bool:
    """A random legal move by the seat on move, acknowledged and seen by every seat; False
    (and counted) when it was refused, timed out or the connection dropped, or when the
    match is over or gone or no seat here is on move (counted as ``no_match`` or
    ``not_seated``: its turn clock ran out and a computer player took the seat over)."""
    view = seats[0].view
    if view is None or view["to_move"] is None:
        tally.refused["no_match"] += 1
        return False
    mover = next((seat for seat in seats if seat.seat == view["to_move"]), None)
    if mover is None or mover.view is None:
        tally.refused["not_seated"] += 1
        return False
    choices = [a for a in mover.view["legal"] if a["type"] != "resign"]
    target = mover.version + 1
    message = {"type": "action", "id": target, "version": mover.version}
    try:
        await mover.socket.send(json.dumps({**message, "action": rng.choice(choices)}))
        answer = await asyncio.wait_for(mover.answers.get(), ANSWER_TIMEOUT)
        if answer["type"] != "ack":
            tally.refused[answer["code"]] += 1
            return False
        await asyncio.wait_for(
            asyncio.gather(*(seat.reach(target) for seat in seats)), ANSWER_TIMEOUT
        )
    except TimeoutError:
        tally.timeouts += 1
        return False
    except (ConnectionClosed, OSError):
        return False  # counted as dropped by the reader
    tally.moves += 1
    return True


async def play_table(
    http: httpx.AsyncClient,
    base: str,
    n: int,
    args: argparse.Namespace,
    rng: random.Random,
    tally: Tally,
    gate: asyncio.Semaphore,
) -> tuple[str, list[str], list[Seat]]:
    """Set up table ``n``, seat its players at once (its match's turn clock runs from the
    moment it starts: a table set up minutes before its players came would time out), and
    play it for ``args.duration`` seconds; the table, its tokens and its seats."""
    async with gate:  # no storm of set-ups and connections at the start
        table_id, tokens = await set_up(http, n)
        seats = [await Seat.open(base, table_id, token, tally) for token in tokens]
    deadline = time.monotonic() + args.duration
    await asyncio.sleep(rng.uniform(0, args.max_pause))
    while time.monotonic() < deadline and seats[0].view and seats[0].view["to_move"] is not None:
        if not await one_move(seats, rng, tally):
            break
        await asyncio.sleep(rng.uniform(args.min_pause, args.max_pause))
    return table_id, tokens, seats


async def compare(base: str, table_id: str, tokens: list[str], seats: list[Seat], tally: Tally):
    """A fresh welcome per seat against that seat's folded picture."""
    for token, seat in zip(tokens, seats, strict=True):
        fresh = await Seat.open(base, table_id, token, tally)
        tally.compared += 1
        if fresh.view != seat.view or fresh.version != seat.version:
            tally.desyncs += 1
        await fresh.close()
        await seat.close()


async def set_up(
    http: httpx.AsyncClient, n: int, tries: int = 3, clock: str | None = None
) -> tuple[str, list[str]]:
    """``set_up_table``, again on a dropped keep-alive connection (a busy machine)."""
    for attempt in range(tries):
        try:
            return await set_up_table(http, n, clock=clock)
        except httpx.TransportError:
            if attempt == tries - 1:
                raise
            await asyncio.sleep(0.5)
    raise AssertionError("unreachable")


def client(base: str) -> httpx.AsyncClient:
    """An HTTP client for setting up tables on the server at ``base``."""
    return httpx.AsyncClient(
        base_url=f"http://{base}", timeout=60, limits=httpx.Limits(max_connections=50), verify=False
    )


async def set_up_tables(
    base: str, count: int, clock: str | None = None
) -> list[tuple[str, list[str]]]:
    """Once the server answers: ``count`` live tables (``clock``: their turn clock, the
    server's default when None), 50 set up at a time."""
    async with client(base) as http:
        await wait_healthy(http)
        gate = asyncio.Semaphore(50)

        async def one(n: int) -> tuple[str, list[str]]:
            async with gate:
                return await set_up(http, n, clock=clock)

        return await asyncio.gather(*(one(n) for n in range(count)))


def print_load(before: tuple[float, float, float]) -> None:
    """How busy the (shared) machine was: the load average at the start and now."""
    now = os.getloadavg()[0]
    print(f"load average before: {before[0]:.2f}; at the end: {now:.2f} ({os.cpu_count()} cores)")


async def sample_rss(pid: int, started: float, tally: Tally) -> None:
    while True:
        rss = rss_mib(pid)
        if rss is not None:
            tally.rss.append((time.monotonic() - started, rss))
            print(f"  {time.monotonic() - started:5.0f} s  server RSS {rss:.0f} MiB", flush=True)
        await asyncio.sleep(RSS_EVERY)


async def main(args: argparse.Namespace) -> None:
    limit = raise_open_file_limit()
    tally = Tally()
    tmp = tempfile.TemporaryDirectory(prefix="talon-soak-")
    port = free_port()
    base = f"127.0.0.1:{port}"
    process = start_server(port, Path(tmp.name) / "soak.db")
    print(f"open-file limit {limit}; server pid {process.pid}", flush=True)
    load_before = os.getloadavg()
    try:
        rng = random.Random(args.seed)
        started = time.monotonic()
        sampler = asyncio.create_task(sample_rss(process.pid, started, tally))
        gate = asyncio.Semaphore(50)
        async with client(base) as http:
            await wait_healthy(http)
            print(f"setting up {args.tables} tables, each played for {args.duration:.0f} s")
            played = await asyncio.gather(
                *(
                    play_table(http, base, n, args, random.Random(rng.random()), tally, gate)
                    for n in range(args.tables)
                )
            )
        elapsed = time.monotonic() - started
        sampler.cancel()
        rss_end = rss_mib(process.pid)
        checks = asyncio.Semaphore(100)

        async def check(table_id: str, tokens: list[str], seats: list[Seat]) -> None:
            async with checks:
                await compare(base, table_id, tokens, seats, tally)

        await asyncio.gather(*(check(*table) for table in played))
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
        tmp.cleanup()
    print(
        f"tables: {args.tables}  connections: {2 * args.tables}  set up and played:"
        f" {elapsed:.0f} s (each table {args.duration:.0f} s)"
    )
    print(
        f"accepted moves: {tally.moves} ({tally.moves / elapsed:.0f}/s, one every "
        f"{args.min_pause}-{args.max_pause} s per table)"
    )
    print(
        f"errors: refused {sum(tally.refused.values())} {dict(tally.refused)}"
        f"  timeouts {tally.timeouts}  dropped connections {tally.dropped}"
        f"  version gaps {tally.gaps}  reader errors {tally.errors}"
    )
    print(f"desyncs: {tally.desyncs} of {tally.compared} seats compared with a fresh welcome")
    samples = ", ".join(f"{t:.0f}s {r:.0f}" for t, r in tally.rss)
    print(f"server RSS (MiB) every {RSS_EVERY:.0f} s: {samples}; at the end {rss_end:.0f}")
    print_load(load_before)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2000, choices=range(1, 5001), metavar="T")
    parser.add_argument("--duration", type=float, default=600.0, help="seconds, at most 900")
    parser.add_argument("--min-pause", type=float, default=2.0)
    parser.add_argument("--max-pause", type=float, default=6.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    args.duration = min(max(args.duration, 5.0), 900.0)
    args.min_pause = max(args.min_pause, 0.1)
    args.max_pause = max(args.max_pause, args.min_pause)
    return args


if __name__ == "__main__":
    asyncio.run(main(parse()))
