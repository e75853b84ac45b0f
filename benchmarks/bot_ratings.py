"""The computer players' published ratings, measured by playing whole matches against each other.

Every pair of levels plays ``--matches`` seeded matches twice (seats swapped) with the engine
and the bots as the arena runs them; every match result is fed, in a seeded shuffled order, to
the same openskill model that rates players (``app.services.ratings``), starting everyone at
the model's start. The printed ratings are shifted so that medium sits at the players' start
(1500): only their differences are measured. Prints figures, asserts nothing.

    .venv/bin/python benchmarks/bot_ratings.py --variant sixty-six --matches 30
"""

from __future__ import annotations

import argparse
import itertools
import random
import time

from app.bots import LEVELS
from app.bots.choose import DEFAULT_BUDGET_S, choose_action
from app.engine import PRESETS, apply, new_match, preset, view
from app.services.ratings import MU, Skill, rate


def play_match(variant: str, seed: str, levels: tuple[str, str], rng: random.Random) -> int:
    """One whole match with ``levels[s]`` in seat ``s``; the winning seat."""
    state = new_match(preset(variant), seed, 0)
    while not state.match_over:
        seat = state.to_move
        assert seat is not None
        state, _ = apply(
            state, choose_action(view(state, seat), levels[seat], rng, DEFAULT_BUDGET_S)
        )
    assert state.match_winner is not None
    return state.match_winner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", choices=PRESETS, default="sixty-six")
    parser.add_argument("--matches", type=int, default=30, help="seeded matches per pair (x2)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    results: list[tuple[str, str]] = []  # (winner, loser)
    started = time.perf_counter()
    for a, b in itertools.combinations(LEVELS, 2):
        won = 0
        for i in range(args.matches):
            seed = f"ratings-{args.seed}-{i}"
            for levels in ((a, b), (b, a)):
                winner = levels[play_match(args.variant, seed, levels, rng)]
                loser = b if winner == a else a
                results.append((winner, loser))
                won += winner == a
        games = 2 * args.matches
        print(f"{a} vs {b}: {a} won {won} of {games} matches ({won / games:.0%})")
    random.Random(args.seed).shuffle(results)
    skills = {level: Skill() for level in LEVELS}
    for winner, loser in results:
        [[skills[winner]], [skills[loser]]] = rate([[skills[winner]], [skills[loser]]], [0, 1])
    shift = MU - skills["medium"].mu
    print(
        f"{args.variant}, {len(results)} matches in {time.perf_counter() - started:.0f} s; "
        "ratings (medium anchored at 1500):"
    )
    for level in LEVELS:
        skill = skills[level]
        print(f"  {level:6s} {skill.mu + shift:6.0f}  (deviation {skill.sigma:.0f})")


if __name__ == "__main__":
    main()
