"""Arena: two bot levels play seeded deals, each once per rotation of the seats.

Run ``python -m app.bots.arena --a hard --b medium --variant schnapsen --deals 1000``. Bot A
takes one seat (or, with partners, one side) and bot B every other seat; each deal is played
with A in every seat (or side) in turn, so both meet the same cards. It prints A's deal win rate
with a 95% Wilson confidence interval (and, where deals can be void, the rate among the deals
somebody won), par for equal bots, the game points per deal of each bot's seats together, and
each bot's mean and p95 decision time (figures, not a test). ``--variant three-hand``,
``--variant four-hand``, ``--variant german-32 --players 3`` and ``--variant german-48
[--partners]`` play the tables of three and four.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.engine import PRESETS, Rules, apply, new_deal, preset, view

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
    levels: Sequence[str],
    tallies: Sequence[Tally],
    rng: random.Random,
    budget_s: float,
    options: dict[str, Any] | None = None,
) -> int | None:
    """Play one deal with ``levels[s]`` in seat ``s``, timing each decision in ``tallies[s]``;
    return the winning side (None for a void deal or one everybody passed). Game points and
    deal wins are credited once per side, to the tally of the side's first seat."""
    state = new_deal(preset(variant, **(options or {})), seed=seed, dealer=dealer)
    while not state.deal_over:
        seat = state.to_move
        assert seat is not None
        start = time.perf_counter()
        action = choose_action(dict(view(state, seat)), levels[seat], rng, budget_s)
        tallies[seat].times.append(time.perf_counter() - start)
        state, _ = apply(state, action)
    result = state.deal_results[-1]
    for side, points in enumerate(result.game_points):
        tallies[state.members(side)[0]].game_points += points
    if result.winner is not None:
        tallies[state.members(result.winner)[0]].deals_won += 1
    return result.winner


def seatings(rules: Rules) -> list[tuple[bool, ...]]:
    """Where bot A sits in each rotation: one seat (every seat in turn), or with partners one
    side (each side in turn); ``True`` marks A's seats."""
    n = rules.players
    if rules.partners:
        return [tuple(s % 2 == side for s in range(n)) for side in range(2)]
    return [tuple(s == a for s in range(n)) for a in range(n)]


@dataclass
class Figures:
    """What the arena measured: A's and B's tallies, the deals played and those nobody won."""

    a: Tally
    b: Tally
    deals: int
    undecided: int


def run(
    a: str,
    b: str,
    variant: str,
    deals: int,
    seed: int = 0,
    budget_s: float = DEFAULT_BUDGET_S,
    options: dict[str, Any] | None = None,
) -> Figures:
    """Play ``deals`` seeded deals, each once per rotation of the seats (:func:`seatings`),
    with bot A in its seats and bot B in all the others."""
    rules = preset(variant, **(options or {}))
    rng = random.Random(seed)
    ta, tb = Tally(), Tally()
    figures = Figures(ta, tb, 0, 0)
    for i in range(deals):
        deal_seed = f"arena-{seed}-{i}"
        for places in seatings(rules):
            seats = [ta if is_a else tb for is_a in places]
            levels = [a if is_a else b for is_a in places]
            winner = play_deal(
                variant, deal_seed, i % rules.players, levels, seats, rng, budget_s, options
            )
            figures.deals += 1
            figures.undecided += winner is None
    return figures


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
    parser.add_argument("--variant", choices=PRESETS, default="schnapsen")
    parser.add_argument("--players", type=int, help="seats, where the preset allows a choice")
    parser.add_argument("--partners", action="store_true", help="german-48 in partnerships")
    parser.add_argument("--deals", type=int, default=1000, help="seeded deals (each rotated)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET_S, help="seconds per move")
    parser.add_argument(
        "--failures",
        default="arena-failures.jsonl",
        help="file that keeps the view of every failed decision (one JSON line each)",
    )
    args = parser.parse_args(argv)
    options: dict[str, Any] = {}
    if args.players:
        options["players"] = args.players
    if args.partners:
        options["partners"] = True
    choose.on_failure = failure_recorder(args.failures)
    start = time.perf_counter()
    rules = preset(args.variant, **options)
    f = run(args.a, args.b, args.variant, args.deals, args.seed, args.budget, options)
    rotations = len(seatings(rules))
    decided = f.deals - f.undecided
    who = "one seat" if not rules.partners else "one side"
    print(
        f"{args.variant} {options or ''}: {args.a} (A, {who}) vs {args.b} (B, the others), "
        f"{args.deals} seeded deals x {rotations} seatings = {f.deals} deals "
        f"in {time.perf_counter() - start:.0f} s"
    )
    low, high = wilson(f.a.deals_won, f.deals)
    print(
        f"A deal win rate {f.a.deals_won / f.deals:.1%} (95% CI {low:.1%} to {high:.1%}), "
        f"{f.a.deals_won} of {f.deals} deals"
    )
    if f.undecided:
        low, high = wilson(f.a.deals_won, decided)
        print(
            f"  of the {decided} deals somebody won ({f.undecided} void or all passed): "
            f"{f.a.deals_won / max(decided, 1):.1%} (95% CI {low:.1%} to {high:.1%})"
        )
    par = 1 / rules.sides
    print(
        f"  par (equal strength): {par * decided / f.deals:.1%} of all deals, "
        f"{par:.1%} of the deals somebody won"
    )
    for name, tally in ((f"A {args.a}", f.a), (f"B {args.b}", f.b)):
        print(
            f"{name:10s} game points/deal {tally.game_points / f.deals:5.2f}  decision mean "
            f"{tally.mean_ms():6.1f} ms  p95 {tally.p95_ms():6.1f} ms  ({len(tally.times)} moves)"
        )


if __name__ == "__main__":
    main()
