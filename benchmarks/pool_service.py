"""The pool service end to end: 1,000 entrants arriving over 10 s into one pool.

Run ``python benchmarks/pool_service.py`` (figures only, no assertions). One worker on a
fresh SQLite file runs its pool's waves as in production (every ``--wave`` seconds, give or
take ``--jitter``); guests join at uniformly random times over ``--arrival`` seconds of wall
clock. Every group gets its table as the service opens it (rows, entries taken, match
started). Printed once nobody waits (or after ``--limit`` seconds): how many tables each
entrant holds a seat at (exactly one is the check), the wave time (reading, pairing in a
thread, opening the tables) and the time from joining to a table, p50 and p99; then each
wave of the pool apart: how many waited, the groups seated, and where its time went (reading
the entries, the matching, opening the tables one transaction each, starting them).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select

import app.pools.service as pool_service
from app.pools import Pool, pool_by_id
from app.services import Services
from app.settings import Settings
from app.store import Player
from app.store.migrate import upgrade
from app.store.models import PoolSeating, TableSeat


@dataclass
class WaveParts:
    """Where one wave's time went (seconds)."""

    waiting: int = 0
    groups: int = 0
    reading: float = 0.0  # the entries read, those offline taken out (the plan less matching)
    matching: float = 0.0
    opening: float = 0.0
    starting: float = 0.0
    tables: list[float] = field(default_factory=list)  # each table's opening
    seating_from: float = 0.0  # when the wave began opening its tables (perf_counter)
    opened_by: float = 0.0  # when the last table was opened (perf_counter)


def instrument(services: Services, pool: Pool, parts: list[WaveParts]) -> None:
    """Time the steps of each of ``pool``'s waves into ``parts`` (a new entry per wave)."""
    pools, tables = services.pools, services.tables
    plan, seat, open_seated = pools.plan, pools.seat, tables.open_seated_table
    pair_wave = pool_service.pair_wave

    def timed_pairing(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        wave = pair_wave(*args, **kwargs)
        if args[0].id == pool.id and parts:
            parts[-1].matching = time.perf_counter() - started
        return wave

    async def timed_plan(which: Pool) -> Any:
        if which.id != pool.id:
            return await plan(which)
        parts.append(WaveParts())
        started = time.perf_counter()
        found = await plan(which)
        part = parts[-1]
        part.reading = time.perf_counter() - started - part.matching
        part.waiting, part.groups = len(found.entries), len(found.wave.groups)
        return found

    async def timed_open(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        opened = await open_seated(*args, **kwargs)
        if parts:
            parts[-1].opened_by = time.perf_counter()
            parts[-1].tables.append(parts[-1].opened_by - started)
        return opened

    async def timed_seat(plan_: Any, epoch: int | None) -> list[str]:
        started = time.perf_counter()
        if plan_.pool.id == pool.id:
            parts[-1].seating_from = started
        opened = await seat(plan_, epoch)
        if plan_.pool.id == pool.id:
            part = parts[-1]
            part.opening = max(0.0, part.opened_by - started)
            part.starting = time.perf_counter() - started - part.opening
        return opened

    pool_service.pair_wave = timed_pairing  # type: ignore[assignment]
    pools.plan = timed_plan  # type: ignore[method-assign]
    pools.seat = timed_seat  # type: ignore[method-assign]
    tables.open_seated_table = timed_open  # type: ignore[method-assign]


def report_waves(parts: list[WaveParts]) -> None:
    """One line per wave that found anyone waiting."""
    print("  waves (waiting, groups: reading + matching + opening + starting):")
    for n, part in enumerate(parts):
        if not part.waiting:
            continue
        each = sum(part.tables) / len(part.tables) * 1000 if part.tables else 0.0
        if not part.opening and part.tables:  # the run ended while the wave started its tables
            part.opening = part.opened_by - part.seating_from
        print(
            f"    {n:2d}: {part.waiting:4d} waiting, {part.groups:3d} groups: "
            f"{part.reading:5.2f} + {part.matching:5.2f} + {part.opening:5.2f} "
            f"({each:.0f} ms a table) + {part.starting:5.2f} s"
        )


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


async def measure(args: argparse.Namespace, database: Path) -> None:
    url = f"sqlite+aiosqlite:///{database}"
    await asyncio.to_thread(upgrade, url)
    settings = Settings(
        database_url=url,
        pool_wave_seconds=args.wave,
        pool_wave_jitter_seconds=args.jitter,
        bot_workers=0,
    )
    services = Services.build(settings)
    await services.start()
    pools = services.pools
    pool = pool_by_id(args.pool)
    waves: list[float] = []
    run_wave = pools.wave

    async def timed_wave(which: Pool) -> list[str]:
        started = time.perf_counter()
        opened = await run_wave(which)
        if which.id == pool.id:
            waves.append(time.perf_counter() - started)
        return opened

    pools.wave = timed_wave  # type: ignore[method-assign]
    parts: list[WaveParts] = []
    instrument(services, pool, parts)
    try:
        players = [(await services.tables.create_player(f"P{n}"))[0] for n in range(args.entrants)]
        rng = random.Random(args.seed)

        async def arrive(player: Player, at: float) -> None:
            await asyncio.sleep(at)
            services.online.seen(player.id)  # as its request to join would
            await pools.join(player, pool.id)

        started = time.monotonic()
        await asyncio.gather(*(arrive(p, rng.uniform(0, args.arrival)) for p in players))
        while time.monotonic() - started < args.limit:
            counts = {p["id"]: p["waiting"] for p in await pools.pools()}
            if counts[pool.id] < pool.seats:
                break
            await asyncio.sleep(0.5)
        async with services.tables.sessions() as session:
            ids = {p.id for p in players}
            seats = await session.scalars(select(TableSeat.player_id))
            held = Counter(player_id for player_id in seats if player_id in ids)
            waited = [s.waited for s in await session.scalars(select(PoolSeating))]
    finally:
        await services.close()
    once = sum(1 for p in players if held[p.id] == 1)
    more = sum(1 for p in players if held[p.id] > 1)
    print(f"pool {pool.id}: {args.entrants} entrants over {args.arrival:.0f} s")
    print(f"  seated exactly once: {once}; more than once: {more}")
    print(f"  waves: {len(waves)}")
    if waves:
        print(
            f"  wave time p50 / p99: {percentile(waves, 0.5) * 1000:.0f} ms / "
            f"{percentile(waves, 0.99) * 1000:.0f} ms"
        )
    if waited:
        print(
            f"  time to a table p50 / p99: {percentile(waited, 0.5):.1f} s / "
            f"{percentile(waited, 0.99):.1f} s"
        )
    report_waves(parts)


def main(argv: list[str] | None = None) -> None:
    """Run the pool and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pool", default="sixty-six-2", help="pool id")
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--arrival", type=float, default=10.0, help="seconds")
    parser.add_argument("--wave", type=float, default=2.0, help="seconds between waves")
    parser.add_argument("--jitter", type=float, default=0.5, help="a wave's +- seconds")
    parser.add_argument("--limit", type=float, default=300.0, help="seconds at most")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(measure(args, Path(folder) / "talon.db"))


if __name__ == "__main__":
    main()
