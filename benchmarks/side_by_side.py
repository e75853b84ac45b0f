"""Two checkouts measured in turns, each in a process of its own: this tree and ``--against``
(for example ``git archive`` of the commit before a change, unpacked).

The trees take turns at going first (old, new, new, old, old, new, ...): on a shared machine
the first run of a round tends to measure differently. Used by ``group_commit.py`` and
``command_path.py``; ``relay_floor.py`` alternates the same way around its relay.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--rounds``, ``--against`` and the hidden ``--one TREE`` (a single measurement, the
    process ``measure_in`` starts)."""
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another checkout, measured in turns")
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)


def measure_in(tree: Path, script: str, arguments: list[str]) -> float:
    """Run ``script`` with ``--one TREE`` and ``arguments`` in ``tree`` (whose ``app`` it
    imports) and return the last number it prints; its own error if it fails."""
    done = subprocess.run(
        [sys.executable, script, "--one", str(tree), *arguments],
        capture_output=True,
        text=True,
        check=False,
        cwd=tree,
    )
    if done.returncode != 0:  # the measuring process's own error, not only its exit code
        raise SystemExit(f"measuring {tree} failed:\n{done.stderr[-3000:]}")
    return float(done.stdout.split()[-1])


def in_turns(
    script: str, arguments: list[str], rounds: int, against: Path | None, unit: str
) -> None:
    """Measure this tree (and ``against``) ``rounds`` times in turns; print each figure, in
    ``unit``, then the medians."""
    ours: list[float] = []
    theirs: list[float] = []
    for number in range(1, rounds + 1):
        trees = [("this tree", ROOT, ours)]
        if against is not None:
            trees.insert(0, (str(against), against, theirs))
        for name, tree, figures in trees if number % 2 else trees[::-1]:
            figures.append(measure_in(tree, script, arguments))
            print(f"round {number}: {name}: {figures[-1]:.1f} {unit}", flush=True)
    print(f"this tree: median {statistics.median(ours):.1f} {unit}")
    if theirs:
        print(f"{against}: median {statistics.median(theirs):.1f} {unit}")
