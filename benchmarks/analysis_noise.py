"""How far the analysis's verdicts on a move depend on its random worlds, by the search used.

Run ``python benchmarks/analysis_noise.py --deals 20`` (figures only, no assertions). Seeded
Schnapsen deals are played by the medium bot against itself (a player who makes mistakes the
analysis should find); at every real choice (more than one legal action) the advice on the move
played (:func:`app.bots.analysis.judge`) is computed ``--repeats`` times, each time with the
search's random generator seeded differently, by each search named in ``--searches``: ``hard``
(the hard bot's caps, ``--worlds`` solved worlds) and ``expert`` (the expert's caps: more worlds
and playouts, exact search from four stock cards on, ``--expert-worlds`` solved worlds: the
analysis's own search with its default worlds unless told otherwise). For
each search it prints the decisions analysed, the time per decision (mean and p95, one
core), how often every repeat names the same best action and gives the move the same mark, and
the mean spread (largest minus smallest) of what the move played lost, in game points. A
search whose repeats disagree marks moves by the luck of its worlds; the marks'
thresholds (:data:`app.bots.analysis.MARKS`) are worth only as much as that spread allows.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from app.bots import expert, hard
from app.bots.analysis import WORLDS, is_choice, judge
from app.bots.arena import Tally, seeded_decisions

SEARCHES = {"hard": hard.HARD, "expert": expert.EXPERT}


def choices(deals: int, seed: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """``(view, played)`` of every real choice in ``deals`` seeded deals of medium play."""
    decisions = seeded_decisions("medium", deals, "analysis", seed)
    return [(seen, action) for seen, action in decisions if is_choice(seen)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--searches", default="hard,expert")
    parser.add_argument(
        "--worlds", type=int, default=24, help="solved worlds of hard's search (the old analysis)"
    )
    parser.add_argument("--expert-worlds", type=int, default=WORLDS)
    args = parser.parse_args()
    found = choices(args.deals, args.seed)
    print(f"{len(found)} choices in {args.deals} Schnapsen deals of medium play (seed {args.seed})")
    header = f"{'search':8} {'mean ms':>8} {'p95 ms':>7} {'same best':>9} {'same mark':>9}"
    print(header + f" {'lost spread':>11} {'marked':>7}")
    for name in args.searches.split(","):
        search = SEARCHES[name]
        worlds = args.expert_worlds if name == "expert" else args.worlds
        tally, same_best, same_mark, spreads, marked = Tally(), 0, 0, [], 0
        for n, (seen, played) in enumerate(found):
            verdicts = []
            for r in range(args.repeats):
                rng = random.Random(f"{args.seed}-{n}-{r}")
                start = time.perf_counter()
                values = hard.action_values(seen, rng, worlds, 0.0, search)
                tally.times.append(time.perf_counter() - start)
                verdicts.append(judge(seen["legal"], values, played))
            same_best += len({str(v["best"]) for v in verdicts}) == 1
            same_mark += len({v["mark"] for v in verdicts}) == 1
            marked += verdicts[0]["mark"] is not None
            lost = [v["lost"] for v in verdicts]
            spreads.append(max(lost) - min(lost))
        count = len(found)
        print(
            f"{name:8} {tally.mean_ms():8.0f} {tally.p95_ms():7.0f} {same_best / count:9.1%}"
            f" {same_mark / count:9.1%} {statistics.fmean(spreads):11.3f} {marked / count:7.1%}"
        )


if __name__ == "__main__":
    main()
