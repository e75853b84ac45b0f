"""Perft for every preset: the number of distinct legal action sequences from a position.

Like perft in chess, fixed counts from fixed seeds catch any change in what is legal. Regenerate
``perft.json`` with ``python -m tests.engine.perft`` only when a rule change is intended.
"""

from __future__ import annotations

import json
from pathlib import Path

from app.engine import State, apply, legal_actions, new_deal, preset

FIXTURE = Path(__file__).with_name("perft.json")
CASES = [
    ("sixty-six", {}, "perft-1", 5),
    ("sixty-six", {}, "perft-2", 5),
    ("sixty-six", {"claim": "manual", "exchange_needs_trick": False}, "perft-3", 5),
    ("schnapsen", {}, "perft-1", 5),
    ("schnapsen", {"strict": "follow"}, "perft-2", 5),
    ("german-32", {}, "perft-1", 4),
    ("german-32", {"players": 3}, "perft-1", 4),
    ("three-hand", {}, "perft-1", 5),
    ("three-hand", {"played_out": "last_trick"}, "perft-2", 5),
    ("four-hand", {}, "perft-1", 7),
    ("four-hand", {"luna": "sixty_six"}, "perft-2", 7),
    ("german-48", {}, "perft-1", 4),
    ("german-48", {"partners": True}, "perft-2", 4),
]


def perft(state: State, depth: int) -> int:
    """Count the legal action sequences of length ``depth`` (a finished deal ends a sequence)."""
    if depth == 0 or state.deal_over:
        return 1
    return sum(perft(apply(state, action)[0], depth - 1) for action in legal_actions(state))


def counts() -> dict[str, list[int]]:
    """Perft at depths 1..N for every case."""
    out = {}
    for variant, options, seed, depth in CASES:
        state = new_deal(preset(variant, **options), seed=seed, dealer=0)
        key = f"{variant} {json.dumps(options, sort_keys=True)} {seed}"
        out[key] = [perft(state, d) for d in range(1, depth + 1)]
    return out


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(counts(), indent=2) + "\n")
    print(FIXTURE.read_text())
