"""Load across workers: ``benchmarks/load.py --workers 2 --database postgres --redis``.

Starts a throwaway PostgreSQL cluster (and a throwaway redis-server with ``--redis``), then
``--workers`` server processes sharing them. Table n is opened through worker n, which owns
it; ``--placement split`` (the default) seats its two players on different workers (seat 0
on worker n, seat 1 on worker n+1, so one of them is relayed to the owner), ``--placement
owner`` seats both on the owner, as the shipped nginx rule routes a table's connections.
Measures as ``load.py`` does: accepted moves per second, p50/p99 from action to ack and from
action to the opponent's update, across workers, and the CPU every worker together spent per
accepted move. Never asserts a timing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from load import (
    ROOT,
    cpu_seconds,
    free_port,
    percentile,
    rss_mib,
    set_up_table,
    wait_healthy,
)
from players import Figures, Start, play_tables, refusals

sys.path.insert(0, str(ROOT))

from app.store.migrate import upgrade
from tests.pg import TEMPLATE, PostgresCluster
from tests.scale.cluster import RedisServer


def start_worker(port: int, database_url: str, redis_url: str | None) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "LOG_LEVEL": "warning",
        "PLAYERS_PER_MINUTE": "1000000",
        "TABLES_PER_MINUTE": "1000000",
        "WS_MESSAGES_PER_SECOND": "1000000",
        "WS_CONNECTIONS_PER_ADDRESS": "1000000",
    }
    env.pop("REDIS_URL", None)
    if redis_url is not None:
        env["REDIS_URL"] = redis_url
    command = [sys.executable, "-m", "app.cli", "serve", "--port", str(port)]
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def database(args: argparse.Namespace, tmp: Path) -> tuple[str, PostgresCluster | None]:
    """A fresh migrated database URL (and the cluster to stop afterwards)."""
    if args.database == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp / 'load.db'}"
        upgrade(url)
        return url, None
    cluster = PostgresCluster()
    cluster.start()
    asyncio.run(cluster.execute(f"CREATE DATABASE {TEMPLATE}"))
    url = cluster.url(TEMPLATE)
    upgrade(url)
    return url, cluster


async def measure(args: argparse.Namespace, bases: list[str], pids: list[int]) -> float:
    limits = httpx.Limits(max_connections=50)
    clients = [
        httpx.AsyncClient(base_url=f"http://{base}", timeout=30, limits=limits, verify=False)
        for base in bases
    ]
    try:
        for client in clients:
            await wait_healthy(client)
        tables = await asyncio.gather(
            *(set_up_table(clients[n % len(clients)], n) for n in range(args.tables))
        )
    finally:
        for client in clients:
            await client.aclose()
    figures = Figures()
    cpu_before: list[float] = []
    started = 0.0

    def read_counters() -> None:  # once every table is greeted: the moves' CPU only
        nonlocal started
        cpu_before[:] = [cpu_seconds(pid) or 0.0 for pid in pids]
        started = time.perf_counter()

    split = args.placement == "split"
    start = Start(len(tables), args.duration, read_counters)
    await play_tables(
        tables,
        bases,
        figures,
        time.perf_counter() + args.duration,
        args.max_moves,
        args.seed,
        split,
        args.pace / 1000,
        start,
    )
    elapsed = time.perf_counter() - started
    cpu = [(cpu_seconds(pid) or 0.0) - before for pid, before in zip(pids, cpu_before, strict=True)]
    report(args, figures, elapsed, pids, cpu)
    return sum(cpu) / max(figures.moves, 1)


def report(
    args: argparse.Namespace, figures: Figures, elapsed: float, pids: list[int], cpu: list[float]
) -> None:
    ms = 1000
    setup = f"{args.workers} worker(s), {args.database}" + (" + redis" if args.redis else "")
    if args.workers > 1:
        setup += f", players placed: {args.placement}"
    pace = f"  pace: {args.pace:.0f} ms" if args.pace else ""
    print(
        f"{setup}; tables: {args.tables}  players: {2 * args.tables}"
        f"  duration: {elapsed:.1f} s{pace}"
    )
    print(
        f"accepted moves: {figures.moves}  ({figures.moves / elapsed:.0f} moves/s)"
        f"  refused: {figures.errors}{refusals(figures)}"
    )
    for label, values in (("ack", figures.ack), ("opponent update", figures.opponent)):
        print(
            f"action -> {label + ':':17} p50 {percentile(values, 0.5) * ms:.1f} ms"
            f"  p99 {percentile(values, 0.99) * ms:.1f} ms"
        )
    for n, (pid, seconds) in enumerate(zip(pids, cpu, strict=True)):
        print(
            f"worker {n + 1}: {100 * seconds / elapsed:.0f}% of one core,"
            f" RSS {rss_mib(pid) or 0:.0f} MiB"
        )
    moves = max(figures.moves, 1)
    print(
        f"server CPU (every worker together): {sum(cpu) * 1e6 / moves:.0f} us per accepted move"
        f"  ({100 * sum(cpu) / elapsed:.0f}% of one core)"
    )


def compare(args: argparse.Namespace) -> None:
    """``--compare``: one worker on PostgreSQL and ``--workers`` on PostgreSQL + Redis, one run
    after the other, ``--rounds`` times (the order alternates, so neither always runs on the
    warmer or quieter machine); prints the server CPU per accepted move of each, their ratio,
    and the median ratio over the rounds."""
    ratios = []
    for round_no in range(args.rounds):
        figures = {}
        order = (1, args.workers) if round_no % 2 == 0 else (args.workers, 1)
        for workers in order:
            run = argparse.Namespace(**{**vars(args), "workers": workers, "redis": workers > 1})
            figures[workers] = main(run)
            print()
        one, many = figures[1], figures[args.workers]
        ratios.append(many / one)
        print(
            f"round {round_no + 1}: server CPU per accepted move: 1 worker {one * 1e6:.0f} us,"
            f" {args.workers} workers {many * 1e6:.0f} us ({many / one:.2f}x;"
            f" players placed: {args.placement})"
        )
        print()
    if args.rounds > 1:
        listed = ", ".join(f"{ratio:.2f}x" for ratio in ratios)
        print(f"ratios: {listed}; median {statistics.median(ratios):.2f}x")


def main(args: argparse.Namespace) -> float:
    """Start the database, Redis and the workers; run ``measure``; stop everything. The
    server CPU per accepted move (seconds, every worker together)."""
    if args.workers > 1 and not args.redis:
        raise SystemExit("several workers need --redis (it is how they reach a table's owner)")
    if args.workers > 1 and args.database != "postgres":
        raise SystemExit("several workers need --database postgres")
    tmp = tempfile.TemporaryDirectory(prefix="talon-scale-")
    cluster, redis, workers = None, None, []
    try:
        url, cluster = database(args, Path(tmp.name))
        if args.redis:
            redis = RedisServer()
            redis.start()
        ports = [free_port() for _ in range(args.workers)]
        workers = [start_worker(p, url, redis.url if redis else None) for p in ports]
        bases = [f"127.0.0.1:{port}" for port in ports]
        try:
            import uvloop
        except ImportError:
            return asyncio.run(measure(args, bases, [w.pid for w in workers]))
        else:
            return uvloop.run(measure(args, bases, [w.pid for w in workers]))
    finally:
        for worker in workers:
            worker.send_signal(signal.SIGINT)
        for worker in workers:
            try:
                worker.wait(10)
            except subprocess.TimeoutExpired:
                worker.kill()
        if redis is not None:
            redis.cleanup()
        if cluster is not None:
            cluster.stop()
        tmp.cleanup()
