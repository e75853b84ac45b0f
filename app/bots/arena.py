"""Arena: two bot levels play seeded deals, each once per rotation of the seats.

Run ``python -m app.bots.arena --a hard --b medium --variant schnapsen --deals 1000``. Bot A
takes one seat (or, with partners, one side) and bot B every other seat; each deal is played
with A in every seat (or side) in turn, so both meet the same cards. It prints A's deal win rate
with a 95% Wilson confidence interval (and, where deals can be void, the rate among the deals
somebody won), par for equal bots, the game points per deal of each bot's seats together, and
each bot's mean and p95 decision time (figures, not a test). ``--variant three-hand``,
``--variant four-hand``, ``--variant german-32 --players 3`` and ``--variant german-48
[--partners]`` play the tables of three and four.

``--a-from PATH`` (or ``--b-from PATH``) plays that side's level with the bots of another
checkout of this project at PATH, in a subprocess (:mod:`app.bots.pipe`) that gets each view as
a JSON line and answers the action: ``--a hard --b hard --b-from ../older`` measures the hard
bot against an older version of itself. The piped side's times include the pipe's round trip.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.engine import PRESETS, Rules, apply, new_deal, preset, view

from . import choose, pipe
from .choose import DEFAULT_BUDGET_S, LEVEL_BUDGETS_S, LEVELS, choose_action

Decide = Callable[[dict[str, Any], random.Random], dict[str, Any]]
"""A player of the arena: the action for a view, given a random generator."""


def in_process(level: str, budget_s: float) -> Decide:
    """The bot of ``level`` of this checkout (``choose_action``, with its fallback)."""

    def decide(seen: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return choose_action(seen, level, rng, budget_s)

    return decide


def level_budget(level: str, budget_s: float, expert_budget_s: float) -> float:
    """The thinking time per move of ``level``: the expert's own, or everybody else's."""
    return expert_budget_s if level == "expert" else budget_s


class PipedBot:
    """The bot of ``level`` of the checkout at ``root``, in a subprocess (:mod:`app.bots.pipe`)
    that answers each view with its action; its budget is fixed when it starts."""

    def __init__(self, root: str, level: str, budget_s: float, seed: int) -> None:
        if not (Path(root) / "app" / "bots" / "choose.py").is_file():
            raise ValueError(f"{root} holds no checkout of this project (no app/bots/choose.py)")
        command = [sys.executable, pipe.__file__, "--root", str(Path(root).resolve())]
        command += ["--level", level, "--budget", str(budget_s), "--seed", str(seed)]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=root
        )

    def __call__(self, seen: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(seen) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the piped bot ended without answering")
        action: dict[str, Any] = json.loads(line)
        return action

    def close(self) -> None:
        """End the subprocess (it stops when its input ends)."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=10)


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
    players: Sequence[Decide | str],
    tallies: Sequence[Tally],
    rng: random.Random,
    budget_s: float,
    options: dict[str, Any] | None = None,
) -> int | None:
    """Play one deal with ``players[s]`` (a player, or a level thinking ``budget_s``) in
    seat ``s``, timing each decision in ``tallies[s]``; return the winning side (None for a
    void deal or one everybody passed). Game points and deal wins are credited once per side,
    to the tally of the side's first seat."""
    state = new_deal(preset(variant, **(options or {})), seed=seed, dealer=dealer)
    deciders = [in_process(p, budget_s) if isinstance(p, str) else p for p in players]
    while not state.deal_over:
        seat = state.to_move
        assert seat is not None
        start = time.perf_counter()
        action = deciders[seat](dict(view(state, seat)), rng)
        tallies[seat].times.append(time.perf_counter() - start)
        state, _ = apply(state, action)
    result = state.deal_results[-1]
    for side, points in enumerate(result.game_points):
        tallies[state.members(side)[0]].game_points += points
    if result.winner is not None:
        tallies[state.members(result.winner)[0]].deals_won += 1
    return result.winner


def seeded_decisions(
    level: str, deals: int, label: str, seed: int = 0, variant: str = "schnapsen"
) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Every decision of ``deals`` seeded deals of ``level`` playing every seat (deal ``d``
    seeded ``f"{label}-{seed}-{d}"``, the dealer alternating), each as the mover's view and
    the action it took: the positions a benchmark studies."""
    rng = random.Random(seed)
    for d in range(deals):
        state = new_deal(preset(variant), seed=f"{label}-{seed}-{d}", dealer=d % 2)
        while not state.deal_over:
            seat = state.to_move
            assert seat is not None
            seen = dict(view(state, seat))
            action = choose_action(seen, level, rng, DEFAULT_BUDGET_S)
            yield seen, action
            state, _ = apply(state, action)


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
    a_from: str | None = None,
    b_from: str | None = None,
    expert_budget_s: float = LEVEL_BUDGETS_S["expert"],
    progress: int = 0,
) -> Figures:
    """Play ``deals`` seeded deals, each once per rotation of the seats (:func:`seatings`),
    with bot A in its seats and bot B in all the others (a side with ``a_from``/``b_from``
    plays with the bots of the checkout at that path, :class:`PipedBot`). The expert level
    thinks ``expert_budget_s`` per move, every other level ``budget_s``. With ``progress``, the
    figures so far are printed every that many seeded deals."""
    piped: dict[str, PipedBot] = {}
    try:
        for side, root, level in (("a", a_from, a), ("b", b_from, b)):
            if root:
                piped[side] = PipedBot(
                    root, level, level_budget(level, budget_s, expert_budget_s), seed
                )
        player_a = piped.get("a") or in_process(a, level_budget(a, budget_s, expert_budget_s))
        player_b = piped.get("b") or in_process(b, level_budget(b, budget_s, expert_budget_s))
        return _run(player_a, player_b, variant, deals, seed, options, progress)
    finally:
        for bot in piped.values():
            bot.close()


def _run(
    a: Decide,
    b: Decide,
    variant: str,
    deals: int,
    seed: int,
    options: dict[str, Any] | None,
    progress: int = 0,
) -> Figures:
    rules = preset(variant, **(options or {}))
    rng = random.Random(seed)
    ta, tb = Tally(), Tally()
    figures = Figures(ta, tb, 0, 0)
    for i in range(deals):
        deal_seed = f"arena-{seed}-{i}"
        for places in seatings(rules):
            seats = [ta if is_a else tb for is_a in places]
            players = [a if is_a else b for is_a in places]
            winner = play_deal(
                variant, deal_seed, i % rules.players, players, seats, rng, 0.0, options
            )
            figures.deals += 1
            figures.undecided += winner is None
        if progress and (i + 1) % progress == 0 and i + 1 < deals:
            low, high = wilson(ta.deals_won, figures.deals)
            print(
                f"  after {i + 1} seeded deals ({figures.deals} deals): A won "
                f"{ta.deals_won} ({ta.deals_won / figures.deals:.1%}, 95% CI {low:.1%} to "
                f"{high:.1%}); A mean {ta.mean_ms():.1f} ms p95 {ta.p95_ms():.1f} ms",
                flush=True,
            )
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
    parser.add_argument("--a-from", metavar="PATH", help="play A with the checkout at PATH")
    parser.add_argument("--b-from", metavar="PATH", help="play B with the checkout at PATH")
    parser.add_argument("--deals", type=int, default=1000, help="seeded deals (each rotated)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--progress", type=int, default=0, metavar="N", help="print the figures every N deals"
    )
    parser.add_argument(
        "--budget", type=float, default=DEFAULT_BUDGET_S, help="seconds per move (not expert)"
    )
    parser.add_argument(
        "--expert-budget",
        type=float,
        default=LEVEL_BUDGETS_S["expert"],
        help="the expert level's seconds per move",
    )
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
    f = run(
        args.a,
        args.b,
        args.variant,
        args.deals,
        args.seed,
        args.budget,
        options,
        args.a_from,
        args.b_from,
        args.expert_budget,
        args.progress,
    )
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
        name += " (piped)" if (args.a_from if name[0] == "A" else args.b_from) else ""
        print(
            f"{name:10s} game points/deal {tally.game_points / f.deals:5.2f}  decision mean "
            f"{tally.mean_ms():6.1f} ms  p95 {tally.p95_ms():6.1f} ms  ({len(tally.times)} moves)"
        )


if __name__ == "__main__":
    main()
