"""The computer players' published ratings, measured by playing whole matches against each other.

Each pair of levels plays ``--matches`` seeded matches twice (seats swapped) with the engine and
the bots as the arena runs them (``--pairs`` picks the pairs, e.g. ``easy:medium``). For each
pair it prints the match win rate with its 95% Wilson interval and the rating gap that rate
means under the model that rates players (``app.players.ratings``): the gap at which
openskill's own ``predict_win`` gives that rate, for two settled ratings. Medium is anchored at
the players' start (1500): easy is 1500 minus the medium-easy gap, hard 1500 plus the
hard-medium gap; the easy-hard pair checks that the gaps add up. A pair one side never lost
only bounds its gap. Each pair's figures are also appended as one JSON line to ``--record``,
and ``--from FILE`` prints the ratings of recorded pairs without playing. Asserts nothing.

    nice .venv/bin/python benchmarks/bot_ratings.py --variant sixty-six --pairs easy:medium \\
        --matches 2000 --record ratings.jsonl
    .venv/bin/python benchmarks/bot_ratings.py --from ratings.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from app.bots import LEVELS, choose
from app.bots.arena import wilson
from app.bots.choose import choose_action, default_budget
from app.engine import PRESETS, apply, new_match, preset, view
from app.players.ratings import MODEL, MU

SETTLED = 1e-6
"""The deviation of the two ratings whose gap a win rate is turned into."""


def play_match(variant: str, seed: str, levels: tuple[str, str], rng: random.Random) -> int:
    """One whole match with ``levels[s]`` in seat ``s``; the winning seat."""
    state = new_match(preset(variant), seed, 0)
    while not state.match_over:
        seat = state.to_move
        assert seat is not None
        state, _ = apply(
            state,
            choose_action(view(state, seat), levels[seat], rng, default_budget(levels[seat])),
        )
    assert state.match_winner is not None
    return state.match_winner


def play_pair(variant: str, a: str, b: str, matches: int, seed: int) -> dict[str, Any]:
    """``matches`` seeded matches of ``a`` against ``b``, each twice with the seats swapped;
    the figures of the pair (wins, time, fallback moves)."""
    rng = random.Random(f"{seed}-{a}-{b}")
    fallbacks: list[str] = []
    choose.on_failure = lambda level, _view, _exc: fallbacks.append(level)
    started, cpu = time.perf_counter(), time.process_time()
    won = 0
    for i in range(matches):
        match_seed = f"ratings-{seed}-{i}"
        for levels in ((a, b), (b, a)):
            won += levels[play_match(variant, match_seed, levels, rng)] == a
    choose.on_failure = None
    return {
        "variant": variant,
        "a": a,
        "b": b,
        "matches": 2 * matches,
        "a_won": won,
        "seed": seed,
        "seconds": round(time.perf_counter() - started),
        "cpu_seconds": round(time.process_time() - cpu),
        "fallbacks": len(fallbacks),
    }


def gap(rate: float) -> float:
    """The rating gap at which openskill's ``predict_win`` gives the stronger side ``rate``
    (0.5 to 1), found by bisection on the library's own prediction."""
    low, high = 0.0, 5000.0
    for _ in range(60):
        middle = (low + high) / 2
        ahead, behind = MODEL.rating(mu=middle, sigma=SETTLED), MODEL.rating(mu=0, sigma=SETTLED)
        if MODEL.predict_win([[ahead], [behind]])[0] < rate:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def signed_gap(rate: float) -> float:
    """The gap of ``a`` over ``b`` for ``a``'s win rate ``rate`` (negative when ``a`` is the
    weaker); infinite for 0 and 1."""
    if rate in (0.0, 1.0):
        return float("inf") if rate else float("-inf")
    return gap(rate) if rate >= 0.5 else -gap(1 - rate)


def pair_gap(record: dict[str, Any]) -> tuple[float, float, float]:
    """``a``'s rating gap over ``b``, and its 95% interval (from the Wilson interval)."""
    n, won = record["matches"], record["a_won"]
    low, high = wilson(won, n)
    return signed_gap(won / n), signed_gap(low), signed_gap(high)


def report(records: list[dict[str, Any]]) -> None:
    """Print each pair's figures, then the ratings with medium at 1500."""
    gaps: dict[tuple[str, str], tuple[float, float, float]] = {}
    for r in records:
        low, high = wilson(r["a_won"], r["matches"])
        best, g_low, g_high = pair_gap(r)
        gaps[(r["a"], r["b"])] = (best, g_low, g_high)
        print(
            f"{r['variant']} {r['a']} vs {r['b']}: {r['a']} won {r['a_won']} of {r['matches']} "
            f"matches, {r['a_won'] / r['matches']:.1%} (95% CI {low:.1%} to {high:.1%}); gap "
            f"{best:+.0f} ({g_low:+.0f} to {g_high:+.0f}); {r['seconds']} s, "
            f"{r['cpu_seconds']} s CPU, {r['fallbacks']} fallback moves"
        )
    for name, key, sign in (("easy", ("medium", "easy"), -1), ("hard", ("hard", "medium"), 1)):
        if key in gaps:
            best, low, high = gaps[key]
            ends = sorted((MU + sign * low, MU + sign * high))
            print(f"  {name:6s} {MU + sign * best:6.0f}  (95% CI {ends[0]:.0f} to {ends[1]:.0f})")
        if name == "easy":
            print(f"  medium {MU:6.0f}  (anchored)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", choices=PRESETS, default="sixty-six")
    parser.add_argument(
        "--pairs",
        default="medium:easy,hard:easy,hard:medium",
        help="comma-separated A:B pairs of levels (" + ", ".join(LEVELS) + ")",
    )
    parser.add_argument("--matches", type=int, default=30, help="seeded matches per pair (x2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--record", help="append each pair's figures to this JSON-lines file")
    parser.add_argument("--from", dest="recorded", nargs="*", help="report recorded pairs only")
    args = parser.parse_args()
    if args.recorded:
        records = []
        for path in args.recorded:
            with open(path, encoding="utf-8") as lines:
                records += [json.loads(line) for line in lines]
        report(records)
        return
    records = []
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        record = play_pair(args.variant, a, b, args.matches, args.seed)
        records.append(record)
        if args.record:
            with open(args.record, "a", encoding="utf-8") as out:
                out.write(json.dumps(record) + "\n")
    report(records)


if __name__ == "__main__":
    main()
