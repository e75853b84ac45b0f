"""Arena: two bot levels play seeded deals, each twice with the seats swapped.

Run ``python -m app.bots.arena --a hard --b medium --variant schnapsen --deals 1000``. It prints
bot A's deal win rate with a 95% Wilson confidence interval, the game points per deal of each
bot, and each bot's mean and p95 decision time (figures, not a test).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from app.engine import PRESETS, apply, new_deal, preset, view

from . import choose
from .choose import DEFAULT_BUDGET_S, LEVELS, choose_action


@dataclass
class Tally:
    """Running figures of one bot over the arena."""

    deals_won: int = 0
    game_points: int = 0
    times: list[float] = field(default_factory=list)

    def p95_ms(self) -> float:
        """The 95th percentile decision time in milliseconds."""
        ordered = sorted(self.times)
        return 1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0

    def mean_ms(self) -> float:
        """The mean decision time in milliseconds."""
        return 1000 * sum(self.times) / len(self.times) if self.times else 0.0


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return centre - half, centre + half


def play_deal(
    variant: str,
    seed: str,
    dealer: int,
    levels: tuple[str, str],
    tallies: tuple[Tally, Tally],
    rng: random.Random,
    budget_s: float,
    options: dict[str, Any] | None = None,
) -> int:
    """Play one deal with ``levels[s]`` in seat ``s``; return the winning seat."""
    state = new_deal(preset(variant, **(options or {})), seed=seed, dealer=dealer)
    while not state.deal_over:
        seat = state.to_move
        start = time.perf_counter()
        action = choose_action(dict(view(state, seat)), levels[seat], rng, budget_s)
        tallies[seat].times.append(time.perf_counter() - start)
        state, _ = apply(state, action)
    result = state.deal_results[-1]
    for seat in (0, 1):
        tallies[seat].game_points += result.game_points[seat]
    assert result.winner is not None, "a two-player deal always has a winner"
    tallies[result.winner].deals_won += 1
    return result.winner


def run(
    a: str, b: str, variant: str, deals: int, seed: int = 0, budget_s: float = DEFAULT_BUDGET_S
) -> tuple[Tally, Tally]:
    """Play ``deals`` seeded deals twice (seats swapped); return the tallies of A and B."""
    rng = random.Random(seed)
    ta, tb = Tally(), Tally()
    for i in range(deals):
        deal_seed = f"arena-{seed}-{i}"
        play_deal(variant, deal_seed, i % 2, (a, b), (ta, tb), rng, budget_s)
        play_deal(variant, deal_seed, i % 2, (b, a), (tb, ta), rng, budget_s)
    return ta, tb


def failure_recorder(path: str) -> choose.FailureHook:
    """A hook that appends each failing level, its view and the error to ``path``, so the
    position can be replayed (``hard.choose(view, ...)``) and fixed."""

    def record(level: str, seen: dict[str, Any], exc: Exception) -> None:
        failure = {"level": level, "error": type(exc).__name__, "text": str(exc), "view": seen}
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(failure) + "\n")

    return record


def main(argv: list[str] | None = None) -> None:
    """Run the arena and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--a", choices=LEVELS, default="hard")
    parser.add_argument("--b", choices=LEVELS, default="medium")
    two_player = [name for name in PRESETS if preset(name).players == 2]
    parser.add_argument("--variant", choices=two_player, default="schnapsen")
    parser.add_argument("--deals", type=int, default=1000, help="seeded deals (each played twice)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET_S, help="seconds per move")
    parser.add_argument(
        "--failures",
        default="arena-failures.jsonl",
        help="file that keeps the view of every failed decision (one JSON line each)",
    )
    args = parser.parse_args(argv)
    choose.on_failure = failure_recorder(args.failures)
    start = time.perf_counter()
    ta, tb = run(args.a, args.b, args.variant, args.deals, args.seed, args.budget)
    games = 2 * args.deals
    low, high = wilson(ta.deals_won, games)
    print(
        f"{args.variant}: {args.a} (A) vs {args.b} (B), {args.deals} seeded deals x 2 seatings "
        f"= {games} deals in {time.perf_counter() - start:.0f} s"
    )
    print(
        f"A deal win rate {ta.deals_won / games:.1%} (95% CI {low:.1%} to {high:.1%}), "
        f"{ta.deals_won} of {games}"
    )
    for name, tally in ((f"A {args.a}", ta), (f"B {args.b}", tb)):
        print(
            f"{name:10s} game points/deal {tally.game_points / games:5.2f}  decision mean "
            f"{tally.mean_ms():6.1f} ms  p95 {tally.p95_ms():6.1f} ms  ({len(tally.times)} moves)"
        )


if __name__ == "__main__":
    main()
