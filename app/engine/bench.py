"""Engine speed: random legal deals per second through the public surface.

Run ``python -m app.engine.bench``. It plays seeded deals with uniformly random legal actions
through ``legal_actions``/``apply`` on one core and prints deals per second for every preset and
seat count, in this process's CPU time (the same as wall time on an idle machine, and steadier
than it on a busy one). Beside the two-player figures it prints a bare pure-Python playout loop
(plain integers and lists, no checks, no immutable states, no events: the limit a pure engine
can approach) and the engine's share of it. The bots' batched playout path has its own figures in
``benchmarks/engine_speed.py``.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from .dealing import new_deal
from .play import apply, legal_actions
from .rules import PRESETS, preset

TABLES: tuple[tuple[str, dict[str, Any]], ...] = (
    *((name, {}) for name in PRESETS),
    ("german-32", {"players": 3}),
    ("german-48", {"partners": True}),
)
"""Every preset, and the seat counts and pairings a preset offers beyond its default."""


def random_deals(variant: str, deals: int, seed: int = 0, **options: Any) -> tuple[int, float]:
    """Play ``deals`` random deals; return (actions applied, seconds)."""
    rules = preset(variant, **options)
    rng = random.Random(seed)
    actions = 0
    start = time.process_time()
    for i in range(deals):
        state = new_deal(rules, seed=f"bench-{seed}-{i}", dealer=i % rules.players)
        while not state.deal_over:
            state, _ = apply(state, rng.choice(legal_actions(state)))
            actions += 1
    return actions, time.process_time() - start


_POINTS = (0, 2, 3, 4, 10, 11)  # 9 J Q K T A, card = suit * 6 + rank


def bare_deals(deals: int, seed: int = 0) -> tuple[int, float]:
    """The bare loop: ``deals`` random two-player deals of the 24-card game with plain lists.

    Per action it does what a playout needs: pick a random card the follow rules allow, find the
    trick's winner, count its points, draw from the stock, stop at 66 or when the cards run out.
    No marriages, exchange or closing, no validation, no copies. Returns (cards played, seconds).
    """
    rng = random.Random(seed)
    played = 0
    start = time.process_time()
    for _ in range(deals):
        deck = list(range(24))
        rng.shuffle(deck)
        hands = [deck[0:6], deck[6:12]]
        stock = deck[12:]
        trump = stock[-1] // 6
        points = [0, 0]
        leader = 1
        while hands[leader]:
            lead = hands[leader].pop(rng.randrange(len(hands[leader])))
            follower = 1 - leader
            hand = hands[follower]
            if stock:
                allowed = hand
            else:
                same = [c for c in hand if c // 6 == lead // 6]
                higher = [c for c in same if c > lead]
                trumps = [c for c in hand if c // 6 == trump]
                allowed = higher or same or trumps or hand
            reply = allowed[rng.randrange(len(allowed))]
            hand.remove(reply)
            played += 2
            wins = reply > lead if reply // 6 == lead // 6 else reply // 6 == trump
            winner = follower if wins else leader
            points[winner] += _POINTS[lead % 6] + _POINTS[reply % 6]
            if stock:
                hands[winner].append(stock.pop(0))
                hands[1 - winner].append(stock.pop(0))
            if points[winner] >= 66:
                break
            leader = winner
    return played, time.process_time() - start


def main(argv: list[str] | None = None) -> None:
    """Print deals/s and actions/s for each preset, and the two-player share of the bare loop."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--variant", choices=PRESETS, action="append")
    args = parser.parse_args(argv)
    chosen = [t for t in TABLES if args.variant is None or t[0] in args.variant]
    _, bare_seconds = bare_deals(args.deals)
    bare = args.deals / bare_seconds
    print(f"{'bare loop (24 cards, 2 players)':34s} {bare:9.0f} deals/s")
    for variant, options in chosen:
        actions, seconds = random_deals(variant, args.deals, **options)
        label = variant + "".join(f" {key}={value}" for key, value in options.items())
        rate = args.deals / seconds
        share = (
            f"  {100 * rate / bare:5.1f}% of the bare loop"
            if preset(variant).players == 2 and not options
            else ""
        )
        print(
            f"{label:34s} {rate:9.0f} deals/s ({actions / seconds:9.0f} actions/s, "
            f"{args.deals} deals in {seconds:.2f} s){share}"
        )


if __name__ == "__main__":
    main()
