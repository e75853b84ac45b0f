"""How much the hard bot's open-stock decisions gain from more worlds of its own search.

Run ``python benchmarks/playout_saturation.py --deals 40`` (figures only, no assertions).
Seeded Schnapsen deals are played by the hard bot against itself; at every decision with a
choice while the open stock holds more cards than hard solves exactly, each legal action is
valued by the hard bot's search (sampled worlds, one greedy playout per world and action,
:func:`app.bots.hard.action_values`) with ``--reference`` worlds, the reference, and again,
with other random numbers, with each number of worlds in ``--worlds``. For each number it
prints how often the action it rates best is the reference's best, and what its choice loses
by the reference's values (the mean over decisions, in game points plus twice a deal won, the
bot's own measure), per decision and per seat and deal. If a few hundred worlds already lose
next to nothing, more of the same search cannot make the bot much stronger, however fast it
runs. The reference is a sample too: a loss near zero says a number of worlds agrees with it
within the reference's own noise.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from app.bots import hard
from app.bots.arena import seeded_decisions
from app.bots.knowledge import Knowledge


def open_stock_choices(deals: int, seed: int) -> list[dict[str, Any]]:
    """The views of every open-stock decision with a choice in ``deals`` seeded deals of
    hard play, while the stock holds more cards than the hard bot solves exactly."""
    found = []
    for seen, _ in seeded_decisions("hard", deals, "saturation", seed):
        k = Knowledge.from_view(seen)
        playing_out = k.stock_open and k.stock > hard.HARD.solve_stock(k.table.deck)
        if playing_out and len(seen["legal"]) > 1:
            found.append(seen)
    return found


def values(seen: dict[str, Any], worlds: int, seed: int) -> list[float]:
    """Each legal action's value by the hard search with ``worlds`` worlds."""
    search = hard.Search(max_playout_rows=10**9, max_worlds=worlds)
    return hard.action_values(seen, random.Random(seed), worlds, search=search)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reference", type=int, default=16384)
    parser.add_argument("--worlds", default="32,128,512,2048")
    args = parser.parse_args()
    counts = [int(w) for w in args.worlds.split(",")]
    seen_all = open_stock_choices(args.deals, args.seed)
    per_seat_deal = len(seen_all) / (2 * args.deals)
    print(f"{len(seen_all)} open-stock decisions with a choice in {args.deals} deals")
    losses: dict[int, list[float]] = {w: [] for w in counts}
    agree = dict.fromkeys(counts, 0)
    start = time.perf_counter()
    for n, seen in enumerate(seen_all):
        reference = values(seen, args.reference, seed=n)
        best = max(reference)
        for w in counts:
            mine = values(seen, w, seed=10**6 + n)
            chosen = max(range(len(mine)), key=lambda i: (mine[i], -i))
            losses[w].append(best - reference[chosen])
            agree[w] += reference[chosen] == best
    print(f"reference: {args.reference} worlds, {time.perf_counter() - start:.0f} s in all")
    print("worlds | same best as the reference | loss per decision | per seat and deal")
    for w in counts:
        loss = statistics.fmean(losses[w])
        share = agree[w] / len(seen_all)
        print(f"{w:6d} | {share:6.1%} | {loss:.4f} | {loss * per_seat_deal:.3f}")


if __name__ == "__main__":
    main()
