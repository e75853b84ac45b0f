"""How long the exact solver takes on one sampled world, by the cards left in the open stock.

Run ``python benchmarks/solver_speed.py`` (one core; no assertions, figures only). Seeded
Schnapsen deals are played by the medium bot; the first time a deal reaches a decision of more
than one option with each chosen stock size, the mover's view gives ``--worlds`` sampled worlds
(as the hard bot samples them), and each is solved for every legal option (as
``app.bots.hard`` does). It prints the mean, median and p90 time per world, the mean count of
positions searched, and a digest of every value found, so two checkouts can be compared side by
side: the same digest means the same answers (``--root DIR`` runs the solver of another
checkout in a subprocess).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

from app.bots.choose import choose_action
from app.bots.knowledge import Knowledge, sample_positions
from app.bots.playout import option_column
from app.bots.solver import Solver
from app.engine import apply, new_deal, preset, view


class Figures(NamedTuple):
    """One checkout's measurements."""

    times: dict[int, list[float]]
    """Per stock size, the seconds each world took."""
    nodes: dict[int, list[int]]
    """Per stock size, the positions each world's search visited."""
    digest: str
    """A digest of every value found, equal for checkouts that answer alike."""


def measure(stocks: list[int], deals: int, worlds: int, variant: str) -> Figures:
    """Solve sampled worlds of seeded deals at each stock size (see the module's text)."""
    times: dict[int, list[float]] = {s: [] for s in stocks}
    nodes: dict[int, list[int]] = {s: [] for s in stocks}
    values: list[list[int]] = []
    for d in range(deals):
        state = new_deal(preset(variant), seed=f"solver-{d}", dealer=d % 2)
        seen: set[int] = set()
        while not state.deal_over:
            seat_view = dict(view(state, state.to_move))
            k = Knowledge.from_view(seat_view)
            left = k.stock if k.stock_open else 0
            if left in times and left not in seen and len(seat_view["legal"]) > 1:
                seen.add(left)
                columns = [option_column(a) for a in seat_view["legal"]]
                for world in sample_positions(k, worlds, random.Random(d)):
                    start = time.perf_counter()
                    solver = Solver(k.table, world, k.seat)
                    values.append([solver.value_after(c) for c in columns])
                    times[left].append(time.perf_counter() - start)
                    nodes[left].append(solver.nodes)
            action = choose_action(seat_view, "medium", random.Random(d), 0.15)
            state, _ = apply(state, action)
    digest = hashlib.sha256(repr(values).encode()).hexdigest()[:12]
    return Figures(times, nodes, digest)


def report(label: str, figures: Figures) -> None:
    """Print one checkout's figures."""
    print(f"{label}: values digest {figures.digest}")
    for left, seconds in figures.times.items():
        if not seconds:
            print(f"  stock {left}: no position reached")
            continue
        ordered = sorted(seconds)
        print(
            f"  stock {left}: {len(ordered)} worlds, mean {statistics.mean(ordered) * 1e3:.1f} ms,"
            f" median {ordered[len(ordered) // 2] * 1e3:.1f} ms,"
            f" p90 {ordered[int(len(ordered) * 0.9)] * 1e3:.1f} ms,"
            f" {statistics.mean(figures.nodes[left]):.0f} positions searched"
        )


def main(argv: list[str] | None = None) -> None:
    """Measure this checkout's solver (and another's, with ``--root``)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--stocks", default="0,4,6", help="open stock sizes (0: closed or exhausted)"
    )
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--worlds", type=int, default=3, help="sampled worlds per decision")
    parser.add_argument("--variant", default="schnapsen")
    parser.add_argument("--root", help="another checkout, measured after this one")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    stocks = [int(s) for s in args.stocks.split(",")]
    figures = measure(stocks, args.deals, args.worlds, args.variant)
    if args.json:
        print(json.dumps(figures._asdict()))
        return
    report("this checkout", figures)
    if args.root:
        command = [sys.executable, str(Path(__file__).resolve()), "--json"]
        command += ["--stocks", args.stocks, "--deals", str(args.deals)]
        command += ["--worlds", str(args.worlds), "--variant", args.variant]
        env = {**os.environ, "PYTHONPATH": str(Path(args.root).resolve())}
        out = subprocess.run(
            command, cwd=args.root, env=env, capture_output=True, text=True, check=True
        )
        other = json.loads(out.stdout)
        report(
            args.root,
            Figures(
                times={int(s): v for s, v in other["times"].items()},
                nodes={int(s): v for s, v in other["nodes"].items()},
                digest=other["digest"],
            ),
        )


if __name__ == "__main__":
    main()
