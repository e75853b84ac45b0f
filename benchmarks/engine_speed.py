"""Random deals per second: the public engine surface and the bots' batched playout path.

Run ``python benchmarks/engine_speed.py`` (one core; no assertions, figures only). Both paths
play uniformly random legal actions; the playout path plays its deals in batches in lockstep.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from app.bots.playout import Batch, Table, play_out, random_decks
from app.engine import preset
from app.engine.bench import random_deals


def playout_deals(variant: str, deals: int, batch: int, seed: int = 0) -> float:
    """Seconds to play ``deals`` random deals through the fast path (dealing included)."""
    table = Table.from_rules(preset(variant))
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    done = 0
    while done < deals:
        size = min(batch, deals - done)
        decks = random_decks(table, size, rng)
        play_out(Batch.from_decks(table, decks, rng.integers(0, 2, size)), rng=rng)
        done += size
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    """Print deals/s of both paths for sixty-six and schnapsen."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=5000, help="deals through the engine")
    parser.add_argument("--playouts", type=int, default=100_000, help="deals through playouts")
    parser.add_argument("--batch", type=int, default=10_000, help="deals per playout batch")
    args = parser.parse_args(argv)
    for variant in ("sixty-six", "schnapsen"):
        _, seconds = random_deals(variant, args.deals)
        print(f"{variant:10s} public surface: {args.deals / seconds:9.0f} deals/s")
        seconds = playout_deals(variant, args.playouts, args.batch)
        print(
            f"{variant:10s} fast playouts:  {args.playouts / seconds:9.0f} deals/s "
            f"(batches of {args.batch})"
        )


if __name__ == "__main__":
    main()
