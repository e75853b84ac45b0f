"""Arena pairing under load: 500 entrants, waves of pairing as games end.

Run ``python benchmarks/arena_pairing.py`` (figures printed, nothing asserted). Simulated time
advances a second at a time; every game lasts a random 10 to 40 simulated seconds and the
higher rated player wins with the Elo probability. Each second, the players whose games ended
(and, at the start, everyone) are paired in one wave by ``pair_arena``; the wall time of each
call is measured. Scores follow ``record_arena_result`` (streak rule on).
"""

from __future__ import annotations

import argparse
import heapq
import random
import statistics
import time

from app.tournaments.arena import (
    ArenaOutcome,
    ArenaPlayer,
    ArenaRecord,
    pair_arena,
    record_arena_result,
)


def run(entrants: int, seconds: int, seed: int) -> None:
    rng = random.Random(seed)
    ratings = {f"p{i}": rng.gauss(1500, 250) for i in range(entrants)}
    records = {p: ArenaRecord() for p in ratings}
    last: dict[str, str] = {}
    free = set(ratings)
    ending: list[tuple[int, str, str]] = []  # (second it ends, a, b)
    wave_times: list[float] = []
    wave_sizes: list[int] = []
    games = 0
    cpu = time.process_time()
    for now in range(seconds):
        while ending and ending[0][0] <= now:
            _, a, b = heapq.heappop(ending)
            expected = 1 / (1 + 10 ** ((ratings[b] - ratings[a]) / 400))
            winner, loser = (a, b) if rng.random() < expected else (b, a)
            records[winner], _ = record_arena_result(records[winner], ArenaOutcome.WIN)
            records[loser], _ = record_arena_result(records[loser], ArenaOutcome.LOSS)
            last[a], last[b] = b, a
            free |= {a, b}
        if len(free) < 2:
            continue
        players = [ArenaPlayer(p, records[p].score, ratings[p], last.get(p)) for p in sorted(free)]
        start = time.perf_counter()
        pairs = pair_arena(players)
        wave_times.append(time.perf_counter() - start)
        wave_sizes.append(len(players))
        for a, b in pairs:
            heapq.heappush(ending, (now + rng.randint(10, 40), a, b))
            free -= {a, b}
        games += len(pairs)
    cpu = time.process_time() - cpu
    ms = sorted(t * 1000 for t in wave_times)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    print(f"entrants {entrants}, simulated {seconds} s, waves {len(ms)}")
    print(f"players per wave: median {statistics.median(wave_sizes):.0f}, max {max(wave_sizes)}")
    print(
        f"pairing time per wave: p50 {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, "
        f"max {ms[-1]:.1f} ms"
    )
    print(f"games started per simulated minute: {games / (seconds / 60):.0f}")
    print(f"CPU for the whole run (pairing and scoring): {cpu:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=500)
    parser.add_argument("--seconds", type=int, default=120)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    run(args.entrants, args.seconds, args.seed)


if __name__ == "__main__":
    main()
