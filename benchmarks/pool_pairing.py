"""Pool pairing waves: 1,000 entrants arriving over 10 s of simulated time into one pool.

Run ``python benchmarks/pool_pairing.py`` (one core; no assertions, figures only). Entrants
arrive at uniformly random simulated times with ratings drawn around the starting 1500 (a
share of them guests); a wave runs every ``--wave`` simulated seconds, give or take
``--jitter``, until nobody waits or ``--limit`` simulated seconds have passed. Printed: how
often each entrant was seated (each exactly once is the check), the compute time of a wave
(wall clock) and the simulated time from joining to a table, p50 and p99.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from app.pools import Entry, PairingSettings, pair_wave, pool_by_id


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> None:
    """Run the waves and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pool", default="sixty-six-2", help="pool id")
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--arrival", type=float, default=10.0, help="simulated seconds")
    parser.add_argument("--wave", type=float, default=2.0, help="simulated seconds between waves")
    parser.add_argument("--jitter", type=float, default=0.5, help="a wave's +- simulated seconds")
    parser.add_argument("--spread", type=float, default=350.0, help="rating deviation")
    parser.add_argument("--guests", type=float, default=0.2, help="share of guests")
    parser.add_argument("--limit", type=float, default=600.0, help="simulated seconds at most")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    pool = pool_by_id(args.pool)
    rules = PairingSettings()
    rng = random.Random(args.seed)
    arrivals = [
        Entry(
            player=f"p{i}",
            account=rng.random() >= args.guests,
            rating=round(min(3000.0, max(100.0, rng.gauss(1500.0, args.spread)))),
            family=pool.family,
            joined=rng.uniform(0.0, args.arrival),
        )
        for i in range(args.entrants)
    ]
    arrivals.sort(key=lambda entry: entry.joined)

    waiting: list[Entry] = []
    seated: Counter[str] = Counter()
    to_table: list[float] = []
    wave_seconds: list[float] = []
    sizes: list[int] = []
    tables = rated = 0
    now = 0.0
    next_arrival = 0
    while now <= args.limit:
        now += args.wave + rng.uniform(-args.jitter, args.jitter)
        while next_arrival < len(arrivals) and arrivals[next_arrival].joined <= now:
            waiting.append(arrivals[next_arrival])
            next_arrival += 1
        sizes.append(len(waiting))
        start = time.perf_counter()
        wave = pair_wave(pool, waiting, now, rules)
        wave_seconds.append(time.perf_counter() - start)
        joined = {entry.player: entry.joined for entry in waiting}
        for group in wave.groups:
            tables += 1
            rated += group.rated
            for player in group.players:
                seated[player] += 1
                to_table.append(now - joined[player])
        waiting = list(wave.waiting)
        if next_arrival == len(arrivals) and len(waiting) < pool.seats:
            break

    once = sum(1 for entry in arrivals if seated[entry.player] == 1)
    twice = sum(1 for count in seated.values() if count > 1)
    never = [entry.player for entry in arrivals if seated[entry.player] == 0]
    print(
        f"pool {pool.id}: {args.entrants} entrants over {args.arrival:g} s, "
        f"waves every {args.wave:g} +- {args.jitter:g} s (simulated), "
        f"range {rules.base_range:g} + {rules.growth_per_second:g}/s"
    )
    print(
        f"seated exactly once: {once} of {args.entrants}  more than once: {twice}  "
        f"still waiting: {len(never)} (a pool's last {pool.seats - 1} at most can stay)"
    )
    print(f"tables: {tables} ({rated} rated)  waves: {len(wave_seconds)}")
    print(
        f"wave compute: p50 {percentile(wave_seconds, 0.5) * 1000:.1f} ms  "
        f"p99 {percentile(wave_seconds, 0.99) * 1000:.1f} ms  "
        f"max {max(wave_seconds) * 1000:.1f} ms  "
        f"(largest wave {max(sizes)} waiting, mean {statistics.mean(sizes):.0f})"
    )
    if to_table:
        print(
            f"time to a table (simulated): p50 {percentile(to_table, 0.5):.1f} s  "
            f"p99 {percentile(to_table, 0.99):.1f} s  max {max(to_table):.1f} s"
        )


if __name__ == "__main__":
    main()
