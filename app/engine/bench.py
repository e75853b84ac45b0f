"""Engine speed: random legal deals per second through the public surface.

Run ``python -m app.engine.bench``. It plays seeded deals with uniformly random legal actions
through ``legal_actions``/``apply`` on one core and prints deals per second for each preset. The
bots' batched playout path has its own figures in ``benchmarks/engine_speed.py``.
"""

from __future__ import annotations

import argparse
import random
import time

from .dealing import new_deal
from .play import apply, legal_actions
from .rules import PRESETS, preset


def random_deals(variant: str, deals: int, seed: int = 0) -> tuple[int, float]:
    """Play ``deals`` random deals; return (actions applied, seconds)."""
    rules = preset(variant)
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for i in range(deals):
        state = new_deal(rules, seed=f"bench-{seed}-{i}", dealer=i % 2)
        while not state.deal_over:
            state, _ = apply(state, rng.choice(legal_actions(state)))
            actions += 1
    return actions, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    """Print deals/s and actions/s for each preset."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--variant", choices=PRESETS, action="append")
    args = parser.parse_args(argv)
    for variant in args.variant or ["sixty-six", "schnapsen"]:
        actions, seconds = random_deals(variant, args.deals)
        print(
            f"{variant:10s} public surface: {args.deals / seconds:9.0f} deals/s "
            f"({actions / seconds:9.0f} actions/s, {args.deals} deals in {seconds:.2f} s)"
        )


if __name__ == "__main__":
    main()
