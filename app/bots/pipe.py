"""One bot level served over standard input and output, one JSON line per decision.

The arena uses it to play one side with the bots of another checkout of this project (an
older version, to measure a change against): it runs this file as a script with ``--root``
naming that checkout, so ``app`` is imported from there, and writes each view the seat would
get as one JSON line; the script answers each line with the chosen action as one JSON line::

    python app/bots/pipe.py --root ../older --level hard --budget 0.15 --seed 0

The script needs nothing from the checkout but ``app.bots.choose.choose_action``, which every
version has, and imports nothing of this project before ``--root`` is put first on the path.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import IO


def serve(level: str, budget_s: float, seed: int, lines: IO[str], out: IO[str]) -> None:
    """Answer each view read from ``lines`` with ``choose_action``'s action, one line each."""
    from app.bots.choose import choose_action

    rng = random.Random(seed)
    for line in lines:
        if not line.strip():
            continue
        action = choose_action(json.loads(line), level, rng, budget_s)
        out.write(json.dumps(action) + "\n")
        out.flush()


def main(argv: list[str] | None = None) -> None:
    """Serve the level named on the command line until standard input ends."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", help="the checkout whose ``app`` package plays")
    parser.add_argument("--level", required=True)
    parser.add_argument("--budget", type=float, default=0.15, help="seconds per move")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    serve(args.level, args.budget, args.seed, sys.stdin, sys.stdout)


if __name__ == "__main__":
    # Run as a file, the first path entry is this file's folder, which is no package root.
    if __spec__ is None:
        del sys.path[0]
    # Put the checkout to play first, so that ``import app`` finds its package.
    if "--root" in sys.argv[:-1]:
        sys.path.insert(0, sys.argv[sys.argv.index("--root") + 1])
    main()
